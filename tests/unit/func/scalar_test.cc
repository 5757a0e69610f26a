// Hand-picked calls of the scalar functions: literal expectations for the
// headline rules, and edge cases checked against the referee.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "check.h"
#include "func/builtins.h"
#include "harness.h"

namespace basalt::functest {
namespace {

using V = std::vector<Value>;

class ScalarTest : public ::testing::Test {
 protected:
  FuncHarness h_;

  void Same(const std::string& name, const V& args) {
    std::string diff = CompareCall(&h_, name, args);
    EXPECT_EQ(diff, "");
  }
  Value Get(const std::string& name, const V& args) {
    CallResult r = h_.Call(name, args);
    EXPECT_FALSE(r.error) << name << ": " << r.message;
    return std::move(r.value);
  }
};

TEST_F(ScalarTest, ArgumentCountsAreSqlites) {
  const FunctionRegistry& reg = h_.registry();
  EXPECT_EQ(reg.Find("coalesce", 0), nullptr);
  EXPECT_EQ(reg.Find("coalesce", 1), nullptr);
  EXPECT_NE(reg.Find("coalesce", 2), nullptr);
  EXPECT_NE(reg.Find("coalesce", 127), nullptr);
  EXPECT_EQ(reg.Find("max", 0), nullptr);
  ASSERT_NE(reg.Find("max", 1), nullptr);
  EXPECT_TRUE(reg.Find("max", 1)->flags & kFuncAggregate);
  EXPECT_TRUE(reg.Find("max", 1)->flags & kFuncMinMax);
  EXPECT_TRUE(reg.Find("min", 1)->flags & kFuncNeedsCollation);
  ASSERT_NE(reg.Find("max", 2), nullptr);
  EXPECT_FALSE(reg.Find("max", 2)->flags & kFuncAggregate);
  EXPECT_TRUE(reg.Find("max", 3)->flags & kFuncNeedsCollation);
  EXPECT_EQ(reg.Find("ifnull", 1), nullptr);
  EXPECT_EQ(reg.Find("iif", 2), nullptr);
  EXPECT_EQ(reg.Find("count", 2), nullptr);
  EXPECT_TRUE(reg.Find("count", 0)->flags & kFuncCountStar);
  EXPECT_EQ(reg.Find("group_concat", 0), nullptr);
  EXPECT_EQ(reg.Find("random", 1), nullptr);
  EXPECT_EQ(reg.Find("round", 0), nullptr);
  EXPECT_NE(reg.Find("char", 0), nullptr);
  EXPECT_NE(reg.Find("printf", 0), nullptr);
  EXPECT_NE(reg.Find("date", 0), nullptr);
  EXPECT_NE(reg.Find("strftime", 0), nullptr);
  EXPECT_NE(reg.Find("like", 2), nullptr);
  EXPECT_NE(reg.Find("like", 3), nullptr);
  EXPECT_EQ(reg.Find("like", 4), nullptr);
  EXPECT_EQ(reg.Find("glob", 3), nullptr);
  EXPECT_EQ(reg.Find("unhex", 1), nullptr);   // 3.41+
  EXPECT_EQ(reg.Find("concat", 1), nullptr);  // 3.44+
  EXPECT_EQ(reg.Find("octet_length", 1), nullptr);
  EXPECT_EQ(reg.Find("timediff", 2), nullptr);
  EXPECT_NE(reg.Find("sign", 1), nullptr);
  EXPECT_NE(reg.Find("soundex", 1), nullptr);
  EXPECT_NE(reg.Find("SQRT", 1), nullptr);
  EXPECT_NE(reg.Find("log", 2), nullptr);
  EXPECT_TRUE(reg.Find("abs", 1)->flags & kFuncDeterministic);
  EXPECT_FALSE(reg.Find("random", 0)->flags & kFuncDeterministic);
  EXPECT_FALSE(reg.Find("changes", 0)->flags & kFuncDeterministic);
  EXPECT_FALSE(reg.Find("current_date", 0)->flags & kFuncDeterministic);
  EXPECT_TRUE(reg.Find("nullif", 2)->flags & kFuncNeedsCollation);
}

TEST_F(ScalarTest, HeadlineValues) {
  EXPECT_EQ(Get("round", {R(2.5)}).real_value(), 3.0);
  EXPECT_EQ(Get("round", {R(-2.5)}).real_value(), -3.0);
  EXPECT_EQ(Get("round", {R(1.005), I(2)}).real_value(), 1.01);
  EXPECT_EQ(Get("quote", {R(0.1)}).text(), "0.1");
  EXPECT_EQ(Get("quote", {R(1e300)}).text(), "1.0e+300");
  EXPECT_EQ(Get("quote", {R(0.1 + 0.2)}).text(), "3.00000000000000044408e-01");
  EXPECT_EQ(Get("quote", {B("\x00\xff")}).text(), "X''");
  EXPECT_EQ(Get("quote", {B(std::string_view("\x00\xff", 2))}).text(), "X'00FF'");
  EXPECT_EQ(Get("length", {R(1.5)}).int_value(), 3);
  EXPECT_EQ(Get("upper", {I(12)}).text(), "12");
  EXPECT_EQ(Get("hex", {R(1.5)}).text(), "312E35");
  EXPECT_EQ(Get("substr", {R(123.5), I(2)}).text(), "23.5");
  EXPECT_EQ(Get("sqlite_version", {}).text(), "3.40.1");
  EXPECT_EQ(Get("typeof", {B("")}).text(), "blob");
  EXPECT_TRUE(Get("max", {I(1), N(), I(3)}).is_null());
  CallResult r = h_.Call("abs", {I(INT64_MIN)});
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.message, "integer overflow");
}

TEST_F(ScalarTest, AgainstReferee) {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<std::pair<std::string, V>> cases = {
      {"abs", {I(-5)}},
      {"abs", {T("5")}},
      {"abs", {T("abc")}},
      {"abs", {B("5")}},
      {"abs", {R(-0.0)}},
      {"abs", {I(INT64_MIN)}},
      {"abs", {N()}},
      {"abs", {T("-9e999")}},
      {"round", {R(2.5)}},
      {"round", {R(-2.5)}},
      {"round", {R(1.005), I(2)}},
      {"round", {R(1e17 + 0.5)}},
      {"round", {R(0.5)}},
      {"round", {R(-0.5)}},
      {"round", {R(123.456), I(-1)}},
      {"round", {R(1.5), I(4294967297LL)}},
      {"round", {R(2.675), I(2)}},
      {"round", {R(-0.0001), I(2)}},
      {"round", {T("1.25"), T("1")}},
      {"round", {N(), I(1)}},
      {"round", {R(1.5), N()}},
      {"round", {R(4503599627370495.5)}},
      {"round", {R(1e300), I(3)}},
      {"round", {R(0.1234567890123456789), I(30)}},
      {"round", {R(inf)}},
      {"round", {B("3.7")}},
      {"round", {I(INT64_MAX)}},
      {"quote", {R(0.1)}},
      {"quote", {R(1e300)}},
      {"quote", {R(0.1 + 0.2)}},
      {"quote", {R(-0.0)}},
      {"quote", {R(inf)}},
      {"quote", {R(-inf)}},
      {"quote", {R(1e-300)}},
      {"quote", {R(123456789012345678.0)}},
      {"quote", {I(-7)}},
      {"quote", {T("a'b")}},
      {"quote", {T(std::string_view("a\0b", 3))}},
      {"quote", {N()}},
      {"quote", {B("")}},
      {"quote", {T("")}},
      {"quote", {R(5e-324)}},
      {"quote", {R(1.7976931348623157e308)}},
      {"hex", {N()}},
      {"hex", {R(-0.0)}},
      {"hex", {T("é")}},
      {"hex", {I(-1)}},
      {"length", {T("héllo")}},
      {"length", {T(std::string_view("ab\0cd", 5))}},
      {"length", {B(std::string_view("ab\0cd", 5))}},
      {"length", {T("\x80\x80")}},
      {"length", {T("\xc3")}},
      {"length", {I(-123)}},
      {"length", {N()}},
      {"substr", {T("hello"), I(4294967298LL)}},
      {"substr", {T("hello"), I(0), I(2)}},
      {"substr", {T("hello"), I(-2)}},
      {"substr", {T("hello"), I(2), I(-1)}},
      {"substr", {B("\x01\x02"), I(0), I(2)}},
      {"substr", {B(""), I(1)}},
      {"substr", {T(""), I(1)}},
      {"substr", {T("héllo"), I(2), I(2)}},
      {"substr", {T("hello"), I(-10), I(7)}},
      {"substr", {T("hello"), I(3), I(-10)}},
      {"substr", {T("hello"), N()}},
      {"substr", {N(), I(1)}},
      {"substr", {T("hello"), R(2.9)}},
      {"substr", {T("hello"), I(1), R(1e10)}},
      {"substr", {B("abcdef"), I(-3), I(-2)}},
      {"substring", {T("hello"), I(2)}},
      {"substr", {T("ab\0cd"), I(2)}},
      {"lower", {T("ÀBC")}},
      {"upper", {B("abc")}},
      {"upper", {N()}},
      {"trim", {T("  a  ")}},
      {"ltrim", {T("xxaxx"), T("x")}},
      {"rtrim", {T("xxaxx"), T("x")}},
      {"trim", {T("éaé"), T("é")}},
      {"trim", {T("abc"), T("")}},
      {"trim", {T("abc"), N()}},
      {"trim", {I(1001), I(1)}},
      {"trim", {B("  a "), T(" ")}},
      {"trim", {N()}},
      {"replace", {I(123), T(""), T("x")}},
      {"replace", {T("abc"), T(""), N()}},
      {"replace", {B("A"), T(""), T("x")}},
      {"replace", {R(1.5), T(""), T("x")}},
      {"replace", {T("abc"), T("b"), N()}},
      {"replace", {T("aaaa"), T("aa"), T("b")}},
      {"replace", {T("abcabc"), T("bc"), I(9)}},
      {"replace", {I(1221), I(2), I(33)}},
      {"replace", {N(), T("a"), T("b")}},
      {"replace", {T("abc"), N(), T("b")}},
      {"instr", {T("hello"), T("l")}},
      {"instr", {T("héllo"), T("l")}},
      {"instr", {B("hello"), B("l")}},
      {"instr", {B(""), B("")}},
      {"instr", {B("\x01"), B("")}},
      {"instr", {T("abc"), T("")}},
      {"instr", {T("abc"), N()}},
      {"instr", {I(12345), I(34)}},
      {"instr", {B("héllo"), T("l")}},
      {"instr", {T("a"), T("abc")}},
      {"char", {}},
      {"char", {I(65), I(0x10ffff), I(0x110000), I(-1), I(0xd800), N(), T("66")}},
      {"unicode", {T("")}},
      {"unicode", {B("A")}},
      {"unicode", {T("é")}},
      {"unicode", {N()}},
      {"unicode", {T("\xed\xa0\x80")}},
      {"unicode", {T("\xc0\x80")}},
      {"zeroblob", {I(-1)}},
      {"zeroblob", {I(3)}},
      {"zeroblob", {T("2")}},
      {"soundex", {T("")}},
      {"soundex", {B("\xc3\xa9")}},
      {"soundex", {T("Robert")}},
      {"soundex", {T("Tymczak")}},
      {"soundex", {T("Pfister")}},
      {"soundex", {T("  ashcraft")}},
      {"soundex", {T("A\xc2\xb2")}},
      {"soundex", {N()}},
      {"soundex", {I(12)}},
      {"typeof", {R(1)}},
      {"typeof", {N()}},
      {"coalesce", {N(), I(2)}},
      {"ifnull", {N(), N()}},
      {"iif", {T("0.5"), I(1), I(2)}},
      {"iif", {N(), I(1), I(2)}},
      {"iif", {T("a"), I(1), I(2)}},
      {"nullif", {I(1), R(1.0)}},
      {"nullif", {T("a"), T("A")}},
      {"nullif", {N(), N()}},
      {"max", {I(1), R(1.0)}},
      {"min", {I(1), R(1.0)}},
      {"max", {T("a"), B("a"), I(9)}},
      {"min", {T("a"), B("a"), I(9)}},
      {"min", {T("b"), T("a"), N()}},
      {"likely", {T("x")}},
      {"unlikely", {I(3)}},
      {"printf", {}},
      {"printf", {N()}},
      {"printf", {T("%d %s %5.2f"), T("12abc"), N(), T("3.14159")}},
      {"format", {T("%q|%Q|%w"), T("it's"), N(), T("a\"b")}},
      {"printf", {I(42)}},
      {"printf", {T("%c%c"), T("héllo"), T("")}},
      {"printf", {T("%,d"), I(-1234567)}},
      {"printf", {T("%.3s|%-5s|%5s"), T("abcdef"), T("ab"), T("ab")}},
      {"printf", {T("%x %X %o %p"), I(255), I(-1), I(8), I(255)}},
      {"printf", {T("%e %g %G %!.20g"), R(12345.678), R(1e-5), R(1e20), R(0.1)}},
      {"printf", {T("%n%z%%%r"), T("a"), I(3)}},
      {"sign", {I(-5)}},
      {"sign", {R(0.0)}},
      {"sign", {T("3x")}},
      {"sign", {T(" 3 ")}},
      {"sign", {B("1")}},
      {"sign", {N()}},
      {"sign", {R(-0.0)}},
      {"sqlite_source_id", {}},
      {"sqlite_version", {}},
      {"like", {T("a%"), T("ABC")}},
      {"like", {T("a%"), B("abc")}},
      {"like", {B("a"), N()}},
      {"like", {T("a_c"), T("abc"), T("_")}},
      {"like", {T("a"), T("a"), N()}},
      {"like", {T("a"), T("a"), T("ab")}},
      {"like", {N(), T("a"), T("ab")}},
      {"like", {T("a"), T("a"), T("")}},
      {"glob", {T("[a-c]*"), T("bxx")}},
      {"glob", {T("*[]]"), T("a]")}},
      {"glob", {T("[^a]"), T("a")}},
      {"sqlite_log", {I(1), T("x")}},
      {"subtype", {I(1)}},
      {"subtype", {N()}},
      {"subtype", {T("x")}},
      {"sqlite_compileoption_used", {T("SQLITE_ENABLE_FTS3")}},
      {"sqlite_compileoption_used", {T("enable_fts")}},
      {"sqlite_compileoption_used", {T("max_length")}},
      {"sqlite_compileoption_used", {T("MAX_LENGTH=1000000000")}},
      {"sqlite_compileoption_used", {N()}},
      {"sqlite_compileoption_used", {T("")}},
      {"sqlite_compileoption_used", {T("sqlite_")}},
      {"sqlite_compileoption_used", {I(1)}},
      {"sqlite_compileoption_used", {T("soundex")}},
      {"sqlite_compileoption_used", {T("SOUNDEX ")}},
      {"sqlite_compileoption_get", {I(0)}},
      {"sqlite_compileoption_get", {I(-1)}},
      {"sqlite_compileoption_get", {I(57)}},
      {"sqlite_compileoption_get", {I(58)}},
      {"sqlite_compileoption_get", {N()}},
      {"sqlite_compileoption_get", {T("3")}},
      {"sqlite_compileoption_get", {I(4294967296LL)}},
      {"sqlite_compileoption_get", {R(2.9)}},
      {"load_extension", {T("x")}},
  };
  for (auto& [name, args] : cases) Same(name, args);
}

TEST_F(ScalarTest, MathAgainstReferee) {
  const char* one[] = {"acos", "asin",  "atan", "ceil", "ceiling", "cos",   "cosh",    "degrees",
                       "exp",  "floor", "ln",   "log",  "log10",   "log2",  "radians", "sin",
                       "sinh", "sqrt",  "tan",  "tanh", "trunc",   "acosh", "asinh",   "atanh"};
  V inputs = {I(0),      I(1),      I(-1),        I(10),     R(0.5),       R(-0.5),
              R(2.5),    R(-2.5),   R(1e308),     R(-1e308), T("4"),       T("4.0"),
              T("abc"),  T("4abc"), B("4"),       N(),       I(INT64_MAX), I(INT64_MIN),
              R(1e-320), T(" 16 "), R(0.9999999), I(100)};
  for (const char* f : one) {
    for (const Value& x : inputs) Same(f, {x});
  }
  const char* two[] = {"atan2", "pow", "power", "mod", "log"};
  V small = {I(0), I(2), I(-3), R(0.5), R(-2.5), T("8"), T("8abc"), N(), B("2"), R(1e300)};
  for (const char* f : two) {
    for (const Value& x : small) {
      for (const Value& y : small) Same(f, {x, y});
    }
  }
  Same("pi", {});
}

// likelihood(X,P) needs a literal P in SQL, so it is checked directly.
TEST_F(ScalarTest, LikelihoodReturnsItsFirstArgument) {
  Value v = Get("likelihood", {T("x"), R(0.5)});
  EXPECT_EQ(v.text(), "x");
}

}  // namespace
}  // namespace basalt::functest

