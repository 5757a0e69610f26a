#include "common/printf_float.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace basalt {
namespace printf_internal {

namespace {

// Half a unit in the last place for precisions 0..9.
constexpr double kHalfUlp[10] = {5.0e-01, 5.0e-02, 5.0e-03, 5.0e-04, 5.0e-05,
                                 5.0e-06, 5.0e-07, 5.0e-08, 5.0e-09, 5.0e-10};

// Next decimal digit of *v (which is in [0, 10)), consuming one of *budget.
inline char NextDigit(long double* v, int* budget) {
  if (*budget <= 0) return '0';
  --*budget;
  int digit = static_cast<int>(*v);
  *v = (*v - static_cast<long double>(digit)) * 10.0;
  return static_cast<char>('0' + digit);
}

}  // namespace

PreparedFloat PrepareFloat(double v, const FloatSpec& spec) {
  PreparedFloat p;
  p.width = spec.width;
  p.alt = spec.alt;
  p.alt2 = spec.alt2;
  p.zero_pad = spec.zero_pad;
  p.left = spec.left;
  p.exp_char = (spec.conv == 'E' || spec.conv == 'G') ? 'E' : 'e';
  int precision = spec.precision < 0 ? 6 : std::min(spec.precision, 100000000);

  long double value = v;
  if (value < 0.0) {
    value = -value;
    p.prefix = '-';
  } else {
    p.prefix = spec.sign;
  }
  bool generic = spec.conv == 'g' || spec.conv == 'G';
  bool fixed = spec.conv == 'f';
  if (generic && precision > 0) --precision;

  int idx = precision & 0xfff;
  double rounder = kHalfUlp[idx % 10];
  while (idx >= 10) {
    rounder *= 1.0e-10;
    idx -= 10;
  }
  if (fixed) {
    // Bias small-precision %f upward a little, by the binary exponent.
    double as_double = static_cast<double>(value);
    uint64_t bits;
    std::memcpy(&bits, &as_double, sizeof bits);
    int bin_exp = -1023 + static_cast<int>((bits >> 52) & 0x7ff);
    if (precision + bin_exp / 3 < 15) rounder += value * 3e-16;
    value += rounder;
  }

  int exp = 0;
  if (std::isnan(static_cast<double>(value))) {
    p.special = "NaN";
    p.prefix = 0;
    p.needed = 4;
    return p;
  }
  if (value > 0.0) {
    long double scale = 1.0;
    while (value >= 1e100 * scale && exp <= 350) {
      scale *= 1e100;
      exp += 100;
    }
    while (value >= 1e10 * scale && exp <= 350) {
      scale *= 1e10;
      exp += 10;
    }
    while (value >= 10.0 * scale && exp <= 350) {
      scale *= 10.0;
      ++exp;
    }
    value /= scale;
    while (value < 1e-8) {
      value *= 1e8;
      exp -= 8;
    }
    while (value < 1.0) {
      value *= 10.0;
      --exp;
    }
    if (exp > 350) {
      p.special = "Inf";
      p.needed = 5;
      return p;
    }
  }
  if (!fixed) {
    value += rounder;
    if (value >= 10.0) {
      value *= 0.1;
      ++exp;
    }
  }
  bool exp_style = spec.conv == 'e' || spec.conv == 'E';
  if (generic) {
    p.strip_zeros = !spec.alt;
    if (exp < -4 || exp > precision) {
      exp_style = true;
    } else {
      precision -= exp;
    }
  } else {
    p.strip_zeros = spec.alt2;
  }
  p.exp_style = exp_style;
  p.value = value;
  p.exp = exp;
  p.precision = precision;
  int64_t int_digits = exp_style ? 0 : std::max(exp, 0);
  p.needed = int_digits + int64_t(precision) + int64_t(spec.width) + 15;
  return p;
}

size_t EmitFloat(const PreparedFloat& p, char* buf) {
  char* out = buf;
  if (p.special != nullptr) {
    if (p.prefix) *out++ = p.prefix;
    size_t n = std::strlen(p.special);
    std::memcpy(out, p.special, n);
    return static_cast<size_t>(out - buf) + n;
  }
  long double value = p.value;
  int budget = p.alt2 ? 26 : 16;
  int precision = p.precision;
  int e2 = p.exp_style ? 0 : p.exp;
  bool point = precision > 0 || p.alt || p.alt2;

  if (p.prefix) *out++ = p.prefix;
  if (e2 < 0) {
    *out++ = '0';
  } else {
    for (; e2 >= 0; --e2) *out++ = NextDigit(&value, &budget);
  }
  if (point) *out++ = '.';
  // Zeros between the point and the first significant digit.
  for (++e2; e2 < 0; --precision, ++e2) *out++ = '0';
  while (precision-- > 0) *out++ = NextDigit(&value, &budget);

  if (p.strip_zeros && point) {
    while (out[-1] == '0') --out;
    if (out[-1] == '.') {
      if (p.alt2) {
        *out++ = '0';
      } else {
        --out;
      }
    }
  }
  if (p.exp_style) {
    int e = p.exp;
    *out++ = p.exp_char;
    if (e < 0) {
      *out++ = '-';
      e = -e;
    } else {
      *out++ = '+';
    }
    if (e >= 100) {
      *out++ = static_cast<char>('0' + e / 100);
      e %= 100;
    }
    *out++ = static_cast<char>('0' + e / 10);
    *out++ = static_cast<char>('0' + e % 10);
  }
  size_t len = static_cast<size_t>(out - buf);

  // Zero padding goes between the sign and the digits.
  if (p.zero_pad && !p.left && len < static_cast<size_t>(p.width)) {
    size_t pad = static_cast<size_t>(p.width) - len;
    size_t sign = p.prefix != 0 ? 1 : 0;
    std::memmove(buf + sign + pad, buf + sign, len - sign);
    std::memset(buf + sign, '0', pad);
    len = static_cast<size_t>(p.width);
  }
  return len;
}

}  // namespace printf_internal
}  // namespace basalt
