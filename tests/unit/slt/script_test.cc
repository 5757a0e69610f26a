#include "script.h"

#include <gtest/gtest.h>

#include <string>

#include "md5.h"
#include "plan.h"
#include "result_set.h"

namespace basalt::slt {
namespace {

Script Parse(const std::string& text) {
  Script s;
  s.path = "t.test";
  ParseScript(text, &s);
  return s;
}

TEST(ScriptParser, StatementsAndQueries) {
  Script s = Parse(
      "# a comment\n"
      "statement ok\n"
      "CREATE TABLE t1(a INTEGER, b TEXT)\n"
      "\n"
      "statement error\n"
      "INSERT INTO nowhere\n"
      "VALUES(1)\n"
      "\n"
      "query IT rowsort my-label\n"
      "SELECT a,\n"
      "  b FROM t1\n"
      "----\n"
      "1\n"
      "x\n");
  ASSERT_EQ(s.records.size(), 3u);

  const Record& create = s.records[0];
  EXPECT_EQ(create.kind, RecordKind::kStatement);
  EXPECT_FALSE(create.expect_error);
  EXPECT_EQ(create.line, 2);
  EXPECT_EQ(create.sql, "CREATE TABLE t1(a INTEGER, b TEXT)");
  EXPECT_EQ(create.sql.data()[create.sql.size()], '\0');

  const Record& insert = s.records[1];
  EXPECT_TRUE(insert.expect_error);
  EXPECT_EQ(insert.line, 5);
  EXPECT_EQ(insert.sql, "INSERT INTO nowhere\nVALUES(1)");
  EXPECT_EQ(insert.sql_line, 6);
  EXPECT_EQ(insert.sql_lines, 2);

  const Record& query = s.records[2];
  EXPECT_EQ(query.kind, RecordKind::kQuery);
  EXPECT_EQ(query.line, 9);
  EXPECT_EQ(query.types, "IT");
  EXPECT_EQ(query.sort, SortMode::kRowSort);
  EXPECT_EQ(query.label, "my-label");
  EXPECT_EQ(query.sql, "SELECT a,\n  b FROM t1");
  EXPECT_EQ(query.sql.data()[query.sql.size()], '\0');
  EXPECT_TRUE(query.has_separator);
  EXPECT_EQ(query.expected_line, 13);
  ASSERT_EQ(query.expected_count, 2u);
  EXPECT_EQ(s.expected(query, 0), "1");
  EXPECT_EQ(s.expected(query, 1), "x");
  EXPECT_EQ(query.end_line, 15);
}

TEST(ScriptParser, SortModesAndDefaults) {
  Script s = Parse(
      "query I\nSELECT 1\n----\n1\n\n"
      "query R nosort\nSELECT 1.0\n----\n1.000\n\n"
      "query T valuesort\nSELECT 'a'\n----\na\n");
  ASSERT_EQ(s.records.size(), 3u);
  EXPECT_EQ(s.records[0].sort, SortMode::kNoSort);
  EXPECT_TRUE(s.records[0].label.empty());
  EXPECT_EQ(s.records[1].sort, SortMode::kNoSort);
  EXPECT_EQ(s.records[2].sort, SortMode::kValueSort);
}

TEST(ScriptParser, QueryWithoutResults) {
  Script s = Parse("query I nosort\nSELECT 1 WHERE 0\n----\n\nquery I\nSELECT 2\n");
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_TRUE(s.records[0].has_separator);
  EXPECT_EQ(s.records[0].expected_count, 0u);
  EXPECT_FALSE(s.records[1].has_separator);
  EXPECT_EQ(s.records[1].sql, "SELECT 2");
}

TEST(ScriptParser, ConditionsHashThresholdAndHalt) {
  Script s = Parse(
      "hash-threshold 16\n\n"
      "skipif mysql # trailing comment\n"
      "onlyif sqlite\n"
      "statement ok\nSELECT 1\n\n"
      "onlyif mssql\nhalt\n\n"
      "halt\n\n"
      "statement ok\nSELECT 2\n");
  ASSERT_EQ(s.records.size(), 5u);
  EXPECT_EQ(s.records[0].kind, RecordKind::kHashThreshold);
  EXPECT_EQ(s.records[0].hash_threshold, 16);
  const Record& st = s.records[1];
  EXPECT_EQ(st.first_line, 3);
  EXPECT_EQ(st.line, 5);
  ASSERT_EQ(st.condition_count, 2u);
  EXPECT_FALSE(s.conditions[st.condition_begin].only_if);
  EXPECT_EQ(s.conditions[st.condition_begin].engine, "mysql");
  EXPECT_TRUE(s.conditions[st.condition_begin + 1].only_if);
  EXPECT_TRUE(Applies(s, st, "sqlite"));
  EXPECT_FALSE(Applies(s, st, "mysql"));
  EXPECT_FALSE(Applies(s, st, "postgresql"));
  EXPECT_EQ(s.records[2].kind, RecordKind::kHalt);
  EXPECT_FALSE(Applies(s, s.records[2], "sqlite"));
  EXPECT_EQ(s.records[3].kind, RecordKind::kHalt);

  // The applicable halt stops the file: the last statement is skipped.
  Plan plan = MakePlan(s, "sqlite");
  EXPECT_EQ(plan.records, 2);
  EXPECT_EQ(plan.to_run, 1);
  EXPECT_EQ(plan.skipped, 1);
  EXPECT_TRUE(plan.runs[1]);
  EXPECT_FALSE(plan.runs[2]);
  EXPECT_TRUE(plan.runs[3]);
  EXPECT_FALSE(plan.runs[4]);
}

TEST(ScriptParser, CrLfLineEndsAndMissingFinalNewline) {
  Script s = Parse("statement ok\r\nCREATE TABLE t(x)\r\n\r\nquery I\r\nSELECT 1\r\n----\r\n1");
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].sql, "CREATE TABLE t(x)");
  EXPECT_EQ(s.records[1].expected_count, 1u);
  EXPECT_EQ(s.expected(s.records[1], 0), "1");
}

