// INSERT: rows from VALUES or a SELECT, defaults for missing columns, rowid
// assignment, affinity, triggers and constraint checks.
#include <functional>

#include "exec/codegen_internal.h"
#include "parser/parser.h"
#include "planner/walk.h"

namespace basalt {

using ast::Expr;
using ast::Select;

namespace {

bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

// Does the SELECT read table `t` anywhere (then it must be materialized
// before rows are inserted into t)?
bool ReadsTable(Select* s, const Table* t) {
  bool found = false;
  std::function<void(Select*)> visit = [&](Select* sel) {
    for (Select* p = sel; p && !found; p = p->prior) {
      SelectInfo* info = InfoOf(p);
      if (info == nullptr) continue;
      for (const Source& src : info->sources) {
        if (src.table == t) found = true;
        if (src.item && src.item->tab == t) found = true;
        if (src.subquery) visit(src.subquery);
      }
    }
  };
  visit(s);
  auto f = [&](Expr* e) {
    if (e->select) visit(e->select);
    return !found;
  };
  if (!found) WalkSelectExprs(s, f);
  return found;
}

}  // namespace

OnConflict ToOnConflict(ast::ConflictAction a) {
  switch (a) {
    case ast::ConflictAction::kRollback:
      return OnConflict::kRollback;
    case ast::ConflictAction::kAbort:
      return OnConflict::kAbort;
    case ast::ConflictAction::kFail:
      return OnConflict::kFail;
    case ast::ConflictAction::kIgnore:
      return OnConflict::kIgnore;
    case ast::ConflictAction::kReplace:
      return OnConflict::kReplace;
    case ast::ConflictAction::kDefault:
      break;
  }
  return OnConflict::kDefault;
}

bool Codegen::CodeInsert(ast::InsertStmt* st, Scope* outer) {
  size_t cte_mark = resolver_.cte_mark();
  if (!resolver_.PushWith(st->with, outer)) return false;
  bool ok = CodeInsertBody(st, outer);
  resolver_.PopWith(cte_mark);
  return ok;
}

// INSERT in steps: check the target, map the values to columns, resolve
// the source, read the AUTOINCREMENT counter, produce the source rows, and
// for each row assemble it, give it a rowid, run BEFORE triggers, check the
// constraints, write it, run AFTER triggers; finally record the counter.
bool Codegen::CodeInsertBody(ast::InsertStmt* st, Scope* outer) {
  Table* tab = FindTarget(st->schema, st->table);
  if (ctx_->failed()) return false;
  if (tab == nullptr) return ctx_->NoSuchTable(st->schema, st->table);
  if (tab->is_view) return CodeViewInsert(st, tab, outer);
  if (tab->is_virtual) return EnsureVtab(tab) && CodeVtabInsert(st, tab, outer);
  if (tab->root == 1 && !ctx_->options.writable_schema) {
    return ctx_->Error("table " + tab->name + " may not be modified");
  }
  OnConflict on_conflict = ToOnConflict(st->on_conflict);
  int ncol = static_cast<int>(tab->columns.size());
  std::vector<int> targets;  // column of each inserted value (-1 = rowid)
  if (!InsertTargets(st, tab, &targets)) return false;
  int nvals = static_cast<int>(targets.size());
  Select* src = st->select;
  if (src != nullptr && !ResolveInsertSource(st, tab, outer, nvals)) return false;
  DmlTarget t;
  OpenDmlTarget(tab, &t, ctx_->AllocCursor());
  int base = AllocReg(ncol + 1);
  int vals = nvals > 0 ? AllocReg(nvals) : 0;
  int end = MakeLabel();
  UpsertPlan upsert;
  if (st->upsert != nullptr && !PrepareUpsert(st, tab, outer, base, &upsert)) return false;
  Returning ret;
  if (st->returning && !PrepareReturning(st->returning, tab, outer, &ret)) return false;
  if (ret.list != nullptr) upsert.ret = &ret;
  // AUTOINCREMENT: the largest rowid ever used lives in sqlite_sequence.
  Sequence seq;
  seq.table =
      tab->autoincrement ? tab->owner->FindTable("sqlite_sequence") : nullptr;  // same database
  if (seq.table != nullptr) CodeReadSequence(tab, &seq);
  bool single_row = src != nullptr && src->prior == nullptr && src->values.size() == 1 &&
                    src->order_by == nullptr && src->limit == nullptr;
  // (An upsert's DO UPDATE also checks before it writes; only its triggers
  // and foreign key actions could fail after a write.)
  bool upsert_triggers =
      st->upsert != nullptr && (FkEnabled() ||
                                HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                                            static_cast<int>(ast::TriggerTime::kBefore), nullptr) ||
                                HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kUpdate),
                                            static_cast<int>(ast::TriggerTime::kAfter), nullptr));
  if ((src == nullptr || single_row) && !upsert_triggers && !InsertNeedsJournal(tab, on_conflict)) {
    prog_->stmt_journal = false;
  }
  InsertLoop loop;
  if (src != nullptr && !single_row) {
    if (!CodeInsertSource(src, tab, nvals, vals, end, &loop)) return false;
  } else if (single_row) {
    for (int i = 0; i < nvals; ++i) CodeExpr((*src->values[0])[static_cast<size_t>(i)], vals + i);
  }
  int next_row = MakeLabel();
  int rowid_from = AssembleInsertRow(tab, targets, vals, base);
  // BEFORE INSERT triggers see NEW.rowid = -1 when the rowid is chosen
  // automatically; it is assigned after them.
  bool before =
      tab->HasRowid() && HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
                                     static_cast<int>(ast::TriggerTime::kBefore), nullptr);
  int auto_rowid = before ? AllocReg() : 0;
  if (tab->HasRowid()) {
    CodeInsertRowid(tab, t.cursor, base, vals, rowid_from, seq.reg, auto_rowid);
  } else {
    Op(Opcode::kNull, 0, base);  // no rowid; the primary key is checked below
    rowid_from = 0;
  }
  ApplyColumnAffinity(tab, base);
  CodeComputedColumns(tab, base, before);
  CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
               static_cast<int>(ast::TriggerTime::kBefore), 0, base, next_row, nullptr,
               on_conflict);
  if (before) {
    int skip = MakeLabel();
    Op(Opcode::kIfNot, auto_rowid, skip, 0);
    Op(Opcode::kNewRowid, t.cursor, base, seq.reg);
    if (tab->rowid_alias >= 0) Op(Opcode::kSCopy, base, base + 1 + tab->rowid_alias);
    ResolveLabel(skip);
    if (tab->has_generated) CodeGeneratedColumns(tab, base);  // they may read the rowid
  }
  if (st->upsert != nullptr) upsert_ = &upsert;
  CodeConstraintChecks(&t, base, 0, rowid_from >= 0, on_conflict, next_row, nullptr);
  upsert_ = nullptr;
  if (!CodeFkCheck(tab, 0, base, nullptr)) return false;
  CodeInsertRow(&t, base, in_trigger_ == 0, false);
  if (ret.list != nullptr) CodeReturningRow(ret, base);  // before the AFTER triggers
  CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
               static_cast<int>(ast::TriggerTime::kAfter), 0, base, next_row, nullptr, on_conflict);
  ResolveLabel(next_row);
  if (loop.temp >= 0) {
    Op(Opcode::kNext, loop.temp, loop.top);
  } else if (loop.yield_reg) {
    Op(Opcode::kGoto, 0, loop.top);
  }
  ResolveLabel(end);
  if (seq.table != nullptr) CodeWriteSequence(tab, seq);
  if (ret.list != nullptr) CodeReturningOutput(ret);
  return !ctx_->failed();
}

