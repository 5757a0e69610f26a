// INSERT, UPDATE and DELETE on a virtual table: every change is one call
// of the table's Update (xUpdate) with the argument layout of vtab.html:
//   DELETE  argc 1: old rowid
//   INSERT  argc N+2: NULL, new rowid (NULL: the table chooses), columns
//   UPDATE  argc N+2: old rowid, new rowid, columns
// (a WITHOUT ROWID table: its PRIMARY KEY value in place of each rowid)
// (N counts hidden columns too). UPDATE and DELETE first collect the rows
// to change in a temporary table, then call Update for each, so the scan
// never sees its own changes. The table joins the transaction (VBegin)
// before the first change.
#include "exec/codegen_internal.h"
#include "parser/parser.h"

namespace basalt {

namespace {

bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

}  // namespace

Table* Codegen::FindTarget(std::string_view schema, std::string_view name) {
  Table* t = ctx_->FindTable(schema, name);
  if (t != nullptr || ctx_->vtabs == nullptr) return t;
  Status st;
  t = ctx_->vtabs->Eponymous(name, &st);
  if (!st.ok()) ctx_->Error(st.code(), st.message());
  return t;
}

bool Codegen::EnsureVtab(Table* t) {
  if (t->vtab != nullptr) return true;
  Status st = ctx_->vtabs != nullptr ? ctx_->vtabs->Connect(t)
                                     : Status(kError, "no such module: " + t->module);
  if (!st.ok()) return ctx_->Error(st.code(), st.message());
  return true;
}

bool Codegen::CodeVtabInsert(ast::InsertStmt* st, const Table* tab, Scope* outer) {
  if (st->upsert != nullptr)
    return ctx_->Error("UPSERT not implemented for virtual table \"" + tab->name + "\"");
  if (!tab->vtab->writable()) return ctx_->Error("table " + tab->name + " may not be modified");
  if (st->returning != nullptr) {  // not written yet: refused rather than ignored
    return ctx_->Error("RETURNING on virtual table \"" + tab->name + "\" is not supported yet");
  }
  std::vector<int> targets;
  if (!InsertTargets(st, tab, &targets)) return false;
  const int nvals = static_cast<int>(targets.size());
  ast::Select* src = st->select;
  if (src != nullptr && !ResolveInsertSource(st, tab, outer, nvals)) return false;
  const int ncol = static_cast<int>(tab->columns.size());
  prog_->writes = true;
  prog_->writes_vtab = true;
  // One row written once needs no statement savepoint (SQLite opens one
  // only for statements that may write several rows); FTS flushes its
  // pending terms at each xSavepoint, so this keeps one segment per
  // transaction of single-row INSERTs, as in SQLite.
  if (src == nullptr || (src->prior == nullptr && src->values.size() == 1 &&
                         src->order_by == nullptr && src->limit == nullptr)) {
    prog_->stmt_journal = false;
  }
  prog_->SetP4(Op(Opcode::kVBegin), tab);
  const int argv = AllocReg(ncol + 2);
  const int vals = nvals > 0 ? AllocReg(nvals) : 0;
  const int end = MakeLabel();
  InsertLoop loop;
  const bool single_row = src != nullptr && src->prior == nullptr && src->values.size() == 1 &&
                          src->order_by == nullptr && src->limit == nullptr;
  // One xUpdate call has nothing to undo on failure: no statement
  // savepoint (SQLite opens one only for multi-row writes), so the table's
  // xSavepoint does not run for each single-row INSERT of a transaction.
  if (single_row && in_trigger_ == 0) prog_->stmt_journal = false;
  if (src != nullptr && !single_row) {
    if (!CodeInsertSource(src, tab, nvals, vals, end, &loop)) return false;
  } else if (single_row) {
    for (int i = 0; i < nvals; ++i) CodeExpr((*src->values[0])[static_cast<size_t>(i)], vals + i);
  }
  // argv: NULL, the rowid given (or NULL), the columns (NULL when not given).
  Op(Opcode::kNull, 0, argv, argv + ncol + 1);
  std::vector<bool> done(static_cast<size_t>(ncol), false);
  bool rowid_done = false;
  for (int i = 0; i < nvals; ++i) {
    const int c = targets[static_cast<size_t>(i)];
    if (c < 0) {
      if (!rowid_done) Op(Opcode::kSCopy, vals + i, argv + 1);
      rowid_done = true;
    } else if (!done[static_cast<size_t>(c)]) {
      Op(Opcode::kSCopy, vals + i, argv + 2 + c);
      done[static_cast<size_t>(c)] = true;
    }
  }
  const int a = Op(Opcode::kVUpdate, in_trigger_ == 0 ? 3 : 1, ncol + 2, argv);
  prog_->SetP4(a, tab);
  prog_->at(a).p5 = static_cast<uint8_t>(ToOnConflict(st->on_conflict));
  if (loop.temp >= 0) {
    Op(Opcode::kNext, loop.temp, loop.top);
  } else if (loop.yield_reg) {
    Op(Opcode::kGoto, 0, loop.top);
  }
  ResolveLabel(end);
  return !ctx_->failed();
}

// Pass 1 of UPDATE / DELETE: the argv of each Update call, one row each in
// temporary table `rows` (the row's n registers, from `argv`), in scan
// order; or, key_is_rowid (DELETE), keyed by the rowid in argv[0]: as
// SQLite's RowSet, rows are then deleted once each, in rowid order.
bool Codegen::CodeVtabCollect(ast::Expr* where, std::vector<Source>* srcs,
                              const std::function<void(int argv)>& row, int n, int rows,
                              bool key_is_rowid) {
  WhereLoops w;
  std::vector<std::vector<bool>> used(1);
  used[0].assign((*srcs)[0].table->columns.size(), true);
  if (!PlanLoops(&w, srcs, where, nullptr, nullptr, &used)) return false;
  // A scan the table calls unique touches one row: like SQLite's one-pass
  // DELETE/UPDATE it needs no statement savepoint (FTS flushes its pending
  // terms at each xSavepoint/xRelease, so this decides segment layout).
  if (w.plan.loops.size() == 1 && w.plan.loops[0].vtab != nullptr && w.plan.loops[0].vtab->unique &&
      in_trigger_ == 0) {
    prog_->stmt_journal = false;
  }
  if (!WhereBegin(&w)) return false;
  const int argv = AllocReg(n + 2);
  row(argv);
  Op(Opcode::kMakeRecord, argv, n, argv + n);
  if (key_is_rowid) {
    Op(Opcode::kInsert, rows, argv + n, argv);
  } else {
    Op(Opcode::kNewRowid, rows, argv + n + 1, 0);
    Op(Opcode::kInsert, rows, argv + n, argv + n + 1);
  }
  WhereEnd(&w);
  return !ctx_->failed();
}

// Pass 2: Update with each collected row.
void Codegen::CodeVtabApply(const Table* tab, int rows, int n, OnConflict on_conflict) {
  const int argv = AllocReg(n);
  const int done = MakeLabel();
  Op(Opcode::kRewind, rows, done);
  const int top = prog_->pc();
  for (int i = 0; i < n; ++i) Op(Opcode::kColumn, rows, i, argv + i);
  const int a = Op(Opcode::kVUpdate, in_trigger_ == 0 ? 2 : 0, n, argv);
  prog_->SetP4(a, tab);
  prog_->at(a).p5 = static_cast<uint8_t>(on_conflict);
  Op(Opcode::kNext, rows, top);
  ResolveLabel(done);
}

bool Codegen::CodeVtabDelete(ast::DeleteStmt* st, const Table* tab, Scope* outer) {
  if (!tab->vtab->writable()) return ctx_->Error("table " + tab->name + " may not be modified");
  if (st->returning != nullptr) {  // not written yet: refused rather than ignored
    return ctx_->Error("RETURNING on virtual table \"" + tab->name + "\" is not supported yet");
  }
  std::vector<Source> srcs;
  const int cursor = ctx_->AllocCursor();
  srcs.push_back(resolver_.MakeTableSource(tab, st->target->alias, cursor));
  Scope scope;
  scope.outer = outer;
  scope.sources = &srcs;
  if (st->where && !resolver_.ResolveExpr(st->where, &scope)) return false;
  prog_->writes = true;
  prog_->writes_vtab = true;
  prog_->SetP4(Op(Opcode::kVBegin), tab);
  const int rows = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, rows, 1);
  // A WITHOUT ROWID table is passed its PRIMARY KEY value for the rowid.
  const bool pk = tab->vtab_pk >= 0;
  auto row = [&](int argv) {
    if (pk) {
      Op(Opcode::kVColumn, cursor, tab->vtab_pk, argv);
    } else {
      Op(Opcode::kVRowid, cursor, argv);
    }
  };
  if (!CodeVtabCollect(st->where, &srcs, row, 1, rows, !pk)) return false;
  CodeVtabApply(tab, rows, 1, OnConflict::kDefault);
  return !ctx_->failed();
}

