// Random differential test of the deterministic scalar functions: thousands
// of generated calls, each evaluated by Basalt and by the system sqlite3,
// compared on type and value (reals bit for bit) or on the error message.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "check.h"
#include "gen.h"
#include "harness.h"

namespace basalt::functest {
namespace {

// Argument kinds: 'a' any value, 'n' a small number (sometimes anything),
// 't' text (sometimes anything), 'c' a character set for trim.
struct Shape {
  const char* name;
  const char* args;
};

constexpr Shape kShapes[] = {
    {"abs", "a"},       {"round", "a"},       {"round", "an"},    {"sign", "a"},
    {"length", "a"},    {"lower", "a"},       {"upper", "a"},     {"substr", "an"},
    {"substr", "ann"},  {"substring", "ann"}, {"trim", "a"},      {"trim", "ac"},
    {"ltrim", "a"},     {"ltrim", "ac"},      {"rtrim", "a"},     {"rtrim", "ac"},
    {"replace", "ata"}, {"replace", "aaa"},   {"instr", "aa"},    {"instr", "tt"},
    {"hex", "a"},       {"quote", "a"},       {"char", "nnn"},    {"char", "a"},
    {"unicode", "a"},   {"zeroblob", "n"},    {"soundex", "a"},   {"typeof", "a"},
    {"coalesce", "aa"}, {"coalesce", "aaa"},  {"ifnull", "aa"},   {"iif", "aaa"},
    {"nullif", "aa"},   {"max", "aa"},        {"max", "aaa"},     {"min", "aa"},
    {"min", "aaaa"},    {"likely", "a"},      {"unlikely", "a"},  {"ceil", "a"},
    {"floor", "a"},     {"trunc", "a"},       {"sqrt", "a"},      {"exp", "a"},
    {"ln", "a"},        {"log", "a"},         {"log", "aa"},      {"log2", "a"},
    {"pow", "aa"},      {"mod", "aa"},        {"atan2", "aa"},    {"sin", "a"},
    {"acos", "a"},      {"degrees", "a"},     {"radians", "a"},   {"tanh", "a"},
    {"acosh", "a"},     {"atanh", "a"},       {"julianday", "a"}, {"date", "a"},
    {"unixepoch", "a"}, {"datetime", "a"},    {"time", "a"},      {"strftime", "ta"},
};

Value MakeArg(Gen* g, char kind) {
  switch (kind) {
    case 'n':
      return g->SmallNumber();
    case 't':
      return g->Chance(80) ? Value::Text(g->Text()) : g->Any();
    case 'c': {
      if (g->Chance(20)) return g->Any();
      static const char* kSets[] = {"a", "ab", " ", "é", "xé", "", "\xc3", "1", ".", "'%"};
      return Value::Text(g->Pick(kSets));
    }
    default:
      return g->Any();
  }
}

TEST(Differential, ScalarFunctions) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(20240601 + DiffSeed());
  const int kPerShape = 400 * DiffScale();
  int calls = 0, failures = 0;
  for (const Shape& s : kShapes) {
    for (int k = 0; k < kPerShape; ++k) {
      std::vector<Value> args;
      for (const char* a = s.args; *a; ++a) args.push_back(MakeArg(&g, *a));
      std::string diff = CompareCall(&h, s.name, args);
      ++calls;
      if (!diff.empty()) {
        ++failures;
        if (failures <= 40) ADD_FAILURE() << diff;
      }
    }
  }
  std::printf("[differential] %d scalar calls, %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest

namespace basalt::functest {
namespace {

// The comparison machinery itself: the referee answers, and a difference
// is reported.
TEST(Differential, OracleSanity) {
  Oracle* o = SharedOracle();
  if (o == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  Value v;
  std::string err;
  ASSERT_TRUE(o->Eval("SELECT upper(?1)", {Value::Text("abc")}, &v, &err));
  EXPECT_EQ(Describe(v), "text:'ABC'");
  EXPECT_FALSE(o->Eval("SELECT abs(?1)", {Value::Int(INT64_MIN)}, &v, &err));
  EXPECT_EQ(err, "integer overflow");
  EXPECT_FALSE(SameValue(Value::Int(1), Value::Real(1.0)));
  EXPECT_FALSE(SameValue(Value::Text("a"), Value::Text("b")));
  FuncHarness h;
  EXPECT_EQ(CompareCall(&h, "typeof", {Value::Int(1)}), "");
}

}  // namespace
}  // namespace basalt::functest
