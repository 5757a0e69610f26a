// integrity_check, quick_check and foreign_key_check.
//
// integrity_check / quick_check [(N | table)]: the B-tree structure of every
// database (or the named one), then row checks of sound trees (NOT NULL;
// the full check also compares each index with its table). One text row of
// structure errors per damaged database ("*** in database X ***" first),
// one row per row error, and "ok" when there is nothing to report. N limits
// the errors (default 100); a table name limits the row checks to it.
//
// foreign_key_check [(table)]: one row (table, rowid, parent, fkid) per row
// whose foreign key finds no parent row, rows in rowid order and each row's
// keys in fkid order. A key whose parent columns are neither the parent's
// PRIMARY KEY nor a UNIQUE index is "foreign key mismatch".
#include <algorithm>
#include <optional>
#include <tuple>

#include "main/connection.h"
#include "main/pragma_families.h"
#include "main/statement.h"

namespace basalt {

namespace {

constexpr int kDefaultMaxErrors = 100;

// Checks database dbi; appends the report rows to call->rows. *errors
// counts the messages reported so far (all databases).
Status CheckDatabase(PragmaCall* call, int dbi, const Table* only, int max_errors, int* errors,
                     bool* malformed) {
  Connection* conn = call->conn;
  SchemaStore& store = conn->dbs();
  TRY(store.EnsureSchema(dbi));
  Database* db = store.at(dbi);
  PragmaReadScope scope(conn, dbi);
  TRY(scope.status());
  if (db->bt->page_count() == 0) return Status();
  // With a table named, only its trees (the table's and its indexes') are
  // checked, a partial check as SQLite's: what the other trees use is not
  // known, so no page is reported unused.
  std::vector<IntegrityRoot> roots;
  std::vector<const Table*> tables;
  for (auto& [k, t] : db->schema.tables()) {
    if (t->is_view || t->is_virtual || t->root <= 1) continue;
    if (only == nullptr || only == t.get()) {
      roots.push_back({t->root, nullptr, nullptr});
      tables.push_back(t.get());
    }
  }
  for (auto& [k, idx] : db->schema.indexes()) {
    const bool dup = only != nullptr && idx->root == only->root;  // a WITHOUT ROWID key
    if ((only == nullptr || idx->table == only) && !dup) {
      roots.push_back({idx->root, nullptr, nullptr});
    }
  }
  std::vector<std::string> msgs;
  TRY(db->bt->IntegrityCheck(roots, max_errors - *errors, &msgs, only != nullptr));
  if (!msgs.empty()) {
    *errors += static_cast<int>(msgs.size());
    call->Row(Value::Text(FormatIntegrityReport(msgs, db->name)));
  }
  // The row checks follow, as in SQLite, even after tree errors; each
  // message is a row of its own. Tables go in the order of SQLite's hash of
  // names. A table whose pages cannot be read (a damaged root, say) ends
  // the check with that error, after the rows reported so far (the
  // statement returns those first, as SQLite's program does); a record
  // that does not decode ends it with a last row saying so (*malformed).
  tables.clear();
  for (const Table* t : db->schema.TablesInSqliteOrder()) {
    if (t->is_view || t->is_virtual || t->root <= 1) continue;
    if (only == nullptr || only == t) tables.push_back(t);
  }
  const bool full = std::string_view(call->def->name) == "integrity_check";
  std::vector<std::string> row_msgs;
  Status scanned;
  for (const Table* t : tables) {
    if (*errors + static_cast<int>(row_msgs.size()) >= max_errors) break;
    scanned = CheckTableRows(conn, db, *t, full, static_cast<size_t>(max_errors - *errors),
                             &row_msgs, malformed);
    if (!scanned.ok() || *malformed) break;
  }
  *errors += static_cast<int>(row_msgs.size());
  for (std::string& m : row_msgs) call->Row(Value::Text(std::move(m)));
  if (*malformed) call->Row(Value::Text("database disk image is malformed"));
  return scanned;
}

}  // namespace

Status CheckIntegrityCheck(PragmaCall* call) {
  int32_t n = 0;
  if (!call->set || PragmaInt32(call->arg, &n)) return Status();
  Result<Table*> t = PragmaLookupTable(call, call->arg);
  TRY(t.status());
  if (*t == nullptr) return Status(kError, "no such table: " + call->arg);
  return Status();
}

Status RunIntegrityCheck(PragmaCall* call) {
  int max_errors = kDefaultMaxErrors;
  const Table* only = nullptr;
  if (call->set) {
    int32_t n = 0;
    if (PragmaInt32(call->arg, &n)) {
      if (n > 0) max_errors = n;
    } else {
      Result<Table*> t = PragmaLookupTable(call, call->arg);
      TRY(t.status());
      if (*t == nullptr) return Status(kError, "no such table: " + call->arg);
      // A virtual table has no trees to check.
      if ((*t)->is_virtual) {
        call->Row(Value::Text("ok"));
        return Status();
      }
      only = *t;
    }
  }
  SchemaStore& store = call->conn->dbs();
  // Checking every database includes TEMP, which is opened for it (as in
  // SQLite: database_list shows it afterwards).
  if (!call->has_schema()) TRY(store.OpenTemp());
  int errors = 0;
  bool malformed = false;
  for (int i = 0; i < store.size() && errors < max_errors && !malformed; ++i) {
    if (call->has_schema() ? i != call->db : !store.at(i)->is_open()) continue;
    if (only != nullptr && only->db() != i) continue;
    TRY(CheckDatabase(call, i, only, max_errors, &errors, &malformed));
  }
  if (errors == 0 && !malformed) call->Row(Value::Text("ok"));
  return Status();
}

namespace {

std::string Quote(std::string_view name) {
  std::string out = "\"";
  for (char c : name) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

// The parent-side condition of foreign key fk of child table t in database
// db_name (an SQL expression true when the child row `c` has a parent), or
// "" when the parent table does not exist. A mismatch is an error.
Result<std::string> ParentCondition(Connection* conn, const std::string& db_name, const Table& t,
                                    const ForeignKeyDef& fk) {
  const Table* parent = conn->dbs().catalog().FindTable(db_name, fk.parent_table);
  if (parent == nullptr) return std::string();
  const Status mismatch(
      kError, "foreign key mismatch - \"" + t.name + "\" referencing \"" + parent->name + "\"");
  // The parent columns: as named, else the parent's PRIMARY KEY.
  std::vector<int> cols;
  for (const std::string& name : fk.parent_columns) {
    const int c = parent->FindColumn(name);
    if (c < 0) return mismatch;
    cols.push_back(c);
  }
  if (cols.empty()) {
    for (size_t c = 0; c < parent->columns.size(); ++c) {
      if (parent->columns[c].primary_key) cols.push_back(static_cast<int>(c));
    }
    for (const Index* idx : parent->IndexesInCreationOrder()) {
      if (idx->origin == 'p') cols = idx->columns;
    }
  }
  if (cols.size() != fk.from_columns.size()) return mismatch;
  const bool by_rowid = cols.size() == 1 && cols[0] == parent->rowid_alias;
  bool unique = by_rowid;
  for (const Index* idx : parent->IndexesInCreationOrder()) {
    if (unique) break;
    if (!idx->unique || !idx->where_sql.empty() || idx->columns.size() != cols.size()) continue;
    unique = std::is_permutation(cols.begin(), cols.end(), idx->columns.begin());
  }
  if (!unique) return mismatch;
  std::string cond =
      "EXISTS (SELECT 1 FROM " + Quote(db_name) + "." + Quote(parent->name) + " AS p";
  for (size_t i = 0; i < cols.size(); ++i) {
    cond += i == 0 ? " WHERE " : " AND ";
    cond += by_rowid ? std::string("p._rowid_")
                     : "p." + Quote(parent->columns[static_cast<size_t>(cols[i])].name);
    cond += " = c." + Quote(t.columns[static_cast<size_t>(fk.from_columns[i])].name);
  }
  return cond + ")";
}

// Rowids of t's rows that break foreign key fk, in rowid order (for a
// WITHOUT ROWID table no rowid per row, in key order: reported as NULL).
Status Violations(Connection* conn, const std::string& db_name, const Table& t,
                  const std::string& parent_cond, const ForeignKeyDef& fk,
                  std::vector<std::optional<int64_t>>* out) {
  std::string sql = std::string(t.HasRowid() ? "SELECT c._rowid_" : "SELECT NULL") + " FROM " +
                    Quote(db_name) + "." + Quote(t.name) + " AS c WHERE ";
  for (int c : fk.from_columns) {
    sql += "c." + Quote(t.columns[static_cast<size_t>(c)].name) + " IS NOT NULL AND ";
  }
  sql += parent_cond.empty() ? "1" : "NOT " + parent_cond;
  if (t.HasRowid()) sql += " ORDER BY 1";
  size_t tail = 0;
  Result<std::unique_ptr<Statement>> st = conn->Prepare(sql, &tail);
  TRY(st.status());
  int rc;
  while ((rc = (*st)->Step()) == kRow) {
    const Value* v = (*st)->column(0);
    out->push_back(v->is_null() ? std::nullopt : std::optional<int64_t>(v->int_value()));
  }
  if (rc != kDone) return (*st)->status();
  return Status();
}

}  // namespace

namespace {

// The tables foreign_key_check looks at: the one named, else those of the
// database in SQLite's order (as table_list).
Status ForeignKeyTables(PragmaCall* call, std::vector<const Table*>* tables) {
  if (call->set) {
    Result<Table*> t = PragmaLookupTable(call, call->arg);
    TRY(t.status());
    if (*t == nullptr) return Status(kError, "no such table: " + call->arg);
    tables->push_back(*t);
    return Status();
  }
  *tables = call->conn->dbs().at(call->target_db())->schema.TablesInSqliteOrder();
  return Status();
}

bool HasForeignKeys(const Table* t) {
  return !t->foreign_keys.empty() && !t->is_view && !t->is_virtual;
}

}  // namespace

Status CheckForeignKeyCheck(PragmaCall* call) {
  std::vector<const Table*> tables;
  TRY(ForeignKeyTables(call, &tables));
  for (const Table* t : tables) {
    if (!HasForeignKeys(t)) continue;
    const std::string& db_name = call->conn->dbs().at(t->db())->name;
    for (const ForeignKeyDef& fk : t->foreign_keys) {
      TRY(ParentCondition(call->conn, db_name, *t, fk).status());
    }
  }
  return Status();
}

Status RunForeignKeyCheck(PragmaCall* call) {
  Connection* conn = call->conn;
  std::vector<const Table*> tables;
  TRY(ForeignKeyTables(call, &tables));
  // Every key is checked before any row is reported (a mismatch anywhere
  // is the statement's error).
  TRY(CheckForeignKeyCheck(call));
  for (const Table* t : tables) {
    if (!HasForeignKeys(t)) continue;
    const std::string& db_name = conn->dbs().at(t->db())->name;
    // (rowid, fkid, parent) of every violation, then in SQLite's order.
    std::vector<std::tuple<std::optional<int64_t>, int, std::string>> found;
    const int n = static_cast<int>(t->foreign_keys.size());
    for (int id = 0; id < n; ++id) {
      const ForeignKeyDef& fk = t->foreign_keys[static_cast<size_t>(n - 1 - id)];
      Result<std::string> cond = ParentCondition(conn, db_name, *t, fk);
      TRY(cond.status());
      std::vector<std::optional<int64_t>> rowids;
      TRY(Violations(conn, db_name, *t, *cond, fk, &rowids));
      for (const std::optional<int64_t>& r : rowids) found.emplace_back(r, id, fk.parent_table);
    }
    std::stable_sort(found.begin(), found.end());
    for (auto& [rowid, id, parent] : found) {
      call->AddRow({Value::Text(t->name), rowid ? Value::Int(*rowid) : Value(), Value::Text(parent),
                    Value::Int(id)});
    }
  }
  return Status();
}

}  // namespace basalt
