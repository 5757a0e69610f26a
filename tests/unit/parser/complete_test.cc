#include <gtest/gtest.h>

#include "parser/parser.h"

namespace basalt {
namespace {

TEST(IsComplete, Basics) {
  EXPECT_FALSE(Parser::IsComplete(""));
  EXPECT_TRUE(Parser::IsComplete(";"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1"));
  EXPECT_TRUE(Parser::IsComplete("SELECT 1;"));
  EXPECT_TRUE(Parser::IsComplete("SELECT 1; -- trailing comment"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1; /* open comment"));
  EXPECT_FALSE(Parser::IsComplete("SELECT ';"));
  EXPECT_TRUE(Parser::IsComplete("SELECT ';';"));
  EXPECT_TRUE(Parser::IsComplete("SELECT [a;b];"));
  EXPECT_FALSE(Parser::IsComplete("SELECT 1 /* ; */"));
}

TEST(IsComplete, Triggers) {
  EXPECT_FALSE(Parser::IsComplete("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1;"));
  EXPECT_FALSE(Parser::IsComplete("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END"));
  EXPECT_TRUE(Parser::IsComplete("CREATE TRIGGER t AFTER INSERT ON x BEGIN SELECT 1; END;"));
  EXPECT_TRUE(Parser::IsComplete("create temp trigger t begin select 1; end ;"));
  EXPECT_TRUE(Parser::IsComplete("EXPLAIN CREATE TEMPORARY TRIGGER t BEGIN x; END;"));
  EXPECT_FALSE(Parser::IsComplete("CREATE TRIGGER t BEGIN SELECT 'END;'; END"));
  EXPECT_TRUE(Parser::IsComplete("CREATE TABLE t(a);"));
}

}  // namespace
}  // namespace basalt
