// The JSON functions: a few rule checks (subtypes, errors, NULLs) and a
// random differential run against libsqlite3 over documents built from
// awkward pieces (numbers at the int64 edges, escapes, surrogates, labels
// with dots and spaces, duplicate labels, deep nesting, a few broken bytes)
// and paths that mix labels, quoted labels, [N], [#-N] and syntax errors.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "check.h"
#include "gen.h"
#include "harness.h"

namespace basalt::functest {
namespace {

constexpr uint8_t kJsonSubtype = 74;

class DocGen {
 public:
  explicit DocGen(Gen* g) : g_(g) {}

  std::string Doc() {
    std::string s = Value(0);
    if (g_->Chance(8) && !s.empty()) Break(&s);
    return s;
  }
  std::string Path() {
    static const char* kSteps[] = {".a",  ".b",    ".\"a b\"",     ".\"a.b\"", ".\"\"",
                                   ".1",  ".a b",  "[0]",          "[1]",      "[2]",
                                   "[#]", "[#-1]", "[#-3]",        "[x]",      "[",
                                   ".",   " ",     "[4294967297]", ".\"a",     ".c"};
    std::string p = g_->Chance(4) ? "" : "$";
    int n = static_cast<int>(g_->Below(4));
    for (int k = 0; k < n; ++k) p += g_->Pick(kSteps);
    return p;
  }

 private:
  std::string Value(int depth) {
    uint64_t r = g_->Below(100);
    if (depth > 3 || r < 45) return Scalar();
    std::string s;
    int n = static_cast<int>(g_->Below(4));
    if (r < 72) {
      s = "[";
      for (int k = 0; k < n; ++k) s += (k ? "," : "") + Space() + Value(depth + 1) + Space();
      return s + "]";
    }
    static const char* kLabels[] = {"\"a\"", "\"b\"", "\"a b\"", "\"a.b\"",
                                    "\"\"",  "\"c\"", "\"1\"",   "\"\\u0061\""};
    s = "{";
    for (int k = 0; k < n; ++k) {
      s += (k ? "," : "") + Space() + g_->Pick(kLabels) + Space() + ":" + Value(depth + 1);
    }
    return s + "}";
  }
  std::string Scalar() {
    static const char* kScalars[] = {"0",
                                     "-0",
                                     "1",
                                     "-7",
                                     "1.5",
                                     "-0.0",
                                     "1e5",
                                     "1E-3",
                                     "2.50",
                                     "1e400",
                                     "-1e400",
                                     "0.1",
                                     "true",
                                     "false",
                                     "null",
                                     "\"\"",
                                     "\"x\"",
                                     "\"a\\\"b\"",
                                     "\"\\\\\"",
                                     "\"\\n\\t\"",
                                     "\"é\"",
                                     "\"\\u00e9\"",
                                     "\"\\ud83d\\ude00\"",
                                     "\"\\ud83d\"",
                                     "\"a\\u0000b\"",
                                     "9223372036854775807",
                                     "9223372036854775808",
                                     "-9223372036854775808",
                                     "-9223372036854775809",
                                     "123456789012345678901",
                                     "\"\\/\""};
    return g_->Pick(kScalars);
  }
  std::string Space() {
    static const char* kSpaces[] = {"", "", "", " ", "\n", "\t", "\r\n "};
    return g_->Pick(kSpaces);
  }
  void Break(std::string* s) {
    static const char kBytes[] = "[]{},:\"\\ 0e-.\f";
    size_t at = g_->Below(s->size());
    if (g_->Chance(50)) {
      s->erase(at, 1);
    } else {
      s->insert(at, 1, kBytes[g_->Below(sizeof(kBytes) - 1)]);
    }
  }
  Gen* g_;
};

TEST(Json, Rules) {
  FuncHarness h;
  CallResult r = h.Call("json", {T(" [ 1 , \"a\" ] ")});
  EXPECT_EQ(r.value.text(), "[1,\"a\"]");
  EXPECT_EQ(r.value.subtype(), kJsonSubtype);
  r = h.Call("json_extract", {T("{\"a\":\"x\"}"), T("$.a")});
  EXPECT_EQ(r.value.text(), "x");
  EXPECT_EQ(r.value.subtype(), 0);
  r = h.Call("->>", {T("{\"a\":[1]}"), T("a")});
  EXPECT_EQ(r.value.text(), "[1]");
  EXPECT_EQ(r.value.subtype(), 0);
  r = h.Call("json_array", {r.value});
  EXPECT_EQ(r.value.text(), "[\"[1]\"]");
  Value nested = h.Call("json", {T("[1]")}).value;
  EXPECT_EQ(h.Call("json_array", {nested}).value.text(), "[[1]]");
  r = h.Call("json", {T("{\"a\":")});
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.message, "malformed JSON");
  r = h.Call("json_extract", {T("{}"), T("$.a[x")});
  EXPECT_FALSE(r.error);  // the rest of a path on a missing label is not read
  r = h.Call("json_extract", {T("{\"a\":[]}"), T("$.a[x")});
  EXPECT_EQ(r.message, "JSON path error near '[x'");
  EXPECT_TRUE(h.Call("json_extract", {N(), T("$")}).value.is_null());
  EXPECT_EQ(h.Call("json_valid", {N()}).value.int_value(), 0);
  r = h.Call("json_object", {I(1), I(2)});
  EXPECT_EQ(r.message, "json_object() labels must be TEXT");
  r = h.Call("json_quote", {B("x")});
  EXPECT_EQ(r.message, "JSON cannot hold BLOB values");
  std::string deep = std::string(2000, '[') + std::string(2000, ']');
  EXPECT_EQ(h.Call("json_valid", {T(deep)}).value.int_value(), 1);
  EXPECT_EQ(h.Call("json_valid", {T("[" + deep + "]")}).value.int_value(), 0);
  r = h.Aggregate("json_group_array", {{I(1)}, {T("x")}, {N()}});
  EXPECT_EQ(r.value.text(), "[1,\"x\",null]");
  EXPECT_EQ(r.value.subtype(), kJsonSubtype);
  EXPECT_EQ(h.Aggregate("json_group_object", {{T("a"), I(1)}, {N(), I(2)}}).value.text(),
            "{\"a\":1,:2}");
}

// The window-frame entry points (value, inverse) of the group functions,
// called the way a frame moves: the first member is dropped by scanning to
// the first comma outside strings and nested containers.
TEST(Json, GroupValueAndInverse) {
  FuncHarness h;
  for (const char* name : {"json_group_array", "json_group_object"}) {
    const bool object = name[11] == 'o';
    const FunctionDef* def = h.registry().Find(name, object ? 2 : 1);
    ASSERT_TRUE(def != nullptr && def->value != nullptr && def->inverse != nullptr);
    FuncContext ctx;
    ctx.def = def;
    Value scratch;
    Value args[2];
    Value* argv[2] = {&args[0], &args[1]};
    auto step = [&](const char* label, Value v) {
      args[0] = object ? T(label) : v;
      args[1] = v;
      ctx.result = &scratch;
      def->step(&ctx, object ? 2 : 1, argv);
    };
    auto inverse = [&]() {
      ctx.result = &scratch;
      def->inverse(&ctx, object ? 2 : 1, argv);
    };
    auto value = [&]() {
      Value r;
      ctx.result = &r;
      def->value(&ctx);
      EXPECT_EQ(r.subtype(), kJsonSubtype);
      return std::string(r.text());
    };
    Value nested = h.Call("json", {T("[1,{\"k\":\"]\"}]")}).value;
    step("a", T("a,b"));
    step("b,c", nested);
    step("d", T("x\"y,"));
    if (object) {
      EXPECT_EQ(value(), R"({"a":"a,b","b,c":[1,{"k":"]"}],"d":"x\"y,"})");
      inverse();
      EXPECT_EQ(value(), R"({"b,c":[1,{"k":"]"}],"d":"x\"y,"})");
      inverse();
      EXPECT_EQ(value(), R"({"d":"x\"y,"})");
    } else {
      EXPECT_EQ(value(), R"(["a,b",[1,{"k":"]"}],"x\"y,"])");
      inverse();
      EXPECT_EQ(value(), R"([[1,{"k":"]"}],"x\"y,"])");
      inverse();
      EXPECT_EQ(value(), R"(["x\"y,"])");
    }
    inverse();
    EXPECT_EQ(value(), object ? "{}" : "[]");
    step("e", I(5));
    EXPECT_EQ(value(), object ? R"({"e":5})" : "[5]");
    Value final_value;
    ctx.result = &final_value;
    def->final(&ctx);
    EXPECT_EQ(final_value.text(), object ? R"({"e":5})" : "[5]");
    FreeAggregateContext(&ctx);
  }
}

