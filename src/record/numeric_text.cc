#include "record/numeric_text.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace basalt {

namespace {

constexpr int64_t kMaxI64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMinI64 = std::numeric_limits<int64_t>::min();
// Once the significand reaches this, further digits only scale the exponent.
constexpr int64_t kSignificandCap = (kMaxI64 - 9) / 10;

// 10^e in long double by binary powering (e >= 0). The exact sequence of
// long double multiplications matters for bit-exact agreement.
long double TenToThe(int e) {
  long double base = 10.0L;
  long double acc = 1.0L;
  for (;;) {
    if (e & 1) acc *= base;
    e >>= 1;
    if (e == 0) break;
    base *= base;
  }
  return acc;
}

// Combines sign*sig*10^exp10 into a double.
double Compose(bool negative, int64_t sig, int exp10) {
  if (sig == 0) return negative ? -0.0 : 0.0;
  bool down = exp10 < 0;
  int e = down ? -exp10 : exp10;
  // Move as much of the exponent as is exact into the significand.
  while (e > 0) {
    if (!down) {
      if (sig >= kMaxI64 / 10) break;
      sig *= 10;
    } else {
      if (sig % 10 != 0) break;
      sig /= 10;
    }
    --e;
  }
  if (negative) sig = -sig;
  if (e == 0) return static_cast<double>(sig);
  if (e <= 307) {
    long double scale = TenToThe(e);
    return down ? static_cast<double>(sig / scale) : static_cast<double>(sig * scale);
  }
  if (e < 342) {
    // Two steps so that the intermediate stays representable.
    long double scale = TenToThe(e - 308);
    double r;
    if (down) {
      r = static_cast<double>(sig / scale);
      r /= 1.0e308;
    } else {
      r = static_cast<double>(sig * scale);
      r *= 1.0e308;
    }
    return r;
  }
  if (down) return 0.0 * static_cast<double>(sig);
  return std::numeric_limits<double>::infinity() * static_cast<double>(sig);
}

}  // namespace

int ScanReal(const char* z, size_t n, double* out) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(z);
  const unsigned char* end = p + n;
  *out = 0.0;
  if (n == 0) return kRealNotNumber;

  while (p < end && IsSqlSpace(*p)) ++p;
  if (p >= end) return kRealNotNumber;

  bool negative = false;
  if (*p == '-') {
    negative = true;
    ++p;
  } else if (*p == '+') {
    ++p;
  }

  int64_t sig = 0;
  int shift = 0;       // decimal exponent contributed by the digits
  int n_digits = 0;    // significant digits taken into sig (or leading ones)
  int kind = 1;        // 1 integer, +1 for '.', +1 for an exponent
  bool exp_ok = true;  // an exponent, if present, has digits
  int exp_abs = 0;
  bool exp_negative = false;

  // Integer part.
  while (p < end && IsSqlDigit(*p)) {
    sig = sig * 10 + (*p - '0');
    ++p;
    ++n_digits;
    if (sig >= kSignificandCap) {
      while (p < end && IsSqlDigit(*p)) {
        ++p;
        ++shift;
      }
    }
  }
  if (p < end && *p == '.') {
    ++p;
    ++kind;
    while (p < end && IsSqlDigit(*p)) {
      if (sig < kSignificandCap) {
        sig = sig * 10 + (*p - '0');
        --shift;
        ++n_digits;
      }
      ++p;
    }
  }
  if (p < end && (*p == 'e' || *p == 'E')) {
    ++p;
    ++kind;
    exp_ok = false;
    if (p < end) {
      if (*p == '-') {
        exp_negative = true;
        ++p;
      } else if (*p == '+') {
        ++p;
      }
      while (p < end && IsSqlDigit(*p)) {
        exp_abs = exp_abs < 10000 ? exp_abs * 10 + (*p - '0') : 10000;
        ++p;
        exp_ok = true;
      }
    }
  }
  // An 'e' at the very end skips the trailing-space scan (harmless either way).
  while (p < end && IsSqlSpace(*p)) ++p;

  int exp10 = (exp_negative ? -exp_abs : exp_abs) + shift;
  *out = Compose(negative, sig, exp10);

  if (p == end && n_digits > 0 && exp_ok) return kind;
  if (kind >= 2 && (kind == 3 || exp_ok) && n_digits > 0) return kRealPrefixOnly;
  return kRealNotNumber;
}

int ScanInt64(const char* z, size_t n, int64_t* out) {
  const unsigned char* p = reinterpret_cast<const unsigned char*>(z);
  const unsigned char* end = p + n;
  while (p < end && IsSqlSpace(*p)) ++p;
  bool negative = false;
  if (p < end) {
    if (*p == '-') {
      negative = true;
      ++p;
    } else if (*p == '+') {
      ++p;
    }
  }
  const unsigned char* after_sign = p;
  while (p < end && *p == '0') ++p;
  const unsigned char* digits = p;
  uint64_t u = 0;  // wraps for very long inputs; the digit count decides then
  while (p < end && IsSqlDigit(*p)) {
    u = u * 10 + (*p - '0');
    ++p;
  }
  size_t n_digits = static_cast<size_t>(p - digits);

  if (u > static_cast<uint64_t>(kMaxI64)) {
    *out = negative ? kMinI64 : kMaxI64;
  } else {
    *out = negative ? -static_cast<int64_t>(u) : static_cast<int64_t>(u);
  }

  int rc = kIntOk;
  if (n_digits == 0 && after_sign == digits) {
    rc = kIntNoDigits;
  } else {
    for (const unsigned char* q = p; q < end; ++q) {
      if (!IsSqlSpace(*q)) {
        rc = kIntTrailing;
        break;
      }
    }
  }
  if (n_digits < 19) return rc;

  // 19 or more significant digits: compare with 2^63 = 9223372036854775808.
  int cmp = 1;
  if (n_digits == 19) {
    static constexpr char kTwo63[] = "9223372036854775808";
    cmp = 0;
    for (int i = 0; i < 19 && cmp == 0; ++i) cmp = int(digits[i]) - int(kTwo63[i]);
  }
  if (cmp < 0) return rc;
  *out = negative ? kMinI64 : kMaxI64;
  if (cmp > 0) return kIntOverflow;
  return negative ? rc : kIntTwoPow63;
}

int64_t RealToInt64Saturating(double r) {
  if (std::isnan(r)) return 0;
  if (r <= -9223372036854775808.0) return kMinI64;
  if (r >= 9223372036854775808.0) return kMaxI64;
  return static_cast<int64_t>(r);
}

bool RealIsSmallInt(double r, int64_t i) {
  if (r == 0.0) return true;
  constexpr int64_t kLimit = int64_t(1) << 51;
  if (i < -kLimit || i >= kLimit) return false;
  double back = static_cast<double>(i);
  // Bit comparison, as SQLite does (so -0.0 never matches; handled above).
  return std::memcmp(&r, &back, sizeof r) == 0;
}

int64_t RealToInt64Trunc(double r) {
  if (!(r >= -9223372036854775808.0 && r < 9223372036854775808.0)) return kMinI64;
  return static_cast<int64_t>(r);
}

}  // namespace basalt
