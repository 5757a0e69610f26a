// Value rendering. The interesting part is AppendSqliteFixed, which has to
// reproduce SQLite's floating-point printing rather than the C library's:
//
//  1. SQLite takes the decimal digits of the double and rounds them once, at
//     the last place the format prints (here: `precision` places after the
//     point), half away from zero ("...5" rounds up in magnitude, where glibc
//     rounds exact ties to even).
//  2. It never keeps more than 16 significant digits: when the integer part
//     plus the fraction would need more, rounding happens at the 16th digit
//     instead and the remaining places print as zeros.
//
// We round the exact binary value once, at the right place, so there is no
// double rounding. Two paths:
//  - fast: |v| < 10^(16 - precision). Then the 16-digit cap cannot apply,
//    and v * 10^precision = m * 10^precision * 2^e (m the 53-bit significand)
//    is rounded to an integer with 128-bit integer arithmetic.
//  - exact: otherwise the whole decimal expansion is produced with a small
//    big-integer (v = I * 10^-k exactly, with I = m * 2^e or m * 5^-e) and
//    the digit string is rounded by the rules above.
#include "render.h"

#include <cmath>
#include <cstring>
#include <vector>

namespace basalt::slt {

void AppendText(std::string_view text, std::string* out) {
  if (text.empty()) {
    out->append(kEmptyText);
    return;
  }
  const size_t start = out->size();
  out->append(text);
  char* p = out->data() + start;
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(p[i]);
    if (c < ' ' || c > '~') p[i] = '@';
  }
}

void AppendInt(int32_t value, std::string* out) {
  char buf[16];
  char* end = buf + sizeof(buf);
  char* p = end;
  uint32_t magnitude = value < 0 ? 0u - static_cast<uint32_t>(value) : static_cast<uint32_t>(value);
  do {
    *--p = static_cast<char>('0' + magnitude % 10);
    magnitude /= 10;
  } while (magnitude != 0);
  if (value < 0) *--p = '-';
  out->append(p, end - p);
}

namespace {

using u128 = unsigned __int128;

constexpr int kMaxSignificant = 16;  // SQLite's digit cap for %f
constexpr int kMaxPrecision = 40;

u128 PowerOfTen128(int n) {
  u128 r = 1;
  for (int i = 0; i < n; ++i) r *= 10;
  return r;
}

// Appends the unsigned decimal digits of v.
void AppendUnsigned(u128 v, std::string* out) {
  char buf[48];
  char* end = buf + sizeof(buf);
  char* p = end;
  do {
    *--p = static_cast<char>('0' + static_cast<int>(v % 10));
    v /= 10;
  } while (v != 0);
  out->append(p, end - p);
}

// A non-negative big integer, 32-bit limbs, least significant first.
class BigUnsigned {
 public:
  explicit BigUnsigned(uint64_t v) {
    limbs_.push_back(static_cast<uint32_t>(v));
    if (v >> 32) limbs_.push_back(static_cast<uint32_t>(v >> 32));
  }

  void MultiplySmall(uint32_t factor) {
    uint64_t carry = 0;
    for (uint32_t& limb : limbs_) {
      const uint64_t product = uint64_t{limb} * factor + carry;
      limb = static_cast<uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0) limbs_.push_back(static_cast<uint32_t>(carry));
  }

  void MultiplyByPowerOfTwo(int n) {
    for (; n >= 31; n -= 31) MultiplySmall(1u << 31);
    if (n > 0) MultiplySmall(1u << n);
  }

  void MultiplyByPowerOfFive(int n) {
    constexpr uint32_t kFive13 = 1220703125;  // 5^13, the largest power below 2^32
    for (; n >= 13; n -= 13) MultiplySmall(kFive13);
    uint32_t rest = 1;
    for (; n > 0; --n) rest *= 5;
    if (rest != 1) MultiplySmall(rest);
  }

  // The decimal digits, most significant first, without leading zeros.
  std::string Decimal() const {
    std::vector<uint32_t> work = limbs_;
    std::vector<uint32_t> chunks;  // base 10^9, least significant first
    while (!(work.size() == 1 && work[0] == 0) && !work.empty()) {
      uint64_t remainder = 0;
      for (size_t i = work.size(); i-- > 0;) {
        const uint64_t cur = (remainder << 32) | work[i];
        work[i] = static_cast<uint32_t>(cur / 1000000000u);
        remainder = cur % 1000000000u;
      }
      chunks.push_back(static_cast<uint32_t>(remainder));
      while (work.size() > 1 && work.back() == 0) work.pop_back();
    }
    if (chunks.empty()) return "0";
    std::string digits = std::to_string(chunks.back());
    for (size_t i = chunks.size() - 1; i-- > 0;) {
      char buf[10];
      uint32_t v = chunks[i];
      for (int j = 8; j >= 0; --j) {
        buf[j] = static_cast<char>('0' + v % 10);
        v /= 10;
      }
      digits.append(buf, 9);
    }
    return digits;
  }

