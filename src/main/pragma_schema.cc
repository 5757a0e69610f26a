// Pragmas that describe schema objects: table_info, table_xinfo,
// index_list, index_info, index_xinfo, foreign_key_list and table_list.
// Names are looked up as SQLite looks them up: in the named database, or
// unqualified in TEMP, main, then the attached databases; a table that is
// not in any schema may be the eponymous table of a module.
#include <algorithm>

#include "exec/codegen.h"
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

std::string_view PragmaSchemaName(const PragmaCall* call) {
  return call->has_schema() ? std::string_view(call->conn->dbs().at(call->db)->name)
                            : std::string_view();
}

namespace {

std::string_view SchemaName(const PragmaCall* call) { return PragmaSchemaName(call); }

}  // namespace

// A module's eponymous table is found whatever the schema named, as in
// SQLite.
Result<Table*> PragmaLookupTable(PragmaCall* call, std::string_view name) {
  Connection* conn = call->conn;
  Table* t = conn->dbs().catalog().FindTable(SchemaName(call), name);
  if (t == nullptr) {
    Status st;
    t = conn->vtabs().Eponymous(name, &st);
    TRY(st);
  }
  if (t != nullptr && t->is_virtual && t->vtab == nullptr) TRY(conn->vtabs().Connect(t));
  return t;
}

namespace {

// The result columns of view v: names and declared types.
Status ViewColumns(Connection* conn, const Table* v, std::vector<std::string>* names,
                   std::vector<std::string>* types) {
  Arena arena;
  CompileContext ctx;
  conn->InitCompileContext(&ctx, &arena, "");
  std::string q = "SELECT * FROM \"" + conn->dbs().at(v->db())->name + "\".\"" + v->name + "\"";
  ast::Select* sel = ctx.ParseSelect(q);
  if (sel == nullptr) return ctx.error;
  ast::SelectStmt probe;
  probe.select = sel;
  Result<std::unique_ptr<Program>> p = CompileStatement(&probe, &ctx);
  if (!p.ok()) return p.status();
  *names = (*p)->column_names;
  *types = (*p)->column_decltypes;
  types->resize(names->size());
  return Status();
}

// The position (1-based) of column c in t's PRIMARY KEY, 0 if not in it.
int PrimaryKeyPosition(const Table& t, int c) {
  if (!t.columns[static_cast<size_t>(c)].primary_key) return 0;
  for (const Index* idx : t.IndexesInCreationOrder()) {
    if (idx->origin != 'p') continue;
    auto it = std::find(idx->columns.begin(), idx->columns.end(), c);
    if (it != idx->columns.end()) return static_cast<int>(it - idx->columns.begin()) + 1;
  }
  return 1;  // the INTEGER PRIMARY KEY
}

Value TextOrNull(const std::string& s) { return s.empty() ? Value() : Value::Text(s); }

const char* ActionName(uint8_t a) {
  switch (a) {
    case 1:
      return "SET NULL";
    case 2:
      return "SET DEFAULT";
    case 3:
      return "CASCADE";
    case 4:
      return "RESTRICT";
    default:
      return "NO ACTION";
  }
}

std::string CollationName(const Index& idx, size_t i) {
  if (i < idx.collation_names.size() && !idx.collation_names[i].empty()) {
    return idx.collation_names[i];
  }
  const Collation* c = i < idx.collations.size() ? idx.collations[i] : nullptr;
  return c != nullptr ? c->name : "BINARY";
}

}  // namespace

// A view whose columns cannot be worked out fails at prepare, as in SQLite.
Status CheckTableInfo(PragmaCall* call) {
  if (!call->set) return Status();
  Result<Table*> found = PragmaLookupTable(call, call->arg);
  TRY(found.status());
  if (*found == nullptr || !(*found)->is_view) return Status();
  std::vector<std::string> names, types;
  return ViewColumns(call->conn, *found, &names, &types);
}

// table_info skips hidden columns (those of virtual tables) and generated
// columns; table_xinfo shows them with hidden = 1 (hidden), 2 (VIRTUAL) or
// 3 (STORED).
Status RunTableInfo(PragmaCall* call) {
  if (!call->set) return Status();
  const bool extended = std::string_view(call->def->name) == "table_xinfo";
  Result<Table*> found = PragmaLookupTable(call, call->arg);
  TRY(found.status());
  const Table* t = *found;
  if (t == nullptr) return Status();
  if (t->is_view) {
    std::vector<std::string> names, types;
    TRY(ViewColumns(call->conn, t, &names, &types));
    for (size_t i = 0; i < names.size(); ++i) {
      std::vector<Value> row = {Value::Int(static_cast<int64_t>(i)),
                                Value::Text(names[i]),
                                Value::Text(types[i]),
                                Value::Int(0),
                                Value(),
                                Value::Int(0)};
      if (extended) row.push_back(Value::Int(0));
      call->AddRow(std::move(row));
    }
    return Status();
  }
  int cid = 0;
  for (size_t i = 0; i < t->columns.size(); ++i) {
    const Column& c = t->columns[i];
    if ((c.hidden || c.is_generated()) && !extended) continue;
    std::vector<Value> row = {
        Value::Int(cid++),         Value::Text(c.name),
        Value::Text(c.decl_type),  Value::Int(c.not_null ? 1 : 0),
        TextOrNull(c.default_sql), Value::Int(PrimaryKeyPosition(*t, static_cast<int>(i)))};
    if (extended) {
      row.push_back(Value::Int(c.hidden ? 1 : c.is_virtual() ? 2 : c.is_generated() ? 3 : 0));
    }
    call->AddRow(std::move(row));
  }
  return Status();
}

