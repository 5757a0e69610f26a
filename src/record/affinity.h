// Column affinity (datatype3 section 3) and CAST.
#pragma once

#include <string_view>

#include "record/value.h"

namespace basalt {

// The letters are SQLite's; order matters: a >= kNumeric means "numeric".
enum class Affinity : char {
  kBlob = 'A',  // also "no affinity"
  kText = 'B',
  kNumeric = 'C',
  kInteger = 'D',
  kReal = 'E',
};

inline bool IsNumericAffinity(Affinity a) { return a >= Affinity::kNumeric; }

// The affinity of a column with declared type `decl` (rules 1-5 of
// datatype3 3.1: INT → INTEGER; CHAR/CLOB/TEXT → TEXT; BLOB or empty → BLOB;
// REAL/FLOA/DOUB → REAL; otherwise NUMERIC), case-insensitive substrings.
Affinity AffinityFromDeclType(std::string_view decl);

// Applies `aff` to v as when storing into a column (datatype3 3.0 and 4.0):
//  - TEXT: integers and reals become their text rendering.
//  - NUMERIC/INTEGER: text that is a well-formed integer or real literal
//    (leading/trailing spaces allowed, hex not) becomes INTEGER if it fits
//    exactly, else REAL; a REAL with an exact integer value that fits in
//    int64 becomes INTEGER (NUMERIC/INTEGER only).
//  - REAL: like NUMERIC, then integers become reals. (SQLite itself stores
//    integral values of REAL columns as integers in the record and turns
//    them back into REAL when reading; the values seen are the same.)
//  - BLOB: nothing.
// For a comparison, apply kNumeric (never kReal) to the operands when
// ComparisonAffinity says numeric: SQLite converts text operands but never
// turns an INTEGER operand into a REAL there.
void ApplyAffinity(Value* v, Affinity aff);

// The affinity applied to operands of a comparison (datatype3 4.2): if one
// operand has INTEGER/REAL/NUMERIC affinity and the other TEXT/BLOB/none,
// NUMERIC is applied to the other; if one is TEXT and the other none, TEXT
// is applied to the other. Text-to-number conversion here uses the same
// "well-formed literal" rule as ApplyAffinity. Returns kNumeric, kText or
// kBlob (no conversion).
// Caveat: kBlob stands for both "BLOB column" and "no affinity"; SQLite
// applies no conversion when a TEXT column is compared with a BLOB/untyped
// column, but TEXT when compared with an expression. This function gives the
// latter (kText); a caller comparing two columns must return kBlob itself
// when neither is numeric.
Affinity ComparisonAffinity(Affinity left, Affinity right);

// CAST(v AS <type with affinity aff>) (lang_expr "CAST expressions"):
//  - INTEGER: ValueToInt64 (text: integer prefix only, so '1e2' → 1,
//    '12abc' → 12, 'abc' → 0; REAL truncates toward zero and saturates).
//  - REAL: ValueToDouble (text: longest real prefix, '12e' → 12.0).
//  - NUMERIC: INTEGER and REAL values are kept as they are (CAST(1.0 AS
//    NUMERIC) is 1.0); text/blob: an integer prefix that fits gives INTEGER
//    ('1.0x' → 1 too), a real prefix gives REAL unless it is integral with
//    magnitude < 2^51 ('1e3' → 1000, '1.5' → 1.5, '1e20' → 1.0e+20).
//  - TEXT renders numbers; BLOB keeps the bytes of text (numbers rendered
//    first). NULL stays NULL.
void CastValue(Value* v, Affinity aff);

}  // namespace basalt