 private:
  std::vector<uint32_t> limbs_;
};

// Splits a finite positive double into m * 2^e with m < 2^53 an integer.
void Decompose(double v, uint64_t* m, int* e) {
  int exponent;
  const double fraction = std::frexp(v, &exponent);  // v = fraction * 2^exponent
  *m = static_cast<uint64_t>(std::ldexp(fraction, 53));
  *e = exponent - 53;
}

// Prints a rounded decimal digit string: the value is 0.D * 10^point, where
// only the first `kept` digits of D are significant and the rest are zero.
void AppendDigits(const char* digits, int kept, int point, int precision, std::string* out) {
  auto digit_at = [&](int i) { return i >= 0 && i < kept ? digits[i] : '0'; };
  if (point <= 0) {
    out->push_back('0');
  } else {
    for (int i = 0; i < point; ++i) out->push_back(digit_at(i));
  }
  if (precision > 0) {
    out->push_back('.');
    for (int i = point; i < point + precision; ++i) out->push_back(digit_at(i));
  }
}

// The exact path: magnitude v (finite, > 0) of any size.
void AppendExact(double v, int precision, std::string* out) {
  uint64_t m;
  int e;
  Decompose(v, &m, &e);
  BigUnsigned integer(m);
  int shift = 0;  // v = integer * 10^-shift
  if (e >= 0) {
    integer.MultiplyByPowerOfTwo(e);
  } else {
    integer.MultiplyByPowerOfFive(-e);  // m / 2^k = m * 5^k / 10^k
    shift = -e;
  }
  std::string digits = integer.Decimal();
  const int n = static_cast<int>(digits.size());
  int point = n - shift;  // v = 0.digits * 10^point
  int keep = point + precision;
  if (keep > kMaxSignificant) keep = kMaxSignificant;
  int kept = n;
  if (keep < n) {
    if (keep < 0) {
      kept = 0;  // below half a unit of the last place: prints as zero
    } else {
      const bool round_up = digits[keep] >= '5';
      kept = keep;
      if (round_up) {
        int i = keep - 1;
        while (i >= 0 && digits[i] == '9') digits[i--] = '0';
        if (i >= 0) {
          ++digits[i];
        } else {  // carried out of the first digit: 0.999.. became 1.0
          digits.insert(digits.begin(), '1');
          ++point;
          ++kept;
        }
      }
    }
  }
  AppendDigits(digits.data(), kept, point, precision, out);
}

}  // namespace

void AppendSqliteFixed(double value, int precision, std::string* out) {
  if (precision < 0) precision = 0;
  if (precision > kMaxPrecision) precision = kMaxPrecision;
  if (std::isnan(value)) {
    out->append("NaN");
    return;
  }
  if (std::isinf(value)) {
    out->append(value < 0 ? "-Inf" : "Inf");
    return;
  }
  if (value < 0) out->push_back('-');  // false for -0.0, which prints as 0
  const double magnitude = std::fabs(value);
  if (magnitude == 0) {
    AppendDigits("", 0, 0, precision, out);
    return;
  }
  // The fast path needs |v| < 10^(16 - precision) and m * 10^precision to
  // fit 128 bits, i.e. precision <= 22.
  static const double kFastLimit[] = {1e16, 1e15, 1e14, 1e13, 1e12, 1e11, 1e10, 1e9,
                                      1e8,  1e7,  1e6,  1e5,  1e4,  1e3,  1e2,  1e1,
                                      1e0,  1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6};
  if (precision <= 22 && magnitude < kFastLimit[precision]) {
    uint64_t m;
    int e;
    Decompose(magnitude, &m, &e);
    const u128 scaled = u128{m} * PowerOfTen128(precision);  // v * 10^p = scaled * 2^e
    u128 q;
    if (e >= 0) {
      q = scaled << e;  // small: v * 10^p < 10^16
    } else if (-e >= 128) {
      q = 0;  // scaled < 2^127, so v * 10^p < 1/2
    } else {
      const int k = -e;
      q = scaled >> k;
      const u128 remainder = scaled - (q << k);
      if (remainder >= (u128{1} << (k - 1))) ++q;  // half away from zero
    }
    // q is v * 10^p rounded; print it with the point p places from the end.
    const u128 unit = PowerOfTen128(precision);
    AppendUnsigned(q / unit, out);
    if (precision > 0) {
      out->push_back('.');
      const size_t start = out->size();
      out->append(precision, '0');
      u128 fraction = q % unit;
      for (size_t i = out->size(); i-- > start && fraction != 0;) {
        (*out)[i] = static_cast<char>('0' + static_cast<int>(fraction % 10));
        fraction /= 10;
      }
    }
    return;
  }
  AppendExact(magnitude, precision, out);
}

}  // namespace basalt::slt
