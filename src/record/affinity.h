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
//  - REAL: like NUMERIC, then integers become reals.
//  - BLOB: nothing.
void ApplyAffinity(Value* v, Affinity aff);

// The affinity applied to operands of a comparison (datatype3 4.2): if one
// operand has INTEGER/REAL/NUMERIC affinity and the other TEXT/BLOB/none,
// NUMERIC is applied to the other; if one is TEXT and the other none, TEXT
// is applied to the other. Text-to-number conversion here uses the same
// "well-formed literal" rule as ApplyAffinity.
Affinity ComparisonAffinity(Affinity left, Affinity right);

// CAST(v AS <type with affinity aff>) (lang_expr "CAST expressions"):
// to INTEGER/REAL/NUMERIC from text or blob uses the longest numeric prefix
// (so '12abc' → 12, 'abc' → 0); REAL→INTEGER truncates toward zero and
// saturates; NUMERIC keeps integers and turns reals with integral values
// into integers only when lossless (SQLite 3.40 rules); TEXT renders numbers;
// BLOB reinterprets text bytes. NULL stays NULL.
void CastValue(Value* v, Affinity aff);

}  // namespace basalt
