// SELECT: cores, compounds, VALUES, WITH, FROM, ORDER BY, LIMIT.
#include <gtest/gtest.h>

#include "parse_util.h"

namespace basalt::testing {
namespace {

TEST(Select, ResultColumns) {
  EXPECT_EQ(S("SELECT DISTINCT a, b AS x, c y, 'lit' 'alias', *, t.*, 'q'.* FROM t"),
            "SELECT DISTINCT a, b AS x, c AS y, 'lit' AS alias, *, t.*, q.* FROM t");
  Parsed p = Parse("SELECT a \"Quoted\" FROM t");
  ASSERT_EQ(p.error, "");
  EXPECT_EQ(p.select()->columns->items[0].name, "Quoted");
  EXPECT_TRUE(p.select()->columns->items[0].name_quoted);
  EXPECT_EQ(Err("SELECT t.* + 1 FROM t"), "near \"+\": syntax error");
  EXPECT_EQ(Err("SELECT (t.*) FROM t"), "near \"*\": syntax error");
  EXPECT_EQ(Err("SELECT current_time.* FROM t"), "near \".\": syntax error");
}

TEST(Select, Compounds) {
  Parsed p = Parse(
      "SELECT 1 UNION SELECT 2 UNION ALL SELECT 3 INTERSECT SELECT 4 EXCEPT SELECT 5 "
      "ORDER BY 1 LIMIT 2");
  ASSERT_EQ(p.error, "");
  const ast::Select* s = p.select();
  EXPECT_EQ(s->op, ast::CompoundOp::kExcept);
  ASSERT_NE(s->order_by, nullptr);  // on the last core, for the whole compound
  ASSERT_NE(s->prior, nullptr);
  EXPECT_EQ(s->prior->op, ast::CompoundOp::kIntersect);
  EXPECT_EQ(s->prior->prior->op, ast::CompoundOp::kUnionAll);
  EXPECT_EQ(s->prior->prior->prior->op, ast::CompoundOp::kUnion);
  EXPECT_EQ(s->prior->prior->prior->prior->op, ast::CompoundOp::kNone);
  EXPECT_EQ(s->span, p.stmt->span);
  EXPECT_EQ(s->prior->span, "SELECT 4");
  EXPECT_EQ(Err("SELECT 1 ORDER BY 1 UNION SELECT 2"),
            "ORDER BY clause should come after UNION not before");
  EXPECT_EQ(Err("SELECT 1 LIMIT 1 UNION ALL SELECT 2"),
            "LIMIT clause should come after UNION ALL not before");
  EXPECT_EQ(Err("SELECT 1 ORDER BY 1 INTERSECT SELECT 2 )"), "near \")\": syntax error");
  std::string many = "SELECT 1";
  for (int i = 0; i < 499; ++i) many += " UNION SELECT 1";
  EXPECT_EQ(Err(many), "OK");
  EXPECT_EQ(Err(many + " UNION SELECT 1"), "too many terms in compound SELECT");
}

TEST(Select, Values) {
  EXPECT_EQ(S("VALUES (1, 2), (3, 4)"), "VALUES (1, 2), (3, 4)");
  EXPECT_EQ(S("SELECT 1 UNION VALUES (2), (3)"), "SELECT 1 UNION VALUES (2), (3)");
  EXPECT_EQ(Err("VALUES (1) ORDER BY 1"), "near \"ORDER\": syntax error");
  std::string rows = "VALUES (1)";
  for (int i = 0; i < 600; ++i) rows += ",(1)";
  EXPECT_EQ(Err(rows), "OK");  // one multi-row VALUES is not a compound
  EXPECT_EQ(Err(rows + " UNION SELECT 1"), "too many terms in compound SELECT");
}

TEST(Select, With) {
  EXPECT_EQ(S("WITH RECURSIVE c(x, y) AS (SELECT 1, 2), d AS MATERIALIZED (SELECT 3), "
              "e AS NOT MATERIALIZED (SELECT 4) SELECT * FROM c"),
            "WITH RECURSIVE c(x, y) AS (SELECT 1, 2), d AS MATERIALIZED (SELECT 3), "
            "e AS NOT MATERIALIZED (SELECT 4) SELECT * FROM c");
  EXPECT_EQ(Err("WITH a AS (SELECT 1), A AS (SELECT 2) SELECT 1"), "duplicate WITH table name: A");
  EXPECT_EQ(Err("WITH a(x DESC) AS (SELECT 1) SELECT 1"), "syntax error after column name \"x\"");
  EXPECT_EQ(Err("WITH recursive AS (SELECT 1) SELECT 1"), "near \"AS\": syntax error");
}

TEST(Select, From) {
  EXPECT_EQ(S("SELECT * FROM s.t AS a INDEXED BY i, u NOT INDEXED LEFT JOIN v ON 1 "
              "NATURAL FULL OUTER JOIN w CROSS JOIN x USING (a, b) RIGHT JOIN y"),
            "SELECT * FROM s.t AS a INDEXED BY i, u NOT INDEXED LEFT JOIN v ON 1 "
            "NATURAL FULL JOIN w CROSS JOIN x USING (a, b) RIGHT JOIN y");
  EXPECT_EQ(S("SELECT * FROM (SELECT 1) AS q, json_each('[1]') j, (a JOIN b) AS n"),
            "SELECT * FROM (SELECT 1) AS q, json_each('[1]') AS j, (a JOIN b) AS n");
  EXPECT_EQ(S("SELECT * FROM (t)"), "SELECT * FROM t");  // parentheses flattened
  Parsed p = Parse("SELECT * FROM a JOIN b INNER JOIN c LEFT OUTER JOIN d");
  ASSERT_EQ(p.error, "");
  const ast::FromList* f = p.select()->from;
  EXPECT_EQ((*f)[0]->join, ast::kJoinComma);
  EXPECT_EQ((*f)[1]->join, ast::kJoinInner);
  EXPECT_EQ((*f)[2]->join, ast::kJoinInner);
  EXPECT_EQ((*f)[3]->join, ast::kJoinLeft);
  EXPECT_EQ(Err("SELECT * FROM t ON 1"), "a JOIN clause is required before ON");
  EXPECT_EQ(Err("SELECT * FROM t USING (a)"), "a JOIN clause is required before USING");
  EXPECT_EQ(Err("SELECT * FROM a LEFT foo JOIN b"), "unknown join type: LEFT foo");
  EXPECT_EQ(Err("SELECT * FROM a OUTER JOIN b"), "unknown join type: OUTER");
  EXPECT_EQ(Err("SELECT * FROM a INNER OUTER JOIN b"), "unknown join type: INNER OUTER");
  EXPECT_EQ(Err("SELECT * FROM a LEFT foo JOIN +"), "near \"+\": syntax error");
  EXPECT_EQ(Err("INSERT INTO t SELECT * FROM u ON CONFLICT DO NOTHING"),
            "near \"DO\": syntax error");  // ON is taken by the join
}

TEST(Select, OrderLimitGroupWindow) {
  EXPECT_EQ(S("SELECT a FROM t WHERE b GROUP BY a, b HAVING c ORDER BY a COLLATE x DESC NULLS "
              "LAST, b ASC NULLS FIRST LIMIT 5 OFFSET 6"),
            "SELECT a FROM t WHERE b GROUP BY a, b HAVING c ORDER BY (a COLLATE x) DESC NULLS "
            "LAST, b ASC NULLS FIRST LIMIT 5 OFFSET 6");
  // LIMIT a, b: b is the limit and a the offset.
  EXPECT_EQ(S("SELECT 1 LIMIT 5, 6"), "SELECT 1 LIMIT 6 OFFSET 5");
  EXPECT_EQ(S("SELECT 1 FROM t WINDOW w AS (PARTITION BY a), v AS (w ORDER BY b)"),
            "SELECT 1 FROM t WINDOW w AS (PARTITION BY a), v AS (w ORDER BY b)");
}

TEST(Select, ContextualKeywords) {
  // WINDOW, OVER and FILTER are keywords only where they must be.
  EXPECT_EQ(S("SELECT window, over, filter FROM t"), "SELECT window, over, filter FROM t");
  EXPECT_EQ(S("SELECT count(*) over FROM t"), "SELECT count(*) AS over FROM t");
  EXPECT_EQ(S("SELECT count(*) filter FROM t"), "SELECT count(*) AS filter FROM t");
  EXPECT_EQ(Err("SELECT (1) over (ORDER BY 1)"), "near \"over\": syntax error");
  EXPECT_EQ(Err("CREATE TABLE window(over, filter)"), "OK");
}

}  // namespace
}  // namespace basalt::testing
