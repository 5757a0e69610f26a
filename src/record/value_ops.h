// SQL semantics of values: numeric conversion, text rendering, comparison and
// the operators, exactly as SQLite 3.40 defines them (datatype3, lang_expr).
// All functions accept any storage class; NULL handling is stated per function.
#pragma once

#include <cstdint>
#include <string>

#include "record/collation.h"
#include "record/value.h"

namespace basalt {

// ---- Conversions -----------------------------------------------------------

// sqlite3_value_int64 semantics: NULL → 0; REAL truncated toward zero,
// saturating at the int64 limits (NaN → 0); TEXT/BLOB: the longest prefix
// that is an integer or real literal, converted the same way (so '12abc' →
// 12, '1e3' → 1000, 'x' → 0).
int64_t ValueToInt64(const Value& v);

// sqlite3_value_double semantics: NULL → 0.0; TEXT/BLOB: longest numeric
// prefix (as with ValueToInt64), 0.0 if none.
double ValueToDouble(const Value& v);

// The numeric value used by arithmetic operators: INTEGER and REAL as they
// are; NULL stays NULL; TEXT/BLOB converted with the prefix rule to INTEGER
// when the prefix is an integer literal that fits int64, otherwise REAL
// (so '12abc' → 12, '1.5x' → 1.5, '9223372036854775808' → 9.2233720368547758e18).
void ToNumericForArith(const Value& in, Value* out);

// Truthiness for WHERE/AND/OR/NOT/CASE WHEN: NULL → -1 (unknown), else
// 0/1 from the numeric value (text via prefix rule; 0.0 is false; '0.5' true).
int ValueTruth(const Value& v);

// Text rendering of a REAL the way SQLite 3.40 stores it as text ("%!.15g"):
// 15 significant digits, always a decimal point or exponent ("1.0", "1.0e+20",
// "1.5e-07", "-0.0"? no: -0.0 renders as "0.0"), "Inf"/"-Inf", NaN as NULL
// is the caller's concern. Writes a NUL-terminated string into buf (>= 32
// bytes) and returns its length.
int RealToText(double r, char* buf);

// Integer to decimal text; buf >= 21 bytes; returns length.
int IntToText(int64_t v, char* buf);

// Converts an INTEGER or REAL value to TEXT in place (TEXT/BLOB/NULL
// untouched): what sqlite3_column_text and the || operator see.
void Stringify(Value* v);

// Parses s as a whole (leading/trailing whitespace allowed) numeric literal
// as ApplyAffinity needs: returns 0 if not numeric, 1 and sets *i for an
// integer that fits int64, 2 and sets *r for a real (including integers too
// big for int64). Hex is not accepted.
int ParseNumericText(const char* s, size_t n, int64_t* i, double* r);

// ---- Comparison ------------------------------------------------------------

// Total order used by ORDER BY, indexes, DISTINCT, min/max: NULL < INTEGER
// and REAL (compared numerically, exactly even between int64 and double) <
// TEXT (compared with `coll`, BINARY if null) < BLOB (memcmp, then length).
int CompareValues(const Value& a, const Value& b, const Collation* coll);

// ---- Operators (result into *out; out may alias an operand) ----------------
// Arithmetic: NULL if either operand is NULL; operands through
// ToNumericForArith; INTEGER op INTEGER stays INTEGER unless it overflows, in
// which case the result is REAL; / and % by zero give NULL; INTEGER / INTEGER
// truncates; % of reals works on their integer values and yields REAL
// (SQLite 3.40 rules, check with the system sqlite3).
void Add(const Value& a, const Value& b, Value* out);
void Subtract(const Value& a, const Value& b, Value* out);
void Multiply(const Value& a, const Value& b, Value* out);
void Divide(const Value& a, const Value& b, Value* out);
void Remainder(const Value& a, const Value& b, Value* out);
// Unary minus: -(INT64_MIN) becomes REAL 9.223372036854775808e18; text via
// the arithmetic conversion; NULL stays NULL.
void Negate(const Value& a, Value* out);
// Bit operators & | << >> and ~ on ValueToInt64 of the operands; NULL if any
// operand is NULL; shifts by >= 64 or negative amounts as SQLite defines.
void BitAnd(const Value& a, const Value& b, Value* out);
void BitOr(const Value& a, const Value& b, Value* out);
void ShiftLeft(const Value& a, const Value& b, Value* out);
void ShiftRight(const Value& a, const Value& b, Value* out);
void BitNot(const Value& a, Value* out);
// a || b: NULL if either is NULL, else the text renderings concatenated.
void Concat(const Value& a, const Value& b, Value* out);

}  // namespace basalt
