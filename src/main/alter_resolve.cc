// ALTER TABLE's use of the resolver (see alter_sql.h): which names in a
// view's or trigger's text are references to which column, and which
// double-quoted names are strings (SQLite's fallback), learned by compiling
// the object against the schema as it stands before the edit. Tables and
// indexes have one table in scope, so their double-quoted strings are the
// names that name none of its columns.
#include "exec/codegen.h"
#include "main/alter_sql.h"
#include "main/ddl.h"
#include "parser/parser.h"

namespace basalt {

namespace {

bool RowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

// Calls f on e and every expression below it (schema expressions hold no
// subqueries, but a walk through them is harmless).
template <typename F>
void WalkTree(ast::Expr* e, F& f) {
  if (e == nullptr) return;
  f(e);
  WalkTree(e->left, f);
  WalkTree(e->right, f);
  WalkTree(e->filter, f);
  WalkTree(e->escape, f);
  if (e->list != nullptr) {
    for (size_t i = 0; i < e->list->size(); ++i) WalkTree((*e->list)[i], f);
  }
}

// The offsets (in `sql`) of double-quoted names in `exprs` that name no
// column of a table whose columns are `has_column`.
template <typename Has>
void CollectStrings(std::string_view sql, const std::vector<ast::Expr*>& exprs, Has has_column,
                    std::vector<size_t>* out) {
  auto visit = [&](ast::Expr* e) {
    if (e->kind != ast::ExprKind::kColumn || !e->has(ast::kDoubleQuoted) || !e->table.empty()) {
      return;
    }
    if (has_column(e->text) || RowidName(e->text)) return;
    if (e->span.data() >= sql.data() && e->span.data() < sql.data() + sql.size()) {
      out->push_back(static_cast<size_t>(e->span.data() - sql.data()));
    }
  };
  for (ast::Expr* e : exprs) WalkTree(e, visit);
}

}  // namespace

Status DdlExecutor::ResolveNames(Database* db, const SchemaRowText& row, const Table* t, int col,
                                 alter::Resolution* res) {
  Arena arena;
  if (row.type == "table" || row.type == "index") {
    Parser parser(&arena, row.sql);
    Result<ast::Stmt*> r = parser.ParseStatement();
    if (!r.ok()) return Status();
    std::vector<ast::Expr*> exprs;
    if ((*r)->kind == ast::StmtKind::kCreateTable) {
      auto* ct = (*r)->As<ast::CreateTableStmt>();
      for (ast::ColumnDef* cd : ct->columns) {
        for (ast::ColumnConstraint* cc : cd->constraints) {
          if (cc->kind == ast::ConstraintKind::kCheck ||
              cc->kind == ast::ConstraintKind::kGenerated) {
            exprs.push_back(cc->expr);
          }
        }
      }
      for (ast::TableConstraint* tc : ct->constraints) exprs.push_back(tc->check);
      CollectStrings(
          row.sql, exprs,
          [&](std::string_view n) {
            for (ast::ColumnDef* cd : ct->columns) {
              if (EqualsIgnoreCase(cd->name, n)) return true;
            }
            return false;
          },
          &res->dq_strings);
    } else if ((*r)->kind == ast::StmtKind::kCreateIndex) {
      auto* ci = (*r)->As<ast::CreateIndexStmt>();
      const Table* on = db->schema.FindTable(row.tbl_name);
      if (on == nullptr) return Status();
      if (ci->columns != nullptr) {
        for (size_t i = 0; i < ci->columns->size(); ++i) exprs.push_back((*ci->columns)[i]);
      }
      exprs.push_back(ci->where);
      CollectStrings(
          row.sql, exprs, [&](std::string_view n) { return on->FindColumn(n) >= 0; },
          &res->dq_strings);
    }
    return Status();
  }
  if (row.type != "view" && row.type != "trigger") return Status();
  CompileContext ctx;
  InitContext(&ctx, &arena);
  NameWatch watch;
  ctx.name_watch = &watch;
  size_t base = 0;
  Status st;
  if (row.type == "view") {
    const Table* v = db->schema.FindTable(row.name);
    if (v == nullptr) return Status();
    watch.source = v->view_sql;
    base = row.sql.rfind(v->view_sql);
    if (base == std::string::npos) return Status();
    st = CheckView(db, row.name, &ctx, &arena);
  } else {
    const Trigger* trig = db->schema.FindTrigger(row.name);
    if (trig == nullptr || trig->sql != row.sql) return Status();
    watch.source = trig->sql;
    st = CheckTrigger(db, row.name, &ctx);
  }
  if (!st.ok()) return st;
  for (const NameWatch::ColumnRef& ref : watch.columns) {
    const bool target = ref.table == t && ref.column == col && col >= 0;
    (target ? res->target_refs : res->other_refs).push_back(base + ref.offset);
  }
  for (size_t off : watch.dq_strings) res->dq_strings.push_back(base + off);
  return Status();
}

}  // namespace basalt