namespace basalt::functest {
namespace {

TEST(Registration, SharedRegistryAndCost) {
  const FunctionRegistry& a = SharedBuiltinFunctions(false);
  const FunctionRegistry& b = SharedBuiltinFunctions(true);
  EXPECT_EQ(&a, &SharedBuiltinFunctions(false));
  EXPECT_NE(&a, &b);
  EXPECT_NE(a.Find("like", 2)->scalar, b.Find("like", 2)->scalar);
  EXPECT_EQ(a.Find("glob", 2)->scalar, b.Find("glob", 2)->scalar);
  FunctionRegistry reg;
  RegisterBuiltinFunctions(&reg, false);
  EXPECT_TRUE(reg.Find("like", 2)->flags & kFuncDeterministic);
  RegisterLikeFunctions(&reg, true);
  EXPECT_EQ(reg.Find("like", 2)->flags, 0u);
  EXPECT_EQ(reg.Find("like", 3)->scalar, b.Find("like", 3)->scalar);
  auto t0 = std::chrono::steady_clock::now();
  const int kRounds = 50;
  for (int i = 0; i < kRounds; ++i) {
    FunctionRegistry reg;
    RegisterBuiltinFunctions(&reg, false);
  }
  auto t1 = std::chrono::steady_clock::now();
  std::printf("[registration] RegisterBuiltinFunctions: %.1f us\n",
              std::chrono::duration<double, std::micro>(t1 - t0).count() / kRounds);
}

}  // namespace
}  // namespace basalt::functest

