#include "render.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>

namespace basalt::slt {
namespace {

std::string Real(double v, int precision = 3) {
  std::string s;
  AppendSqliteFixed(v, precision, &s);
  return s;
}

std::string Text(std::string_view v) {
  std::string s;
  AppendText(v, &s);
  return s;
}

std::string Int(int32_t v) {
  std::string s;
  AppendInt(v, &s);
  return s;
}

// An independent model of SQLite's %.<p>f: take the exact decimal expansion
// from the C library (%.1100f prints every digit of any double exactly), then
// round it half away from zero at min(p places, 16 significant digits) with
// string arithmetic.
std::string Model(double v, int p) {
  static char buf[1600];
  std::snprintf(buf, sizeof(buf), "%.1100f", std::fabs(v));
  std::string s = buf;
  const size_t dot = s.find('.');
  std::string digits = s.substr(0, dot) + s.substr(dot + 1);
  int point = static_cast<int>(dot);  // digits before the decimal point
  const size_t lead = digits.find_first_not_of('0');
  if (lead == std::string::npos) {
    digits.clear();
    point = 0;
  } else {
    digits.erase(0, lead);
    point -= static_cast<int>(lead);
  }
  const int keep = std::min(point + p, 16);
  int kept = static_cast<int>(digits.size());
  if (keep < kept) {
    if (keep < 0) {
      kept = 0;
    } else {
      const bool up = digits[keep] >= '5';
      digits.resize(keep);
      kept = keep;
      if (up) {
        int i = keep - 1;
        while (i >= 0 && digits[i] == '9') digits[i--] = '0';
        if (i >= 0) {
          ++digits[i];
        } else {
          digits.insert(digits.begin(), '1');
          ++point;
          ++kept;
        }
      }
    }
  }
  auto at = [&](int i) { return i >= 0 && i < kept ? digits[i] : '0'; };
  std::string out = v < 0 ? "-" : "";
  if (point <= 0) {
    out += '0';
  } else {
    for (int i = 0; i < point; ++i) out += at(i);
  }
  if (p > 0) {
    out += '.';
    for (int i = point; i < point + p; ++i) out += at(i);
  }
  return out;
}

// True if v lies exactly halfway between two multiples of 0.001.
bool IsTieAtThreePlaces(double v) {
  static char buf[1600];
  std::snprintf(buf, sizeof(buf), "%.1100f", std::fabs(v));
  const char* fraction = std::strchr(buf, '.') + 1;
  if (fraction[3] != '5') return false;
  for (const char* p = fraction + 4; *p; ++p) {
    if (*p != '0') return false;
  }
  return true;
}

TEST(RenderText, EmptyAndUnprintableBytes) {
  EXPECT_EQ(Text(""), "(empty)");
  EXPECT_EQ(Text("abc"), "abc");
  EXPECT_EQ(Text(" ~"), " ~");
  EXPECT_EQ(Text("a\tb\nc"), "a@b@c");
  EXPECT_EQ(Text("\x7f"), "@");
  EXPECT_EQ(Text("caf\xc3\xa9"), "caf@@");  // each byte of a UTF-8 sequence
  EXPECT_EQ(Text(std::string_view("\x01\x1f", 2)), "@@");
  EXPECT_EQ(std::string(kNullText), "NULL");
}

TEST(RenderText, AppendsToExistingBuffer) {
  std::string s = "x";
  AppendText("\x05y", &s);
  EXPECT_EQ(s, "x@y");
}

TEST(RenderInt, ThirtyTwoBitDecimal) {
  EXPECT_EQ(Int(0), "0");
  EXPECT_EQ(Int(7), "7");
  EXPECT_EQ(Int(-1), "-1");
  EXPECT_EQ(Int(std::numeric_limits<int32_t>::max()), "2147483647");
  EXPECT_EQ(Int(std::numeric_limits<int32_t>::min()), "-2147483648");
}

TEST(RenderReal, SixteenSignificantDigits) {
  // The case from the suite: glibc prints -9223372036854775808.000.
  EXPECT_EQ(Real(-9223372036854775808.0), "-9223372036854776000.000");
  EXPECT_EQ(Real(9223372036854775807.0), "9223372036854776000.000");
  EXPECT_EQ(Real(-18446744073709551616.0), "-18446744073709550000.000");
  EXPECT_EQ(Real(123456789012345.678), "123456789012345.700");
  EXPECT_EQ(Real(12345678901234.5678), "12345678901234.570");
  EXPECT_EQ(Real(99999999999999.99), "99999999999999.980");
  EXPECT_EQ(Real(1e20), "100000000000000000000.000");
  EXPECT_EQ(Real(1e13), "10000000000000.000");
  EXPECT_EQ(Real(9999999999999.9996), "10000000000000.000");
  EXPECT_EQ(Real(9007199254740993.0), "9007199254740992.000");
}

TEST(RenderReal, OrdinaryValues) {
  EXPECT_EQ(Real(0), "0.000");
  EXPECT_EQ(Real(1), "1.000");
  EXPECT_EQ(Real(-1.5), "-1.500");
  EXPECT_EQ(Real(3.14159), "3.142");
  EXPECT_EQ(Real(-2.0 / 3.0), "-0.667");
  EXPECT_EQ(Real(1e-300), "0.000");
  EXPECT_EQ(Real(2147483648.0), "2147483648.000");
}

TEST(RenderReal, TiesRoundAwayFromZero) {
  // Exactly representable ties, where glibc would round to even.
  EXPECT_EQ(Real(0.0625), "0.063");
  EXPECT_EQ(Real(-0.0625), "-0.063");
  EXPECT_EQ(Real(0.1875), "0.188");
  EXPECT_EQ(Real(2.5, 0), "3");
  EXPECT_EQ(Real(0.5, 0), "1");
  EXPECT_EQ(Real(1.0005), "1.000");  // the double is just below the tie
  EXPECT_EQ(Real(0.0005), "0.001");  // and this one just above
}

TEST(RenderReal, SignsAndSpecials) {
  EXPECT_EQ(Real(-0.0), "0.000");
  EXPECT_EQ(Real(-0.0001), "-0.000");
  EXPECT_EQ(Real(std::numeric_limits<double>::infinity()), "Inf");
  EXPECT_EQ(Real(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(Real(std::nan("")), "NaN");
}

TEST(RenderReal, OtherPrecisions) {
  EXPECT_EQ(Real(1.25, 1), "1.3");
  EXPECT_EQ(Real(123.456, 0), "123");
  // glibc: 0.10000000000000000555; SQLite stops at 16 significant digits.
  EXPECT_EQ(Real(0.1, 20), "0.10000000000000000000");
  EXPECT_EQ(Real(0.1, 20), Model(0.1, 20));
}

TEST(RenderReal, MatchesModelOnManyValues) {
  std::mt19937_64 rng(20240601);
  std::uniform_int_distribution<int> exponent(-40, 80);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  int checked = 0;
  for (int i = 0; i < 20000; ++i) {
    double v = std::ldexp(mantissa(rng), exponent(rng));
    if (i % 2) v = -v;
    ASSERT_EQ(Real(v), Model(v, 3)) << "value " << v;
    ++checked;
  }
  // Integers and halves near powers of two and ten, where carries happen.
  for (int e = 0; e < 70; ++e) {
    for (double delta : {-1.0, -0.5, 0.0, 0.5, 1.0}) {
      const double v = std::ldexp(1.0, e) + delta;
      ASSERT_EQ(Real(v), Model(v, 3)) << "value 2^" << e << " + " << delta;
      const double w = std::pow(10.0, e % 25) + delta / 1000;
      ASSERT_EQ(Real(w), Model(w, 3)) << "value " << w;
      ++checked;
    }
  }
  // Random bit patterns: every exponent, subnormals included.
  for (int i = 0; i < 5000; ++i) {
    uint64_t bits = rng();
    double v;
    std::memcpy(&v, &bits, sizeof(v));
    if (!std::isfinite(v)) continue;
    ASSERT_EQ(Real(v), Model(v, 3)) << "bits " << bits;
  }
  EXPECT_GT(checked, 20000);
}

TEST(RenderReal, AgreesWithCLibraryAwayFromTies) {
  // Below 1e13 the 16-digit cap never applies, and the only difference from
  // glibc is how exact ties round (glibc: to even).
  std::mt19937_64 rng(7);
  int ties = 0;
  std::uniform_real_distribution<double> value(-1e13, 1e13);
  std::uniform_int_distribution<int> scale(0, 12);
  for (int i = 0; i < 20000; ++i) {
    const double v = value(rng) / std::pow(10.0, scale(rng));
    if (IsTieAtThreePlaces(v)) {
      ++ties;
      continue;
    }
    char expected[64];
    std::snprintf(expected, sizeof(expected), "%.3f", v);
    ASSERT_EQ(Real(v), expected) << "value " << v;
  }
  EXPECT_LT(ties, 100);
}

}  // namespace
}  // namespace basalt::slt
