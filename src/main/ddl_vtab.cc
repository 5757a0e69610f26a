// CREATE VIRTUAL TABLE (lang_createvtab): the module's xCreate builds the
// table's storage and declares its columns; sqlite_schema records the
// statement (root page 0) first, and later connections reconnect with xConnect.
#include "main/ddl.h"

namespace basalt {

Status DdlExecutor::CreateVirtualTable(ast::CreateVirtualTableStmt* st) {
  int dbi = 0;
  TRY(TargetDb(st->schema, false, "table", &dbi));
  TRY(store_->EnsureSchema(dbi));
  Database* db = store_->at(dbi);
  bool exists = false;
  TRY(CheckNameFree(db, st->name, st->name_text, st->if_not_exists, &exists, st->body_text));
  if (exists) return Status();
  VtabModule* m = vtabs_->modules().Find(st->module);
  if (m == nullptr || m->eponymous_only()) {
    return Status(kError, "no such module: " + std::string(st->module));
  }
  if (dry_run_) return Status();
  // As in SQLite, the schema row goes in before xCreate runs, so shadow
  // tables the module creates follow it in sqlite_schema.
  const std::string sql = "CREATE VIRTUAL TABLE " + std::string(st->body_text);
  TRY(db->InsertSchemaRow("table", st->name, st->name, 0, sql));
  std::unique_ptr<Table> t;
  Status s = vtabs_->Create(st, db->name, &t);
  if (!s.ok()) {
    (void)db->DeleteSchemaRows(st->name);
    return s;
  }
  s = db->BumpSchemaCookie();
  if (!s.ok()) {
    (void)t->vtab->Destroy();
    return s;
  }
  Vtab* vt = t->vtab.get();
  db->schema.AddTable(std::move(t));
  vtabs_->Adopt(vt);
  return Status();
}

}  // namespace basalt
