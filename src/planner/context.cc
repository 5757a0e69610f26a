#include "planner/context.h"

#include "parser/parser.h"
#include "planner/walk.h"

namespace basalt {

AuthResult Authorize(const AuthHook& hook, int action, const char* arg1, const char* arg2,
                     const char* db, Status* error) {
  if (hook.fn == nullptr) return AuthResult::kOk;
  int rc = hook.fn(hook.arg, action, arg1, arg2, db, nullptr);
  if (rc == 0) return AuthResult::kOk;
  if (rc == 2) return AuthResult::kIgnore;
  *error = rc == 1 ? Status(kAuth, "not authorized") : Status(kError, "authorizer malfunction");
  return AuthResult::kDenied;
}

ast::Stmt* CompileContext::ParseStmt(std::string_view text) {
  std::string_view copy = arena->CopyString(text);
  if (name_watch != nullptr && text.data() == name_watch->source.data()) name_watch->copy = copy;
  Parser parser(arena, copy);
  // ALTER TABLE watching names must see all of them (see SetRenameMode).
  parser.SetRenameMode(name_watch != nullptr);
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) {
    if (error.ok()) error = r.status();
    return nullptr;
  }
  return *r;
}

ast::Select* CompileContext::ParseSelect(std::string_view text) {
  std::string sql = "SELECT * FROM (";
  (void)sql;
  ast::Stmt* st = ParseStmt(text);
  if (st == nullptr) return nullptr;
  if (st->kind != ast::StmtKind::kSelect) {
    Error("malformed schema: not a SELECT");
    return nullptr;
  }
  return st->As<ast::SelectStmt>()->select;
}

ast::Expr* CompileContext::ParseExpr(std::string_view text) {
  std::string sql = "SELECT ";
  sql.append(text.data(), text.size());
  ast::Stmt* st = ParseStmt(sql);
  if (st == nullptr) return nullptr;
  ast::Select* s = st->As<ast::SelectStmt>()->select;
  if (s->columns == nullptr || s->columns->size() != 1) {
    Error("malformed expression");
    return nullptr;
  }
  ast::Expr* e = (*s->columns)[0];
  auto mark = [](ast::Expr* x) {
    x->flags |= ast::kSchemaText;
    return true;
  };
  WalkExpr(e, mark);
  return e;
}

}  // namespace basalt
