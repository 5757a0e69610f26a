// printf()/format(): random format strings (flags, widths, precisions, '*',
// every conversion) with random SQL arguments, against the referee. This
// exercises the argument mapping of the SQL function; the formatting engine
// itself has its own tests in tests/unit/printf.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "check.h"
#include "gen.h"
#include "harness.h"

namespace basalt::functest {
namespace {

std::string RandomSpec(Gen* g) {
  static const char* kFlags[] = {"", "", "-", "+", " ", "0", "#", "!", ",", "-0", "+ "};
  static const char* kWidths[] = {"", "", "5", "12", "*", "0", "1"};
  static const char* kPrecs[] = {"", "", ".3", ".0", ".*", ".20", "."};
  static const char* kConv[] = {"d", "i", "u", "x", "X", "o", "c", "s", "q", "Q",   "w",  "z",
                                "f", "e", "E", "g", "G", "p", "n", "r", "%", "lld", "ll", "y"};
  std::string s = "%";
  s += g->Pick(kFlags);
  s += g->Pick(kWidths);
  s += g->Pick(kPrecs);
  s += g->Pick(kConv);
  return s;
}

TEST(Printf, Differential) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(31337 + DiffSeed());
  int calls = 0, failures = 0;
  for (int k = 0; k < 4000 * DiffScale(); ++k) {
    std::string fmt;
    int nspec = 1 + static_cast<int>(g.Below(3));
    for (int i = 0; i < nspec; ++i) {
      if (g.Chance(40)) fmt += g.Chance(50) ? "ab" : "é|";
      fmt += RandomSpec(&g);
    }
    std::vector<Value> args = {Value::Text(fmt)};
    int nargs = static_cast<int>(g.Below(5));
    for (int i = 0; i < nargs; ++i) {
      // Keep '*' widths sane: huge widths are slow in both engines.
      Value v = g.Any();
      if (v.is_int() && (v.int_value() > 100 || v.int_value() < -100)) {
        v = Value::Int(v.int_value() % 50);
      }
      if (v.is_string_like() && v.size() > 0 && v.data()[0] >= '0' && v.data()[0] <= '9') {
        v = Value::Text("7");
      }
      if (v.is_real() && (v.real_value() > 100 || v.real_value() < -100) && g.Chance(50)) {
        v = Value::Real(1.25);
      }
      args.push_back(v);
    }
    if (fmt.find('*') != std::string::npos) {
      // '*' reads an argument as a width or precision: keep every argument
      // small so no call builds a gigabyte of padding (both engines would).
      for (size_t i = 1; i < args.size(); ++i) {
        if (args[i].is_int() || args[i].is_null()) continue;
        args[i] = g.Chance(50) ? Value::Int(g.SmallInt()) : Value::Text("xyz");
      }
    }
    std::string diff = CompareCall(&h, g.Chance(50) ? "printf" : "format", args);
    ++calls;
    if (!diff.empty() && ++failures <= 30) ADD_FAILURE() << diff;
  }
  std::printf("[differential] %d printf calls, %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

TEST(Like, CaseSensitiveDifferential) {
  Oracle* o = SharedOracle();
  if (o == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  ASSERT_TRUE(o->Exec("PRAGMA case_sensitive_like=1"));
  FuncHarness h(/*case_sensitive_like=*/true);
  Gen g(555 + DiffSeed());
  int failures = 0;
  static const char* kPieces[] = {"a", "A", "b", "B", "%", "_", "é", "É", "x", "\\"};
  for (int k = 0; k < 3000 * DiffScale(); ++k) {
    std::string p, s;
    int np = static_cast<int>(g.Below(6)), ns = static_cast<int>(g.Below(6));
    for (int i = 0; i < np; ++i) p += g.Pick(kPieces);
    for (int i = 0; i < ns; ++i) s += g.Pick(kPieces);
    std::string diff = CompareCall(&h, "like", {Value::Text(p), Value::Text(s)});
    if (diff.empty() && g.Chance(30)) {
      diff = CompareCall(&h, "like", {Value::Text(p), Value::Text(s), Value::Text("\\")});
    }
    if (!diff.empty() && ++failures <= 20) ADD_FAILURE() << diff;
  }
  ASSERT_TRUE(o->Exec("PRAGMA case_sensitive_like=0"));
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest
