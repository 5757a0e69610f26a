// Floating-point conversions of the printf engine (internal to common/).
//
// Rendering runs in two steps so callers can size the buffer first:
//   1. PrepareFloat: rounds and normalizes the value to d.ddd * 10^exp in x87
//      long double, picks %e or %f style for %g, and computes the buffer size.
//   2. EmitFloat: writes sign, digits, point, exponent and zero padding.
// Digits come from repeated "take the integer part, multiply the rest by 10"
// on the long double; after 16 digits (26 with '!') only '0' is produced.
#pragma once

#include <cstddef>
#include <cstdint>

namespace basalt {
namespace printf_internal {

struct FloatSpec {
  char conv = 'g';     // f e E g G
  int precision = -1;  // -1: default (6)
  int width = 0;
  char sign = 0;      // '+', ' ' or 0 for non-negative values
  bool alt = false;   // '#'
  bool alt2 = false;  // '!'
  bool zero_pad = false;
  bool left = false;
};

struct PreparedFloat {
  long double value = 0;  // normalized to [1, 10) (or 0)
  int exp = 0;
  int precision = 0;
  int width = 0;
  char prefix = 0;
  bool exp_style = false;  // %e layout (else %f layout)
  bool strip_zeros = false;
  bool alt = false;
  bool alt2 = false;
  bool zero_pad = false;
  bool left = false;
  char exp_char = 'e';
  const char* special = nullptr;  // "Inf" or "NaN": text instead of digits
  int64_t needed = 0;             // buffer bytes EmitFloat may write
};

PreparedFloat PrepareFloat(double v, const FloatSpec& spec);

// Writes the conversion into buf (PreparedFloat::needed bytes available) and
// returns its length; no NUL is written.
size_t EmitFloat(const PreparedFloat& p, char* buf);

}  // namespace printf_internal
}  // namespace basalt
