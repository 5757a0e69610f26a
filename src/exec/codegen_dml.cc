// Machinery shared by INSERT, UPDATE and DELETE: opening the table and its
// indexes, constraint checks with conflict resolution, writing and deleting
// rows with their index entries.
#include "exec/codegen_internal.h"
#include "parser/parser.h"

namespace basalt {

using ast::Expr;

namespace {
int ActionCode(OnConflict a) { return static_cast<int>(a); }
}  // namespace

void Codegen::OpenDmlTarget(const Table* tab, DmlTarget* t, int cursor, bool open_table) {
  t->table = tab;
  t->cursor = cursor;
  if (open_table) OpenTableCursor(Opcode::kOpenWrite, tab, cursor);
  t->index_cursors.clear();
  for (const Index* idx : tab->indexes) {
    int c = ctx_->AllocCursor();
    CursorInfo* ici = prog_->arena.New<CursorInfo>();
    ici->key_info = &idx->key_info;
    ici->n_columns = idx->n_fields();
    int a = Op(Opcode::kOpenWrite, c, static_cast<int>(idx->root), tab->db());
    prog_->SetP4(a, ici);
    t->index_cursors.push_back(c);
  }
  prog_->writes = true;
}

void Codegen::ApplyColumnAffinity(const Table* tab, int base) {
  size_t n = tab->columns.size();
  char* aff = prog_->arena.NewArray<char>(n + 1);
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    aff[i] = static_cast<char>(tab->columns[i].affinity);
    if (static_cast<int>(i) == tab->rowid_alias) aff[i] = 'A';
    any |= aff[i] != 'A';
  }
  aff[n] = 0;
  if (!any) return;
  int a = Op(Opcode::kAffinity, base + 1, static_cast<int>(n));
  prog_->SetP4Str(a, aff);
}

Expr* Codegen::ParseTableExpr(const Table* tab, std::string_view sql, int base) {
  Expr* e = ctx_->ParseExpr(sql);
  if (e == nullptr) return nullptr;
  int fake = ctx_->AllocCursor();
  std::vector<Source> srcs;
  srcs.push_back(resolver_.MakeTableSource(tab, "", fake));
  Scope scope;
  scope.sources = &srcs;
  if (!resolver_.ResolveExpr(e, &scope)) return nullptr;
  redirects_.push_back({fake, -1, base});
  for (size_t i = 0; i < tab->columns.size(); ++i) {
    redirects_.push_back({fake, static_cast<int>(i), base + 1 + static_cast<int>(i)});
  }
  return e;
}

void Codegen::CodeDefault(const Table* tab, int col, int target) {
  const Column& c = tab->columns[static_cast<size_t>(col)];
  if (c.default_sql.empty()) {
    Op(Opcode::kNull, 0, target);
    return;
  }
  Expr* e = ctx_->ParseExpr(c.default_sql);
  if (e == nullptr) return;
  Scope scope;  // defaults may not refer to columns
  if (!resolver_.ResolveExpr(e, &scope)) return;
  CodeExpr(e, target);
}

void Codegen::CodeIndexKey(const Index* idx, int base, int key_regs) {
  for (size_t k = 0; k < idx->columns.size(); ++k) {
    int col = idx->columns[k];
    int dst = key_regs + static_cast<int>(k);
    if (col == kExprColumn) {
      size_t mark = redirects_.size();
      Expr* e = ParseTableExpr(idx->table, idx->column_exprs[k], base);
      if (e != nullptr) CodeExpr(e, dst);
      redirects_.resize(mark);
    } else if (col == idx->table->rowid_alias || col < 0) {
      Op(Opcode::kSCopy, base, dst);
    } else {
      Op(Opcode::kSCopy, base + 1 + col, dst);
    }
  }
  const int n = static_cast<int>(idx->columns.size());
  if (!idx->without_rowid()) {
    Op(Opcode::kSCopy, base, key_regs + n);
    return;
  }
  // WITHOUT ROWID: the primary-key columns the key lacks stand for the rowid.
  for (size_t k = 0; k < idx->suffix.size(); ++k) {
    Op(Opcode::kSCopy, base + 1 + idx->suffix[k], key_regs + n + static_cast<int>(k));
  }
}

void Codegen::SetRealMask(int addr, const std::string& mask) {
  if (mask.find('E') == std::string::npos) return;
  prog_->SetP4Text(addr, mask);
  prog_->at(addr).p5 |= kRecRealMask;
}

