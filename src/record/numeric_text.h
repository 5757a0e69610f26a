// Text-to-number scanning with SQLite's exact rules (internal to record/).
//
// Two scanners, both working on a byte range that need not be NUL-terminated:
//
//  ScanReal    the decimal/real literal scanner: [ws][+-]digits[.digits][e[+-]digits][ws]
//              (or [+-].digits...). It converts the longest numeric prefix even
//              when the whole text is not a number, and classifies the text.
//  ScanInt64   the integer scanner: [ws][+-]digits[ws], with int64 saturation.
//
// Whitespace is the six ASCII spaces: ' ' \t \n \v \f \r. Hex is never accepted.
//
// The decimal-to-double conversion reproduces SQLite 3.40: up to 18-19
// significant digits are accumulated into an int64, later digits only move the
// exponent, and the scaling by a power of ten is done in x87 long double
// (80-bit) arithmetic, then rounded to double. That is what makes results
// bit-identical with the referee, including its rare off-by-one-ulp cases.
#pragma once

#include <cstddef>
#include <cstdint>

namespace basalt {

// ScanReal classification (same numbering as SQLite uses internally).
enum RealScan : int {
  kRealPrefixOnly = -1,  // not a number, but a prefix with '.' or exponent is
  kRealNotNumber = 0,    // empty, no digits, or trailing garbage
  kRealPureInteger = 1,  // whole text is digits (with sign/spaces)
  // 2 or 3: whole text is a number with a '.' and/or an exponent.
};

// Converts the longest numeric prefix of z[0..n) into *out (0.0 if none) and
// returns the classification above: > 0 means the whole text is numeric.
int ScanReal(const char* z, size_t n, double* out);

// ScanInt64 results.
enum IntScan : int {
  kIntNoDigits = -1,  // not even a prefix is an integer (*out = 0)
  kIntOk = 0,         // whole text is an integer that fits
  kIntTrailing = 1,   // a fitting integer followed by non-space text
  kIntOverflow = 2,   // too big (*out saturated)
  kIntTwoPow63 = 3,   // exactly 9223372036854775808 (*out = INT64_MAX)
};

// Converts the integer prefix of z[0..n) into *out (saturating) and returns
// one of IntScan.
int ScanInt64(const char* z, size_t n, int64_t* out);

inline bool IsSqlSpace(unsigned char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }
inline bool IsSqlDigit(unsigned char c) { return c >= '0' && c <= '9'; }

// double -> int64 the way sqlite3_value_int64 does it: truncate toward zero,
// saturating at the int64 limits; NaN gives 0 (NaN never is an SQL value).
int64_t RealToInt64Saturating(double r);

// True if r is exactly the integer i and |i| < 2^51 (or r is zero): the test
// SQLite uses before turning a REAL into an INTEGER in NUMERIC contexts.
bool RealIsSmallInt(double r, int64_t i);

// Truncation used by the NUMERIC-cast test: like a C cast where defined,
// INT64_MIN for NaN and out-of-range values (what x86 produces).
int64_t RealToInt64Trunc(double r);

}  // namespace basalt