TEST(Json, Differential) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(4242 + DiffSeed());
  DocGen d(&g);
  int calls = 0, failures = 0;
  auto check = [&](const std::string& name, const std::vector<Value>& args) {
    std::string diff = CompareCall(&h, name, args);
    ++calls;
    if (!diff.empty() && ++failures <= 40) ADD_FAILURE() << diff;
  };
  // The operators are not callable by name in SQL: "SELECT ?1 -> ?2".
  auto check_arrow = [&](const char* op, const std::vector<Value>& args) {
    Value ref;
    std::string err;
    bool ok = SharedOracle()->Eval(std::string("SELECT ?1 ") + op + " ?2", args, &ref, &err);
    CallResult mine = h.Call(op, args);
    ++calls;
    bool same = ok ? !mine.error && SameValue(ref, mine.value) : mine.error && err == mine.message;
    if (!same && ++failures <= 40) {
      ADD_FAILURE() << Describe(args[0]) << " " << op << " " << Describe(args[1]) << ": referee "
                    << (ok ? Describe(ref) : err) << ", basalt "
                    << (mine.error ? mine.message : Describe(mine.value));
    }
  };
  auto sql_value = [&]() { return g.Chance(70) ? g.SmallNumber() : g.Any(); };
  for (int k = 0; k < 3000 * DiffScale(); ++k) {
    Value doc = T(d.Doc());
    Value p1 = T(d.Path()), p2 = T(d.Path());
    check("json", {doc});
    check("json_valid", {doc});
    check("json_type", {doc, p1});
    check("json_array_length", {doc, p1});
    check("json_extract", {doc, p1});
    check("json_extract", {doc, p1, p2});
    check_arrow("->", {doc, p1});
    check_arrow("->>", {doc, g.Chance(50) ? p2 : g.SmallNumber()});
    check("json_set", {doc, p1, sql_value(), p2, sql_value()});
    check("json_insert", {doc, p1, sql_value()});
    check("json_replace", {doc, p2, sql_value()});
    check("json_remove", {doc, p1, p2});
    check("json_patch", {doc, T(d.Doc())});
    check("json_quote", {sql_value()});
    check("json_array", {sql_value(), sql_value()});
    check("json_object", {g.Chance(90) ? T(g.Text()) : g.Any(), sql_value()});
  }
  std::printf("[differential] %d JSON calls, %d mismatches\n", calls, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest
