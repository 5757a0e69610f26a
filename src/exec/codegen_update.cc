// UPDATE: collect the rowids of matching rows first, then rewrite each row
// (so that changes cannot disturb the scan that finds them).
#include "catalog/fkey.h"
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
  if (tab->is_view) return CodeViewUpdate(st, tab, outer);
  if (tab->is_virtual) return EnsureVtab(tab) && CodeVtabUpdate(st, tab, outer);
  if (tab->root == 1 && !ctx_->options.writable_schema) {
    return ctx_->Error("table " + tab->name + " may not be modified");
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
  bool from = st->from != nullptr;
  Expr* where = st->where;
  if (!from) {
    where = LimitedDmlWhere({st->order_by, st->limit, st->offset}, target, tab, where, "UPDATE");
    if (ctx_->failed()) return false;
  }
  if (!ResolveUpdateSets(st->sets, tab, from ? nullptr : &scope, &sets)) return false;
  if (!from && where && !resolver_.ResolveExpr(where, &scope)) return false;
  Returning ret;
  if (st->returning && !PrepareReturning(st->returning, tab, outer, &ret)) {
    return false;
  }
  // Pass 1: keys of the rows to change, in key order (rowids with the new
  // values for UPDATE ... FROM).
  int rowids;
  bool scan_order = false;
  const int n_sets = static_cast<int>(st->sets->size());
  if (from) {
    if (tab->without_rowid) {
      rowids = OpenRowKeySet(tab, n_sets);  // the primary key, then the values
    } else {
      rowids = ctx_->AllocCursor();
      Op(Opcode::kOpenEphemeral, rowids, n_sets);
    }
    if (!CodeUpdateFromRows(st, tab, outer, rowids)) return false;
  } else {
    // SQLite's one-pass UPDATE (rows changed in scan order) needs no
    // triggers, RETURNING, foreign key work, key change, REPLACE or subquery.
    scan_order = ret.list == nullptr && !sets.key_set && !sets.rowid_set &&
                 on_conflict != OnConflict::kReplace && !HasSubquery(where) &&
                 !UpdateNeedsTwoPasses(tab, sets.changed);
    if (scan_order && ret.list == nullptr && !tab->without_rowid) {
      bool done = false;
      if (!CodeUpdateOnePass(st, tab, &srcs, sets, where, on_conflict, &done)) return false;
      if (done) return true;
    }
    if (!CodeCollectRowids(where, tab, &srcs, &rowids, sets.changed, &scan_order)) return false;
  }
  // Pass 2.
  DmlTarget t;
  OpenDmlTarget(tab, &t, cursor);
  int old_base = AllocReg(ncol + 1);
  int new_base = AllocReg(ncol + 1);
  int done = MakeLabel();
  Op(Opcode::kRewind, rowids, done);
  int top = prog_->pc();
  int next = MakeLabel();
  int rid = AllocReg(RowKeySize(tab));
  CodeRowKeyFromSet(tab, rowids, rid, scan_order);
  CodeSeekRowKey(tab, cursor, next, rid);
  CodeReadRow(&t, old_base);
  // The SET expressions read the old row from its registers.
  size_t mark = redirects_.size();
  redirects_.push_back({cursor, -1, old_base});
  for (int c = 0; c < ncol; ++c) redirects_.push_back({cursor, c, old_base + 1 + c});
  CodeUpdatedRow(st->sets, tab, sets, old_base, new_base, from ? rowids : -1,
                 tab->without_rowid ? tab->n_pk() : 0);
  redirects_.resize(mark);
  std::vector<bool>* changed = &sets.changed;
  bool before = HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                            static_cast<int>(ast::TriggerTime::kBefore), changed);
  if (before) {
    CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                 static_cast<int>(ast::TriggerTime::kBefore), old_base, new_base, next, changed,
                 on_conflict);
    // The trigger may have deleted the row.
    CodeSeekRowKey(tab, cursor, next, rid);
  }
  CodeConstraintChecks(&t, new_base, old_base, sets.key_set, on_conflict, next, changed);
  if (!CodeFkCheck(tab, old_base, new_base, changed)) return false;
  CodeReplaceRow(&t, old_base, new_base, sets.rowid_set, before ? nullptr : changed);
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
      if (!IsRowidName(name) || !tab->HasRowid()) {
        return ctx_->Error("no such column: " + std::string(name));
      }
      c = -1;
    }
    if (c == tab->rowid_alias && c >= 0) c = -1;
    if (!CheckGeneratedTarget(tab, c, true)) return false;
    if (c < 0) {
      sets->rowid_set = true;
      if (tab->rowid_alias >= 0) sets->changed[static_cast<size_t>(tab->rowid_alias)] = true;
    } else {
      sets->changed[static_cast<size_t>(c)] = true;
    }
    if (c < 0 || (tab->without_rowid && tab->columns[static_cast<size_t>(c)].primary_key)) {
      sets->key_set = true;
    }
    sets->set_col.push_back(c);
    if (scope != nullptr && !resolver_.ResolveExpr(set_list->items[i].expr, scope)) return false;
  }
  return true;
}

