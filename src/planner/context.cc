#include "planner/context.h"

#include "parser/parser.h"

namespace basalt {

Table* CompileContext::FindTable(std::string_view schema_name, std::string_view name) const {
  if (!schema_name.empty()) {
    if (EqualsIgnoreCase(schema_name, "temp") || EqualsIgnoreCase(schema_name, "temporary")) {
      return temp_schema ? temp_schema->FindTable(name) : nullptr;
    }
    if (!EqualsIgnoreCase(schema_name, "main")) return nullptr;
    return schema->FindTable(name);
  }
  if (temp_schema != nullptr) {
    if (Table* t = temp_schema->FindTable(name)) {
      if (t->root != 1) return t;
    }
  }
  return schema->FindTable(name);
}

Index* CompileContext::FindIndex(std::string_view schema_name, std::string_view name) const {
  if (!schema_name.empty() &&
      (EqualsIgnoreCase(schema_name, "temp") || EqualsIgnoreCase(schema_name, "temporary"))) {
    return temp_schema ? temp_schema->FindIndex(name) : nullptr;
  }
  if (schema_name.empty() && temp_schema != nullptr) {
    if (Index* i = temp_schema->FindIndex(name)) return i;
  }
  return schema->FindIndex(name);
}

ast::Stmt* CompileContext::ParseStmt(std::string_view text) {
  std::string_view copy = arena->CopyString(text);
  Parser parser(arena, copy);
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
  return e;
}

}  // namespace basalt