// The column each inserted value goes to (-1 = rowid): the column list, or
// every visible column; none for DEFAULT VALUES.
bool Codegen::InsertTargets(ast::InsertStmt* st, const Table* tab, std::vector<int>* targets) {
  if (st->default_values) return true;  // every column takes its default
  if (st->columns == nullptr) {
    int ncol = static_cast<int>(tab->columns.size());
    for (int i = 0; i < ncol; ++i) {
      const Column& col = tab->columns[static_cast<size_t>(i)];
      if (col.hidden || col.is_generated()) continue;
      targets->push_back(i == tab->rowid_alias ? -1 : i);
    }
    return true;
  }
  for (size_t i = 0; i < st->columns->size(); ++i) {
    std::string_view name = st->columns->names[i];
    int c = tab->FindColumn(name);
    if (c < 0) {
      if (!IsRowidName(name) || !tab->HasRowid()) {
        return ctx_->Error("table " + tab->name + " has no column named " + std::string(name));
      }
      c = -1;
    }
    if (c == tab->rowid_alias && c >= 0) c = -1;
    if (!CheckGeneratedTarget(tab, c, false)) return false;
    targets->push_back(c);
  }
  return true;
}

// Resolves the source SELECT/VALUES and checks it has one value per target.
bool Codegen::ResolveInsertSource(ast::InsertStmt* st, const Table* tab, Scope* outer, int nvals) {
  Select* src = st->select;
  if (src->prior == nullptr && src->values.size() == 1) resolver_.SkipSelectAuth(src);
  if (!resolver_.ResolveSelect(src, outer)) return false;
  Select* first = src;
  while (first->prior) first = first->prior;
  int nsrc = static_cast<int>(InfoOf(first)->result->size());
  if (nsrc == nvals) return true;
  if (st->columns != nullptr) {
    return ctx_->Error(std::to_string(nsrc) + " values for " + std::to_string(nvals) + " columns");
  }
  return ctx_->Error("table " + tab->name + " has " + std::to_string(nvals) + " columns but " +
                     std::to_string(nsrc) + " values were supplied");
}

