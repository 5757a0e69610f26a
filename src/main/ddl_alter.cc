// ALTER TABLE (lang_altertable): RENAME TO, RENAME COLUMN, ADD COLUMN and
// DROP COLUMN.
//
// Each form runs in the steps SQLite's alter.c takes:
//   1. the checks SQLite makes while preparing (reported by the dry run);
//   2. the sqlite_schema rows are edited in place (alter_sql.h finds the
//      tokens to change), in the altered table's database and, for a table
//      outside TEMP, in TEMP's views and triggers;
//   3. the checks SQLite makes while running, against the edited text
//      ("error in view v after drop column: ..."), which undo the statement;
//   4. DROP COLUMN rewrites every row without the column; RENAME TO renames
//      the table's sqlite_sequence row;
//   5. the schema cookie is bumped and the schemas are read again from the
//      edited rows, as SQLite reloads them (so the hash order of names is
//      the one a fresh load gives).
#include <cctype>
#include "common/assert.h"
#include "common/coding.h"
#include "exec/codegen.h"
#include "main/alter_rows.h"
#include "main/alter_sql.h"

#include "main/ddl.h"
#include "parser/parser.h"
#include "record/record.h"

namespace basalt {

namespace {

bool IsInternalName(std::string_view name) {
  return name.size() >= 7 && EqualsIgnoreCase(name.substr(0, 7), "sqlite_");
}

}  // namespace

Status EditSchemaRows(Database* db, const RowEdit& edit) {
  if (!db->is_open() || db->bt->page_count() == 0) return Status();
  std::vector<std::pair<int64_t, std::string>> writes;
  {
    BtCursor cur;
    TRY(db->bt->OpenCursor(1, false, &cur));
    TRY(cur.First());
    std::string buf;
    while (!cur.eof()) {
      Value v[5];
      int nf = 0;
      TRY(db->ReadSchemaFields(&cur, &buf, v, 5, &nf));
      SchemaRowText row;
      row.type = v[0].is_text() ? std::string(v[0].text()) : std::string();
      row.name = v[1].is_text() ? std::string(v[1].text()) : std::string();
      row.tbl_name = v[2].is_text() ? std::string(v[2].text()) : std::string();
      row.has_sql = v[4].is_text();
      if (row.has_sql) row.sql = std::string(v[4].text());
      bool changed = false;
      TRY(edit(&row, &changed));
      if (changed) {
        v[0].SetTextStatic(row.type);
        v[1].SetTextStatic(row.name);
        v[2].SetTextStatic(row.tbl_name);
        if (row.has_sql) v[4].SetTextStatic(row.sql);
        std::string rec;
        EncodeRecord(v, 5, &rec);
        writes.emplace_back(cur.rowid(), std::move(rec));
      }
      TRY(cur.Next());
    }
  }
  if (writes.empty()) return Status();
  BtCursor cur;
  TRY(db->bt->OpenCursor(1, true, &cur));
  for (auto& [rowid, rec] : writes) TRY(db->WriteSchemaRecord(&cur, rowid, rec));
  db->schema_changed_in_txn = true;
  return Status();
}

namespace {

// sqlite_sequence: the row of `from` is renamed `to`.
Status RenameSequenceRow(Database* db, std::string_view from, std::string_view to) {
  Table* seq = db->schema.FindTable("sqlite_sequence");
  if (seq == nullptr) return Status();
  std::vector<std::pair<int64_t, std::string>> writes;
  {
    BtCursor cur;
    TRY(db->bt->OpenCursor(seq->root, false, &cur));
    TRY(cur.First());
    std::string buf;
    while (!cur.eof()) {
      Value v[2];
      int nf = 0;
      TRY(db->ReadSchemaFields(&cur, &buf, v, 2, &nf));
      if (v[0].is_text() && v[0].text() == from) {
        v[0].SetTextStatic(to);
        std::string rec;
        EncodeRecord(v, 2, &rec);
        writes.emplace_back(cur.rowid(), std::move(rec));
      }
      TRY(cur.Next());
    }
  }
  BtCursor cur;
  TRY(db->bt->OpenCursor(seq->root, true, &cur));
  for (auto& [rowid, rec] : writes) TRY(db->WriteSchemaRecord(&cur, rowid, rec));
  return Status();
}

// The record `rec` without field `field` (unchanged when the record is
// shorter: the column then reads as its default and needs no bytes).
bool DropField(const std::string& rec, int field, std::string* out) {
  const auto* data = reinterpret_cast<const uint8_t*>(rec.data());
  std::vector<uint32_t> types, offsets;
  Result<int> nf = ParseRecordHeader(data, static_cast<uint32_t>(rec.size()), &types, &offsets);
  if (!nf.ok() || field >= *nf) return false;
  std::string body;
  size_t types_len = 0;
  for (int f = 0; f < *nf; ++f) {
    if (f == field) continue;
    const size_t i = static_cast<size_t>(f);
    types_len += static_cast<size_t>(VarintLen(types[i]));
    body.append(rec, offsets[i], SerialTypeLen(types[i]));
  }
  size_t header_len = types_len + 1;
  while (static_cast<size_t>(VarintLen(header_len)) + types_len != header_len) {
    header_len = types_len + static_cast<size_t>(VarintLen(header_len));
  }
  out->clear();
  uint8_t tmp[10];
  out->append(reinterpret_cast<char*>(tmp), static_cast<size_t>(PutVarint(tmp, header_len)));
  for (int f = 0; f < *nf; ++f) {
    if (f == field) continue;
    int n = PutVarint(tmp, types[static_cast<size_t>(f)]);
    out->append(reinterpret_cast<char*>(tmp), static_cast<size_t>(n));
  }
  *out += body;
  return true;
}

bool IsVirtualColumn(const Column& c) { return !c.generated_sql.empty() && !c.generated_stored; }

}  // namespace

Status DdlExecutor::AlterTable(ast::AlterTableStmt* st, Arena* arena) {
  const Catalog& cat = store_->catalog();
  Table* t = cat.FindTable(st->schema, st->table);
  if (t == nullptr) {
    std::string shown = st->schema.empty() ? std::string(st->table)
                                           : std::string(st->schema) + "." + std::string(st->table);
    return Status(kError, "no such table: " + shown);
  }
  switch (st->action) {
    case ast::AlterTableStmt::kRenameTable:
      return RenameTable(st, t);
    case ast::AlterTableStmt::kRenameColumn:
      return RenameColumn(st, t);
    case ast::AlterTableStmt::kAddColumn:
      return AddColumn(st, t, arena);
    case ast::AlterTableStmt::kDropColumn:
      return DropColumn(st, t);
  }
  return Status();
}

Status DdlExecutor::CheckAlterable(const Table* t) {
  if (IsInternalName(t->name) || t->root == 1) {
    return Status(kError, "table " + t->name + " may not be altered");
  }
  return Status();
}

// Whether an unqualified `name` in TEMP's views and triggers means the
// table of database `dbi`: TEMP is searched first, then main, then the
// attached databases in order.
bool DdlExecutor::TempSeesTable(int dbi, std::string_view name) const {
  if (dbi == Catalog::kTemp) return true;
  if (store_->temp()->schema.FindTable(name) != nullptr) return false;
  for (int i = 0; i < store_->size(); ++i) {
    if (i == Catalog::kTemp) continue;
    if (i == dbi) return true;
    if (store_->at(i)->schema.FindTable(name) != nullptr) return false;
  }
  return false;
}

// SQLite's renameTestSchema before an edit: every view and trigger of
// database dbi (and of TEMP when `temp`) must still compile, else
// "error in view v: ..." for the first one in sqlite_schema order.
Status DdlExecutor::CheckViews(int dbi, bool temp, std::string_view when) {
  auto check = [&](Database* db) {
    return EditSchemaRows(db, [&](SchemaRowText* row, bool*) {
      if (row->type != "view" && row->type != "trigger") return Status();
      Arena arena;
      CompileContext ctx;
      InitContext(&ctx, &arena);
      Status st = row->type == "view" ? CheckView(db, row->name, &ctx, &arena)
                                      : CheckTrigger(db, row->name, &ctx);
      if (st.ok()) return st;
      return Status(kError, "error in " + row->type + " " + row->name + std::string(when) + ": " +
                                st.message());
    });
  };
  TRY(check(store_->at(dbi)));
  if (temp && dbi != Catalog::kTemp) TRY(check(store_->temp()));
  return Status();
}

Status DdlExecutor::CheckView(Database* db, const std::string& name, CompileContext* ctx,
                              Arena* arena) {
  std::string sql = "SELECT * FROM " + IdentQuote(db->name) + "." + IdentQuote(name);
  Parser parser(arena, arena->CopyString(sql));
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  return CompileStatement(*r, ctx).status();
}

Status DdlExecutor::CheckTrigger(Database* db, const std::string& name, CompileContext* ctx) {
  const Trigger* trig = db->schema.FindTrigger(name);
  if (trig == nullptr) return Status();
  // An unqualified TEMP trigger's table is found by the search order.
  const int fixed = trig->table_db.empty() && !db->schema.is_temp() ? db->schema.db_index : -1;
  const Table* tab = ctx->catalog->FindTable(trig->table_db, trig->table_name, fixed);
  if (tab == nullptr) return Status();
  // SQLite resolves the names of a trigger's body here, without generating
  // its code: errors found only by code generation (the number of values
  // of an INSERT, say) do not stop an ALTER.
  Status st = CheckTriggerCompiles(trig, tab, ctx);
  static constexpr std::string_view kNameErrors[] = {"no such column",
                                                     "no such table",
                                                     "ambiguous column name",
                                                     "no such function",
                                                     "wrong number of arguments",
                                                     "misuse of"};
  for (std::string_view prefix : kNameErrors) {
    if (st.message().substr(0, prefix.size()) == prefix) return st;
  }
  return Status();
}

Status DdlExecutor::FinishAlter(int dbi, bool temp_changed) {
  Database* db = store_->at(dbi);
  TRY(db->BumpSchemaCookie());
  db->schema_changed_in_txn = true;
  TRY(store_->Reload(dbi));
  if (temp_changed && dbi != Catalog::kTemp) {
    Database* temp = store_->temp();
    TRY(temp->BumpSchemaCookie());
    TRY(store_->Reload(Catalog::kTemp));
  }
  return Status();
}

namespace {
// The stored "CREATE VIRTUAL TABLE <name> USING ..." with <name> replaced
// by "new_name", as SQLite writes it.
std::string RenamedVirtualTableSql(const std::string& sql, std::string_view new_name) {
  static constexpr std::string_view kPrefix = "CREATE VIRTUAL TABLE ";
  size_t i = sql.size() >= kPrefix.size() ? kPrefix.size() : sql.size();
  if (i < sql.size() && (sql[i] == '"' || sql[i] == '\'' || sql[i] == '`' || sql[i] == '[')) {
    const char close = sql[i] == '[' ? ']' : sql[i];
    ++i;
    while (i < sql.size()) {
      if (sql[i] == close && close != ']' && i + 1 < sql.size() && sql[i + 1] == close) {
        i += 2;
      } else if (sql[i++] == close) {
        break;
      }
    }
  } else {
    while (i < sql.size() && (std::isalnum(static_cast<unsigned char>(sql[i])) || sql[i] == '_' ||
                              sql[i] == '$' || static_cast<unsigned char>(sql[i]) >= 0x80)) {
      ++i;
    }
  }
  std::string out(kPrefix);
  out += '"';
  for (char c : new_name) {
    out += c;
    if (c == '"') out += '"';
  }
  out += '"';
  return out + sql.substr(i);
}
}  // namespace

Status DdlExecutor::RenameTable(ast::AlterTableStmt* st, Table* t) {
  const int dbi = t->db();
  Database* db = store_->at(dbi);
  const std::string new_name(st->new_name);
  if (db->schema.FindTable(new_name) != nullptr || db->schema.FindIndex(new_name) != nullptr) {
    return Status(kError, "there is already another table or index with this name: " + new_name);
  }
  TRY(CheckAlterable(t));
  if (IsInternalName(new_name)) {
    return Status(kError, "object name reserved for internal use: " + new_name);
  }
  if (t->is_view) return Status(kError, "view " + t->name + " may not be altered");
  if (dry_run_) return Status();
  if (!options_->legacy_alter_table) TRY(CheckViews(dbi, true));
  const bool is_virtual = t->is_virtual;
  const std::string old_name = t->name;
  Vtab* renamed_vtab = nullptr;
  // A virtual table renames its own storage first (xRename), as SQLite's
  // OP_VRename does before the schema is edited. The SQL xRename runs may
  // reload the schema: `t` is not used after it.
  if (is_virtual) {
    TRY(vtabs_->Connect(t));
    if (t->vtab->can_rename()) TRY(t->vtab->Rename(new_name));
    // The reload below connects the table anew under its new name; the old
    // instance leaves the transaction (xRename flushed what it held).
    t = db->schema.FindTable(old_name);
    renamed_vtab = t != nullptr ? t->vtab.get() : nullptr;
    t = nullptr;
  }
  alter::Target target;
  target.table = old_name;
  target.db_name = db->name;
  target.legacy = options_->legacy_alter_table;
  target.legacy_references = options_->foreign_keys;
  // SQLite renames the parent of a foreign key in legacy mode only while
  // foreign keys are enforced.
  const bool keep_references = target.legacy && !options_->foreign_keys;
  TRY(EditSchemaRows(db, [&](SchemaRowText* row, bool* changed) {
    if (row->has_sql && !IsInternalName(row->name) &&
        (row->type != "index" || EqualsIgnoreCase(row->tbl_name, old_name))) {
      std::string out;
      alter::Target tt = target;
      if (keep_references && row->type == "table" && !EqualsIgnoreCase(row->name, old_name)) {
        tt.table.clear();
      }
      if (is_virtual && row->type == "table" && EqualsIgnoreCase(row->name, old_name)) {
        row->sql = RenamedVirtualTableSql(row->sql, new_name);
        *changed = true;
      } else if (!tt.table.empty() && alter::RenameTable(row->sql, tt, new_name, &out)) {
        row->sql = std::move(out);
        *changed = true;
      }
    }
    if (EqualsIgnoreCase(row->tbl_name, old_name) &&
        (row->type == "table" || row->type == "index" || row->type == "trigger")) {
      row->tbl_name = new_name;
      if (row->type == "table") row->name = new_name;
      const std::string prefix = "sqlite_autoindex_";
      if (row->type == "index" && row->name.size() >= prefix.size() + old_name.size() &&
          EqualsIgnoreCase(row->name.substr(0, prefix.size()), prefix)) {
        row->name = prefix + new_name + row->name.substr(prefix.size() + old_name.size());
      }
      *changed = true;
    }
    return Status();
  }));
  TRY(RenameSequenceRow(db, old_name, new_name));
  bool temp_changed = false;
  if (dbi != Catalog::kTemp) {
    target.unqualified_ok = TempSeesTable(dbi, old_name);
    TRY(EditSchemaRows(store_->temp(), [&](SchemaRowText* row, bool* changed) {
      if ((row->type != "view" && row->type != "trigger") || !row->has_sql) return Status();
      std::string out;
      if (!alter::RenameTable(row->sql, target, new_name, &out)) return Status();
      row->sql = std::move(out);
      if (EqualsIgnoreCase(row->tbl_name, old_name)) row->tbl_name = new_name;
      *changed = temp_changed = true;
      return Status();
    }));
  }
  Status done = FinishAlter(dbi, temp_changed);
  if (renamed_vtab != nullptr) vtabs_->Forget(renamed_vtab);  // compares the pointer only
  TRY(done);
  // Step 3: the edited schema must still make sense.
  if (!options_->legacy_alter_table) TRY(CheckViews(dbi, true, " after rename"));
  return Status();
}

Status DdlExecutor::RenameColumn(ast::AlterTableStmt* st, Table* t) {
  TRY(CheckAlterable(t));
  if (t->is_view || t->is_virtual) {
    return Status(kError, std::string("cannot rename columns of ") +
                              (t->is_view ? "view" : "virtual table") + " \"" + t->name + "\"");
  }
  const int col = t->FindColumn(st->old_name);
  if (col < 0) {
    SetErrorOffset(st->old_name);
    return Status(kError, "no such column: \"" + std::string(st->old_name) + "\"");
  }
  if (dry_run_) return Status();
  const int dbi = t->db();
  Database* db = store_->at(dbi);
  TRY(CheckViews(dbi, true));
  const int other = t->FindColumn(st->new_name);
  if (other >= 0 && other != col) {
    return Status(kError, "error in table " + t->name +
                              " after rename: duplicate column name: " + std::string(st->new_name));
  }
  alter::Target target;
  target.table = t->name;
  target.column = t->columns[static_cast<size_t>(col)].name;
  target.db_name = db->name;
  const std::string new_name(st->new_name);
  auto edit = [&](const alter::Target& tt, bool temp_only, bool* any) {
    return [&, temp_only, any](SchemaRowText* row, bool* changed) {
      if (!row->has_sql || IsInternalName(row->name)) return Status();
      if (temp_only && row->type != "view" && row->type != "trigger") return Status();
      std::string out;
      alter::Resolution res;
      TRY(ResolveNames(temp_only ? store_->temp() : db, *row, t, col, &res));
      if (alter::RenameColumn(row->sql, tt, new_name, st->new_name_quoted, &res, &out)) {
        row->sql = std::move(out);
        *changed = *any = true;
      }
      return Status();
    };
  };
  bool main_changed = false, temp_changed = false;
  TRY(EditSchemaRows(db, edit(target, false, &main_changed)));
  if (dbi != Catalog::kTemp) {
    alter::Target tt = target;
    tt.unqualified_ok = TempSeesTable(dbi, t->name);
    TRY(EditSchemaRows(store_->temp(), edit(tt, true, &temp_changed)));
  }
  TRY(FinishAlter(dbi, temp_changed));
  return CheckViews(dbi, true, " after rename");
}

Status DdlExecutor::DropColumn(ast::AlterTableStmt* st, Table* t) {
  TRY(CheckAlterable(t));
  if (t->is_view || t->is_virtual) {
    return Status(kError, std::string("cannot drop column from ") +
                              (t->is_view ? "view" : "virtual table") + " \"" + t->name + "\"");
  }
  const int col = t->FindColumn(st->old_name);
  if (col < 0) {
    SetErrorOffset(st->old_name);
    return Status(kError, "no such column: \"" + std::string(st->old_name) + "\"");
  }
  const Column& c = t->columns[static_cast<size_t>(col)];
  bool unique = false;
  for (const Index* idx : t->indexes) {
    if (idx->origin == 'u' && idx->columns.size() == 1 && idx->columns[0] == col) unique = true;
  }
  if (c.primary_key || unique) {
    return Status(kError, std::string("cannot drop ") + (c.primary_key ? "PRIMARY KEY" : "UNIQUE") +
                              " column: \"" + c.name + "\"");
  }
  if (t->columns.size() <= 1) {
    return Status(kError, "cannot drop column \"" + c.name + "\": no other columns exist");
  }
  if (dry_run_) return Status();
  const int dbi = t->db();
  Database* db = store_->at(dbi);
  TRY(CheckViews(dbi, true));
  std::string table_sql;
  if (!alter::DropColumn(t->sql, col, &table_sql)) {
    return Status(kInternal, "cannot find column " + c.name + " in the table's SQL");
  }
  alter::Target target;
  target.table = t->name;
  target.column = c.name;
  target.db_name = db->name;
  // Step 3: what still refers to the column fails the statement.
  auto check = [&](bool temp) {
    return [&, temp](SchemaRowText* row, bool*) {
      if (!row->has_sql || IsInternalName(row->name)) return Status();
      if (temp && row->type != "view" && row->type != "trigger") return Status();
      const bool own = row->type == "table" && EqualsIgnoreCase(row->name, t->name) && !temp;
      std::string what;
      alter::Resolution res;
      if (!own) TRY(ResolveNames(temp ? store_->temp() : db, *row, t, col, &res));
      if (alter::RefersToColumn(own ? table_sql : row->sql, target, own ? nullptr : &res, &what)) {
        return Status(kError,
                      "error in " + row->type + " " + row->name + " after drop column: " + what);
      }
      return Status();
    };
  };
  TRY(EditSchemaRows(db, check(false)));
  if (dbi != Catalog::kTemp) {
    target.unqualified_ok = TempSeesTable(dbi, t->name);
    TRY(EditSchemaRows(store_->temp(), check(true)));
  }
  // The table's new text; in every object, double-quoted names read as
  // strings become string literals (SQLite's quote fix).
  auto quote_fix = [&](Database* in) {
    return [&, in](SchemaRowText* row, bool* changed) {
      if (!row->has_sql || IsInternalName(row->name)) return Status();
      if (row->type == "table" && EqualsIgnoreCase(row->name, t->name) && in == db) {
        row->sql = table_sql;
        *changed = true;
      }
      alter::Resolution res;
      TRY(ResolveNames(in, *row, t, -1, &res));
      std::string out;
      if (alter::QuoteStrings(row->sql, res.dq_strings, &out)) {
        row->sql = std::move(out);
        *changed = true;
      }
      return Status();
    };
  };
  TRY(EditSchemaRows(db, quote_fix(db)));
  if (dbi != Catalog::kTemp) TRY(EditSchemaRows(store_->temp(), quote_fix(store_->temp())));
  if (!IsVirtualColumn(c)) TRY(DropColumnRows(db, t, col));
  return FinishAlter(dbi, false);
}

// Step 4 of DROP COLUMN: each row of the table without the column's field.
Status DdlExecutor::DropColumnRows(Database* db, const Table* t, int col) {
  if (t->without_rowid) return DropColumnKeyedRows(db, t, t->Field(col));
  int field = 0;
  for (int i = 0; i < col; ++i) {
    if (!IsVirtualColumn(t->columns[static_cast<size_t>(i)])) ++field;
  }
  BtCursor cur;
  TRY(db->bt->OpenCursor(t->root, true, &cur));
  TRY(cur.First());
  std::string rec, out;
  while (!cur.eof()) {
    const uint32_t len = cur.payload_size();
    rec.assign(len, '\0');
    TRY(cur.ReadPayload(0, len, reinterpret_cast<uint8_t*>(rec.data())));
    if (DropField(rec, field, &out)) {
      TRY(cur.InsertRow(cur.rowid(), reinterpret_cast<const uint8_t*>(out.data()),
                        static_cast<uint32_t>(out.size())));
    }
    TRY(cur.Next());
  }
  return Status();
}

namespace {

// Finds the entry of a WITHOUT ROWID table whose primary key is `vals`.
struct PkSearch {
  const Value* vals;
  int n;
  const KeyInfo* ki;
  Status* status;
};

int ComparePk(void* ctx, const uint8_t* key, uint32_t n) {
  auto* s = static_cast<PkSearch*>(ctx);
  return CompareRecordWithKey(key, n, s->vals, s->n, *s->ki, 0, s->status);
}

}  // namespace

// DROP COLUMN of a WITHOUT ROWID table: each entry is rewritten in place
// without the field (a non-key field: the entry keeps its position).
Status DdlExecutor::DropColumnKeyedRows(Database* db, const Table* t, int field) {
  const int npk = t->n_pk();
  BASALT_DCHECK(field >= npk);
  KeyInfo ki = t->pk_index->key_info;
  ki.enc = db->enc;
  BtCursor cur;
  TRY(db->bt->OpenCursor(t->root, true, &cur));
  TRY(cur.First());
  std::string rec, out;
  std::vector<uint32_t> types, offsets;
  std::vector<Value> key(static_cast<size_t>(npk));
  while (!cur.eof()) {
    const uint32_t len = cur.payload_size();
    rec.assign(len, '\0');
    TRY(cur.ReadPayload(0, len, reinterpret_cast<uint8_t*>(rec.data())));
    if (DropField(rec, field, &out)) {
      const auto* data = reinterpret_cast<const uint8_t*>(rec.data());
      Result<int> nf = ParseRecordHeader(data, len, &types, &offsets);
      if (!nf.ok() || *nf < npk) return CORRUPT();
      for (int k = 0; k < npk; ++k) {
        DecodeSerialEnc(data + offsets[static_cast<size_t>(k)], types[static_cast<size_t>(k)],
                        &key[static_cast<size_t>(k)], db->enc);
      }
      PrepareKeyForEncoding(key.data(), npk, ki);
      Status cmp_st;
      PkSearch ks{key.data(), npk, &ki, &cmp_st};
      TRY(cur.InsertKey(reinterpret_cast<const uint8_t*>(out.data()),
                        static_cast<uint32_t>(out.size()), ComparePk, &ks));
      TRY(cmp_st);
    }
    TRY(cur.Next());
  }
  return Status();
}

}  // namespace basalt