TEST(ScriptParser, MalformedRecordsDoNotStopTheFile) {
  Script s = Parse(
      "frobnicate now\nSELECT 1\n\n"
      "query X\nSELECT 1\n----\n1\n\n"
      "query I sideways\nSELECT 1\n\n"
      "statement maybe\nSELECT 1\n\n"
      "hash-threshold many\n\n"
      "statement ok\nSELECT 1\n");
  ASSERT_EQ(s.records.size(), 6u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(s.records[i].kind, RecordKind::kMalformed) << i;
    EXPECT_FALSE(s.records[i].error.empty()) << i;
  }
  EXPECT_EQ(s.records[0].line, 1);
  EXPECT_NE(s.records[0].error.find("frobnicate"), std::string::npos);
  EXPECT_EQ(s.records[1].line, 4);
  EXPECT_EQ(s.records[2].line, 9);
  EXPECT_NE(s.records[2].error.find("sideways"), std::string::npos);
  EXPECT_EQ(s.records[5].kind, RecordKind::kStatement);
  EXPECT_EQ(s.records[5].line, 17);
}

TEST(ScriptParser, ConditionWithoutRecord) {
  Script s = Parse("onlyif sqlite\n\nstatement ok\nSELECT 1\n");
  ASSERT_EQ(s.records.size(), 2u);
  EXPECT_EQ(s.records[0].kind, RecordKind::kMalformed);
  EXPECT_EQ(s.records[1].kind, RecordKind::kStatement);
}

TEST(ScriptParser, LoadReportsMissingFile) {
  Script s;
  std::string error;
  EXPECT_FALSE(LoadScript("/nonexistent/dir/x.test", &s, &error));
  EXPECT_NE(error.find("cannot open"), std::string::npos);
}

TEST(ResultSet, SortsRowsAndValuesByStrcmp) {
  ResultSet rs;
  rs.Reset(2);
  for (const char* v : {"b", "2", "a", "10", "b", "1", "a", "9"}) {
    rs.buffer()->append(v);
    rs.EndValue();
  }
  ASSERT_EQ(rs.size(), 8u);
  rs.Sort(SortMode::kRowSort);
  std::string rows;
  for (size_t i = 0; i < rs.size(); ++i) rows += std::string(rs.value(i)) + " ";
  EXPECT_EQ(rows, "a 10 a 9 b 1 b 2 ");
  rs.Sort(SortMode::kValueSort);
  std::string values;
  for (size_t i = 0; i < rs.size(); ++i) values += std::string(rs.value(i)) + " ";
  EXPECT_EQ(values, "1 10 2 9 a a b b ");
  rs.Sort(SortMode::kNoSort);
  EXPECT_EQ(rs.value(0), "b");
}

TEST(ResultSet, HashCoversEachValueAndNewline) {
  ResultSet rs;
  rs.Reset(1);
  for (const char* v : {"y", "x"}) {
    rs.buffer()->append(v);
    rs.EndValue();
  }
  EXPECT_EQ(rs.HashLine(), "2 values hashing to " + Md5::Of("y\nx\n"));
  rs.Sort(SortMode::kValueSort);
  EXPECT_EQ(rs.HashLine(), "2 values hashing to " + Md5::Of("x\ny\n"));
  rs.Reset(1);
  EXPECT_EQ(rs.HashLine(), "0 values hashing to " + Md5::Of(""));
}

TEST(ResultSet, RecognizesHashLines) {
  EXPECT_TRUE(IsHashLine("30 values hashing to 0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(IsHashLine("30 values hashing to 0123456789ABCDEF0123456789abcdef"));
  EXPECT_FALSE(IsHashLine("values hashing to 0123456789abcdef0123456789abcdef"));
  EXPECT_FALSE(IsHashLine("3 values hashing to 0123"));
  EXPECT_FALSE(IsHashLine("42"));
}

}  // namespace
}  // namespace basalt::slt