// Newest index first, as SQLite lists a table's indexes.
Status RunIndexList(PragmaCall* call) {
  if (!call->set) return Status();
  Result<Table*> found = PragmaLookupTable(call, call->arg);
  TRY(found.status());
  const Table* t = *found;
  if (t == nullptr) return Status();
  int seq = 0;
  const std::vector<const Index*> all = t->IndexesInCreationOrder();
  for (size_t i = all.size(); i-- > 0;) {
    const Index* idx = all[i];
    const char* origin = idx->origin == 'p' ? "pk" : idx->origin == 'u' ? "u" : "c";
    call->AddRow({Value::Int(seq++), Value::Text(idx->name), Value::Int(idx->unique ? 1 : 0),
                  Value::Text(origin), Value::Int(idx->where_sql.empty() ? 0 : 1)});
  }
  return Status();
}

// index_info: the key columns (cid -2 for an expression); index_xinfo adds
// the rowid at the end and each column's order, collation and key flag.
Status RunIndexInfo(PragmaCall* call) {
  if (!call->set) return Status();
  const bool extended = std::string_view(call->def->name) == "index_xinfo";
  const Catalog& catalog = call->conn->dbs().catalog();
  const Index* idx = catalog.FindIndex(SchemaName(call), call->arg);
  if (idx == nullptr) {
    // A WITHOUT ROWID table's name stands for its primary-key index.
    const Table* t = catalog.FindTable(SchemaName(call), call->arg);
    if (t != nullptr) idx = t->pk_index.get();
  }
  if (idx == nullptr) return Status();
  const size_t keys = idx->columns.size();
  // After the key: the rowid, or a WITHOUT ROWID table's suffix columns.
  const size_t rest = idx->without_rowid() ? idx->suffix.size() : 1;
  for (size_t i = 0; i < keys + (extended ? rest : 0); ++i) {
    const bool key = i < keys;
    const bool stored = key || idx->without_rowid();  // a table column, not the rowid
    const int c = key ? idx->columns[i] : stored ? idx->suffix[i - keys] : kRowidColumn;
    Value name;
    if (c >= 0) name.SetText(idx->table->columns[static_cast<size_t>(c)].name);
    std::vector<Value> row = {Value::Int(static_cast<int64_t>(i)), Value::Int(c), std::move(name)};
    if (extended) {
      const bool desc = stored && i < idx->desc.size() && idx->desc[i] != 0;
      row.push_back(Value::Int(desc ? 1 : 0));
      row.push_back(Value::Text(stored ? CollationName(*idx, i) : std::string("BINARY")));
      row.push_back(Value::Int(key ? 1 : 0));
    }
    call->AddRow(std::move(row));
  }
  return Status();
}

// Foreign keys newest first (id 0 is the last one declared), one row per
// column pair; MATCH is parsed but not kept, as in SQLite ("NONE").
Status RunForeignKeyList(PragmaCall* call) {
  if (!call->set) return Status();
  Result<Table*> found = PragmaLookupTable(call, call->arg);
  TRY(found.status());
  const Table* t = *found;
  if (t == nullptr) return Status();
  int id = 0;
  for (size_t k = t->foreign_keys.size(); k-- > 0; ++id) {
    const ForeignKeyDef& fk = t->foreign_keys[k];
    for (size_t j = 0; j < fk.from_columns.size(); ++j) {
      const std::string& from = t->columns[static_cast<size_t>(fk.from_columns[j])].name;
      Value to;
      if (j < fk.parent_columns.size()) to.SetText(fk.parent_columns[j]);
      call->AddRow({Value::Int(id), Value::Int(static_cast<int64_t>(j)),
                    Value::Text(fk.parent_table), Value::Text(from), std::move(to),
                    Value::Text(ActionName(fk.on_update)), Value::Text(ActionName(fk.on_delete)),
                    Value::Text("NONE")});
    }
  }
  return Status();
}

// Every table and view of each database (or of the named one), with its
// schema table; with an argument only the tables of that name.
Status RunTableList(PragmaCall* call) {
  Connection* conn = call->conn;
  SchemaStore& store = conn->dbs();
  for (int i = 0; i < store.size(); ++i) {
    if (call->has_schema() && i != call->db) continue;
    Database* db = store.at(i);
    // TEMP has its (empty) schema before its first use.
    if (i != Catalog::kTemp) TRY(store.EnsureSchema(i));
    const std::vector<const Table*> tables = db->schema.TablesInSqliteOrder();
    for (const Table* t : tables) {
      const bool is_schema_table = t == db->schema.schema_table();
      const std::string name = is_schema_table
                                   ? (i == Catalog::kTemp ? "sqlite_temp_schema" : "sqlite_schema")
                                   : t->name;
      // A schema table matches its internal name (sqlite_master or
      // sqlite_temp_master), as in SQLite.
      if (call->set && !EqualsIgnoreCase(call->arg, t->name)) {
        continue;
      }
      int64_t ncol = static_cast<int64_t>(t->columns.size());
      if (t->is_view) {
        // A view that no longer compiles counts no columns (no error).
        std::vector<std::string> names, types;
        ncol = ViewColumns(conn, t, &names, &types).ok() ? static_cast<int64_t>(names.size()) : 0;
      }
      const char* type = t->is_view ? "view" : t->is_virtual ? "virtual" : "table";
      call->AddRow({Value::Text(db->name), Value::Text(name), Value::Text(type), Value::Int(ncol),
                    Value::Int(t->without_rowid ? 1 : 0), Value::Int(t->strict ? 1 : 0)});
    }
  }
  return Status();
}

}  // namespace basalt
