// Aggregates: empty groups, NULL handling, sum overflow, skip flags, the
// window entry points (value/inverse checked against recomputation), and a
// random differential run against the referee.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "check.h"
#include "gen.h"
#include "harness.h"

namespace basalt::functest {
namespace {

using Rows = std::vector<std::vector<Value>>;

TEST(Aggregate, EmptyGroupAndFinalWithoutStep) {
  FuncHarness h;
  EXPECT_EQ(h.Aggregate("count", {}).value.int_value(), 0);
  EXPECT_TRUE(h.Aggregate("sum", {}).value.is_null());
  CallResult t = h.Aggregate("total", {});
  ASSERT_TRUE(t.value.is_real());
  EXPECT_EQ(t.value.real_value(), 0.0);
  EXPECT_TRUE(h.Aggregate("avg", {}).value.is_null());
  EXPECT_TRUE(h.Aggregate("group_concat", {}).value.is_null());
  EXPECT_TRUE(h.Aggregate("max", {}).value.is_null());
  EXPECT_TRUE(h.Aggregate("min", {}).value.is_null());
  // Only NULLs: state may exist but the results are the empty ones.
  Rows nulls = {{N()}, {N()}};
  EXPECT_EQ(h.Aggregate("count", nulls).value.int_value(), 0);
  EXPECT_TRUE(h.Aggregate("sum", nulls).value.is_null());
  EXPECT_EQ(h.Aggregate("total", nulls).value.real_value(), 0.0);
  EXPECT_TRUE(h.Aggregate("group_concat", nulls).value.is_null());
  EXPECT_TRUE(h.Aggregate("max", nulls).value.is_null());
}

TEST(Aggregate, SumRules) {
  FuncHarness h;
  CallResult r = h.Aggregate("sum", {{I(INT64_MAX)}, {I(1)}});
  EXPECT_TRUE(r.error);
  EXPECT_EQ(r.message, "integer overflow");
  r = h.Aggregate("sum", {{R(1.5)}, {I(INT64_MAX)}, {I(1)}});
  EXPECT_FALSE(r.error);
  EXPECT_TRUE(r.value.is_real());
  EXPECT_EQ(h.Aggregate("sum", {{T("1")}, {T(" 2 ")}}).value.int_value(), 3);
  EXPECT_TRUE(h.Aggregate("sum", {{T("1.0")}}).value.is_real());
  EXPECT_TRUE(h.Aggregate("sum", {{T("abc")}}).value.is_real());
  EXPECT_FALSE(h.Aggregate("avg", {{I(INT64_MAX)}, {I(1)}}).error);
  EXPECT_FALSE(h.Aggregate("total", {{I(INT64_MAX)}, {I(1)}}).error);
}

TEST(Aggregate, GroupConcatSeparators) {
  FuncHarness h;
  EXPECT_EQ(h.Aggregate("group_concat", {{T("a")}, {N()}, {I(1)}, {R(2.5)}}).value.text(),
            "a,1,2.5");
  EXPECT_EQ(
      h.Aggregate("group_concat", {{T("a"), T("-")}, {T("b"), N()}, {T("c"), T("+")}}).value.text(),
      "ab+c");
  EXPECT_EQ(h.Aggregate("group_concat", {{T("")}, {T("")}}).value.text(), ",");
  CallResult one_empty = h.Aggregate("group_concat", {{T("")}});
  ASSERT_TRUE(one_empty.value.is_text());
  EXPECT_EQ(one_empty.value.text(), "");
}

TEST(Aggregate, MinMaxSkipFlagsAndCollation) {
  FuncHarness h;
  std::vector<int> skips;
  CallResult r =
      h.Aggregate("max", {{N()}, {I(3)}, {I(5)}, {N()}, {I(4)}, {I(5)}}, nullptr, &skips);
  EXPECT_EQ(r.value.int_value(), 5);
  EXPECT_EQ(skips, (std::vector<int>{0, 0, 0, 1, 1, 1}));
  r = h.Aggregate("min", {{T("b")}, {T("A")}, {T("a")}}, NocaseCollation());
  EXPECT_EQ(r.value.text(), "A");
  r = h.Aggregate("max", {{T("b")}, {T("B")}}, NocaseCollation());
  EXPECT_EQ(r.value.text(), "b");
  r = h.Aggregate("max", {{I(1)}, {T("1")}, {B("1")}, {R(9e99)}});
  EXPECT_TRUE(r.value.is_blob());
}

// Window frames: "f(...) OVER (ROWS BETWEEN w PRECEDING AND CURRENT ROW)"
// evaluated by the referee, against step/inverse/value driven the same way
// (inverse the row that left, step the new row, then value: the order SQLite's
// window code uses, which is visible in group_concat's separator handling).
// Values are kept small so floating sums are exact.
TEST(Aggregate, WindowValueAndInverse) {
  Oracle* o = SharedOracle();
  if (o == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(9 + DiffSeed());
  const std::pair<const char*, int> shapes[] = {
      {"count", 1}, {"sum", 1}, {"total", 1}, {"avg", 1}, {"group_concat", 1}, {"group_concat", 2}};
  int frames = 0, failures = 0;
  for (const auto& [name, nargs] : shapes) {
    const FunctionDef* def = h.registry().Find(name, nargs);
    ASSERT_NE(def, nullptr);
    ASSERT_NE(def->inverse, nullptr) << name;
    ASSERT_NE(def->value, nullptr) << name;
    for (int trial = 0; trial < 150 * DiffScale(); ++trial) {
      Rows all;
      int n = 1 + static_cast<int>(g.Below(10));
      for (int k = 0; k < n; ++k) {
        std::vector<Value> row;
        switch (g.Below(5)) {
          case 0:
            row.push_back(Value());
            break;
          case 1:
          case 2:
            row.push_back(Value::Int(g.SmallInt()));
            break;
          case 3:
            row.push_back(Value::Real(static_cast<double>(g.SmallInt()) / 4));
            break;
          default: {
            static const char* kTexts[] = {"ab", "", "x", "7", "1.5"};
            row.push_back(Value::Text(g.Pick(kTexts)));
            break;
          }
        }
        if (nargs == 2) {
          static const char* kSeps[] = {",", "--", "", "+++"};
          row.push_back(g.Chance(15) ? Value() : Value::Text(g.Pick(kSeps)));
        }
        all.push_back(row);
      }
      size_t width = g.Below(4);  // rows preceding the current one
      // Referee: every frame's value, quoted, joined with '|'.
      std::string sql = "SELECT group_concat(quote(v), '|') FROM (SELECT " + std::string(name) +
                        (nargs == 2 ? "(a, b)" : "(a)") + " OVER (ORDER BY i ROWS BETWEEN " +
                        std::to_string(width) + " PRECEDING AND CURRENT ROW) AS v FROM (";
      std::vector<Value> flat;
      for (size_t r = 0; r < all.size(); ++r) {
        sql += r ? " UNION ALL SELECT " : "SELECT ";
        sql += std::to_string(r) + " AS i, ?" + std::to_string(flat.size() + 1) + " AS a";
        flat.push_back(all[r][0]);
        sql += ", ?" + std::to_string(flat.size() + 1) + " AS b";
        flat.push_back(nargs == 2 ? all[r][1] : Value());
      }
      sql += ") ORDER BY i)";
      Value ref;
      std::string err;
      ASSERT_TRUE(o->Eval(sql, flat, &ref, &err)) << err << " in " << sql;
      // Basalt: the same frames through step/inverse/value, rendered by quote().
      std::string mine;
      FuncContext ctx;
      ctx.def = def;
      for (size_t hi = 0; hi < all.size(); ++hi) {
        Value dummy;
        ctx.result = &dummy;
        if (hi >= width + 1) {
          std::vector<Value*> old;
          for (auto& v : all[hi - width - 1]) old.push_back(&v);
          def->inverse(&ctx, nargs, old.data());
        }
        std::vector<Value*> argv;
        for (auto& v : all[hi]) argv.push_back(&v);
        def->step(&ctx, nargs, argv.data());
        Value got;
        ctx.result = &got;
        def->value(&ctx);
        CallResult q = h.Call("quote", {got});
        if (hi) mine += "|";
        mine += q.value.text();
        ++frames;
      }
      Value last;
      ctx.result = &last;
      def->final(&ctx);
      FreeAggregateContext(&ctx);
      if (ref.is_null() || ref.text() != mine) {
        std::string rows;
        for (const auto& row : all) {
          rows += " (";
          for (const auto& v : row) rows += Describe(v) + " ";
          rows += ")";
        }
        if (++failures <= 20) {
          ADD_FAILURE() << name << "/" << nargs << " width " << width << " rows" << rows
                        << "\n referee " << Describe(ref) << "\n basalt  " << mine;
        }
      }
    }
  }
  std::printf("[differential] %d window frames, %d mismatching runs\n", frames, failures);
  EXPECT_EQ(failures, 0);
}

TEST(Aggregate, Differential) {
  if (SharedOracle() == nullptr) GTEST_SKIP() << "libsqlite3 not available";
  FuncHarness h;
  Gen g(4242 + DiffSeed());
  const std::pair<const char*, int> shapes[] = {
      {"count", 1},        {"sum", 1},          {"total", 1}, {"avg", 1},
      {"group_concat", 1}, {"group_concat", 2}, {"max", 1},   {"min", 1}};
  int runs = 0, failures = 0;
  for (const auto& [name, nargs] : shapes) {
    for (int trial = 0; trial < 500 * DiffScale(); ++trial) {
      Rows rows;
      int n = static_cast<int>(g.Below(8));
      bool ints_only = g.Chance(40);
      for (int k = 0; k < n; ++k) {
        std::vector<Value> row;
        if (ints_only) {
          row.push_back(g.Chance(10) ? Value() : Value::Int(g.Int()));
        } else {
          row.push_back(g.Any());
        }
        if (nargs == 2) row.push_back(g.Chance(70) ? Value::Text(g.Text()) : g.Any());
        rows.push_back(row);
      }
      if (rows.empty()) continue;  // the empty group is covered above
      std::string diff = CompareAggregate(&h, name, rows);
      ++runs;
      if (!diff.empty() && ++failures <= 30) ADD_FAILURE() << diff;
    }
  }
  std::printf("[differential] %d aggregate runs, %d mismatches\n", runs, failures);
  EXPECT_EQ(failures, 0);
}

}  // namespace
}  // namespace basalt::functest
