#include <gtest/gtest.h>

#include "ast_printer.h"
#include "parser/parser.h"

namespace basalt {
namespace {

std::string Parse(std::string_view sql) {
  Arena arena;
  Parser p(&arena, sql);
  auto r = p.ParseStatement();
  if (!r.ok()) return "ERROR: " + r.status().message();
  if (!*r) return "<empty>";
  return testing::PrintStmt(*r);
}

std::string E(std::string_view expr) {
  std::string s = Parse("SELECT " + std::string(expr));
  if (s.rfind("SELECT ", 0) == 0) return s.substr(7);
  return s;
}

TEST(Expr, Basic) {
  EXPECT_EQ(E("1 + 2 * 3"), "(1 + (2 * 3))");
  EXPECT_EQ(E("1 - 2 - 3"), "((1 - 2) - 3)");
  EXPECT_EQ(E("a OR b AND c"), "(a OR (b AND c))");
}

}  // namespace
}  // namespace basalt
