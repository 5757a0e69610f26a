// Schema objects: tables, indexes, views and triggers of one database, as
// described by the rows of its sqlite_schema table.
//
// The catalog sits below the parser, so expressions that belong to schema
// objects (DEFAULT, CHECK, partial-index WHERE, view bodies, trigger bodies)
// are kept as SQL text; the statement compiler parses them into its own arena
// when a statement needs them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "catalog/hash_order.h"
#include "catalog/vtab.h"
#include "common/strings.h"
#include "record/affinity.h"
#include "record/collation.h"
#include "record/record.h"

namespace basalt {

struct Index;
struct Trigger;
class Schema;

// Conflict resolution algorithm of a constraint (lang_conflict).
enum class OnConflict : uint8_t { kDefault, kRollback, kAbort, kFail, kIgnore, kReplace };

struct Column {
  std::string name;
  std::string decl_type;  // as written ("" if none)
  Affinity affinity = Affinity::kBlob;
  std::string collation;  // "" means BINARY
  bool not_null = false;
  OnConflict not_null_conflict = OnConflict::kDefault;
  bool primary_key = false;  // part of the PRIMARY KEY
  bool hidden = false;
  std::string default_sql;    // DEFAULT expression text; empty if none
  std::string generated_sql;  // GENERATED ALWAYS AS expression text
  bool generated_stored = false;

  bool is_generated() const { return !generated_sql.empty(); }
  // A VIRTUAL generated column has no field in the table's records.
  bool is_virtual() const { return !generated_sql.empty() && !generated_stored; }
};

struct CheckConstraint {
  std::string name;  // CONSTRAINT name, or empty
  std::string sql;   // the expression text
};

struct ForeignKeyDef {
  std::vector<int> from_columns;
  std::string parent_table;
  std::vector<std::string> parent_columns;
  uint8_t on_delete = 0, on_update = 0;
  bool deferred = false;
};

struct Table {
  std::string name;
  Schema* owner = nullptr;  // the schema that holds it (set by Schema::AddTable)
  std::string sql;          // CREATE statement text (empty for sqlite_schema)
  uint32_t root = 0;        // root page of the table B-tree (0 for views)
  std::vector<Column> columns;
  int rowid_alias = -1;  // INTEGER PRIMARY KEY column, or -1
  OnConflict pk_conflict = OnConflict::kDefault;
  bool autoincrement = false;
  bool without_rowid = false;
  bool strict = false;
  bool is_view = false;
  std::string view_sql;                   // SELECT text of a view
  std::vector<std::string> view_columns;  // column list of CREATE VIEW v(a, b)
  std::vector<CheckConstraint> checks;
  std::vector<ForeignKeyDef> foreign_keys;
  std::vector<Index*> indexes;     // owned by Schema
  std::vector<Trigger*> triggers;  // owned by Schema
  bool has_defaults = false;
  // Generated columns: any at all, and how many are VIRTUAL (those are left
  // out of the records, so the record field of a column is its number less
  // the VIRTUAL columns before it: StorageColumn).
  bool has_generated = false;
  int n_virtual = 0;
  // Virtual tables (CREATE VIRTUAL TABLE, or a module's eponymous table):
  // the module and its arguments as written; `vtab` is connected at the
  // table's first use (null until then, and after a failed connect).
  bool is_virtual = false;
  // A virtual table declared WITHOUT ROWID: its PRIMARY KEY column, which
  // UPDATE and DELETE pass to xUpdate in place of a rowid; else -1.
  int vtab_pk = -1;
  std::string module;
  std::vector<std::string> module_args;
  std::unique_ptr<Vtab> vtab;
  // WITHOUT ROWID tables: the PRIMARY KEY index, whose B-tree is the table
  // itself (pk_index->root == root; it has no sqlite_schema row), and the
  // record field each column is stored in (primary-key columns first, in
  // key order, then the others in table order). Null / empty otherwise.
  // Invariant: without_rowid == (pk_index != nullptr) once built.
  std::unique_ptr<Index> pk_index;
  std::vector<int> storage_field;

