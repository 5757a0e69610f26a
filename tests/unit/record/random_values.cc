#include "random_values.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace basalt::testing {

int64_t RandomValues::Int() {
  static const int64_t kEdges[] = {0,
                                   1,
                                   -1,
                                   2,
                                   127,
                                   128,
                                   -128,
                                   -129,
                                   32767,
                                   32768,
                                   -32769,
                                   8388607,
                                   8388608,
                                   2147483647,
                                   2147483648LL,
                                   -2147483649LL,
                                   140737488355327LL,
                                   140737488355328LL,
                                   9007199254740992LL,
                                   9007199254740993LL,
                                   -9007199254740993LL,
                                   2251799813685248LL,
                                   std::numeric_limits<int64_t>::max(),
                                   std::numeric_limits<int64_t>::max() - 1,
                                   std::numeric_limits<int64_t>::min(),
                                   std::numeric_limits<int64_t>::min() + 1,
                                   64,
                                   63,
                                   -64,
                                   65,
                                   1000000007};
  switch (Below(5)) {
    case 0:
      return kEdges[Below(sizeof kEdges / sizeof kEdges[0])];
    case 1:
      return static_cast<int64_t>(rng_());
    case 2: {
      int bits = static_cast<int>(Below(63));
      int64_t v = static_cast<int64_t>(rng_() >> (63 - bits));
      return Chance(50) ? -v : v;
    }
    default:
      return static_cast<int64_t>(Below(2001)) - 1000;
  }
}

double RandomValues::Real() {
  static const double kEdges[] = {0.0,
                                  -0.0,
                                  0.1,
                                  0.5,
                                  1.5,
                                  2.5,
                                  -2.5,
                                  1e20,
                                  1e-5,
                                  1.0,
                                  123456789012345678.0,
                                  1.7976931348623157e308,
                                  5e-324,
                                  2.2250738585072014e-308,
                                  9223372036854775808.0,
                                  -9223372036854775808.0,
                                  9223372036854774784.0,
                                  9007199254740992.0,
                                  9007199254740993.0,
                                  1e15,
                                  1e16,
                                  1e14,
                                  0.3,
                                  2.675,
                                  1.0 / 3,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  4503599627370496.5,
                                  0.05,
                                  99.995};
  switch (Below(6)) {
    case 0:
      return kEdges[Below(sizeof kEdges / sizeof kEdges[0])];
    case 1: {
      uint64_t bits = rng_();
      double d;
      std::memcpy(&d, &bits, sizeof d);
      return std::isnan(d) ? 0.25 : d;
    }
    case 2:  // k / 2^j: exact binary fractions, rounding ties
      return static_cast<double>(static_cast<int64_t>(Below(20001)) - 10000) /
             static_cast<double>(1 << Below(12));
    case 3:  // random decimal with few digits
      return static_cast<double>(static_cast<int64_t>(Below(2000001)) - 1000000) *
             std::pow(10.0, static_cast<double>(static_cast<int>(Below(41)) - 20));
    case 4:
      return static_cast<double>(Int());
    default:
      return (static_cast<double>(rng_() >> 11) / 9007199254740992.0) *
             std::pow(10.0, static_cast<double>(static_cast<int>(Below(61)) - 30));
  }
}

std::string RandomValues::NumericText() {
  static const char* kWords[] = {"",
                                 "abc",
                                 "0x10",
                                 "-0x1F",
                                 "x",
                                 ".",
                                 "-",
                                 "+",
                                 "e5",
                                 "1e",
                                 "1e+",
                                 ".e1",
                                 "Inf",
                                 "NaN",
                                 "1.",
                                 ".5",
                                 "-.5",
                                 "+.5e2",
                                 "1e-",
                                 " ",
                                 "\t12\n",
                                 "1,5",
                                 "1_0",
                                 "٣",
                                 "１２",
                                 "\x0b"
                                 "7"};
  if (Chance(8)) return kWords[Below(sizeof kWords / sizeof kWords[0])];
  std::string s;
  if (Chance(15)) s.append(1 + Below(2), " \t\n\r\f\v"[Below(6)]);
  if (Chance(30)) s += "+-"[Below(2)];
  int lead = Chance(10) ? static_cast<int>(Below(4)) : 0;
  s.append(static_cast<size_t>(lead), '0');
  int digits = static_cast<int>(Chance(20) ? Below(30) : Below(20));
  for (int i = 0; i < digits; ++i) s += static_cast<char>('0' + Below(10));
  if (Chance(40)) {
    s += '.';
    int frac = static_cast<int>(Below(22));
    for (int i = 0; i < frac; ++i) s += static_cast<char>('0' + Below(10));
  }
  if (Chance(30)) {
    s += "eE"[Below(2)];
    if (Chance(50)) s += "+-"[Below(2)];
    int ed = static_cast<int>(Below(5));
    for (int i = 0; i < ed; ++i) s += static_cast<char>('0' + Below(10));
  }
  if (Chance(15)) s.append(1 + Below(2), " \t\n"[Below(3)]);
  if (Chance(8)) s += "xyz%"[Below(4)];
  return s;
}

Value RandomValues::Any() {
  switch (Below(10)) {
    case 0:
      return Value();
    case 1:
    case 2:
      return Value::Int(Int());
    case 3:
    case 4:
      return Value::Real(Real());
    case 5:
    case 6:
    case 7:
      return Value::Text(NumericText());
    case 8: {
      char buf[64];
      std::snprintf(buf, sizeof buf, Chance(50) ? "%.17g" : "%.15g", Real());
      return Value::Text(buf);
    }
    default: {
      Value v;
      std::string s = Chance(50) ? NumericText() : std::string();
      if (s.empty()) {
        size_t n = Below(6);
        for (size_t i = 0; i < n; ++i) s += static_cast<char>(rng_());
      }
      v.SetBlob(s.data(), s.size());
      return v;
    }
  }
}

}  // namespace basalt::testing
