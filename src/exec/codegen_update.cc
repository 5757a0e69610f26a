// UPDATE: collect the rowids of matching rows first, then rewrite each row
// (so that changes cannot disturb the scan that finds them).
#include "exec/codegen_internal.h"
#include "parser/parser.h"

namespace basalt {

using ast::Expr;

namespace {
bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}
}  // namespace

bool Codegen::CodeUpdate(ast::UpdateStmt* st, Scope* outer) {
  size_t cte_mark = resolver_.cte_mark();
  if (!resolver_.PushWith(st->with, outer)) return false;
  bool ok = CodeUpdateBody(st, outer);
  resolver_.PopWith(cte_mark);
  return ok;
}

// UPDATE in two passes: (1) the rowids of the matching rows into a
// temporary table; (2) for each of them: read the old row, compute the new
// one, run BEFORE triggers, check constraints, replace the row and its index
// entries, run AFTER triggers.
bool Codegen::CodeUpdateBody(ast::UpdateStmt* st, Scope* outer) {
  ast::FromItem* target = st->target;
  Table* tab = FindTarget(target->schema, target->name);
  if (ctx_->failed()) return false;
  if (tab == nullptr) return ctx_->NoSuchTable(target->schema, target->name);
  if (tab->is_view) return ctx_->Error("cannot modify " + tab->name + " because it is a view");
  if (tab->is_virtual) return EnsureVtab(tab) && CodeVtabUpdate(st, tab, outer);
  if (tab->root == 1) return ctx_->Error("table " + tab->name + " may not be modified");
  if (st->from != nullptr) return ctx_->Error("UPDATE ... FROM is not supported yet");
  if (st->order_by != nullptr || st->limit != nullptr) {
    return ctx_->Error("ORDER BY and LIMIT on UPDATE are not supported");
  }
  OnConflict on_conflict = ToOnConflict(st->on_conflict);
  int ncol = static_cast<int>(tab->columns.size());
  std::vector<Source> srcs;
  int cursor = ctx_->AllocCursor();
  srcs.push_back(resolver_.MakeTableSource(tab, target->alias, cursor));
  Scope scope;
  scope.outer = outer;
  scope.sources = &srcs;
  UpdateSets sets;
  sets.changed.assign(static_cast<size_t>(ncol), false);
  if (!ResolveUpdateSets(st->sets, tab, &scope, &sets)) return false;
  if (st->where && !resolver_.ResolveExpr(st->where, &scope)) return false;
  Returning ret;
  if (st->returning && !PrepareReturning(st->returning, tab, outer, &ret)) {
    return false;
  }
  // Pass 1: rowids of the rows to change, in rowid order.
  int rowids = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, rowids, 0);
  if (!CodeCollectRowids(st->where, tab, &srcs, rowids)) return false;
  // Pass 2.
  DmlTarget t;
  OpenDmlTarget(tab, &t, cursor);
  int old_base = AllocReg(ncol + 1);
  int new_base = AllocReg(ncol + 1);
  int done = MakeLabel();
  Op(Opcode::kRewind, rowids, done);
  int top = prog_->pc();
  int next = MakeLabel();
  int rid = AllocReg();
  Op(Opcode::kRowid, rowids, rid);
  Op(Opcode::kNotExists, cursor, next, rid);
  CodeReadRow(&t, old_base);
  CodeUpdatedRow(st->sets, tab, sets, old_base, new_base);
  std::vector<bool>* changed = &sets.changed;
  if (HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                  static_cast<int>(ast::TriggerTime::kBefore), changed)) {
    CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                 static_cast<int>(ast::TriggerTime::kBefore), old_base, new_base, next, changed,
                 on_conflict);
    // The trigger may have deleted the row.
    Op(Opcode::kNotExists, cursor, next, rid);
  }
  CodeConstraintChecks(&t, new_base, old_base, sets.rowid_set, on_conflict, next, changed);
  if (!CodeFkCheck(tab, old_base, new_base, changed)) return false;
  CodeReplaceRow(&t, old_base, new_base, sets.rowid_set);
  if (!CodeFkActions(tab, old_base, new_base, changed)) return false;
  if (ret.list != nullptr) CodeReturningRow(ret, new_base);  // before the AFTER triggers
  CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
               static_cast<int>(ast::TriggerTime::kAfter), old_base, new_base, next, changed,
               on_conflict);
  ResolveLabel(next);
  Op(Opcode::kNext, rowids, top);
  ResolveLabel(done);
  if (ret.list != nullptr) CodeReturningOutput(ret);
  return !ctx_->failed();
}