  // Index of the column called `name` (case-insensitive) or -1.
  int FindColumn(std::string_view name) const;
  bool HasRowid() const { return !without_rowid; }
  // Record field of column `col` (not VIRTUAL): its number less the VIRTUAL
  // generated columns before it.
  int StorageColumn(int col) const {
    if (n_virtual == 0 || col < 0) return col;
    int n = col;
    for (int i = 0; i < col; ++i) n -= columns[static_cast<size_t>(i)].is_virtual() ? 1 : 0;
    return n;
  }
  // Fields of a record: the columns that are not VIRTUAL.
  int n_stored() const { return static_cast<int>(columns.size()) - n_virtual; }
  // The record field column `col` (not VIRTUAL) is stored in.
  int Field(int col) const {
    return without_rowid ? storage_field[static_cast<size_t>(col)] : StorageColumn(col);
  }
  // Number of primary-key fields of a WITHOUT ROWID table (0 otherwise).
  inline int n_pk() const;
  // The indexes, oldest first, with a WITHOUT ROWID table's primary-key
  // index where its sqlite_autoindex number puts it among the others.
  std::vector<const Index*> IndexesInCreationOrder() const;
  // Sets the root page of the table (and of its primary-key index).
  inline void SetRoot(uint32_t r);
  // Index of the owning database (P3 of the cursors that open its trees).
  inline int db() const;
};

// Index column that is not a table column: kRowidColumn for the rowid (the
// implicit last column of every index), kExprColumn for an expression.
constexpr int kRowidColumn = -1;
constexpr int kExprColumn = -2;

struct Index {
  std::string name;
  std::string sql;  // empty for automatic (constraint) indexes
  Table* table = nullptr;
  uint32_t root = 0;
  std::vector<int> columns;                  // table column numbers (kExprColumn for expressions)
  std::vector<std::string> column_exprs;     // expression text for kExprColumn entries
  std::vector<const Collation*> collations;  // per column (then rowid: BINARY)
  // Per column, the collation's name as written (index_xinfo shows it);
  // empty (or shorter): the collation's own name.
  std::vector<std::string> collation_names;
  std::vector<uint8_t> desc;  // per column (then rowid: 0)
  bool unique = false;
  OnConflict on_conflict = OnConflict::kDefault;
  char origin = 'c';      // 'c' CREATE INDEX, 'u' UNIQUE, 'pk' → 'p'
  std::string where_sql;  // partial index WHERE text
  // WITHOUT ROWID tables: the table columns stored after the key columns
  // in place of the rowid. For the primary-key index every other column in
  // table order; for other indexes the primary-key columns the key lacks
  // (with the key's collation and order). Empty for rowid tables.
  std::vector<int> suffix;
  // WITHOUT ROWID tables: the record field of each primary-key column.
  std::vector<int> pk_fields;
  // KeyInfo over columns + rowid (or + suffix), for comparing index records.
  KeyInfo key_info;
  int n_key_columns() const { return static_cast<int>(columns.size()); }
  // Fields of each record: the key columns, then the rowid or the suffix.
  int n_fields() const {
    return static_cast<int>(columns.size() +
                            (suffix.empty() && !without_rowid() ? 1 : suffix.size()));
  }
  bool without_rowid() const { return table != nullptr && table->without_rowid; }
  // The primary-key index of a WITHOUT ROWID table (its records are the rows).
  bool is_table_store() const { return table != nullptr && table->pk_index.get() == this; }
  // Builds key_info (and for a WITHOUT ROWID table's other indexes the
  // suffix and pk_fields, from the table's primary-key index).
  void BuildKeyInfo();
};

inline int Table::n_pk() const { return pk_index ? static_cast<int>(pk_index->columns.size()) : 0; }

inline void Table::SetRoot(uint32_t r) {
  root = r;
  if (pk_index) pk_index->root = r;
}

struct Trigger {
  std::string name;
  Schema* owner = nullptr;  // the schema that holds it (set by Schema::AddTrigger)
  std::string table_name;
  // The database named in `ON db.table` ("" when unqualified). Only a TEMP
  // trigger may name another database; such a trigger is not linked into a
  // table of its own schema but found through the Catalog.
  std::string table_db;
  std::string sql;    // CREATE TRIGGER text; the compiler re-parses it
  uint8_t time = 0;   // 0 BEFORE, 1 AFTER, 2 INSTEAD OF (ast::TriggerTime order)
  uint8_t event = 0;  // 0 DELETE, 1 INSERT, 2 UPDATE (ast::TriggerEvent order)
  std::vector<std::string> update_columns;
};

// The objects of one database, owned here, looked up case-insensitively.
// Its system table is sqlite_schema (alias sqlite_master), or for the TEMP
// database sqlite_temp_schema (alias sqlite_temp_master).
class Schema {
 public:
  explicit Schema(bool temp = false);
  Schema(const Schema&) = delete;
  Schema& operator=(const Schema&) = delete;

