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
    default:
      return OnConflict::kDefault;
  }
}

bool Codegen::CodeInsert(ast::InsertStmt* st, Scope* outer) {
  size_t cte_mark = resolver_.cte_mark();
  if (!resolver_.PushWith(st->with, outer)) return false;
  bool ok = CodeInsertBody(st, outer);
  resolver_.PopWith(cte_mark);
  return ok;
}

bool Codegen::CodeInsertBody(ast::InsertStmt* st, Scope* outer) {
  Table* tab = ctx_->FindTable(st->schema, st->table);
  if (tab == nullptr) {
    return ctx_->Error("no such table: " + (st->schema.empty() ? std::string(st->table)
                                                               : std::string(st->schema) + "." +
                                                                     std::string(st->table)));
  }
  if (tab->is_view) {
    return ctx_->Error("cannot modify " + tab->name + " because it is a view");
  }
  if (tab->root == 1) return ctx_->Error("table " + tab->name + " may not be modified");
  if (st->upsert != nullptr) return ctx_->Error("upsert is not supported yet");
  if (st->returning != nullptr) return ctx_->Error("RETURNING is not supported yet");
  OnConflict on_conflict = ToOnConflict(st->on_conflict);
  int ncol = static_cast<int>(tab->columns.size());
  // Map the inserted values to columns (-1 = rowid).
  std::vector<int> targets;
  if (st->default_values) {
    // DEFAULT VALUES: every column takes its default.
  } else if (st->columns != nullptr) {
    for (size_t i = 0; i < st->columns->size(); ++i) {
      std::string_view name = st->columns->names[i];
      int c = tab->FindColumn(name);
      if (c < 0) {
        if (IsRowidName(name)) {
          c = -1;
        } else {
          return ctx_->Error("table " + tab->name + " has no column named " + std::string(name));
        }
      }
      if (c == tab->rowid_alias && c >= 0) c = -1;
      targets.push_back(c);
    }
  } else {
    for (int i = 0; i < ncol; ++i) {
      if (tab->columns[static_cast<size_t>(i)].hidden) continue;
      targets.push_back(i == tab->rowid_alias ? -1 : i);
    }
  }
  int nvals = static_cast<int>(targets.size());
  // Resolve the source.
  Select* src = st->select;
  int nsrc = 0;
  if (src != nullptr) {
    if (!resolver_.ResolveSelect(src, outer)) return false;
    Select* first = src;
    while (first->prior) first = first->prior;
    nsrc = static_cast<int>(InfoOf(first)->result->size());
    if (nsrc != nvals) {
      if (st->columns != nullptr) {
        return ctx_->Error(std::to_string(nsrc) + " values for " + std::to_string(nvals) +
                           " columns");
      }
      return ctx_->Error("table " + tab->name + " has " + std::to_string(nvals) + " columns but " +
                         std::to_string(nsrc) + " values were supplied");
    }
  }
  DmlTarget t;
  OpenDmlTarget(tab, &t, ctx_->AllocCursor());
  int base = AllocReg(ncol + 1);
  int vals = nvals > 0 ? AllocReg(nvals) : 0;
  int end = MakeLabel();
  // AUTOINCREMENT: the largest rowid ever used lives in sqlite_sequence.
  int seq_reg = 0;
  int seq_rowid = 0;
  Table* seq_tab = tab->autoincrement ? ctx_->FindTable("", "sqlite_sequence") : nullptr;
  if (seq_tab != nullptr) {
    seq_reg = AllocReg();
    seq_rowid = AllocReg();
    Op(Opcode::kInteger, 0, seq_reg);
    Op(Opcode::kNull, 0, seq_rowid);
    int sc = ctx_->AllocCursor();
    CursorInfo* ci = prog_->arena.New<CursorInfo>();
    ci->n_columns = 2;
    ci->table = seq_tab;
    int a = Op(Opcode::kOpenRead, sc, static_cast<int>(seq_tab->root), 0);
    prog_->SetP4(a, ci);
    int done_scan = MakeLabel();
    Op(Opcode::kRewind, sc, done_scan);
    int top = prog_->pc();
    int next = MakeLabel();
    int name = AllocReg(2);
    Op(Opcode::kColumn, sc, 0, name);
    OpString(tab->name, name + 1);
    Op(Opcode::kNe, name, next, name + 1);
    Op(Opcode::kColumn, sc, 1, seq_reg);
    Op(Opcode::kRowid, sc, seq_rowid);
    Op(Opcode::kGoto, 0, done_scan);
    ResolveLabel(next);
    Op(Opcode::kNext, sc, top);
    ResolveLabel(done_scan);
    Op(Opcode::kClose, sc);
  }
  // Produce source rows: single VALUES row inline, otherwise a coroutine
  // (or a temporary table when the source reads the target).
  bool single_row = src != nullptr && src->prior == nullptr && src->values.size() == 1 &&
                    src->order_by == nullptr && src->limit == nullptr;
  // One row without triggers writes nothing before its constraint checks
  // have passed: a failing statement leaves nothing to undo, so it needs no
  // statement journal (SQLite's rule too). Only I/O errors can strike after
  // the first write, and those roll back the whole transaction.
  // (A REPLACE may delete rows before a later check fails: not here.)
  bool may_replace =
      on_conflict == OnConflict::kReplace || tab->pk_conflict == OnConflict::kReplace;
  for (const Index* idx : tab->indexes) may_replace |= idx->on_conflict == OnConflict::kReplace;
  if ((src == nullptr || single_row) && in_trigger_ == 0 && !may_replace &&
      !HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
                   static_cast<int>(ast::TriggerTime::kBefore), nullptr) &&
      !HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
                   static_cast<int>(ast::TriggerTime::kAfter), nullptr)) {
    prog_->stmt_journal = false;
  }
  int yield_reg = 0;
  int loop_top = 0;
  int next_row = MakeLabel();
  int temp = -1;
  if (src != nullptr && !single_row) {
    if (ReadsTable(src, tab)) {
      temp = ctx_->AllocCursor();
      Op(Opcode::kOpenEphemeral, temp, nvals);
      SelectDest d;
      d.kind = SelectDest::kTable;
      d.cursor = temp;
      if (!CodeSelect(src, &d)) return false;
      Op(Opcode::kRewind, temp, end);
      loop_top = prog_->pc();
      for (int i = 0; i < nvals; ++i) Op(Opcode::kColumn, temp, i, vals + i);
    } else {
      yield_reg = AllocReg();
      int body = MakeLabel();
      int after = MakeLabel();
      int a = Op(Opcode::kInitCoroutine, yield_reg, after, body);
      (void)a;
      ResolveLabel(body);
      SelectDest d;
      d.kind = SelectDest::kCoroutine;
      d.reg = vals;
      d.yield_reg = yield_reg;
      if (!CodeSelect(src, &d)) return false;
      Op(Opcode::kEndCoroutine, yield_reg);
      ResolveLabel(after);
      loop_top = prog_->pc();
      Op(Opcode::kYield, yield_reg, end);
    }
  } else if (single_row) {
    for (int i = 0; i < nvals; ++i) CodeExpr((*src->values[0])[static_cast<size_t>(i)], vals + i);
  }
  // Assemble the row.
  std::vector<int> from(static_cast<size_t>(ncol), -1);
  int rowid_from = -1;
  for (int i = 0; i < nvals; ++i) {
    int c = targets[static_cast<size_t>(i)];
    // A column named twice takes the first value (as SQLite does).
    if (c < 0) {
      if (rowid_from < 0) rowid_from = i;
    } else if (from[static_cast<size_t>(c)] < 0) {
      from[static_cast<size_t>(c)] = i;
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
  // BEFORE INSERT triggers see NEW.rowid = -1 when the rowid is chosen
  // automatically; it is assigned after them.
  bool before = HasTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
                            static_cast<int>(ast::TriggerTime::kBefore), nullptr);
  int auto_rowid = before ? AllocReg() : 0;
  auto assign_new_rowid = [&]() {
    if (before) {
      OpInt64(-1, base);
      Op(Opcode::kInteger, 1, auto_rowid);
    } else {
      Op(Opcode::kNewRowid, t.cursor, base, seq_reg);
    }
  };
  if (before) Op(Opcode::kInteger, 0, auto_rowid);
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
  ApplyColumnAffinity(tab, base);
  CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
               static_cast<int>(ast::TriggerTime::kBefore), 0, base, next_row, nullptr,
               on_conflict);
  if (before) {
    int skip = MakeLabel();
    Op(Opcode::kIfNot, auto_rowid, skip, 0);
    Op(Opcode::kNewRowid, t.cursor, base, seq_reg);
    if (tab->rowid_alias >= 0) Op(Opcode::kSCopy, base, base + 1 + tab->rowid_alias);
    ResolveLabel(skip);
  }
  CodeConstraintChecks(&t, base, 0, rowid_from >= 0, on_conflict, next_row, nullptr);
  CodeInsertRow(&t, base, in_trigger_ == 0, false);
  CodeTriggers(tab, static_cast<int>(ast::TriggerEvent::kInsert),
               static_cast<int>(ast::TriggerTime::kAfter), 0, base, next_row, nullptr, on_conflict);
  ResolveLabel(next_row);
  if (temp >= 0) {
    Op(Opcode::kNext, temp, loop_top);
  } else if (yield_reg) {
    Op(Opcode::kGoto, 0, loop_top);
  }
  ResolveLabel(end);
  if (seq_tab != nullptr) {
    // Record the new largest rowid (only ever grows).
    int sc = ctx_->AllocCursor();
    CursorInfo* ci = prog_->arena.New<CursorInfo>();
    ci->n_columns = 2;
    ci->table = seq_tab;
    int a = Op(Opcode::kOpenWrite, sc, static_cast<int>(seq_tab->root), 0);
    prog_->SetP4(a, ci);
    int rec = AllocReg(3);
    int have = MakeLabel();
    Op(Opcode::kNotNull, seq_rowid, have);
    Op(Opcode::kIfNot, seq_reg, 0, 1);  // patched below: nothing to record
    int skip_addr = prog_->pc() - 1;
    Op(Opcode::kNewRowid, sc, seq_rowid);
    ResolveLabel(have);
    OpString(tab->name, rec);
    Op(Opcode::kSCopy, seq_reg, rec + 1);
    Op(Opcode::kMakeRecord, rec, 2, rec + 2);
    Op(Opcode::kInsert, sc, rec + 2, seq_rowid);
    prog_->at(skip_addr).p2 = prog_->pc();
    Op(Opcode::kClose, sc);
  }
  return !ctx_->failed();
}

}  // namespace basalt
