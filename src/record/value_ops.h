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
// that is an *integer* literal ([ws][+-]digits), saturating at the int64
// limits (so '12abc' → 12, ' 7 ' → 7, '1e3' → 1 and '1.9' → 1 — SQLite
// 3.40 does not read a real prefix here —, '99999999999999999999' →
// INT64_MAX, 'x' → 0). This is also CAST(text AS INTEGER).
int64_t ValueToInt64(const Value& v);

// sqlite3_value_double semantics: NULL → 0.0; TEXT/BLOB: longest numeric
// prefix (as with ValueToInt64), 0.0 if none.
double ValueToDouble(const Value& v);

// The numeric value used by arithmetic operators: INTEGER and REAL as they
// are; NULL stays NULL; TEXT/BLOB become INTEGER when the text has no '.' or
// exponent in its numeric prefix and that integer fits int64, otherwise REAL
// (ValueToDouble). So '12abc' → 12, 'abc' → 0, '1ex' → 1, '1.5x' → 1.5,
// '1.0' → 1.0 (REAL: SQLite 3.40 keeps it real), '1e3' → 1000.0,
// '9223372036854775808' → 9.2233720368547758e18.
void ToNumericForArith(const Value& in, Value* out);

// Truthiness for WHERE/AND/OR/NOT/CASE WHEN: NULL → -1 (unknown), else
// 0/1 from the numeric value (text via prefix rule; 0.0 is false; '0.5' true).
int ValueTruth(const Value& v);

// Text rendering of a REAL the way SQLite 3.40 stores it as text ("%!.15g"):
// 15 significant digits, always a decimal point or exponent ("1.0", "1.0e+20",
// "1.0e-05", "1.23456789012346e+17"), -0.0 renders as "0.0", infinities as
// "Inf"/"-Inf"; NaN as NULL is the caller's concern. Writes a NUL-terminated
// string into buf (>= 32 bytes) and returns its length.
int RealToText(double r, char* buf);

// Integer to decimal text; buf >= 21 bytes; returns length.
int IntToText(int64_t v, char* buf);

// Converts an INTEGER or REAL value to TEXT in place (TEXT/BLOB/NULL
// untouched): what sqlite3_column_text and the || operator see.
void Stringify(Value* v);

// Parses s as a whole (leading/trailing whitespace allowed) numeric literal
// as ApplyAffinity needs: returns 0 if not numeric, 1 and sets *i for an
// integer literal (no '.' or exponent) that fits int64, 2 and sets *r for a
// real (including '1.0', '1e3' and integers too big for int64; ApplyAffinity
// then turns integral reals into integers). Hex is not accepted.
int ParseNumericText(const char* s, size_t n, int64_t* i, double* r);

// ---- Comparison ------------------------------------------------------------

// Total order used by ORDER BY, indexes, DISTINCT, min/max: NULL < INTEGER
// and REAL (compared numerically, exactly even between int64 and double) <
// TEXT (compared with `coll`, BINARY if null) < BLOB (memcmp, then length).
int CompareValuesSlow(const Value& a, const Value& b, const Collation* coll);
inline int CompareValues(const Value& a, const Value& b, const Collation* coll) {
  if (a.is_int() && b.is_int()) {
    return a.int_value() < b.int_value() ? -1 : a.int_value() > b.int_value() ? 1 : 0;
  }
  return CompareValuesSlow(a, b, coll);
}

// ---- Operators (result into *out; out may alias an operand) ----------------
// Arithmetic: NULL if either operand is NULL; operands through
// ToNumericForArith; INTEGER op INTEGER stays INTEGER unless it overflows (or
// is INT64_MIN / -1), in which case the result is the REAL computed on
// doubles; otherwise both operands go through ValueToDouble and the result is
// REAL, NULL if it is NaN (Inf - Inf). / and % by zero (0 or 0.0) give NULL;
// INTEGER / INTEGER truncates; % with a REAL (or real-looking text) operand
// uses ValueToInt64 of both operands (so 5.5 % 2 = 1.0, 1.5 % 0.4 = NULL,
// '1e3' % 7 = 1.0) and yields REAL; x % -1 is 0.
void AddSlow(const Value& a, const Value& b, Value* out);
void SubtractSlow(const Value& a, const Value& b, Value* out);
void MultiplySlow(const Value& a, const Value& b, Value* out);
// INTEGER op INTEGER without overflow is handled inline.
inline void Add(const Value& a, const Value& b, Value* out) {
  int64_t r;
  if (a.is_int() && b.is_int() && !__builtin_add_overflow(a.int_value(), b.int_value(), &r)) {
    return out->SetInt(r);
  }
  AddSlow(a, b, out);
}
inline void Subtract(const Value& a, const Value& b, Value* out) {
  int64_t r;
  if (a.is_int() && b.is_int() && !__builtin_sub_overflow(a.int_value(), b.int_value(), &r)) {
    return out->SetInt(r);
  }
  SubtractSlow(a, b, out);
}
inline void Multiply(const Value& a, const Value& b, Value* out) {
  int64_t r;
  if (a.is_int() && b.is_int() && !__builtin_mul_overflow(a.int_value(), b.int_value(), &r)) {
    return out->SetInt(r);
  }
  MultiplySlow(a, b, out);
}
void Divide(const Value& a, const Value& b, Value* out);
void Remainder(const Value& a, const Value& b, Value* out);
// Unary minus, computed as 0 - a: -(INT64_MIN) becomes REAL
// 9.223372036854775808e18; text via the arithmetic conversion ('abc' → 0);
// NULL stays NULL.
void Negate(const Value& a, Value* out);
// Bit operators & | << >> and ~ on ValueToInt64 of the operands; NULL if any
// operand is NULL. A negative shift amount shifts the other way; shifting by
// 64 or more gives 0, except -1 for a right shift of a negative number
// (1 << 64 = 0, 1 << -1 = 0, -1 >> 70 = -1); >> is arithmetic.
void BitAnd(const Value& a, const Value& b, Value* out);
void BitOr(const Value& a, const Value& b, Value* out);
void ShiftLeft(const Value& a, const Value& b, Value* out);
void ShiftRight(const Value& a, const Value& b, Value* out);
void BitNot(const Value& a, Value* out);
// a || b: NULL if either is NULL, else the text renderings (blob bytes as
// they are) concatenated; the result is TEXT.
void Concat(const Value& a, const Value& b, Value* out);
// Unary plus: the operand unchanged (text stays text).
inline void UnaryPlus(const Value& a, Value* out) { *out = a; }

// ---- Logical operators (three-valued, on ValueTruth) -----------------------
// NOT: NULL stays NULL, else 1 for a false operand and 0 for a true one.
inline void LogicalNot(const Value& a, Value* out) {
  int t = ValueTruth(a);
  if (t < 0) return out->SetNull();
  out->SetInt(!t);
}
// AND is false if either operand is false, else NULL if either is NULL;
// OR is true if either is true, else NULL if either is NULL.
inline void LogicalAnd(const Value& a, const Value& b, Value* out) {
  int x = ValueTruth(a), y = ValueTruth(b);
  if (x == 0 || y == 0) return out->SetInt(0);
  if (x < 0 || y < 0) return out->SetNull();
  out->SetInt(1);
}
inline void LogicalOr(const Value& a, const Value& b, Value* out) {
  int x = ValueTruth(a), y = ValueTruth(b);
  if (x == 1 || y == 1) return out->SetInt(1);
  if (x < 0 || y < 0) return out->SetNull();
  out->SetInt(0);
}

}  // namespace basalt