  Table* FindTable(std::string_view name) const;  // tables and views
  // True if `lower` (a lower-case name) names the system table of a main
  // (temp == false) or TEMP schema.
  static bool IsSystemTableName(std::string_view lower, bool temp);
  Index* FindIndex(std::string_view name) const;
  Trigger* FindTrigger(std::string_view name) const;

  Table* AddTable(std::unique_ptr<Table> t);
  Index* AddIndex(std::unique_ptr<Index> i);        // also links into its table
  Trigger* AddTrigger(std::unique_ptr<Trigger> t);  // links into its table if present
  void RemoveTable(std::string_view name);          // also its indexes and triggers
  void RemoveIndex(std::string_view name);
  void RemoveTrigger(std::string_view name);
  void Clear();

  // The built-in sqlite_schema table (root page 1).
  Table* schema_table() const { return schema_table_; }

  const std::unordered_map<std::string, std::unique_ptr<Table>>& tables() const { return tables_; }
  // Tables, views and the schema table in the order SQLite's hash of names
  // lists them (PRAGMA table_list, foreign_key_check, integrity_check).
  std::vector<const Table*> TablesInSqliteOrder() const;
  const std::unordered_map<std::string, std::unique_ptr<Index>>& indexes() const {
    return indexes_;
  }
  const std::unordered_map<std::string, std::unique_ptr<Trigger>>& triggers() const {
    return triggers_;
  }

  // An estimate of the heap the schema's objects take: each object, its
  // columns and its CREATE text (SQLITE_DBSTATUS_SCHEMA_USED).
  size_t HeapBytes() const;

  // Bumped on every change; compiled statements remember the value they saw.
  uint64_t generation() const { return generation_; }
  void Touch() { ++generation_; }
  uint32_t cookie = 0;  // schema cookie as stored in the database header
  bool is_temp() const { return temp_; }
  // Index of this schema's database in its connection (0 main, 1 temp, 2..
  // attached): P3 of the cursors that open its trees. Kept up to date by the
  // Catalog (DETACH renumbers the databases after the detached one).
  int db_index = 0;

 private:
  std::unordered_map<std::string, std::unique_ptr<Table>> tables_;
  std::unordered_map<std::string, std::unique_ptr<Index>> indexes_;
  std::unordered_map<std::string, std::unique_ptr<Trigger>> triggers_;
  Table* schema_table_ = nullptr;
  uint64_t generation_ = 1;
  HashOrder table_order_;  // tables_ as SQLite's hash would list them
  bool temp_ = false;
};

inline int Table::db() const { return owner != nullptr ? owner->db_index : 0; }

}  // namespace basalt