// Pass 1: inserts the rowid of every row matching `where` into the
// temporary table `rowids`.
bool Codegen::CodeCollectRowids(Expr* where, const Table* tab, std::vector<Source>* srcs,
                                int* rowids, const std::vector<bool>& changed, bool* scan_order) {
  int cursor = (*srcs)[0].cursor;
  WhereLoops w;
  std::vector<std::vector<bool>> used(1);
  used[0].assign(tab->columns.size(), false);
  MarkUsedColumns(where, srcs, &used);
  dml_rows_ = true;
  const bool planned = PlanLoops(&w, srcs, where, nullptr, nullptr, &used);
  dml_rows_ = false;
  if (!planned) return false;
  // SQLite gives up the one pass when its scan uses an index the UPDATE changes.
  const Index* idx = w.plan.loops.empty() ? nullptr : w.plan.loops[0].index;
  if (idx != nullptr && !idx->is_table_store()) {
    if (!idx->where_sql.empty()) *scan_order = false;
    for (int c : idx->columns) {
      if (c < 0 || changed[static_cast<size_t>(c)]) *scan_order = false;
    }
  }
  *rowids = OpenRowKeySet(tab, 0, *scan_order);
  if (!WhereBegin(&w)) return false;
  CodeAddRowKey(tab, cursor, *rowids, *scan_order);
  WhereEnd(&w);
  return true;
}

bool Codegen::CodeUpdateOnePass(ast::UpdateStmt* st, Table* tab, std::vector<Source>* srcs,
                                const UpdateSets& sets, Expr* where, OnConflict on_conflict,
                                bool* done) {
  const int cursor = (*srcs)[0].cursor;
  WhereLoops w;
  std::vector<std::vector<bool>> used(1);
  used[0].assign(tab->columns.size(), false);
  MarkUsedColumns(where, srcs, &used);
  dml_rows_ = true;
  const bool planned = PlanLoops(&w, srcs, where, nullptr, nullptr, &used);
  dml_rows_ = false;
  if (!planned) return false;
  // Only a full scan of the table itself: rewriting a row where the scan
  // stands keeps its rowid, so the scan meets every row once.
  if (w.plan.loops.size() != 1 || w.plan.loops[0].index != nullptr ||
      w.plan.loops[0].access != AccessKind::kFullScan) {
    return true;
  }
  *done = true;
  const int ncol = static_cast<int>(tab->columns.size());
  DmlTarget t;
  OpenDmlTarget(tab, &t, cursor, /*open_table=*/false);
  dml_write_cursor_ = cursor;
  const bool began = WhereBegin(&w);
  dml_write_cursor_ = -1;
  if (!began) return false;
  const int old_base = AllocReg(ncol + 1);
  const int new_base = AllocReg(ncol + 1);
  const int next = MakeLabel();
  CodeReadRow(&t, old_base);
  size_t mark = redirects_.size();
  redirects_.push_back({cursor, -1, old_base});
  for (int c = 0; c < ncol; ++c) redirects_.push_back({cursor, c, old_base + 1 + c});
  CodeUpdatedRow(st->sets, tab, sets, old_base, new_base);
  redirects_.resize(mark);
  const std::vector<bool>* changed = &sets.changed;
  CodeConstraintChecks(&t, new_base, old_base, sets.key_set, on_conflict, next, changed);
  if (!CodeFkCheck(tab, old_base, new_base, changed)) return false;
  CodeReplaceRow(&t, old_base, new_base, sets.rowid_set, changed);
  if (!CodeFkActions(tab, old_base, new_base, changed)) return false;
  ResolveLabel(next);
  WhereEnd(&w);
  return !ctx_->failed();
}

// Triggers on the UPDATE or foreign key work for the changed columns.
bool Codegen::UpdateNeedsTwoPasses(const Table* tab, const std::vector<bool>& changed) {
  for (int time :
       {static_cast<int>(ast::TriggerTime::kBefore), static_cast<int>(ast::TriggerTime::kAfter)}) {
    if (HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate), time, &changed)) {
      return true;
    }
  }
  for (const Index* idx : tab->indexes) {  // a changed key under ON CONFLICT REPLACE
    if (!idx->unique || idx->on_conflict != OnConflict::kReplace) continue;
    for (int c : idx->columns) {
      if (c < 0 || changed[static_cast<size_t>(c)]) return true;
    }
  }
  if (!FkEnabled()) return false;
  for (const ForeignKeyDef& fk : tab->foreign_keys) {
    for (int c : fk.from_columns) {
      if (changed[static_cast<size_t>(c)]) return true;
    }
  }
  if (FkReferences(tab).empty()) return false;
  for (size_t c = 0; c < tab->columns.size(); ++c) {
    if (changed[c] && (tab->columns[c].primary_key || tab->rowid_alias == static_cast<int>(c))) {
      return true;
    }
  }
  for (const FkRef& ref : FkReferences(tab)) {
    for (const std::string& name : ref.fk->parent_columns) {
      int c = tab->FindColumn(name);
      if (c >= 0 && changed[static_cast<size_t>(c)]) return true;
    }
  }
  return false;
}

