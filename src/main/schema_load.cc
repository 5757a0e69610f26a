// Reading a database's schema from its sqlite_schema table, with the checks
// SQLite makes on each row ("malformed database schema (name)").
#include <cstdint>

#include "main/database.h"
#include "main/schema_build.h"
#include "main/vtab_manager.h"
#include "parser/parser.h"
#include "record/record.h"

namespace basalt {

namespace {

// The newest schema format (header offset 44) this code reads.
constexpr uint32_t kMaxSchemaFormat = 4;

// SQLite's error for a sqlite_schema row that cannot be used.
Status MalformedSchema(std::string_view name, std::string_view why = {}) {
  std::string msg = "malformed database schema (" + std::string(name) + ")";
  if (!why.empty()) msg += " - " + std::string(why);
  return Status(kCorrupt, msg);
}

// True for the text of a CREATE VIRTUAL TABLE statement.
bool IsVirtualTableSql(std::string_view sql) {
  size_t i = 0;
  int word = 0;
  static const char* const kWords[] = {"create", "virtual"};
  while (word < 2) {
    while (i < sql.size() &&
           (sql[i] == ' ' || sql[i] == '\t' || sql[i] == '\n' || sql[i] == '\r')) {
      ++i;
    }
    const std::string_view w = kWords[word];
    if (sql.size() - i < w.size() || !EqualsIgnoreCase(sql.substr(i, w.size()), w)) return false;
    i += w.size();
    ++word;
  }
  return true;
}

// One row of sqlite_schema as stored.
struct SchemaRow {
  std::string type, name, tbl;
  int64_t root = 0;  // -1: not an integer
  std::string sql;
  bool has_sql = false;
};

// The header fields that go with the schema: default cache size, schema
// cookie and format. Called inside a read transaction.
Status ReadSchemaHeader(Database& db) {
  Btree* bt = db.bt.get();
  // The cache size stored by PRAGMA default_cache_size applies when the
  // schema is first read, as in SQLite (0: the built-in -2000).
  uint32_t stored_cache = 0;
  (void)bt->GetMeta(Meta::kDefaultCacheSize, &stored_cache);
  if (!db.schema_loaded && !db.schema.is_temp()) {
    const int32_t size = static_cast<int32_t>(stored_cache);
    db.cache_size = size == 0 ? -2000 : size == INT32_MIN ? INT32_MAX : size < 0 ? -size : size;
    bt->pager()->SetCacheSize(db.cache_size);
  }
  uint32_t cookie = 0;
  (void)bt->GetMeta(Meta::kSchemaCookie, &cookie);
  db.schema.cookie = cookie;
  uint32_t format = 0;
  (void)bt->GetMeta(Meta::kSchemaFormat, &format);
  // Only the low byte counts, as in SQLite.
  if ((format & 0xff) > kMaxSchemaFormat) return Status(kError, "unsupported file format");
  return Status();
}

// Reads every row of sqlite_schema, and the header fields that go with the
// schema: text encoding, default cache size, schema cookie and format.
Status ReadSchemaRows(Database& db, std::vector<SchemaRow>* rows) {
  Btree* bt = db.bt.get();
  bool began = false;
  if (!bt->in_transaction()) {
    TRY(bt->BeginTransaction(false));
    began = true;
  }
  uint32_t enc = 0;
  (void)bt->GetMeta(Meta::kTextEncoding, &enc);
  // As SQLite reads the field: its low two bits, 0 meaning UTF-8.
  if ((enc & 3) == 0) enc = kUtf8;
  db.SetTextEncoding(static_cast<uint8_t>(enc & 3));
  BtCursor cur;
  Status st = bt->OpenCursor(1, false, &cur);
  if (st.ok()) st = cur.First();
  std::string buf;
  while (st.ok() && !cur.eof()) {
    Value v[5];
    int nf = 0;
    st = db.ReadSchemaFields(&cur, &buf, v, 5, &nf);
    if (!st.ok()) break;
    if (nf < 5) {
      st = CORRUPT();
      break;
    }
    SchemaRow row;
    row.type = std::string(v[0].is_text() ? v[0].text() : "");
    row.name = std::string(v[1].is_text() ? v[1].text() : "");
    row.tbl = std::string(v[2].is_text() ? v[2].text() : "");
    row.root = v[3].is_int() ? v[3].int_value() : -1;
    row.has_sql = v[4].is_text();
    if (row.has_sql) row.sql = std::string(v[4].text());
    rows->push_back(std::move(row));
    st = cur.Next();
  }
  cur.Close();
  // The header fields are read inside the same read transaction (outside
  // one, each read would take and drop the lock again).
  if (st.ok()) st = ReadSchemaHeader(db);
  if (began) (void)bt->Commit();
  return st;
}

}  // namespace

Status Database::LoadSchema() {
  // Connected virtual tables outlive a reload when the same table (name,
  // module, arguments) comes back: one may have joined the open
  // transaction (VtabManager keeps a pointer to it until commit).
  std::vector<std::unique_ptr<Table>> kept_vtabs;
  for (auto& [key, t] : schema.tables()) {
    if (t->is_virtual && t->vtab != nullptr) {
      auto keep = std::make_unique<Table>();
      keep->name = t->name;
      keep->module = t->module;
      keep->module_args = t->module_args;
      keep->columns = t->columns;
      keep->vtab = std::move(t->vtab);
      kept_vtabs.push_back(std::move(keep));
    }
  }
  Status st = LoadSchemaRows();
  for (auto& keep : kept_vtabs) {
    Table* t = schema.FindTable(keep->name);
    if (t != nullptr && t->is_virtual && t->vtab == nullptr && t->module == keep->module &&
        t->module_args == keep->module_args) {
      t->vtab = std::move(keep->vtab);
      t->columns = std::move(keep->columns);
      t->rowid_alias = -1;
    }
  }
  return st;
}

Status Database::LoadSchemaRows() {
  schema.Clear();
  if (bt->page_count() == 0) return Status();
  std::vector<SchemaRow> rows;
  TRY(ReadSchemaRows(*this, &rows));
  // Each row is checked as SQLite does; a row that does not hold up makes
  // the whole schema unusable ("malformed database schema (name)").
  const int64_t page_count = bt->page_count();
  for (const SchemaRow& row : rows) {
    if (row.has_sql && (row.root < 0 || row.root > page_count)) {
      return MalformedSchema(row.name, "invalid rootpage");
    }
  }
  Arena arena;
  auto parse = [&arena](const SchemaRow& row, ast::StmtKind kind, ast::Stmt** out) -> Status {
    Parser p(&arena, arena.CopyString(row.sql));
    Result<ast::Stmt*> r = p.ParseStatement();
    if (!r.ok()) return MalformedSchema(row.name, r.status().message());
    if (*r == nullptr || (*r)->kind != kind) return MalformedSchema(row.name);
    *out = *r;
    return Status();
  };
  // Tables, indexes and views share one namespace; a name used twice (or
  // not the one the row gives) is damage.
  auto taken = [this](std::string_view n) {
    return schema.FindTable(n) != nullptr || schema.FindIndex(n) != nullptr;
  };
  std::vector<std::unique_ptr<Index>> pending_auto;
  // Tables and views in row order: the order SQLite's hash of names lists
  // them depends on it (PRAGMA table_list).
  for (const SchemaRow& row : rows) {
    if ((row.type != "table" && row.type != "view") || !row.has_sql) continue;
    ast::Stmt* s = nullptr;
    if (row.type == "view") {
      TRY(parse(row, ast::StmtKind::kCreateView, &s));
      std::unique_ptr<Table> view = BuildView(s->As<ast::CreateViewStmt>(), row.sql);
      if (!EqualsIgnoreCase(view->name, row.name) || taken(row.name)) {
        return MalformedSchema(row.name);
      }
      schema.AddTable(std::move(view));
      continue;
    }
    if (IsVirtualTableSql(row.sql)) {
      // A virtual table: connected (xConnect) at its first use.
      TRY(parse(row, ast::StmtKind::kCreateVirtualTable, &s));
      std::unique_ptr<Table> vt;
      TRY(VtabManager::TableFromSchemaRow(s->As<ast::CreateVirtualTableStmt>(), row.sql, &vt));
      if (!EqualsIgnoreCase(vt->name, row.name) || taken(row.name) || row.root != 0) {
        return MalformedSchema(row.name);
      }
      schema.AddTable(std::move(vt));
      continue;
    }
    TRY(parse(row, ast::StmtKind::kCreateTable, &s));
    BuiltTable built;
    Status st = BuildTable(s->As<ast::CreateTableStmt>(), row.sql, &built);
    if (!st.ok()) return MalformedSchema(row.name, st.message());
    if (!EqualsIgnoreCase(built.table->name, row.name) || taken(row.name) || row.root < 2) {
      return MalformedSchema(row.name);
    }
    built.table->SetRoot(static_cast<uint32_t>(row.root));
    schema.AddTable(std::move(built.table));
    for (auto& idx : built.auto_indexes) pending_auto.push_back(std::move(idx));
  }
  for (auto& idx : pending_auto) {
    for (const SchemaRow& row : rows) {
      if (row.type == "index" && EqualsIgnoreCase(row.name, idx->name)) {
        idx->root = static_cast<uint32_t>(row.root);
      }
    }
    if (taken(idx->name)) return MalformedSchema(idx->name);
    schema.AddIndex(std::move(idx));
  }
  for (const SchemaRow& row : rows) {
    if (!row.has_sql || row.type == "table" || row.type == "view" || row.type == "trigger") {
      continue;
    }
    ast::Stmt* s = nullptr;
    if (row.type == "index") {
      TRY(parse(row, ast::StmtKind::kCreateIndex, &s));
      auto* ci = s->As<ast::CreateIndexStmt>();
      Table* t = schema.FindTable(ci->table);
      if (t == nullptr)
        return MalformedSchema(row.name, "no such table: " + name + "." + std::string(ci->table));
      std::unique_ptr<Index> idx;
      Status st = ::basalt::BuildIndex(ci, t, row.sql, &idx);
      if (!st.ok()) return MalformedSchema(row.name, st.message());
      if (!EqualsIgnoreCase(idx->name, row.name) || taken(row.name))
        return MalformedSchema(row.name);
      idx->root = static_cast<uint32_t>(row.root);
      schema.AddIndex(std::move(idx));
    } else {
      return MalformedSchema(row.name);
    }
  }
  for (const SchemaRow& row : rows) {
    if (row.type != "trigger" || !row.has_sql) continue;
    ast::Stmt* s = nullptr;
    TRY(parse(row, ast::StmtKind::kCreateTrigger, &s));
    std::unique_ptr<Trigger> trig =
        BuildTrigger(s->As<ast::CreateTriggerStmt>(), row.sql, schema.is_temp());
    if (!EqualsIgnoreCase(trig->name, row.name) || schema.FindTrigger(row.name) != nullptr) {
      return MalformedSchema(row.name);
    }
    schema.AddTrigger(std::move(trig));
  }
  schema.Touch();
  return Status();
}

}  // namespace basalt
