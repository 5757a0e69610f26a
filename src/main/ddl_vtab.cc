// CREATE VIRTUAL TABLE (lang_createvtab): the module's xCreate builds the
// table's storage and declares its columns; sqlite_schema records the
// statement (root page 0), and later connections reconnect with xConnect.
#include "main/ddl.h"

namespace basalt {

Status DdlExecutor::CreateVirtualTable(ast::CreateVirtualTableStmt* st) {
  int dbi = 0;
  TRY(TargetDb(st->schema, false, "table", &dbi));
  TRY(store_->EnsureSchema(dbi));
  Database* db = store_->at(dbi);
  bool exists = false;
  TRY(CheckNameFree(db, st->name, st->if_not_exists, &exists, st->body_text));
  if (exists) return Status();
  VtabModule* m = vtabs_->modules().Find(st->module);
  if (m == nullptr || m->eponymous_only()) {
    return Status(kError, "no such module: " + std::string(st->module));
  }
  if (dry_run_) return Status();
  std::unique_ptr<Table> t;
  TRY(vtabs_->Create(st, db->name, &t));
  Status s = db->InsertSchemaRow("table", t->name, t->name, 0, t->sql);
  if (s.ok()) s = db->BumpSchemaCookie();
  if (!s.ok()) {
    (void)t->vtab->Destroy();
    return s;
  }
  db->schema.AddTable(std::move(t));
  return Status();
}

}  // namespace basalt
