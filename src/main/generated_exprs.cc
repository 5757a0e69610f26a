#include "main/generated_exprs.h"

#include "catalog/function.h"
#include "planner/scope.h"
#include "planner/walk.h"

namespace basalt {

namespace {

using ast::Expr;
using ast::ExprKind;

Status Prohibited(CompileContext* ctx, const Expr* at, const char* what) {
  ctx->ErrorAt(at->span, std::string(what) + " prohibited in generated columns");
  return ctx->error;
}

bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

// What the resolver cannot see: subqueries, parameters, window calls, the
// rowid and names qualified by the table's own name.
Status CheckBeforeResolve(Expr* e, const Table& t, CompileContext* ctx) {
  Status st;
  auto f = [&](Expr* x) {
    if (x->kind == ExprKind::kColumn && t.FindColumn(x->text) < 0 && IsRowidName(x->text)) {
      std::string name = x->table.empty() ? "" : std::string(x->table) + ".";
      ctx->ErrorAt(x->span, "no such column: " + name + std::string(x->text));
      st = ctx->error;
    } else if (x->kind == ExprKind::kColumn && !x->table.empty() &&
               EqualsIgnoreCase(x->table, t.name)) {
      st = Prohibited(ctx, x, "the \".\" operator");
    } else if (x->kind == ExprKind::kSubquery || x->kind == ExprKind::kExists) {
      ctx->Error("subqueries prohibited in generated columns");  // no position, as SQLite
      st = ctx->error;
    } else if (x->select != nullptr) {  // IN (SELECT ...)
      st = Prohibited(ctx, x, "subqueries");
    } else if (x->kind == ExprKind::kParam) {
      st = Prohibited(ctx, x, "parameters");
    } else if (x->kind == ExprKind::kFunction && x->over != nullptr) {
      ctx->ErrorAt(x->span, "misuse of window function " + std::string(x->text) + "()");
      st = ctx->error;
    }
    return st.ok();
  };
  WalkExpr(e, f);
  return st;
}

// After resolution: non-deterministic calls.
Status CheckAfterResolve(Expr* e, CompileContext* ctx) {
  Status st;
  auto f = [&](Expr* x) {
    if (x->kind == ExprKind::kCurrentTime) {
      st = Prohibited(ctx, x, "non-deterministic functions");
    } else if (x->kind == ExprKind::kFunction && x->aux != nullptr) {
      const auto* def = static_cast<const FunctionDef*>(x->aux);
      if ((def->flags & kFuncDeterministic) == 0)
        st = Prohibited(ctx, x, "non-deterministic functions");
    }
    return st.ok();
  };
  WalkExpr(e, f);
  return st;
}

}  // namespace

Status CheckGeneratedExprs(const ast::CreateTableStmt* st, const Table* t, CompileContext* ctx,
                           Resolver* resolver) {
  if (!t->has_generated) return Status();
  std::vector<Source> srcs;
  srcs.push_back(resolver->MakeTableSource(t, "", 0));
  Scope scope;
  scope.sources = &srcs;
  for (const ast::ColumnDef* cd : st->columns) {
    for (const ast::ColumnConstraint* cc : cd->constraints) {
      if (cc->kind != ast::ConstraintKind::kGenerated) continue;
      TRY(CheckBeforeResolve(cc->expr, *t, ctx));
      if (!resolver->ResolveExpr(cc->expr, &scope)) return ctx->error;
      TRY(CheckAfterResolve(cc->expr, ctx));
    }
  }
  return Status();
}

}  // namespace basalt