// Whether an INSERT of one row needs a statement journal. One row without
// triggers writes nothing before its constraint checks have passed: a
// failing statement leaves nothing to undo (SQLite's rule too). Only I/O
// errors can strike after the first write, and those roll back the whole
// transaction. A REPLACE may delete rows before a later check fails.
bool Codegen::InsertNeedsJournal(const Table* tab, OnConflict on_conflict) {
  bool may_replace =
      on_conflict == OnConflict::kReplace || tab->pk_conflict == OnConflict::kReplace;
  for (const Index* idx : tab->indexes) may_replace |= idx->on_conflict == OnConflict::kReplace;
  return in_trigger_ != 0 || may_replace ||
         HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
                     static_cast<int>(ast::TriggerTime::kBefore), nullptr) ||
         HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
                     static_cast<int>(ast::TriggerTime::kAfter), nullptr);
}

// Rows of a multi-row source: a co-routine, or a temporary table filled
// first when the source reads the target table. Leaves the loop top in
// `loop`; the row's values are in r[vals..].
bool Codegen::CodeInsertSource(Select* src, const Table* tab, int nvals, int vals, int end,
                               InsertLoop* loop) {
  if (ReadsTable(src, tab)) {
    loop->temp = ctx_->AllocCursor();
    Op(Opcode::kOpenEphemeral, loop->temp, nvals);
    SelectDest d;
    d.kind = SelectDest::kTable;
    d.cursor = loop->temp;
    if (!CodeSelect(src, &d)) return false;
    Op(Opcode::kRewind, loop->temp, end);
    loop->top = prog_->pc();
    for (int i = 0; i < nvals; ++i) Op(Opcode::kColumn, loop->temp, i, vals + i);
    return true;
  }
  loop->yield_reg = AllocReg();
  int body = MakeLabel();
  int after = MakeLabel();
  Op(Opcode::kInitCoroutine, loop->yield_reg, after, body);
  ResolveLabel(body);
  SelectDest d;
  d.kind = SelectDest::kCoroutine;
  d.reg = vals;
  d.yield_reg = loop->yield_reg;
  if (!CodeSelect(src, &d)) return false;
  Op(Opcode::kEndCoroutine, loop->yield_reg);
  ResolveLabel(after);
  loop->top = prog_->pc();
  Op(Opcode::kYield, loop->yield_reg, end);
  return true;
}

// Copies the values into the row at `base` (defaults for the columns not
// given). Returns the index of the value given for the rowid, or -1.
int Codegen::AssembleInsertRow(const Table* tab, const std::vector<int>& targets, int vals,
                               int base) {
  int ncol = static_cast<int>(tab->columns.size());
  std::vector<int> from(static_cast<size_t>(ncol), -1);
  int rowid_from = -1;
  for (size_t i = 0; i < targets.size(); ++i) {
    int c = targets[i];
    // A column named twice takes the first value (as SQLite does).
    if (c < 0) {
      if (rowid_from < 0) rowid_from = static_cast<int>(i);
    } else if (from[static_cast<size_t>(c)] < 0) {
      from[static_cast<size_t>(c)] = static_cast<int>(i);
    }
  }
  for (int c = 0; c < ncol; ++c) {
    if (c == tab->rowid_alias) continue;
    int f = from[static_cast<size_t>(c)];
    if (f >= 0) {
      Op(Opcode::kSCopy, vals + f, base + 1 + c);
    } else {
      CodeDefault(tab, c, base + 1 + c);
    }
  }
  return rowid_from;
}