bool Codegen::CodeVtabUpdate(ast::UpdateStmt* st, const Table* tab, Scope* outer) {
  if (!tab->vtab->writable()) return ctx_->Error("table " + tab->name + " may not be modified");
  if (st->returning != nullptr) {  // not written yet: refused rather than ignored
    return ctx_->Error("RETURNING on virtual table \"" + tab->name + "\" is not supported yet");
  }
  const int ncol = static_cast<int>(tab->columns.size());
  std::vector<Source> srcs;
  const int cursor = ctx_->AllocCursor();
  srcs.push_back(resolver_.MakeTableSource(tab, st->target->alias, cursor));
  Scope scope;
  scope.outer = outer;
  scope.sources = &srcs;
  // The SET expression of each column (the last assignment wins), and of
  // the rowid.
  std::vector<ast::Expr*> set(static_cast<size_t>(ncol), nullptr);
  ast::Expr* rowid_set = nullptr;
  for (size_t i = 0; i < st->sets->size(); ++i) {
    std::string_view name = st->sets->items[i].name;
    const int c = tab->FindColumn(name);
    if (c < 0 && !IsRowidName(name)) return ctx_->Error("no such column: " + std::string(name));
    if (!resolver_.ResolveExpr(st->sets->items[i].expr, &scope)) return false;
    if (c < 0) {
      rowid_set = st->sets->items[i].expr;
    } else {
      set[static_cast<size_t>(c)] = st->sets->items[i].expr;
    }
  }
  if (st->where && !resolver_.ResolveExpr(st->where, &scope)) return false;
  prog_->writes = true;
  prog_->writes_vtab = true;
  prog_->SetP4(Op(Opcode::kVBegin), tab);
  const int rows = ctx_->AllocCursor();
  const int n = ncol + 2;
  Op(Opcode::kOpenEphemeral, rows, n);
  // Columns the UPDATE leaves alone are read with p5 set (the table may
  // answer sqlite3_vtab_nochange() by leaving them unset). A WITHOUT ROWID
  // table gets its PRIMARY KEY before and after for the rowids.
  const int pk = tab->vtab_pk;
  auto row = [&](int argv) {
    if (pk >= 0) {
      Op(Opcode::kVColumn, cursor, pk, argv);
    } else {
      Op(Opcode::kVRowid, cursor, argv);
      if (rowid_set != nullptr) {
        CodeExpr(rowid_set, argv + 1);
      } else {
        Op(Opcode::kSCopy, argv, argv + 1);
      }
    }
    for (int c = 0; c < ncol; ++c) {
      ast::Expr* e = set[static_cast<size_t>(c)];
      if (e != nullptr) {
        CodeExpr(e, argv + 2 + c);
      } else {
        prog_->at(Op(Opcode::kVColumn, cursor, c, argv + 2 + c)).p5 = 1;
      }
    }
    if (pk >= 0) Op(Opcode::kSCopy, argv + 2 + pk, argv + 1);
  };
  if (!CodeVtabCollect(st->where, &srcs, row, n, rows)) return false;
  CodeVtabApply(tab, rows, n, ToOnConflict(st->on_conflict));
  return !ctx_->failed();
}

}  // namespace basalt