// The column each SET assigns (-1 = rowid) and which columns change; the
// SET expressions are resolved against the target table.
bool Codegen::ResolveUpdateSets(ast::ExprList* set_list, const Table* tab, Scope* scope,
                                UpdateSets* sets) {
  for (size_t i = 0; i < set_list->size(); ++i) {
    std::string_view name = set_list->items[i].name;
    int c = tab->FindColumn(name);
    if (c < 0) {
      if (!IsRowidName(name)) return ctx_->Error("no such column: " + std::string(name));
      c = -1;
    }
    if (c == tab->rowid_alias && c >= 0) c = -1;
    if (c < 0) {
      sets->rowid_set = true;
      if (tab->rowid_alias >= 0) sets->changed[static_cast<size_t>(tab->rowid_alias)] = true;
    } else {
      sets->changed[static_cast<size_t>(c)] = true;
    }
    sets->set_col.push_back(c);
    if (!resolver_.ResolveExpr(set_list->items[i].expr, scope)) return false;
  }
  return true;
}

// Pass 1: inserts the rowid of every row matching `where` into the
// temporary table `rowids`.
bool Codegen::CodeCollectRowids(Expr* where, const Table* tab, std::vector<Source>* srcs,
                                int rowids) {
  int cursor = (*srcs)[0].cursor;
  WhereLoops w;
  std::vector<std::vector<bool>> used(1);
  used[0].assign(tab->columns.size(), false);
  MarkUsedColumns(where, srcs, &used);
  if (!PlanLoops(&w, srcs, where, nullptr, nullptr, &used)) return false;
  if (!WhereBegin(&w)) return false;
  int r = AllocReg(2);
  CodeColumn(cursor, -1, tab, r);
  Op(Opcode::kNull, 0, r + 1);
  Op(Opcode::kInsert, rowids, r + 1, r);
  WhereEnd(&w);
  return true;
}

// The new row at new_base: the old one with the SET values, all computed
// from the old row (the cursor is on it) before any is written.
void Codegen::CodeUpdatedRow(ast::ExprList* set_list, const Table* tab, const UpdateSets& sets,
                             int old_base, int new_base) {
  int ncol = static_cast<int>(tab->columns.size());
  for (int c = 0; c < ncol; ++c) {
    if (c == tab->rowid_alias) continue;
    Op(Opcode::kSCopy, old_base + 1 + c, new_base + 1 + c);
  }
  Op(Opcode::kSCopy, old_base, new_base);
  std::vector<int> tmp(sets.set_col.size());
  for (size_t i = 0; i < sets.set_col.size(); ++i) {
    tmp[i] = AllocReg();
    CodeExpr(set_list->items[i].expr, tmp[i]);
  }
  for (size_t i = 0; i < sets.set_col.size(); ++i) {
    int c = sets.set_col[i];
    Op(Opcode::kCopy, tmp[i], c < 0 ? new_base : new_base + 1 + c, 0);
  }
  if (sets.rowid_set) Op(Opcode::kMustBeInt, new_base, 0);
  if (tab->rowid_alias >= 0) Op(Opcode::kSCopy, new_base, new_base + 1 + tab->rowid_alias);
  ApplyColumnAffinity(tab, new_base);
}

// Replaces the old row (at old_base) by the new one (at new_base): the old
// index entries go (and the old row, if its rowid changes), then the new row
// and its index entries are written.
void Codegen::CodeReplaceRow(DmlTarget* t, int old_base, int new_base, bool rowid_set) {
  const Table* tab = t->table;
  int ncol = static_cast<int>(tab->columns.size());
  for (size_t i = 0; i < tab->indexes.size(); ++i) {
    const Index* idx = tab->indexes[i];
    int n = static_cast<int>(idx->columns.size()) + 1;
    int keys = AllocReg(n);
    int skip = CodePartialIndexGuard(idx, old_base);
    CodeIndexKey(idx, old_base, keys);
    Op(Opcode::kIdxDelete, t->index_cursors[i], keys, n);
    if (skip) ResolveLabel(skip);
  }
  if (rowid_set) {
    int same = MakeLabel();
    Op(Opcode::kEq, new_base, same, old_base);
    Op(Opcode::kNotExists, t->cursor, same, old_base);
    Op(Opcode::kDelete, t->cursor);
    ResolveLabel(same);
  }
  int rec = AllocReg();
  int tmp = AllocReg(ncol);
  for (int i = 0; i < ncol; ++i) {
    if (i == tab->rowid_alias) {
      Op(Opcode::kNull, 0, tmp + i);
    } else {
      Op(Opcode::kSCopy, new_base + 1 + i, tmp + i);
    }
  }
  Op(Opcode::kMakeRecord, tmp, ncol, rec);
  int a = Op(Opcode::kInsert, t->cursor, rec, new_base);
  prog_->at(a).p5 = (in_trigger_ == 0 ? kInsNChange : 0) | kInsIsUpdate | kInsTotal;
  prog_->SetP4(a, tab);
  for (size_t i = 0; i < tab->indexes.size(); ++i) {
    const Index* idx = tab->indexes[i];
    int nk = static_cast<int>(idx->columns.size()) + 1;
    int keys = AllocReg(nk + 1);
    int skip = CodePartialIndexGuard(idx, new_base);
    CodeIndexKey(idx, new_base, keys);
    Op(Opcode::kMakeRecord, keys, nk, keys + nk);
    Op(Opcode::kIdxInsert, t->index_cursors[i], keys + nk);
    if (skip) ResolveLabel(skip);
  }
}

}  // namespace basalt
