#include "gen.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace basalt::functest {

int64_t Gen::Int() {
  static const int64_t kEdges[] = {0,
                                   1,
                                   -1,
                                   2,
                                   10,
                                   100,
                                   255,
                                   1000000,
                                   2147483647,
                                   -2147483648LL,
                                   4294967296LL,
                                   4294967297LL,
                                   9007199254740992LL,
                                   9007199254740993LL,
                                   INT64_MAX,
                                   INT64_MIN,
                                   INT64_MAX - 1,
                                   INT64_MIN + 1,
                                   1092941466,
                                   2451545};
  switch (Below(4)) {
    case 0:
      return SmallInt();
    case 1:
      return Pick(kEdges);
    case 2:
      return static_cast<int64_t>(rng_());
    default:
      return static_cast<int64_t>(rng_() % 2000000) - 1000000;
  }
}

double Gen::Real() {
  static const double kEdges[] = {0.0,
                                  -0.0,
                                  0.5,
                                  -0.5,
                                  1.5,
                                  2.5,
                                  -2.5,
                                  0.1,
                                  1.005,
                                  2.675,
                                  1e15,
                                  4503599627370496.5,
                                  9.2233720368547758e18,
                                  -9.2233720368547758e18,
                                  1e300,
                                  -1e300,
                                  1e-300,
                                  5e-324,
                                  1.7976931348623157e308,
                                  std::numeric_limits<double>::infinity(),
                                  -std::numeric_limits<double>::infinity(),
                                  2451545.25,
                                  1092941466.5,
                                  0.30000000000000004};
  switch (Below(5)) {
    case 0:
      return Pick(kEdges);
    case 1:
      return static_cast<double>(SmallInt()) + static_cast<double>(Below(1000)) / 1000.0;
    case 2: {
      uint64_t bits = rng_();
      double d;
      std::memcpy(&d, &bits, sizeof d);
      if (std::isnan(d)) return 1.0;
      return d;
    }
    case 3:
      return (static_cast<double>(rng_() % 2000000) - 1000000.0) / 7.0;
    default:
      return std::ldexp(static_cast<double>(rng_() % 1000000) / 1000.0,
                        static_cast<int>(Below(200)) - 100);
  }
}

std::string Gen::NumericText() {
  static const char* kFixed[] = {"0",
                                 "1",
                                 "-1",
                                 " 12 ",
                                 "12abc",
                                 "1.5",
                                 "-2.5e3",
                                 "1e999",
                                 ".5",
                                 "5.",
                                 "+7",
                                 "0x10",
                                 "1e",
                                 "- 1",
                                 "  ",
                                 "",
                                 "9223372036854775807",
                                 "9223372036854775808",
                                 "-9223372036854775808",
                                 "1.0",
                                 "00012",
                                 "3.14abc",
                                 "\t42\n",
                                 "1e-5",
                                 "2451545"};
  if (Chance(60)) return Pick(kFixed);
  std::string s;
  if (Chance(20)) s += ' ';
  if (Chance(30)) s += Chance(50) ? '-' : '+';
  int digits = static_cast<int>(Below(22));
  for (int k = 0; k < digits; ++k) s += static_cast<char>('0' + Below(10));
  if (Chance(40)) {
    s += '.';
    int frac = static_cast<int>(Below(6));
    for (int k = 0; k < frac; ++k) s += static_cast<char>('0' + Below(10));
  }
  if (Chance(20)) {
    s += 'e';
    if (Chance(50)) s += '-';
    s += std::to_string(Below(400));
  }
  if (Chance(15)) s += ' ';
  if (Chance(10)) s += 'x';
  return s;
}

std::string Gen::Text() {
  static const char* kPieces[] = {"a",
                                  "b",
                                  "c",
                                  "A",
                                  "B",
                                  "Z",
                                  " ",
                                  "  ",
                                  "x",
                                  "é",
                                  "ü",
                                  "€",
                                  "😀",
                                  "'",
                                  "\"",
                                  "%",
                                  "_",
                                  "*",
                                  "?",
                                  "[",
                                  "]",
                                  "^",
                                  "-",
                                  "\\",
                                  "abc",
                                  "hello",
                                  "0",
                                  "12",
                                  ".",
                                  "\t",
                                  "\n",
                                  "ß",
                                  "\xc3",
                                  "\x80",
                                  "\xff",
                                  "\xed\xa0\x80",
                                  "\xf4\x90\x80\x80",
                                  "ABC",
                                  "xyz",
                                  "Robert",
                                  "T",
                                  ":"};
  switch (Below(6)) {
    case 0:
      return NumericText();
    case 1:
      return "";
    default: {
      std::string s;
      int n = static_cast<int>(Below(8));
      for (int k = 0; k < n; ++k) s += Pick(kPieces);
      if (Chance(3)) s.insert(s.size() / 2, 1, '\0');
      return s;
    }
  }
}

std::string Gen::Blob() {
  if (Chance(30)) return Text();
  std::string s;
  int n = static_cast<int>(Below(6));
  for (int k = 0; k < n; ++k) s += static_cast<char>(Below(256));
  return s;
}

Value Gen::Any() {
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
      return Value::Text(Text());
    case 8:
      return Value::Text(NumericText());
    default: {
      std::string b = Blob();
      Value v;
      v.SetBlob(b.data(), b.size());
      return v;
    }
  }
}

Value Gen::SmallNumber() {
  if (Chance(70)) return Value::Int(SmallInt());
  if (Chance(30)) return Value::Real(static_cast<double>(SmallInt()) + 0.5);
  return Any();
}

}  // namespace basalt::functest
