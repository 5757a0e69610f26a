// DELETE: collect the rowids of matching rows, then delete each row with its
// index entries, firing triggers around it.
#include "catalog/fkey.h"
#include "exec/codegen_internal.h"

namespace basalt {

bool Codegen::CodeDelete(ast::DeleteStmt* st, Scope* outer) {
  size_t cte_mark = resolver_.cte_mark();
  if (!resolver_.PushWith(st->with, outer)) return false;
  bool ok = CodeDeleteBody(st, outer);
  truncating_ = false;
  resolver_.PopWith(cte_mark);
  return ok;
}

bool Codegen::CodeDeleteBody(ast::DeleteStmt* st, Scope* outer) {
  ast::FromItem* target = st->target;
  Table* tab = FindTarget(target->schema, target->name);
  if (ctx_->failed()) return false;
  if (tab == nullptr) return ctx_->NoSuchTable(target->schema, target->name);
  if (tab->is_view) return CodeViewDelete(st, tab, outer);
  if (tab->is_virtual) return EnsureVtab(tab) && CodeVtabDelete(st, tab, outer);
  if (tab->root == 1 && !ctx_->options.writable_schema) {
    return ctx_->Error("table " + tab->name + " may not be modified");
  }
  int ncol = static_cast<int>(tab->columns.size());
  std::vector<Source> srcs;
  int cursor = ctx_->AllocCursor();
  srcs.push_back(resolver_.MakeTableSource(tab, target->alias, cursor));
  Scope scope;
  scope.outer = outer;
  scope.sources = &srcs;
  ast::Expr* where =
      LimitedDmlWhere({st->order_by, st->limit, st->offset}, target, tab, st->where, "DELETE");
  if (ctx_->failed()) return false;
  if (where && !resolver_.ResolveExpr(where, &scope)) return false;
  Returning ret;
  if (st->returning && !PrepareReturning(st->returning, tab, outer, &ret)) {
    return false;
  }

  // Without triggers, RETURNING, foreign keys or subqueries SQLite deletes
  // each row where its scan finds it (one pass); with no WHERE either, it
  // truncates the table (no hooks unless a preupdate hook was set).
  bool one_pass;
  {
    constexpr int kDel = static_cast<int>(ast::TriggerEvent::kDelete);
    const bool fk = FkEnabled() && (!tab->foreign_keys.empty() || !FkReferences(tab).empty());
    const bool simple =
        ret.list == nullptr && !fk &&
        !HasTriggers(tab, kDel, static_cast<int>(ast::TriggerTime::kBefore), nullptr) &&
        !HasTriggers(tab, kDel, static_cast<int>(ast::TriggerTime::kAfter), nullptr);
    truncating_ = simple && where == nullptr && !ctx_->options.preupdate_hook;
    one_pass = simple && !HasSubquery(where);
  }
  if (truncating_) {
    // Every tree of the table emptied at once; the rows it held count as
    // changes as each deleted row would.
    DmlTarget t;
    OpenDmlTarget(tab, &t, cursor);
    int flags = (in_trigger_ == 0 ? 1 : 0) | 2;
    Op(Opcode::kClearTree, static_cast<int>(tab->root), tab->db(), flags);
    for (const Index* idx : tab->indexes) {
      if (idx->root != tab->root) Op(Opcode::kClearTree, static_cast<int>(idx->root), tab->db(), 0);
    }
    return !ctx_->failed();
  }
  int rowids = OpenRowKeySet(tab, 0, one_pass);
  {
    WhereLoops w;
    std::vector<std::vector<bool>> used(1);
    used[0].assign(static_cast<size_t>(ncol), false);
    MarkUsedColumns(where, &srcs, &used);
    dml_rows_ = true;
    const bool planned = PlanLoops(&w, &srcs, where, nullptr, nullptr, &used);
    dml_rows_ = false;
    if (!planned) return false;
    if (!WhereBegin(&w)) return false;
    CodeAddRowKey(tab, cursor, rowids, one_pass);
    WhereEnd(&w);
  }
  DmlTarget t;
  OpenDmlTarget(tab, &t, cursor);
  int old_base = AllocReg(ncol + 1);
  int done = MakeLabel();
  Op(Opcode::kRewind, rowids, done);
  int top = prog_->pc();
  int next = MakeLabel();
  int rid = AllocReg(RowKeySize(tab));
  CodeRowKeyFromSet(tab, rowids, rid, one_pass);
  CodeSeekRowKey(tab, cursor, next, rid);
  CodeReadRow(&t, old_base);
  if (HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kDelete),
                  static_cast<int>(ast::TriggerTime::kBefore), nullptr)) {
    CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kDelete),
                 static_cast<int>(ast::TriggerTime::kBefore), old_base, 0, next, nullptr,
                 OnConflict::kDefault);
    CodeSeekRowKey(tab, cursor, next, rid);
  }
  if (!CodeFkCheck(tab, old_base, 0, nullptr)) return false;
  CodeDeleteRow(&t, old_base, in_trigger_ == 0, true);
  if (!CodeFkActions(tab, old_base, 0, nullptr)) return false;
  if (ret.list != nullptr) CodeReturningRow(ret, old_base);  // before the AFTER triggers
  CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kDelete),
               static_cast<int>(ast::TriggerTime::kAfter), old_base, 0, next, nullptr,
               OnConflict::kDefault);
  ResolveLabel(next);
  Op(Opcode::kNext, rowids, top);
  ResolveLabel(done);
  if (ret.list != nullptr) CodeReturningOutput(ret);
  return !ctx_->failed();
}

}  // namespace basalt
