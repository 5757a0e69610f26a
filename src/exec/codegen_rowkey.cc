// The identity of a table row in generated code: its rowid, or for a
// WITHOUT ROWID table the values of its primary-key columns (the key of
// the table's own index B-tree). DML code handles rows through these
// helpers so that both kinds of table share one code path.
//
// A row key occupies RowKeySize(tab) consecutive registers: one (the
// rowid) for a rowid table, Table::n_pk() otherwise (primary-key columns in
// key order).
#include "exec/codegen_internal.h"

namespace basalt {

int Codegen::OpenTableCursor(Opcode op, const Table* tab, int cursor) {
  BASALT_DCHECK(tab->without_rowid == (tab->pk_index != nullptr));
  CursorInfo* ci = prog_->arena.New<CursorInfo>();
  ci->n_columns = static_cast<int>(tab->columns.size());
  ci->table = tab;
  if (tab->pk_index) ci->key_info = &tab->pk_index->key_info;
  int a = Op(op, cursor, static_cast<int>(tab->root), tab->db());
  prog_->SetP4(a, ci);
  return a;
}

int Codegen::RowKeySize(const Table* tab) { return tab->without_rowid ? tab->n_pk() : 1; }

void Codegen::CodeRowKeyFromRow(const Table* tab, int base, int key) {
  if (!tab->without_rowid) {
    Op(Opcode::kSCopy, base, key);
    return;
  }
  const Index* pk = tab->pk_index.get();
  for (size_t j = 0; j < pk->columns.size(); ++j) {
    Op(Opcode::kSCopy, base + 1 + pk->columns[j], key + static_cast<int>(j));
  }
}

void Codegen::CodeRowKeyFromIndex(const Index* idx, int icur, int key) {
  if (!idx->without_rowid()) {
    Op(Opcode::kIdxRowid, icur, key);
    return;
  }
  for (size_t j = 0; j < idx->pk_fields.size(); ++j) {
    Op(Opcode::kColumn, icur, idx->pk_fields[j], key + static_cast<int>(j));
  }
}

void Codegen::CodeRowKeyFromTable(const Table* tab, int cur, int key) {
  if (!tab->without_rowid) {
    Op(Opcode::kRowid, cur, key);
    return;
  }
  for (int j = 0; j < tab->n_pk(); ++j) Op(Opcode::kColumn, cur, j, key + j);
}

void Codegen::CodeSeekRowKey(const Table* tab, int cur, int fail, int key) {
  if (!tab->without_rowid) {
    Op(Opcode::kNotExists, cur, fail, key);
    return;
  }
  int a = Op(Opcode::kNotFound, cur, fail, key);
  prog_->SetP4Int(a, tab->n_pk());
}

void Codegen::CodeJumpIfSameRowKey(const Table* tab, int a, int b, int label) {
  if (!tab->without_rowid) {
    int op = Op(Opcode::kEq, a, label, b);
    prog_->at(op).p5 = 0;
    return;
  }
  // Equal under each key column's collation (NULLs cannot occur: primary
  // key columns are NOT NULL).
  const Index* pk = tab->pk_index.get();
  int differ = MakeLabel();
  for (int j = 0; j < tab->n_pk(); ++j) {
    int op = Op(Opcode::kNe, a + j, differ, b + j);
    prog_->at(op).p5 = kCmpJumpIfNull;
    if (pk->collations[static_cast<size_t>(j)] != nullptr) {
      prog_->SetP4(op, pk->collations[static_cast<size_t>(j)]);
    }
  }
  Op(Opcode::kGoto, 0, label);
  ResolveLabel(differ);
}

void Codegen::CodeWriteTableRow(DmlTarget* t, int base, uint8_t flags) {
  const Table* tab = t->table;
  int rec = CodeTableRecord(tab, base);
  // Hooks: an INSERT's row fires the preupdate hook here (an UPDATE's fired
  // it before its old row went: CodeReplaceRow); the update hook follows
  // every write of a rowid table's row.
  const uint8_t pre = (flags & kInsIsUpdate) ? 0 : kInsPreHook;
  if (tab->without_rowid) {
    int a = Op(Opcode::kIdxInsert, t->cursor, rec, base);
    prog_->at(a).p5 = static_cast<uint8_t>((flags & (kInsNChange | kInsTotal)) | pre);
    prog_->SetP4(a, tab);
    NoteHookDepth(a);
    return;
  }
  int a = Op(Opcode::kInsert, t->cursor, rec, base);
  prog_->at(a).p5 = static_cast<uint8_t>(flags | pre | kInsUpdHook);
  prog_->SetP4(a, tab);
  NoteHookDepth(a);
}

int Codegen::OpenRowKeySet(const Table* tab, int extra_columns, bool scan_order) {
  int set = ctx_->AllocCursor();
  if (scan_order) {  // the keys as records, under sequence numbers
    BASALT_DCHECK(extra_columns == 0);
    Op(Opcode::kOpenEphemeral, set, RowKeySize(tab));
    return set;
  }
  if (!tab->without_rowid) {
    Op(Opcode::kOpenEphemeral, set, 0);  // rowids as the keys of a table
    return set;
  }
  const int n = tab->n_pk();
  const Index* pk = tab->pk_index.get();
  KeyInfo* ki = MakeKeyInfo(n);
  for (int j = 0; j < n; ++j) {
    const_cast<const Collation**>(ki->colls)[j] = pk->collations[static_cast<size_t>(j)];
    const_cast<uint8_t*>(ki->desc)[j] = pk->desc[static_cast<size_t>(j)];
  }
  int a = Op(Opcode::kOpenEphemeral, set, n + extra_columns);
  prog_->SetP4(a, ki);
  return set;
}

void Codegen::CodeAddRowKey(const Table* tab, int cursor, int set, bool scan_order) {
  const int n = RowKeySize(tab);
  if (scan_order) {
    int r = AllocReg(n + 2);
    if (!tab->without_rowid) {
      CodeColumn(cursor, -1, tab, r);
    } else {
      const Index* pk = tab->pk_index.get();
      for (int j = 0; j < n; ++j) {
        CodeColumn(cursor, pk->columns[static_cast<size_t>(j)], tab, r + j);
      }
    }
    Op(Opcode::kMakeRecord, r, n, r + n);
    Op(Opcode::kNewRowid, set, r + n + 1);
    Op(Opcode::kInsert, set, r + n, r + n + 1);
    return;
  }
  int r = AllocReg(n + 1);
  if (!tab->without_rowid) {
    CodeColumn(cursor, -1, tab, r);
    Op(Opcode::kNull, 0, r + 1);
    Op(Opcode::kInsert, set, r + 1, r);
    return;
  }
  const Index* pk = tab->pk_index.get();
  for (int j = 0; j < n; ++j) CodeColumn(cursor, pk->columns[static_cast<size_t>(j)], tab, r + j);
  Op(Opcode::kMakeRecord, r, n, r + n);
  Op(Opcode::kIdxInsert, set, r + n);
}

void Codegen::CodeRowKeyFromSet(const Table* tab, int set, int key, bool scan_order) {
  if (scan_order) {
    for (int j = 0; j < RowKeySize(tab); ++j) Op(Opcode::kColumn, set, j, key + j);
    return;
  }
  if (!tab->without_rowid) {
    Op(Opcode::kRowid, set, key);
    return;
  }
  for (int j = 0; j < tab->n_pk(); ++j) Op(Opcode::kColumn, set, j, key + j);
}

// The primary key of a WITHOUT ROWID table: a probe of the table's own
// B-tree (an UPDATE that leaves the key equal to the old one cannot
// conflict). REPLACE deletes the row that holds the key.
void Codegen::CodePkUniqueCheck(DmlTarget* t, int base, int old_base, OnConflict on_conflict,
                                int skip_label) {
  const Table* tab = t->table;
  const Index* pk = tab->pk_index.get();
  const int n = tab->n_pk();
  int key = AllocReg(n);
  CodeRowKeyFromRow(tab, base, key);
  int ok = MakeLabel();
  if (old_base) {
    int old_key = AllocReg(n);
    CodeRowKeyFromRow(tab, old_base, old_key);
    CodeJumpIfSameRowKey(tab, key, old_key, ok);
  }
  int probe = ctx_->AllocCursor();
  OpenTableCursor(Opcode::kOpenWrite, tab, probe);
  int a = Op(Opcode::kNoConflict, probe, ok, key);
  prog_->SetP4Int(a, n);
  OnConflict act = on_conflict != OnConflict::kDefault        ? on_conflict
                   : tab->pk_conflict != OnConflict::kDefault ? tab->pk_conflict
                                                              : OnConflict::kAbort;
  if (const UpsertClause* uc = UpsertFor(-1)) {
    CodeUpsertAction(t, *uc, key, skip_label);
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
    case OnConflict::kFail: {
      std::string cols;
      for (int c : pk->columns) {
        if (!cols.empty()) cols += ", ";
        cols += tab->name + "." + tab->columns[static_cast<size_t>(c)].name;
      }
      OpP4Str(Opcode::kHalt, kConstraintPrimaryKey, static_cast<int>(act), 0,
              "UNIQUE constraint failed: " + cols);
      break;
    }
  }
  ResolveLabel(ok);
}

bool Codegen::HasSubquery(ast::Expr* e) {
  if (e == nullptr) return false;
  if (e->select != nullptr) return true;  // EXISTS, (SELECT ...), IN (SELECT ...)
  if (HasSubquery(e->left) || HasSubquery(e->right) || HasSubquery(e->escape)) return true;
  if (e->list != nullptr) {
    for (size_t i = 0; i < e->list->size(); ++i) {
      if (HasSubquery((*e->list)[i])) return true;
    }
  }
  return false;
}

}  // namespace basalt