// r[base] = the rowid: the value given (a NULL one means "choose"), or a
// new one. With BEFORE triggers (auto_rowid != 0) a chosen rowid is -1
// until they have run, and r[auto_rowid] says whether to choose it then.
void Codegen::CodeInsertRowid(const Table* tab, int cursor, int base, int vals, int rowid_from,
                              int seq_reg, int auto_rowid) {
  auto assign_new_rowid = [&]() {
    if (auto_rowid != 0) {
      OpInt64(-1, base);
      Op(Opcode::kInteger, 1, auto_rowid);
    } else {
      Op(Opcode::kNewRowid, cursor, base, seq_reg);
    }
  };
  if (auto_rowid != 0) Op(Opcode::kInteger, 0, auto_rowid);
  if (rowid_from >= 0) {
    int have = MakeLabel();
    int done = MakeLabel();
    Op(Opcode::kSCopy, vals + rowid_from, base);
    Op(Opcode::kNotNull, base, have);
    assign_new_rowid();
    Op(Opcode::kGoto, 0, done);
    ResolveLabel(have);
    Op(Opcode::kMustBeInt, base, 0);
    if (seq_reg) Op(Opcode::kMemMax, seq_reg, base);
    ResolveLabel(done);
  } else {
    assign_new_rowid();
  }
  if (tab->rowid_alias >= 0) Op(Opcode::kSCopy, base, base + 1 + tab->rowid_alias);
}

// Reads the table's row of sqlite_sequence: its counter into seq->reg
// (0 if none) and the row's rowid into seq->rowid (NULL if none).
void Codegen::CodeReadSequence(const Table* tab, Sequence* seq) {
  seq->reg = AllocReg();
  seq->rowid = AllocReg();
  Op(Opcode::kInteger, 0, seq->reg);
  Op(Opcode::kNull, 0, seq->rowid);
  int sc = ctx_->AllocCursor();
  CursorInfo* ci = prog_->arena.New<CursorInfo>();
  ci->n_columns = 2;
  ci->table = seq->table;
  int a = Op(Opcode::kOpenRead, sc, static_cast<int>(seq->table->root), seq->table->db());
  prog_->SetP4(a, ci);
  int done_scan = MakeLabel();
  Op(Opcode::kRewind, sc, done_scan);
  int top = prog_->pc();
  int next = MakeLabel();
  int name = AllocReg(2);
  Op(Opcode::kColumn, sc, 0, name);
  OpString(tab->name, name + 1);
  Op(Opcode::kNe, name, next, name + 1);
  Op(Opcode::kColumn, sc, 1, seq->reg);
  Op(Opcode::kRowid, sc, seq->rowid);
  Op(Opcode::kGoto, 0, done_scan);
  ResolveLabel(next);
  Op(Opcode::kNext, sc, top);
  ResolveLabel(done_scan);
  Op(Opcode::kClose, sc);
}

// Records the new largest rowid in sqlite_sequence (it only ever grows).
void Codegen::CodeWriteSequence(const Table* tab, const Sequence& seq) {
  int sc = ctx_->AllocCursor();
  CursorInfo* ci = prog_->arena.New<CursorInfo>();
  ci->n_columns = 2;
  ci->table = seq.table;
  int a = Op(Opcode::kOpenWrite, sc, static_cast<int>(seq.table->root), seq.table->db());
  prog_->SetP4(a, ci);
  int rec = AllocReg(3);
  int have = MakeLabel();
  Op(Opcode::kNotNull, seq.rowid, have);
  Op(Opcode::kIfNot, seq.reg, 0, 1);  // patched below: nothing to record
  int skip_addr = prog_->pc() - 1;
  Op(Opcode::kNewRowid, sc, seq.rowid);
  ResolveLabel(have);
  OpString(tab->name, rec);
  Op(Opcode::kSCopy, seq.reg, rec + 1);
  Op(Opcode::kMakeRecord, rec, 2, rec + 2);
  Op(Opcode::kInsert, sc, rec + 2, seq.rowid);
  prog_->at(skip_addr).p2 = prog_->pc();
  Op(Opcode::kClose, sc);
}

}  // namespace basalt
