// Helpers for parser tests: parse one statement and keep its arena alive.
#pragma once

#include <memory>
#include <string>

#include "ast_printer.h"
#include "parser/parser.h"

namespace basalt::testing {

struct Parsed {
  std::unique_ptr<Arena> arena = std::make_unique<Arena>();
  std::string sql;
  ast::Stmt* stmt = nullptr;
  std::string error;  // empty on success
  ParamTable params;

  template <typename T>
  T* As() const {
    return stmt ? stmt->As<T>() : nullptr;
  }
  const ast::Select* select() const { return As<ast::SelectStmt>()->select; }
  // The first result column of a SELECT statement.
  const ast::Expr* col(size_t i = 0) const { return (*select()->columns)[i]; }
};

inline Parsed Parse(std::string_view sql) {
  Parsed p;
  p.sql = std::string(sql);
  Parser parser(p.arena.get(), p.sql);
  auto r = parser.ParseStatement();
  if (!r.ok()) {
    p.error = r.status().message();
  } else {
    p.stmt = *r;
  }
  p.params = parser.params();
  return p;
}

// The error message for `sql`, or "OK".
inline std::string Err(std::string_view sql) {
  Parsed p = Parse(sql);
  return p.error.empty() ? "OK" : p.error;
}

// `SELECT <expr>` printed back fully parenthesised (or the error).
inline std::string E(std::string_view expr) {
  Parsed p = Parse("SELECT " + std::string(expr));
  if (!p.error.empty()) return "ERROR: " + p.error;
  return PrintExpr(p.col());
}

// A statement printed back (SELECT only) or the error.
inline std::string S(std::string_view sql) {
  Parsed p = Parse(sql);
  if (!p.error.empty()) return "ERROR: " + p.error;
  return PrintStmt(p.stmt);
}

}  // namespace basalt::testing