// The new row at new_base: the old one with the SET values, all computed
// from the old row (the cursor is on it) before any is written.
void Codegen::CodeUpdatedRow(ast::ExprList* set_list, const Table* tab, const UpdateSets& sets,
                             int old_base, int new_base, int values_cursor, int values_at) {
  int ncol = static_cast<int>(tab->columns.size());
  // The SET values go straight to their slots: they read the old row (its
  // cursor or old_base), never new_base. A column set twice takes the last.
  for (int c = 0; c < ncol; ++c) {
    if (c == tab->rowid_alias || sets.changed[static_cast<size_t>(c)]) continue;
    Op(Opcode::kSCopy, old_base + 1 + c, new_base + 1 + c);
  }
  if (!sets.rowid_set) Op(Opcode::kSCopy, old_base, new_base);
  for (size_t i = 0; i < sets.set_col.size(); ++i) {
    int c = sets.set_col[i];
    int slot = c < 0 ? new_base : new_base + 1 + c;
    if (values_cursor >= 0) {
      Op(Opcode::kColumn, values_cursor, values_at + static_cast<int>(i), slot);
    } else {
      CodeExpr(set_list->items[i].expr, slot);
    }
  }
  if (sets.rowid_set) Op(Opcode::kMustBeInt, new_base, 0);
  if (tab->rowid_alias >= 0) Op(Opcode::kSCopy, new_base, new_base + 1 + tab->rowid_alias);
  ApplyColumnAffinity(tab, new_base);
  CodeComputedColumns(tab, new_base,
                      HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                                  static_cast<int>(ast::TriggerTime::kBefore), &sets.changed));
}

// Replaces the old row (at old_base) by the new one (at new_base): the old
// index entries go (and the old row, if its rowid changes), then the new row
// and its index entries are written.
void Codegen::CodeReplaceRow(DmlTarget* t, int old_base, int new_base, bool rowid_set,
                             const std::vector<bool>* changed) {
  const Table* tab = t->table;
  // An index whose key cannot change keeps its entry (SQLite does the same):
  // its columns are all unchanged, the rowid too, and no expression or
  // partial-index WHERE might read a changed column (nor a generated
  // column, which may depend on one).
  // The preupdate hook of the row, before anything changes (no write).
  int hook = Op(Opcode::kDelete, t->cursor, old_base, new_base);
  prog_->at(hook).p5 = kInsHookOnly | kInsPreHook | kInsIsUpdate;
  prog_->SetP4(hook, tab);
  NoteHookDepth(hook);
  std::vector<bool> keep(tab->indexes.size(), false);
  if (changed != nullptr && !rowid_set && !tab->without_rowid) {
    for (size_t i = 0; i < tab->indexes.size(); ++i) {
      const Index* idx = tab->indexes[i];
      bool same = idx->where_sql.empty();
      for (int c : idx->columns) {
        if (c < 0 || (*changed)[static_cast<size_t>(c)] ||
            !tab->columns[static_cast<size_t>(c)].generated_sql.empty()) {
          same = false;
        }
      }
      keep[i] = same;
    }
  }
  for (size_t i = 0; i < tab->indexes.size(); ++i) {
    const Index* idx = tab->indexes[i];
    if (keep[i]) continue;
    int n = idx->n_fields();
    int keys = AllocReg(n);
    int skip = CodePartialIndexGuard(idx, old_base);
    CodeIndexKey(idx, old_base, keys);
    Op(Opcode::kIdxDelete, t->index_cursors[i], keys, n);
    if (skip) ResolveLabel(skip);
  }
  if (tab->without_rowid) {
    // The entry of the old row goes; the new one is written below.
    int old_key = AllocReg(RowKeySize(tab));
    int gone = MakeLabel();
    CodeRowKeyFromRow(tab, old_base, old_key);
    CodeSeekRowKey(tab, t->cursor, gone, old_key);
    Op(Opcode::kDelete, t->cursor);
    ResolveLabel(gone);
  } else if (rowid_set) {
    int same = MakeLabel();
    Op(Opcode::kEq, new_base, same, old_base);
    Op(Opcode::kNotExists, t->cursor, same, old_base);
    Op(Opcode::kDelete, t->cursor);
    ResolveLabel(same);
  }
  CodeWriteTableRow(
      t, new_base,
      static_cast<uint8_t>((in_trigger_ == 0 ? kInsNChange : 0) | kInsIsUpdate | kInsTotal));
  for (size_t i = 0; i < tab->indexes.size(); ++i) {
    const Index* idx = tab->indexes[i];
    if (keep[i]) continue;
    int nk = idx->n_fields();
    int keys = AllocReg(nk + 1);
    int skip = CodePartialIndexGuard(idx, new_base);
    CodeIndexKey(idx, new_base, keys);
    SetRealMask(Op(Opcode::kMakeRecord, keys, nk, keys + nk), IndexRealMask(idx));
    Op(Opcode::kIdxInsert, t->index_cursors[i], keys + nk);
    if (skip) ResolveLabel(skip);
  }
}

}  // namespace basalt
