// Test helper: prints AST nodes back as text, every operator fully
// parenthesised, so tests can check structure (precedence, grouping) with
// one string comparison.
#pragma once

#include <string>

#include "parser/ast.h"

namespace basalt::testing {

std::string PrintExpr(const ast::Expr* e);
std::string PrintSelect(const ast::Select* s);
std::string PrintStmt(const ast::Stmt* s);

}  // namespace basalt::testing