std::string Codegen::IndexRealMask(const Index* idx) {
  const Table* tab = idx->table;
  auto real = [&](int col) {
    return col >= 0 && col != tab->rowid_alias &&
                   tab->columns[static_cast<size_t>(col)].affinity == Affinity::kReal
               ? 'E'
               : 'A';
  };
  std::string mask;
  for (int col : idx->columns) mask += real(col);  // expressions: kExprColumn < 0
  if (idx->without_rowid()) {
    for (int col : idx->suffix) mask += real(col);
  }
  return mask;
}

int Codegen::CodePartialIndexGuard(const Index* idx, int base) {
  if (idx->where_sql.empty()) return 0;
  int skip = MakeLabel();
  size_t mark = redirects_.size();
  Expr* w = ParseTableExpr(idx->table, idx->where_sql, base);
  if (w != nullptr) CodeJumpIf(w, skip, false, true);
  redirects_.resize(mark);
  return skip;
}

void Codegen::CodeReadRow(DmlTarget* t, int base) {
  const Table* tab = t->table;
  if (tab->without_rowid) {
    Op(Opcode::kNull, 0, base);  // no rowid
  } else {
    Op(Opcode::kRowid, t->cursor, base);
  }
  for (size_t i = 0; i < tab->columns.size(); ++i) {
    if (static_cast<int>(i) == tab->rowid_alias) {
      Op(Opcode::kSCopy, base, base + 1 + static_cast<int>(i));
    } else {
      CodeColumn(t->cursor, static_cast<int>(i), tab, base + 1 + static_cast<int>(i));
    }
  }
}

void Codegen::CodeDeleteRow(DmlTarget* t, int base, bool count_change, bool counts_total) {
  const Table* tab = t->table;
  for (size_t i = 0; i < tab->indexes.size(); ++i) {
    const Index* idx = tab->indexes[i];
    int n = idx->n_fields();
    int keys = AllocReg(n);
    int skip = CodePartialIndexGuard(idx, base);
    CodeIndexKey(idx, base, keys);
    Op(Opcode::kIdxDelete, t->index_cursors[i], keys, n);
    if (skip) ResolveLabel(skip);
  }
  // Hooks: the preupdate hook sees every row that goes; the update hook only
  // those a DELETE removes (not REPLACE's), and neither sees the rows of a
  // DELETE SQLite would run as a truncation (truncating_).
  int a = Op(Opcode::kDelete, t->cursor, base);
  uint8_t p5 = (count_change ? kInsNChange : 0) | (counts_total ? kInsTotal : 0);
  if (!truncating_) p5 |= kInsPreHook | (counts_total ? kInsUpdHook : 0);
  prog_->at(a).p5 = p5;
  prog_->SetP4(a, tab);
  NoteHookDepth(a);
}

void Codegen::CodeInsertRow(DmlTarget* t, int base, bool count_change, bool is_update) {
  const Table* tab = t->table;
  uint8_t p5 = 0;
  if (count_change) p5 |= kInsNChange | kInsTotal;
  if (in_trigger_ > 0) p5 |= kInsTotal;
  if (!is_update && count_change) p5 |= kInsLastRowid;
  if (is_update) p5 |= kInsIsUpdate;
  CodeWriteTableRow(t, base, p5);
  for (size_t i = 0; i < tab->indexes.size(); ++i) {
    const Index* idx = tab->indexes[i];
    int nk = idx->n_fields();
    int keys = AllocReg(nk + 1);
    int skip = CodePartialIndexGuard(idx, base);
    CodeIndexKey(idx, base, keys);
    SetRealMask(Op(Opcode::kMakeRecord, keys, nk, keys + nk), IndexRealMask(idx));
    Op(Opcode::kIdxInsert, t->index_cursors[i], keys + nk);
    if (skip) ResolveLabel(skip);
  }
}

namespace {

// The action taken on a constraint failure: the statement's OR clause, else
// the constraint's own ON CONFLICT, else ABORT.
OnConflict ResolveAction(OnConflict stmt, OnConflict own) {
  if (stmt != OnConflict::kDefault) return stmt;
  if (own != OnConflict::kDefault) return own;
  return OnConflict::kAbort;
}

}  // namespace