namespace basalt::functest {
namespace {

TEST(Registration, CompileOptionsMatchTheReferee) {
  Oracle* o = SharedOracle();
  if (o == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  Value ref;
  std::string err;
  ASSERT_TRUE(o->Eval("SELECT group_concat(compile_options, ',') FROM pragma_compile_options", {},
                      &ref, &err))
      << err;
  std::string mine;
  for (const char* opt : CompileOptionList()) {
    if (!mine.empty()) mine += ",";
    mine += opt;
  }
  EXPECT_EQ(mine, ref.text());
  EXPECT_TRUE(CompileOptionUsed("SQLITE_THREADSAFE"));
  EXPECT_FALSE(CompileOptionUsed("THREAD"));
}

}  // namespace
}  // namespace basalt::functest

namespace basalt::functest {
namespace {

// The referee's own function list (pragma_function_list of the library,
// not the shell): every non-JSON, non-FTS, non-window-only entry must be
// registered with the same argument count, kind and determinism.
TEST(Registration, MatchesRefereeFunctionList) {
  Oracle* o = SharedOracle();
  if (o == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  Value ref;
  std::string err;
  ASSERT_TRUE(
      o->Eval("SELECT group_concat(name || '/' || narg || '/' || type || '/' || "
              "(flags & 2048 != 0), ' ') FROM pragma_function_list WHERE builtin",
              {}, &ref, &err))
      << err;
  const char* skip[] = {
      "->",         "->>",     "bm25",        "highlight",      "snippet",   "match",
      "matchinfo",  "offsets", "optimize",    "fts3_tokenizer", "fts5",      "fts5_source_id",
      "row_number", "rank",    "dense_rank",  "percent_rank",   "cume_dist", "ntile",
      "lag",        "lead",    "first_value", "last_value",     "nth_value"};
  FuncHarness h;
  std::string list(ref.text());
  size_t checked = 0;
  size_t pos = 0;
  while (pos < list.size()) {
    size_t end = list.find(' ', pos);
    if (end == std::string::npos) end = list.size();
    std::string entry = list.substr(pos, end - pos);
    pos = end + 1;
    size_t a = entry.find('/', 1);  // names like "->" contain no '/'
    size_t b = entry.find('/', a + 1);
    size_t c = entry.find('/', b + 1);
    std::string name = entry.substr(0, a);
    int narg = std::stoi(entry.substr(a + 1, b - a - 1));
    std::string type = entry.substr(b + 1, c - b - 1);
    bool deterministic = entry.substr(c + 1) == "1";
    bool skipped = name.rfind("json", 0) == 0 || name.rfind("rtree", 0) == 0;
    for (const char* s : skip) skipped = skipped || name == s;
    if (skipped) continue;
    int probe = narg >= 0 ? narg : 2;
    const FunctionDef* def = h.registry().Find(name, probe);
    ASSERT_NE(def, nullptr) << name << "/" << narg;
    if (narg >= 0) {
      EXPECT_EQ(def->nargs, narg) << name;
    }
    bool agg = (def->flags & kFuncAggregate) != 0;
    EXPECT_EQ(agg, type == "w") << name << "/" << narg;
    EXPECT_EQ((def->flags & kFuncDeterministic) != 0, deterministic) << name << "/" << narg;
    ++checked;
  }
  EXPECT_GT(checked, 100u);
}

}  // namespace
}  // namespace basalt::functest

namespace basalt::functest {
namespace {

class FakeHooks : public ConnectionHooks {
 public:
  int64_t LastInsertRowid() override { return 42; }
  int64_t Changes() override { return 3; }
  int64_t TotalChanges() override { return 17; }
};

TEST(Connection, CountersComeFromTheHooks) {
  FuncHarness h;
  FakeHooks hooks;
  auto call = [&](const char* name) {
    const FunctionDef* def = h.registry().Find(name, 0);
    Value out;
    FuncContext ctx;
    ctx.def = def;
    ctx.conn = &hooks;
    ctx.result = &out;
    def->scalar(&ctx, 0, nullptr);
    return out.int_value();
  };
  EXPECT_EQ(call("last_insert_rowid"), 42);
  EXPECT_EQ(call("changes"), 3);
  EXPECT_EQ(call("total_changes"), 17);
}

TEST(Connection, StepClockNests) {
  int64_t outer_ms;
  {
    StepClock outer;
    outer_ms = CurrentUnixTimeMs();
    {
      StepClock inner;
      int64_t inner_ms = CurrentUnixTimeMs();
      EXPECT_GE(inner_ms, outer_ms);
      EXPECT_EQ(CurrentUnixTimeMs(), inner_ms);
    }
    EXPECT_EQ(CurrentUnixTimeMs(), outer_ms);
  }
  EXPECT_GE(CurrentUnixTimeMs(), outer_ms);
}

}  // namespace
}  // namespace basalt::functest
