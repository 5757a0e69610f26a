// DROP TABLE / VIEW / INDEX / TRIGGER (lang_droptable, lang_dropindex,
// lang_dropview, lang_droptrigger) and REINDEX.
#include "catalog/fkey.h"
#include "exec/codegen.h"
#include "main/ddl.h"
#include "parser/parser.h"
#include "record/collation_set.h"

namespace basalt {

namespace {

// System tables users may not drop.
bool SystemTable(const Table* t) {
  return t->root == 1 || EqualsIgnoreCase(t->name, "sqlite_sequence");
}

}  // namespace

Status DdlExecutor::Drop(ast::DropStmt* st) {
  const Catalog& cat = store_->catalog();
  if (!st->schema.empty() && cat.Find(st->schema) < 0) {
    SetErrorOffset(st->schema);
    return Status(kError, "unknown database " + std::string(st->schema));
  }
  const std::string shown = st->schema.empty()
                                ? std::string(st->name)
                                : std::string(st->schema) + "." + std::string(st->name);
  switch (st->object) {
    case ast::ObjectKind::kTable:
    case ast::ObjectKind::kView:
      return DropTable(st);
    case ast::ObjectKind::kIndex: {
      Index* idx = cat.FindIndex(st->schema, st->name);
      if (idx == nullptr) {
        if (st->if_exists) return Status();
        return Status(kError, "no such index: " + shown);
      }
      if (idx->origin != 'c') {
        return Status(kError,
                      "index associated with UNIQUE or PRIMARY KEY constraint cannot be dropped");
      }
      if (dry_run_) return Status();
      Database* db = store_->at(idx->table->db());
      TRY(db->DropTrees({idx->root}));
      TRY(db->DeleteSchemaRows(idx->name));
      TRY(db->BumpSchemaCookie());
      db->schema.RemoveIndex(idx->name);
      return Status();
    }
    case ast::ObjectKind::kTrigger: {
      Trigger* trig = cat.FindTrigger(st->schema, st->name);
      if (trig == nullptr) {
        if (st->if_exists) return Status();
        return Status(kError, "no such trigger: " + shown);
      }
      if (dry_run_) return Status();
      Database* db = store_->at(trig->owner->db_index);
      TRY(db->DeleteSchemaRows(trig->name));
      TRY(db->BumpSchemaCookie());
      db->schema.RemoveTrigger(trig->name);
      return Status();
    }
  }
  return Status();
}

Status DdlExecutor::DropTable(ast::DropStmt* st) {
  const Catalog& cat = store_->catalog();
  const bool want_view = st->object == ast::ObjectKind::kView;
  Table* t = cat.FindTable(st->schema, st->name);
  if (t == nullptr) {
    if (st->if_exists) return Status();
    std::string shown = st->schema.empty() ? std::string(st->name)
                                           : std::string(st->schema) + "." + std::string(st->name);
    return Status(kError, std::string(want_view ? "no such view: " : "no such table: ") + shown);
  }
  if (SystemTable(t)) return Status(kError, "table " + t->name + " may not be dropped");
  if (t->is_view && !want_view) return Status(kError, "use DROP VIEW to delete view " + t->name);
  if (!t->is_view && want_view) return Status(kError, "use DROP TABLE to delete table " + t->name);
  if (dry_run_) return Status();
  if (options_->foreign_keys && !t->is_view && !t->is_virtual) TRY(DeleteBeforeDrop(t));
  Database* db = store_->at(t->db());
  // TEMP triggers on this table go with it.
  std::vector<const Trigger*> triggers;
  cat.TriggersOn(t, &triggers);
  for (const Trigger* trig : triggers) {
    if (trig->owner == &db->schema) continue;  // removed with the table below
    Database* tdb = store_->at(trig->owner->db_index);
    std::string name = trig->name;
    TRY(tdb->DeleteSchemaRows(name));
    TRY(tdb->BumpSchemaCookie());
    tdb->schema.RemoveTrigger(name);
  }
  if (t->is_virtual) {
    // xDestroy removes the table's storage (connecting first if needed).
    TRY(vtabs_->Connect(t));
    vtabs_->Forget(t->vtab.get());
    TRY(t->vtab->Destroy());
  } else if (!t->is_view) {
    std::vector<uint32_t> roots{t->root};
    for (Index* idx : t->indexes) roots.push_back(idx->root);
    TRY(db->DropTrees(std::move(roots)));
  }
  for (Index* idx : t->indexes) TRY(db->DeleteSchemaRows(idx->name));
  for (Trigger* trig : t->triggers) TRY(db->DeleteSchemaRows(trig->name));
  TRY(db->DeleteSchemaRows(t->name));
  if (t->autoincrement) {
    if (Table* seq = db->schema.FindTable("sqlite_sequence")) {
      TRY(db->DeleteRowsNamed(seq->root, t->name));
    }
  }
  TRY(db->BumpSchemaCookie());
  db->schema.RemoveTable(t->name);
  return Status();
}

// As SQLite: nothing to do for a table no key refers to, unless its own
// deferred keys may have counted violations that its rows' removal undoes.
// The DELETE fires no triggers (foreign key actions do run).
Status DdlExecutor::DeleteBeforeDrop(const Table* t) {
  if (FkReferences(t).empty()) {
    bool deferred = options_->defer_foreign_keys;
    for (const ForeignKeyDef& fk : t->foreign_keys) deferred |= fk.deferred;
    if (!deferred || env_->fk.total() == 0) return Status();
  }
  Arena arena;
  const std::string sql =
      "DELETE FROM " + IdentQuote(store_->at(t->db())->name) + "." + IdentQuote(t->name);
  Parser parser(&arena, arena.CopyString(sql));
  Result<ast::Stmt*> r = parser.ParseStatement();
  if (!r.ok()) return r.status();
  CompileContext ctx;
  InitContext(&ctx, &arena);
  ctx.fk_drop_delete = true;
  ASSIGN_OR_RETURN(std::unique_ptr<Program> prog, CompileStatement(*r, &ctx));
  return Run(prog.get());
}

Status DdlExecutor::Reindex(ast::ReindexStmt* st) {
  const Catalog& cat = store_->catalog();
  if (!st->schema.empty() && cat.Find(st->schema) < 0) {
    SetErrorOffset(st->schema);
    return Status(kError, "unknown database " + std::string(st->schema));
  }
  if (st->name.empty()) return Status();
  const bool found = cat.FindTable(st->schema, st->name) != nullptr ||
                     cat.FindIndex(st->schema, st->name) != nullptr ||
                     (st->schema.empty() && FindCollation(st->name) != nullptr);
  if (!found) return Status(kError, "unable to identify the object to be reindexed");
  // Index keys never go stale in Basalt (collations cannot be redefined
  // under an index), so there is nothing to rebuild.
  return Status();
}

}  // namespace basalt