void Codegen::CodeConstraintChecks(DmlTarget* t, int base, int old_rowid, bool rowid_changed,
                                   OnConflict on_conflict, int skip_label,
                                   const std::vector<bool>* changed_cols) {
  CodeNotNullChecks(t->table, base, on_conflict, skip_label, changed_cols);
  CodeStrictTypeCheck(t->table, base);
  if (!CodeCheckConstraints(t->table, base, on_conflict, skip_label)) return;
  if (upsert_ == nullptr) {
    CodeUniqueIndexChecks(t, base, old_rowid, rowid_changed, on_conflict, skip_label, changed_cols);
    return;
  }
  // An upsert checks the constraints its clauses name first (codegen_upsert.cc).
  for (int c : UpsertCheckOrder(t->table)) {
    if (c >= 0) {
      CodeUniqueIndexCheck(t, static_cast<size_t>(c), base, old_rowid, on_conflict, skip_label);
    } else if (rowid_changed) {
      CodeRowidUniqueCheck(t, base, old_rowid, on_conflict, skip_label);
    }
  }
}

// NOT NULL: REPLACE substitutes the column's default (ABORT if it has none,
// or if the default is NULL too).
void Codegen::CodeNotNullChecks(const Table* tab, int base, OnConflict on_conflict, int skip_label,
                                const std::vector<bool>* changed_cols) {
  for (size_t i = 0; i < tab->columns.size(); ++i) {
    const Column& c = tab->columns[i];
    if (!c.not_null || static_cast<int>(i) == tab->rowid_alias) continue;
    // (A generated column may change with any other: always checked.)
    if (changed_cols && !(*changed_cols)[i] && !c.is_generated()) continue;
    int reg = base + 1 + static_cast<int>(i);
    OnConflict act = ResolveAction(on_conflict, c.not_null_conflict);
    if (act == OnConflict::kReplace && c.default_sql.empty()) act = OnConflict::kAbort;
    std::string msg = "NOT NULL constraint failed: " + tab->name + "." + c.name;
    switch (act) {
      case OnConflict::kIgnore:
        Op(Opcode::kIsNull, reg, skip_label);
        break;
      case OnConflict::kReplace: {
        int ok = MakeLabel();
        Op(Opcode::kNotNull, reg, ok);
        CodeDefault(tab, static_cast<int>(i), reg);
        ApplyColumnAffinity(tab, base);
        if (tab->has_generated) CodeGeneratedColumns(tab, base);  // they may read it
        OpP4Str(Opcode::kHaltIfNull, kConstraintNotNull, ActionCode(OnConflict::kAbort), reg, msg);
        ResolveLabel(ok);
        break;
      }
      case OnConflict::kDefault:
      case OnConflict::kRollback:
      case OnConflict::kAbort:
      case OnConflict::kFail:
        OpP4Str(Opcode::kHaltIfNull, kConstraintNotNull, ActionCode(act), reg, msg);
        break;
    }
  }
}

// CHECK constraints (REPLACE acts as ABORT). False if one cannot be parsed.
bool Codegen::CodeCheckConstraints(const Table* tab, int base, OnConflict on_conflict,
                                   int skip_label) {
  for (const CheckConstraint& ck : tab->checks) {
    size_t mark = redirects_.size();
    ctx_->check_exprs = true;  // SQLite allows any function in a CHECK
    Expr* e = ParseTableExpr(tab, ck.sql, base);
    ctx_->check_exprs = false;
    if (e == nullptr) return false;
    int ok = MakeLabel();
    CodeJumpIf(e, ok, true, true);
    OnConflict act = ResolveAction(on_conflict, OnConflict::kDefault);
    if (act == OnConflict::kIgnore) {
      Op(Opcode::kGoto, 0, skip_label);
    } else {
      if (act == OnConflict::kReplace) act = OnConflict::kAbort;
      std::string name = ck.name.empty() ? ck.sql : ck.name;
      OpP4Str(Opcode::kHalt, kConstraintCheck, ActionCode(act), 0,
              "CHECK constraint failed: " + name);
    }
    ResolveLabel(ok);
    redirects_.resize(mark);
  }
  return true;
}

// Rowid (INTEGER PRIMARY KEY) uniqueness of a new or changed rowid; REPLACE
// deletes the row that holds it.
void Codegen::CodeRowidUniqueCheck(DmlTarget* t, int base, int old_rowid, OnConflict on_conflict,
                                   int skip_label) {
  const Table* tab = t->table;
  if (tab->without_rowid) {
    CodePkUniqueCheck(t, base, old_rowid, on_conflict, skip_label);
    return;
  }
  int ok = MakeLabel();
  if (old_rowid) {
    int a = Op(Opcode::kEq, base, ok, old_rowid);
    prog_->at(a).p5 = 0;
  }
  OnConflict act = ResolveAction(on_conflict, tab->pk_conflict);
  std::string col = tab->rowid_alias >= 0 ? tab->columns[static_cast<size_t>(tab->rowid_alias)].name
                                          : std::string("rowid");
  int probe = ctx_->AllocCursor();
  CursorInfo* ci = prog_->arena.New<CursorInfo>();
  ci->n_columns = static_cast<int>(tab->columns.size());
  ci->table = tab;
  int a = Op(Opcode::kOpenWrite, probe, static_cast<int>(tab->root), tab->db());
  prog_->SetP4(a, ci);
  Op(Opcode::kNotExists, probe, ok, base);
  if (const UpsertClause* uc = UpsertFor(-1)) {
    CodeUpsertAction(t, *uc, base, skip_label);
    act = OnConflict::kIgnore;  // not reached: the action ends with a jump
  }
  switch (act) {
    case OnConflict::kIgnore:
      Op(Opcode::kGoto, 0, skip_label);
      break;
    case OnConflict::kReplace: {
      int old = AllocReg(static_cast<int>(tab->columns.size()) + 1);
      DmlTarget pt = *t;
      pt.cursor = probe;
      CodeReadRow(&pt, old);
      CodeReplaceDelete(&pt, old, skip_label);
      break;
    }
    case OnConflict::kDefault:
    case OnConflict::kRollback:
    case OnConflict::kAbort:
    case OnConflict::kFail:
      OpP4Str(Opcode::kHalt, kConstraintPrimaryKey, ActionCode(act), 0,
              "UNIQUE constraint failed: " + tab->name + "." + col);
      break;
  }
  ResolveLabel(ok);
}

// The uniqueness constraints in the order SQLite checks them: the rowid
// first, then the UNIQUE indexes newest first, those whose own conflict
// action is REPLACE last. A WITHOUT ROWID table's primary key (-1 too)
// comes where its index was made.
std::vector<int> Codegen::UniqueCheckOrder(const Table* tab) {
  std::vector<int> order;
  if (tab->HasRowid()) order.push_back(-1);
  const std::vector<const Index*> all = tab->IndexesInCreationOrder();
  for (bool replace : {false, true}) {
    for (size_t k = all.size(); k-- > 0;) {
      const Index* idx = all[k];
      if (!idx->unique || (idx->on_conflict == OnConflict::kReplace) != replace) continue;
      if (idx->is_table_store()) {
        order.push_back(-1);
        continue;
      }
      for (size_t i = 0; i < tab->indexes.size(); ++i) {
        if (tab->indexes[i] == idx) order.push_back(static_cast<int>(i));
      }
    }
  }
  return order;
}

// The rowid or primary key (if it may change) and the UNIQUE indexes whose
// key the statement may change; REPLACE deletes the conflicting row.
void Codegen::CodeUniqueIndexChecks(DmlTarget* t, int base, int old_rowid, bool rowid_changed,
                                    OnConflict on_conflict, int skip_label,
                                    const std::vector<bool>* changed_cols) {
  const Table* tab = t->table;
  for (int c : UniqueCheckOrder(tab)) {
    if (c < 0) {
      if (rowid_changed) CodeRowidUniqueCheck(t, base, old_rowid, on_conflict, skip_label);
      continue;
    }
    const size_t i = static_cast<size_t>(c);
    const Index* idx = tab->indexes[i];
    if (changed_cols != nullptr && !rowid_changed && idx->where_sql.empty()) {
      bool touched = false;
      for (int col : idx->columns) {
        if (col < 0 || (*changed_cols)[static_cast<size_t>(col)] ||
            tab->columns[static_cast<size_t>(col)].is_generated()) {
          touched = true;
        }
      }
      if (!touched) continue;
    }
    CodeUniqueIndexCheck(t, i, base, old_rowid, on_conflict, skip_label);
  }
}

// The check of UNIQUE index `i` for the row at `base`.
void Codegen::CodeUniqueIndexCheck(DmlTarget* t, size_t i, int base, int old_rowid,
                                   OnConflict on_conflict, int skip_label) {
  const Table* tab = t->table;
  const Index* idx = tab->indexes[i];
  int n = static_cast<int>(idx->columns.size());
  int keys = AllocReg(idx->n_fields());
  int ok = MakeLabel();
  int outside = CodePartialIndexGuard(idx, base);  // cannot conflict in the index
  CodeIndexKey(idx, base, keys);
  int ic = t->index_cursors[i];
  int a = Op(Opcode::kNoConflict, ic, ok, keys);
  prog_->SetP4Int(a, n);
  int conflict_rowid = AllocReg(RowKeySize(tab));
  CodeRowKeyFromIndex(idx, ic, conflict_rowid);
  if (old_rowid) {
    int old_key = old_rowid;
    if (tab->without_rowid) {
      old_key = AllocReg(RowKeySize(tab));
      CodeRowKeyFromRow(tab, old_rowid, old_key);
    }
    CodeJumpIfSameRowKey(tab, conflict_rowid, old_key, ok);
  }
  OnConflict act = ResolveAction(on_conflict, idx->on_conflict);
  if (const UpsertClause* uc = UpsertFor(static_cast<int>(i))) {
    CodeUpsertAction(t, *uc, conflict_rowid, skip_label);
    ResolveLabel(ok);
    if (outside) ResolveLabel(outside);
    return;
  }
  std::string cols;
  for (int col : idx->columns) {
    if (!cols.empty()) cols += ", ";
    cols += tab->name + "." +
            (col >= 0 ? tab->columns[static_cast<size_t>(col)].name : std::string("rowid"));
  }
  switch (act) {
    case OnConflict::kIgnore:
      Op(Opcode::kGoto, 0, skip_label);
      break;
    case OnConflict::kReplace: {
      int probe = ctx_->AllocCursor();
      OpenTableCursor(Opcode::kOpenWrite, tab, probe);
      CodeSeekRowKey(tab, probe, ok, conflict_rowid);
      int old = AllocReg(static_cast<int>(tab->columns.size()) + 1);
      DmlTarget pt = *t;
      pt.cursor = probe;
      CodeReadRow(&pt, old);
      CodeReplaceDelete(&pt, old, skip_label);
      break;
    }
    case OnConflict::kDefault:
    case OnConflict::kRollback:
    case OnConflict::kAbort:
    case OnConflict::kFail:
      OpP4Str(Opcode::kHalt, idx->origin == 'p' ? kConstraintPrimaryKey : kConstraintUnique,
              ActionCode(act), 0, "UNIQUE constraint failed: " + cols);
      break;
  }
  ResolveLabel(ok);
  if (outside) ResolveLabel(outside);
}

}  // namespace basalt

namespace basalt {

// REPLACE deletes the conflicting row (read into `old`; the cursor is on
// it), with its foreign key checks and actions. Its DELETE triggers fire
// only with PRAGMA recursive_triggers on, as in SQLite.
void Codegen::CodeReplaceDelete(DmlTarget* pt, int old, int skip_label) {
  const Table* tab = pt->table;
  constexpr int kDelete = static_cast<int>(ast::TriggerEvent::kDelete);
  bool fire = ctx_->options.recursive_triggers;
  int gone = 0;
  if (fire && HasTriggers(tab, kDelete, static_cast<int>(ast::TriggerTime::kBefore), nullptr)) {
    CodeTriggers(tab, kDelete, static_cast<int>(ast::TriggerTime::kBefore), old, 0, skip_label,
                 nullptr, OnConflict::kDefault);
    gone = MakeLabel();
    // The trigger may have moved the cursor or deleted the row.
    int key = AllocReg(RowKeySize(tab));
    CodeRowKeyFromRow(tab, old, key);
    CodeSeekRowKey(tab, pt->cursor, gone, key);
  }
  CodeFkCheck(tab, old, 0, nullptr);  // the replaced row leaves: its keys too
  CodeDeleteRow(pt, old, false);
  CodeFkActions(tab, old, 0, nullptr);
  if (gone) ResolveLabel(gone);
  if (fire) {
    CodeTriggers(tab, kDelete, static_cast<int>(ast::TriggerTime::kAfter), old, 0, skip_label,
                 nullptr, OnConflict::kDefault);
  }
}

}  // namespace basalt
