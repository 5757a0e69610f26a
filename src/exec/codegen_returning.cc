// RETURNING on INSERT, UPDATE and DELETE. As in SQLite, every result row is
// computed while the statement changes the table (from the registers of the
// new row, or of the old row for DELETE) and kept in a temporary table; the
// rows are handed out only after the last change, so a caller that stops
// stepping early still sees the whole statement done.
//
//   1. PrepareReturning: expand `*`, resolve the list against the target
//      table (read through a fake cursor), name the result columns.
//   2. CodeReturningRow: per changed row, the fake cursor's columns are
//      redirected to the row's registers and the values appended.
//   3. CodeReturningOutput: after the statement's loop, one ResultRow per
//      stored row.
#include "exec/codegen_internal.h"
#include "planner/walk.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;

// The RETURNING table has no schema: `main.t.a` names no column (outside
// subqueries, which see the schema as usual).
bool Codegen::CheckNoSchemaQualifier(Expr* e) {
  bool ok = true;
  auto f = [&](Expr* x) {
    if (!ok || x->select != nullptr) return false;
    if (x->kind == ExprKind::kColumn && !x->schema.empty()) {
      ok = ctx_->ErrorAt(x->span, "no such column: " + std::string(x->schema) + "." +
                                      std::string(x->table) + "." + std::string(x->text));
    }
    return ok;
  };
  WalkExpr(e, f);
  return ok;
}

bool Codegen::PrepareReturning(ExprList* list, const Table* tab, Scope* outer, Returning* ret) {
  ret->cursor = ctx_->AllocCursor();
  ret->n_columns = static_cast<int>(tab->columns.size());
  std::vector<Source>* srcs = prog_->arena.New<std::vector<Source>>();
  // As in SQLite, the list sees the table by its name, not by the
  // statement's alias.
  srcs->push_back(resolver_.MakeTableSource(tab, "", ret->cursor));
  const Source& src = (*srcs)[0];
  Scope scope;
  scope.outer = outer;
  scope.sources = srcs;
  // Items are checked in order; the first bad one is the error reported.
  ExprList* out = ctx_->arena->New<ExprList>();
  for (size_t i = 0; i < list->size(); ++i) {
    Expr* e = (*list)[i];
    if (e->kind == ExprKind::kStar && !e->table.empty()) {
      return ctx_->Error("RETURNING may not use \"TABLE.*\" wildcards");
    }
    if (e->kind != ExprKind::kStar) {
      if (!CheckNoSchemaQualifier(e) || !resolver_.ResolveExpr(e, &scope)) return false;
      out->items.push_back(*ctx_->arena, list->items[i]);
      continue;
    }
    for (size_t c = 0; c < src.columns.size(); ++c) {
      if (src.columns[c].hidden) continue;
      Expr* col = ctx_->arena->New<Expr>();
      col->kind = ExprKind::kColumn;
      col->text = src.columns[c].name;
      col->span = src.columns[c].name;
      if (!resolver_.ResolveExpr(col, &scope)) return false;
      ast::ExprItem item;
      item.expr = col;
      out->items.push_back(*ctx_->arena, item);
    }
  }
  if (out->size() > static_cast<size_t>(ctx_->options.max_columns)) {
    return ctx_->Error("too many columns in result set");
  }
  ret->list = out;
  if (in_trigger_ == 0 && prog_->column_names.empty()) {
    for (size_t i = 0; i < out->size(); ++i) {
      prog_->column_names.push_back(resolver_.ColumnName(out->items[i], nullptr));
      char aff = Resolver::ExprAffinity((*out)[i]);
      prog_->column_affinities.push_back(aff < 'A' ? 'A' : aff);
      // A column of the table reports its declared type and origin, as a
      // SELECT of it would.
      const Expr* e = (*out)[i];
      if (e->kind == ExprKind::kResolvedColumn && e->tab == tab) {
        int col = e->column >= 0 ? e->column : static_cast<int>(e->ival);
        if (col < 0) col = tab->rowid_alias;
        const Column* c = col >= 0 ? &tab->columns[static_cast<size_t>(col)] : nullptr;
        prog_->column_decltypes.push_back(c != nullptr ? c->decl_type : "INTEGER");
        prog_->column_tables.push_back(tab->name);
        prog_->column_origins.push_back(c != nullptr ? c->name : "rowid");
      } else {
        prog_->column_decltypes.emplace_back();
        prog_->column_tables.emplace_back();
        prog_->column_origins.emplace_back();
      }
    }
  }
  ret->temp = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, ret->temp, static_cast<int>(out->size()));
  return true;
}

void Codegen::CodeReturningRow(const Returning& ret, int base) {
  size_t mark = redirects_.size();
  redirects_.push_back({ret.cursor, -1, base});
  for (int c = 0; c < ret.n_columns; ++c) redirects_.push_back({ret.cursor, c, base + 1 + c});
  int n = static_cast<int>(ret.list->size());
  int regs = AllocReg(n + 2);
  ++subquery_once_required_;
  for (int i = 0; i < n; ++i) CodeExpr((*ret.list)[static_cast<size_t>(i)], regs + i);
  --subquery_once_required_;
  redirects_.resize(mark);
  Op(Opcode::kMakeRecord, regs, n, regs + n);
  Op(Opcode::kNewRowid, ret.temp, regs + n + 1, 0);
  Op(Opcode::kInsert, ret.temp, regs + n, regs + n + 1);
}

void Codegen::CodeReturningOutput(const Returning& ret) {
  int n = static_cast<int>(ret.list->size());
  int done = MakeLabel();
  Op(Opcode::kRewind, ret.temp, done);
  int top = prog_->pc();
  int regs = AllocReg(n);
  for (int i = 0; i < n; ++i) Op(Opcode::kColumn, ret.temp, i, regs + i);
  Op(Opcode::kResultRow, regs, n);
  Op(Opcode::kNext, ret.temp, top);
  ResolveLabel(done);
}

}  // namespace basalt
