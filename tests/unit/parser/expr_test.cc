// Expressions: precedence, literals, parameters, spans, heights.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "parse_util.h"

namespace basalt::testing {
namespace {

using ast::ExprKind;
using ast::Op;

TEST(ExprPrecedence, Arithmetic) {
  EXPECT_EQ(E("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(E("1 - 2 - 3"), "((1 - 2) - 3)");
  EXPECT_EQ(E("1 * 2 / 3 % 4"), "(((1 * 2) / 3) % 4)");
  EXPECT_EQ(E("a || b + c"), "((a || b) + c)");
  EXPECT_EQ(E("a + b || c"), "(a + (b || c))");
  EXPECT_EQ(E("a -> b ->> c || d"), "(((a -> b) ->> c) || d)");
  EXPECT_EQ(E("a & b | c << d >> e"), "((((a & b) | c) << d) >> e)");
  EXPECT_EQ(E("a + b & c"), "((a + b) & c)");
}

TEST(ExprPrecedence, Unary) {
  EXPECT_EQ(E("- a * b"), "((-a) * b)");
  EXPECT_EQ(E("- - a"), "(-(-a))");
  EXPECT_EQ(E("~ a + b"), "((~a) + b)");
  EXPECT_EQ(E("-a COLLATE x"), "((-a) COLLATE x)");
  EXPECT_EQ(E("a || b COLLATE x"), "(a || (b COLLATE x))");
  EXPECT_EQ(E("NOT a = b"), "(NOT (a = b))");
  EXPECT_EQ(E("NOT a AND b"), "((NOT a) AND b)");
  EXPECT_EQ(E("NOT NOT a"), "(NOT (NOT a))");
  EXPECT_EQ(E("- NOT a = b"), "(-(NOT (a = b)))");
  EXPECT_EQ(E("a = NOT b = c"), "(a = (NOT (b = c)))");
}

TEST(ExprPrecedence, Comparison) {
  // < <= > >= bind tighter than = == != <> IS IN LIKE ...
  EXPECT_EQ(E("a = b < c"), "(a = (b < c))");
  EXPECT_EQ(E("a < b = c"), "((a < b) = c)");
  EXPECT_EQ(E("a = b = c"), "((a = b) = c)");
  EXPECT_EQ(E("a == b <> c != d"), "(((a = b) != c) != d)");
  EXPECT_EQ(E("a IS b = c"), "((a IS b) = c)");
  EXPECT_EQ(E("a IS NOT b < c"), "(a IS NOT (b < c))");
  EXPECT_EQ(E("a IS NOT DISTINCT FROM b"), "(a IS b)");
  EXPECT_EQ(E("a IS DISTINCT FROM b"), "(a IS NOT b)");
  EXPECT_EQ(E("a IS NULL"), "(a ISNULL)");
  EXPECT_EQ(E("a IS NOT NULL"), "(a NOTNULL)");
  EXPECT_EQ(E("a NOT NULL"), "(a NOTNULL)");
  EXPECT_EQ(E("a ISNULL = b"), "((a ISNULL) = b)");
  EXPECT_EQ(E("a = b ISNULL"), "((a = b) ISNULL)");
  EXPECT_EQ(E("a + b NOTNULL"), "((a + b) NOTNULL)");
  EXPECT_EQ(E("a OR b AND c OR d"), "((a OR (b AND c)) OR d)");
}

TEST(ExprPrecedence, LikeBetweenIn) {
  EXPECT_EQ(E("a LIKE b ESCAPE c"), "(a LIKE b ESCAPE c)");
  EXPECT_EQ(E("a NOT LIKE b || c ESCAPE d || e"), "(a NOT LIKE (b || c) ESCAPE (d || e))");
  EXPECT_EQ(E("a LIKE b = c"), "((a LIKE b) = c)");
  EXPECT_EQ(E("a = b LIKE c"), "((a = b) LIKE c)");
  EXPECT_EQ(E("a LIKE b < c ESCAPE d"), "(a LIKE (b < c) ESCAPE d)");
  EXPECT_EQ(E("a GLOB b"), "(a GLOB b)");
  EXPECT_EQ(E("a NOT REGEXP b"), "(a NOT REGEXP b)");
  EXPECT_EQ(E("a MATCH b"), "(a MATCH b)");
  EXPECT_EQ(E("a BETWEEN b AND c AND d"), "((a BETWEEN b AND c) AND d)");
  EXPECT_EQ(E("a BETWEEN b = c AND d"), "(a BETWEEN (b = c) AND d)");
  EXPECT_EQ(E("a NOT BETWEEN b + 1 AND c * 2"), "(a NOT BETWEEN (b + 1) AND (c * 2))");
  EXPECT_EQ(E("a BETWEEN NOT b AND c"), "(a BETWEEN (NOT b) AND c)");
  EXPECT_EQ(E("a BETWEEN b AND c = d"), "((a BETWEEN b AND c) = d)");
  EXPECT_EQ(E("a BETWEEN b AND c < d"), "(a BETWEEN b AND (c < d))");
  EXPECT_EQ(E("a IN (1, 2) = b"), "((a IN (1, 2)) = b)");
  EXPECT_EQ(E("a NOT IN (SELECT 1)"), "(a NOT IN (SELECT 1))");
  EXPECT_EQ(E("a IN t"), "(a IN t)");
  EXPECT_EQ(E("a IN main.t"), "(a IN main.t)");
  EXPECT_EQ(E("a IN f(1, 2)"), "(a IN f(1, 2))");
  EXPECT_EQ(E("a IN ()"), "(a IN ())");
  EXPECT_EQ(E("(a, b) IN ((1, 2), (3, 4))"), "((a, b) IN ((1, 2), (3, 4)))");
}

TEST(ExprPrecedence, Chains) {
  // Long left-deep chains parse iteratively; the tree height counts.
  std::string sum = "1";
  for (int i = 0; i < 999; ++i) sum += "+1";
  EXPECT_EQ(Err("SELECT " + sum), "OK");
  EXPECT_EQ(Err("SELECT " + sum + "+1"), "Expression tree is too large (maximum depth 1000)");
  std::string conj = "1";
  for (int i = 0; i < 1000; ++i) conj += " AND 1";
  EXPECT_EQ(Err("SELECT 1 WHERE " + conj), "Expression tree is too large (maximum depth 1000)");
}

TEST(ExprPrecedence, StackDepth) {
  // SQLite's LALR stack has room for 99 symbols.
  auto parens = [](int n) { return "SELECT " + std::string(n, '(') + "1" + std::string(n, ')'); };
  EXPECT_EQ(Err(parens(93)), "OK");
  EXPECT_EQ(Err(parens(94)), "parser stack overflow");
  EXPECT_EQ(Err(parens(5000)), "parser stack overflow");
  std::string nots;
  for (int i = 0; i < 94; ++i) nots += "NOT ";
  EXPECT_EQ(Err("SELECT " + nots + "1"), "OK");
  EXPECT_EQ(Err("SELECT NOT " + nots + "1"), "parser stack overflow");
  auto subq = [](int n) {
    std::string s = "SELECT ";
    for (int i = 0; i < n; ++i) s += "(SELECT ";
    s += "1";
    for (int i = 0; i < n; ++i) s += ")";
    return s;
  };
  EXPECT_EQ(Err(subq(18)), "OK");
  EXPECT_EQ(Err(subq(19)), "parser stack overflow");
  EXPECT_EQ(Err("EXPLAIN " + parens(92)), "OK");
  EXPECT_EQ(Err("EXPLAIN " + parens(93)), "parser stack overflow");
}

TEST(ExprLiterals, Numbers) {
  Parsed p = Parse(
      "SELECT 42, 0x1F, 0xFFFFFFFFFFFFFFFF, 1.5, .5, 1., 1e3, 9223372036854775807, "
      "9223372036854775808, -9223372036854775808, 1e999");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.col(0)->kind, ExprKind::kInteger);
  EXPECT_EQ(p.col(0)->ival, 42);
  EXPECT_EQ(p.col(1)->ival, 31);
  EXPECT_EQ(p.col(2)->ival, -1);  // hex literals are two's complement
  EXPECT_EQ(p.col(3)->kind, ExprKind::kReal);
  EXPECT_EQ(p.col(3)->rval, 1.5);
  EXPECT_EQ(p.col(3)->text, "1.5");
  EXPECT_EQ(p.col(4)->rval, 0.5);
  EXPECT_EQ(p.col(5)->rval, 1.0);
  EXPECT_EQ(p.col(6)->rval, 1000.0);
  EXPECT_EQ(p.col(7)->ival, std::numeric_limits<int64_t>::max());
  EXPECT_EQ(p.col(8)->kind, ExprKind::kReal);
  EXPECT_EQ(p.col(8)->rval, 9223372036854775808.0);
  EXPECT_EQ(p.col(9)->kind, ExprKind::kInteger);  // folded: INT64_MIN
  EXPECT_EQ(p.col(9)->ival, std::numeric_limits<int64_t>::min());
  EXPECT_EQ(p.col(9)->span, "-9223372036854775808");
  EXPECT_TRUE(std::isinf(p.col(10)->rval));
}

TEST(ExprLiterals, HexTooBig) {
  EXPECT_EQ(Err("SELECT 0x1FFFFFFFFFFFFFFFF"), "hex literal too big: 0x1FFFFFFFFFFFFFFFF");
  EXPECT_EQ(Err("SELECT -0x8000000000000000"), "hex literal too big: -0x8000000000000000");
  EXPECT_EQ(Err("SELECT 0x8000000000000000"), "OK");
  EXPECT_EQ(Err("SELECT 0x00000000000000000001"), "OK");  // leading zeros do not count
  // Reported after the statement parsed: a syntax error comes first.
  EXPECT_EQ(Err("SELECT 0x1FFFFFFFFFFFFFFFF +"), "incomplete input");
  // Never evaluated in a column definition: no error.
  EXPECT_EQ(Err("CREATE TABLE t(a DEFAULT 0x1FFFFFFFFFFFFFFFF)"), "OK");
}

TEST(ExprLiterals, StringsBlobsNull) {
  Parsed p = Parse("SELECT 'it''s', x'41fF', X'', NULL, CURRENT_TIMESTAMP, \"dq\", [br], `bt`");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.col(0)->kind, ExprKind::kString);
  EXPECT_EQ(p.col(0)->text, "it's");
  EXPECT_EQ(p.col(1)->kind, ExprKind::kBlob);
  EXPECT_EQ(p.col(1)->text, std::string("A\xff"));
  EXPECT_EQ(p.col(2)->text, "");
  EXPECT_EQ(p.col(3)->kind, ExprKind::kNull);
  EXPECT_EQ(p.col(4)->kind, ExprKind::kCurrentTime);
  EXPECT_EQ(p.col(4)->op, Op::kCurTimestamp);
  EXPECT_EQ(p.col(5)->kind, ExprKind::kColumn);
  EXPECT_EQ(p.col(5)->text, "dq");
  EXPECT_TRUE(p.col(5)->has(ast::kDoubleQuoted));
  EXPECT_EQ(p.col(6)->text, "br");
  EXPECT_FALSE(p.col(6)->has(ast::kDoubleQuoted));
  EXPECT_EQ(p.col(7)->text, "bt");
}

TEST(ExprLiterals, TrueFalseAreColumns) {
  Parsed p = Parse("SELECT true, FALSE");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.col(0)->kind, ExprKind::kColumn);
  EXPECT_EQ(p.col(0)->text, "true");
}

TEST(ExprParams, Numbering) {
  Parsed p = Parse("SELECT ?, ?5, :a, @b, $c, :a, ?, ?2, $x::y(z)");
  ASSERT_EQ(p.error, "");
  const int expect[] = {1, 5, 6, 7, 8, 6, 9, 2, 10};
  for (int i = 0; i < 9; ++i) {
    EXPECT_EQ(p.col(i)->kind, ExprKind::kParam);
    EXPECT_EQ(p.col(i)->param_index, expect[i]) << i;
  }
  EXPECT_EQ(p.col(2)->text, ":a");
  EXPECT_EQ(p.params.count, 10);
  ASSERT_EQ(p.params.names.size(), 10u);
  EXPECT_EQ(p.params.names[0], "");
  EXPECT_EQ(p.params.names[1], "?2");
  EXPECT_EQ(p.params.names[4], "?5");
  EXPECT_EQ(p.params.names[5], ":a");
  EXPECT_EQ(p.params.names[9], "$x::y(z)");
}

TEST(ExprParams, Errors) {
  EXPECT_EQ(Err("SELECT ?0"), "variable number must be between ?1 and ?250000");
  EXPECT_EQ(Err("SELECT ?250001"), "variable number must be between ?1 and ?250000");
  EXPECT_EQ(Err("SELECT ?250000"), "OK");
  EXPECT_EQ(Err("SELECT #1"), "near \"#1\": syntax error");
  EXPECT_EQ(Err("SELECT #a"), "OK");
  // A rule's error waits for the next token; a syntax error there wins.
  EXPECT_EQ(Err("SELECT ?0 )"), "near \")\": syntax error");
}

TEST(ExprForms, FunctionsAndWindows) {
  EXPECT_EQ(E("count(*)"), "count(*)");
  EXPECT_EQ(E("count(DISTINCT a)"), "count(DISTINCT a)");
  EXPECT_EQ(E("f()"), "f()");
  EXPECT_EQ(E("replace(a, 'x', 'y')"), "replace(a, 'x', 'y')");
  EXPECT_EQ(E("sum(a) FILTER (WHERE a > 0)"), "sum(a) FILTER (WHERE (a > 0))");
  EXPECT_EQ(E("sum(a) OVER w"), "sum(a) OVER w");
  EXPECT_EQ(E("sum(a) OVER (PARTITION BY b ORDER BY c DESC ROWS BETWEEN 1 PRECEDING AND "
              "UNBOUNDED FOLLOWING EXCLUDE TIES)"),
            "sum(a) OVER (PARTITION BY b ORDER BY c DESC ROWS BETWEEN 1 PRECEDING AND "
            "UNBOUNDED FOLLOWING EXCLUDE TIES)");
  EXPECT_EQ(E("sum(a) OVER (w RANGE CURRENT ROW)"),
            "sum(a) OVER (w RANGE BETWEEN CURRENT ROW AND CURRENT ROW)");
  EXPECT_EQ(Err("SELECT count(DISTINCT a) OVER ()"),
            "DISTINCT is not supported for window functions");
  EXPECT_EQ(Err("SELECT sum(a) OVER (ROWS BETWEEN 1 FOLLOWING AND CURRENT ROW)"),
            "unsupported frame specification");
  std::string args;
  for (int i = 0; i < 128; ++i) args += i ? ",1" : "1";
  EXPECT_EQ(Err("SELECT f(" + args + ")"), "too many arguments on function f");
}

TEST(ExprForms, Others) {
  EXPECT_EQ(E("CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE 'z' END"),
            "CASE a WHEN 1 THEN 'x' WHEN 2 THEN 'y' ELSE 'z' END");
  EXPECT_EQ(E("CASE WHEN a THEN b END"), "CASE WHEN a THEN b END");
  EXPECT_EQ(E("CAST(a + 1 AS VARCHAR(10))"), "CAST((a + 1) AS VARCHAR(10))");
  EXPECT_EQ(E("CAST(a AS)"), "CAST(a AS )");
  EXPECT_EQ(E("CAST(a AS 'text')"), "CAST(a AS text)");
  EXPECT_EQ(E("EXISTS (SELECT 1)"), "EXISTS(SELECT 1)");
  EXPECT_EQ(E("(SELECT 1)"), "(SELECT 1)");
  EXPECT_EQ(E("(1, 2)"), "(1, 2)");
  EXPECT_EQ(E("RAISE(IGNORE)"), "RAISE(IGNORE)");
  EXPECT_EQ(E("RAISE(ABORT, 'msg')"), "RAISE(ABORT, 'msg')");
  EXPECT_EQ(E("RAISE(FAIL, msg)"), "RAISE(FAIL, 'msg')");
  EXPECT_EQ(E("s.t.c"), "s.t.c");
  EXPECT_EQ(E("t.c"), "t.c");
  EXPECT_EQ(E("'t'.c"), "t.c");
  EXPECT_EQ(E("a COLLATE \"nocase\""), "(a COLLATE nocase)");
}

TEST(ExprSpans, ExactText) {
  Parsed p = Parse("SELECT a+(b  *c) AS x, (a), f( 1 ) -- c\nFROM t WHERE a   =  1");
  ASSERT_EQ(p.error, "");
  const ast::Expr* sum = p.col(0);
  EXPECT_EQ(sum->span, "a+(b  *c)");
  EXPECT_EQ(sum->right->span, "(b  *c)");  // parentheses included
  EXPECT_TRUE(sum->right->has(ast::kParenthesized));
  EXPECT_EQ(sum->right->left->span, "b");
  EXPECT_EQ(p.col(1)->span, "(a)");
  // A result column's span runs to the next token: trailing comments count.
  EXPECT_EQ(p.col(2)->span, "f( 1 ) -- c");
  EXPECT_EQ(p.select()->where->span, "a   =  1");
  EXPECT_EQ(p.stmt->span, "SELECT a+(b  *c) AS x, (a), f( 1 ) -- c\nFROM t WHERE a   =  1");
}

TEST(ExprHeights, AsSqliteCounts) {
  Parsed p = Parse(
      "SELECT 1, a + 1, -a, a NOT IN (1), a BETWEEN 1 AND b + 1, f(a + 1), "
      "(a + 1, 2), a COLLATE x");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.col(0)->height, 1);
  EXPECT_EQ(p.col(1)->height, 2);
  EXPECT_EQ(p.col(2)->height, 2);
  EXPECT_EQ(p.col(3)->height, 3);  // NOT IN adds a level
  EXPECT_EQ(p.col(4)->height, 2);  // BETWEEN counts its left operand only
  EXPECT_EQ(p.col(5)->height, 3);
  EXPECT_EQ(p.col(6)->height, 1);  // row values and COLLATE count 1
  EXPECT_EQ(p.col(7)->height, 1);
}

}  // namespace
}  // namespace basalt::testing
