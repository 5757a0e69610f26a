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
#include "record/collation.h"
#include "record/value_ops.h"

namespace basalt::functest {
namespace {

// Argument kinds: 'a' any value, 'n' a small number (sometimes anything),
// 't' text (sometimes anything), 'c' a character set for trim, 'z' a
// small size.
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
    {"unicode", "a"},   {"zeroblob", "z"},    {"soundex", "a"},   {"typeof", "a"},
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
    case 'z': {  // a size: small, so no call allocates gigabytes
      static const char* kTexts[] = {"3", " 2 ", "x", "1e3", "-1"};
      if (g->Chance(20)) return Value::Text(g->Pick(kTexts));
      if (g->Chance(10)) return Value::Real(2.5);
      return Value::Int(static_cast<int64_t>(g->Below(2000)) - 100);
    }
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

namespace basalt::functest {
namespace {

// min/max/nullif under NOCASE and RTRIM: the referee gets the collation from
// a COLLATE on the first argument, Basalt through ctx->coll.
TEST(Differential, CollationAwareFunctions) {
  Oracle* o = SharedOracle();
  if (o == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(808 + DiffSeed());
  static const char* kTexts[] = {"a", "A", "b", "B", "a ", "A  ", "ab", "Ab", "", " ", "é", "É"};
  const std::pair<const char*, const Collation*> colls[] = {
      {"NOCASE", NocaseCollation()}, {"RTRIM", RtrimCollation()}, {"BINARY", BinaryCollation()}};
  int failures = 0, calls = 0;
  for (int k = 0; k < 3000 * DiffScale(); ++k) {
    const auto& [cname, coll] = colls[g.Below(3)];
    static const char* kFuncs[] = {"min", "max", "nullif"};
    std::string f = g.Pick(kFuncs);
    size_t n = f == "nullif" ? 2 : 2 + g.Below(3);
    std::vector<Value> args;
    for (size_t i = 0; i < n; ++i) {
      args.push_back(g.Chance(85) ? Value::Text(g.Pick(kTexts)) : g.Any());
    }
    std::string sql = "SELECT " + f + "(?1 COLLATE " + cname;
    for (size_t i = 1; i < n; ++i) sql += ", ?" + std::to_string(i + 1);
    sql += ")";
    Value ref;
    std::string err;
    ASSERT_TRUE(o->Eval(sql, args, &ref, &err)) << err;
    CallResult mine = h.Call(f, args, coll);
    ++calls;
    if (!SameValue(ref, mine.value) && ++failures <= 20) {
      std::string d;
      for (auto& a : args) d += Describe(a) + " ";
      ADD_FAILURE() << sql << " with " << d << ": referee " << Describe(ref) << ", basalt "
                    << Describe(mine.value);
    }
    // The aggregate forms over the same values.
    if (f != "nullif") {
      std::string asql =
          "SELECT " + f + "(column1 COLLATE " + std::string(cname) + ") FROM (VALUES ";
      std::vector<std::vector<Value>> rows;
      for (size_t i = 0; i < n; ++i) {
        asql += i ? ",(?" : "(?";
        asql += std::to_string(i + 1) + ")";
        rows.push_back({args[i]});
      }
      asql += ")";
      ASSERT_TRUE(o->Eval(asql, args, &ref, &err)) << err;
      CallResult agg = h.Aggregate(f, rows, coll);
      ++calls;
      if (!SameValue(ref, agg.value) && ++failures <= 20) {
        ADD_FAILURE() << asql << ": referee " << Describe(ref) << ", basalt "
                      << Describe(agg.value);
      }
    }
  }
  std::printf("[differential] %d collation-aware calls, %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest

namespace basalt::functest {
namespace {

// Every deterministic scalar SQLite 3.40.1 lists, with fully random
// arguments of every storage class (the shapes above bias towards
// meaningful ones).
TEST(Differential, EveryFunctionWithAnyArguments) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(99 + DiffSeed());
  const std::pair<const char*, int> funcs[] = {
      {"abs", 1},        {"acos", 1},      {"acosh", 1},     {"asin", 1},   {"asinh", 1},
      {"atan", 1},       {"atan2", 2},     {"atanh", 1},     {"ceil", 1},   {"ceiling", 1},
      {"char", -1},      {"coalesce", -1}, {"cos", 1},       {"cosh", 1},   {"date", -1},
      {"datetime", -1},  {"degrees", 1},   {"exp", 1},       {"floor", 1},  {"format", -1},
      {"glob", 2},       {"hex", 1},       {"ifnull", 2},    {"iif", 3},    {"instr", 2},
      {"julianday", -1}, {"length", 1},    {"like", 2},      {"like", 3},   {"ln", 1},
      {"log", 1},        {"log", 2},       {"log10", 1},     {"log2", 1},   {"lower", 1},
      {"ltrim", 1},      {"ltrim", 2},     {"max", -1},      {"min", -1},   {"mod", 2},
      {"nullif", 2},     {"pi", 0},        {"pow", 2},       {"power", 2},  {"printf", -1},
      {"quote", 1},      {"radians", 1},   {"replace", 3},   {"round", 1},  {"round", 2},
      {"rtrim", 1},      {"rtrim", 2},     {"sign", 1},      {"sin", 1},    {"sinh", 1},
      {"soundex", 1},    {"sqrt", 1},      {"strftime", -1}, {"substr", 2}, {"substr", 3},
      {"substring", 2},  {"substring", 3}, {"tan", 1},       {"tanh", 1},   {"time", -1},
      {"trim", 1},       {"trim", 2},      {"trunc", 1},     {"typeof", 1}, {"unicode", 1},
      {"unixepoch", -1}, {"unlikely", 1},  {"likely", 1},    {"upper", 1},  {"zeroblob", 1}};
  int calls = 0, failures = 0;
  for (const auto& [name, nargs] : funcs) {
    std::string f = name;
    for (int k = 0; k < 150 * DiffScale(); ++k) {
      int n = nargs;
      if (n < 0) {
        int lo = (f == "coalesce" || f == "max" || f == "min") ? 2 : 0;
        n = lo + static_cast<int>(g.Below(4));
      }
      std::vector<Value> args;
      for (int i = 0; i < n; ++i) {
        Value v = g.Any();
        // zeroblob of a huge count would allocate gigabytes in both engines.
        if (f == "zeroblob" && ValueToInt64(v) > 100000) v = Value::Int(g.SmallInt());
        // A random format may ask for enormous widths.
        if ((f == "printf" || f == "format") && i == 0 && g.Chance(70)) v = Value::Text("%s|%d");
        if ((f == "printf" || f == "format") && i > 0 && v.is_string_like() && v.size() > 0 &&
            v.data()[0] >= '0' && v.data()[0] <= '9') {
          v = Value::Text("q");
        }
        args.push_back(v);
      }
      // Without arguments the date functions read the clock ('now'), which
      // moves between the two engines' calls.
      const bool clock = f == "date" || f == "strftime" || f == "datetime" || f == "time" ||
                         f == "julianday" || f == "unixepoch";
      if (clock && n == 0) continue;
      if ((f == "printf" || f == "format") && !args.empty() && args[0].is_string_like() &&
          std::string_view(args[0].data(), args[0].size()).find('*') != std::string_view::npos) {
        continue;
      }
      std::string diff = CompareCall(&h, f, args);
      ++calls;
      if (!diff.empty() && ++failures <= 40) ADD_FAILURE() << diff;
    }
  }
  std::printf("[differential] %d any-argument calls, %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest
