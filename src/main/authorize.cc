#include "main/authorize.h"

#include <string>

#include "common/strings.h"

namespace basalt {

namespace {

// One question to the authorizer; string_views are copied to C strings.
class Asker {
 public:
  Asker(const AuthHook& auth) : auth_(auth) {}
  bool Ask(int action, std::string_view a1, std::string_view a2, std::string_view db,
           bool a1_null = false, bool a2_null = false) {
    if (!error_.ok()) return false;
    std::string x(a1), y(a2), d(db);
    Authorize(auth_, action, a1_null ? nullptr : x.c_str(), a2_null ? nullptr : y.c_str(),
              db.empty() ? nullptr : d.c_str(), &error_);
    return error_.ok();
  }
  Status status() const { return error_; }

 private:
  const AuthHook& auth_;
  Status error_;
};

// The database a possibly qualified table name lives in ("" when unknown).
std::string TableDb(const Catalog& cat, std::string_view schema, std::string_view name) {
  const Table* t = cat.FindTable(schema, name);
  if (t != nullptr) return cat.name(t->db());
  return std::string(schema);
}

std::string_view SchemaTable(bool temp) { return temp ? "sqlite_temp_master" : "sqlite_master"; }

// CREATE TABLE / INDEX / VIEW / TRIGGER: the row written into the schema
// table, then the creation itself (SQLite's order).
void AskCreate(Asker* a, const Catalog& cat, const ast::Stmt* st) {
  switch (st->kind) {
    case ast::StmtKind::kCreateTable: {
      auto* c = st->As<ast::CreateTableStmt>();
      bool temp = c->temp || EqualsIgnoreCase(c->schema, "temp");
      std::string db = temp ? "temp" : (c->schema.empty() ? "main" : std::string(c->schema));
      if (a->Ask(kAuthInsert, SchemaTable(temp), "", db, false, true)) {
        a->Ask(temp ? kAuthCreateTempTable : kAuthCreateTable, c->name, "", db, false, true);
      }
      return;
    }
    case ast::StmtKind::kCreateView: {
      auto* c = st->As<ast::CreateViewStmt>();
      bool temp = c->temp || EqualsIgnoreCase(c->schema, "temp");
      std::string db = temp ? "temp" : (c->schema.empty() ? "main" : std::string(c->schema));
      if (a->Ask(kAuthInsert, SchemaTable(temp), "", db, false, true)) {
        a->Ask(temp ? kAuthCreateTempView : kAuthCreateView, c->name, "", db, false, true);
      }
      return;
    }
    case ast::StmtKind::kCreateIndex: {
      auto* c = st->As<ast::CreateIndexStmt>();
      std::string db = TableDb(cat, c->schema, c->table);
      bool temp = db == "temp";
      if (a->Ask(kAuthInsert, SchemaTable(temp), "", db, false, true)) {
        a->Ask(temp ? kAuthCreateTempIndex : kAuthCreateIndex, c->name, c->table, db);
      }
      return;
    }
    case ast::StmtKind::kCreateTrigger: {
      auto* c = st->As<ast::CreateTriggerStmt>();
      bool temp = c->temp || EqualsIgnoreCase(c->schema, "temp");
      std::string db = temp ? "temp" : (c->schema.empty() ? "main" : std::string(c->schema));
      if (a->Ask(temp ? kAuthCreateTempTrigger : kAuthCreateTrigger, c->name, c->table, db)) {
        a->Ask(kAuthInsert, SchemaTable(temp), "", db, false, true);
      }
      return;
    }
    case ast::StmtKind::kCreateVirtualTable: {
      auto* c = st->As<ast::CreateVirtualTableStmt>();
      std::string db = c->schema.empty() ? "main" : std::string(c->schema);
      if (a->Ask(kAuthInsert, SchemaTable(false), "", db, false, true)) {
        a->Ask(kAuthCreateVtable, c->name, c->module, db);
      }
      return;
    }
    default:
      return;
  }
}

void AskDrop(Asker* a, const Catalog& cat, const ast::DropStmt* d) {
  std::string db;
  std::string_view arg2;
  bool temp = false;
  int action = 0;
  switch (d->object) {
    case ast::ObjectKind::kTable:
    case ast::ObjectKind::kView: {
      const Table* t = cat.FindTable(d->schema, d->name);
      if (t == nullptr) return;  // "no such table" comes from compiling
      db = cat.name(t->db());
      temp = t->db() == Catalog::kTemp;
      if (t->is_virtual) {
        action = kAuthDropVtable;
      } else if (t->is_view) {
        action = temp ? kAuthDropTempView : kAuthDropView;
      } else {
        action = temp ? kAuthDropTempTable : kAuthDropTable;
      }
      break;
    }
    case ast::ObjectKind::kIndex: {
      const Index* idx = cat.FindIndex(d->schema, d->name);
      if (idx == nullptr || idx->table == nullptr) return;
      db = cat.name(idx->table->db());
      temp = idx->table->db() == Catalog::kTemp;
      arg2 = idx->table->name;
      action = temp ? kAuthDropTempIndex : kAuthDropIndex;
      break;
    }
    case ast::ObjectKind::kTrigger: {
      const Trigger* tr = cat.FindTrigger(d->schema, d->name);
      if (tr == nullptr || tr->owner == nullptr) return;
      temp = tr->owner->db_index == Catalog::kTemp;
      db = cat.name(tr->owner->db_index);
      arg2 = tr->table_name;
      action = temp ? kAuthDropTempTrigger : kAuthDropTrigger;
      break;
    }
  }
  // SQLite asks about the schema row first, except for triggers.
  if (d->object == ast::ObjectKind::kTrigger) {
    if (a->Ask(action, d->name, arg2, db, false, arg2.empty())) {
      a->Ask(kAuthDelete, SchemaTable(temp), "", db, false, true);
    }
  } else if (a->Ask(kAuthDelete, SchemaTable(temp), "", db, false, true)) {
    a->Ask(action, d->name, arg2, db, false, arg2.empty());
  }
}

}  // namespace

Status AuthorizeStatement(const AuthHook& auth, const Catalog& cat, const ast::Stmt* st) {
  if (auth.fn == nullptr) return Status();
  Asker a(auth);
  switch (st->kind) {
    case ast::StmtKind::kInsert: {
      auto* s = st->As<ast::InsertStmt>();
      a.Ask(kAuthInsert, s->table, "", TableDb(cat, s->schema, s->table), false, true);
      break;
    }
    case ast::StmtKind::kUpdate: {
      auto* s = st->As<ast::UpdateStmt>();
      std::string db = TableDb(cat, s->target->schema, s->target->name);
      for (const ast::ExprItem& item : s->sets->items) {
        if (!a.Ask(kAuthUpdate, s->target->name, item.name, db)) break;
      }
      break;
    }
    case ast::StmtKind::kDelete: {
      auto* s = st->As<ast::DeleteStmt>();
      a.Ask(kAuthDelete, s->target->name, "", TableDb(cat, s->target->schema, s->target->name),
            false, true);
      break;
    }
    case ast::StmtKind::kDrop:
      AskDrop(&a, cat, st->As<ast::DropStmt>());
      break;
    case ast::StmtKind::kAlterTable: {
      auto* s = st->As<ast::AlterTableStmt>();
      a.Ask(kAuthAlterTable, TableDb(cat, s->schema, s->table), s->table, "main");
      break;
    }
    case ast::StmtKind::kBegin:
      a.Ask(kAuthTransaction, "BEGIN", "", "", false, true);
      break;
    case ast::StmtKind::kCommit:
      a.Ask(kAuthTransaction, "COMMIT", "", "", false, true);
      break;
    case ast::StmtKind::kRollback: {
      auto* s = st->As<ast::RollbackStmt>();
      if (s->savepoint.empty()) {
        a.Ask(kAuthTransaction, "ROLLBACK", "", "", false, true);
      } else {
        a.Ask(kAuthSavepoint, "ROLLBACK", s->savepoint, "");
      }
      break;
    }
    case ast::StmtKind::kSavepoint:
      a.Ask(kAuthSavepoint, "BEGIN", st->As<ast::SavepointStmt>()->name, "");
      break;
    case ast::StmtKind::kRelease:
      a.Ask(kAuthSavepoint, "RELEASE", st->As<ast::ReleaseStmt>()->name, "");
      break;
    case ast::StmtKind::kPragma: {
      auto* s = st->As<ast::PragmaStmt>();
      std::string_view value = s->value != nullptr ? s->value->span : std::string_view();
      a.Ask(kAuthPragma, s->name, value, s->schema, false, s->value == nullptr);
      break;
    }
    case ast::StmtKind::kReindex:
      a.Ask(kAuthReindex, st->As<ast::ReindexStmt>()->name, "", "", false, true);
      break;
    case ast::StmtKind::kAnalyze:
      a.Ask(kAuthAnalyze, st->As<ast::AnalyzeStmt>()->name, "", "", false, true);
      break;
    case ast::StmtKind::kAttach: {
      auto* s = st->As<ast::AttachStmt>();
      std::string_view file = s->file != nullptr ? s->file->span : std::string_view();
      a.Ask(kAuthAttach, file, "", "", false, true);
      break;
    }
    case ast::StmtKind::kDetach: {
      auto* s = st->As<ast::DetachStmt>();
      std::string_view name = s->name != nullptr ? s->name->span : std::string_view();
      a.Ask(kAuthDetach, name, "", "", false, true);
      break;
    }
    default:
      AskCreate(&a, cat, st);
      break;
  }
  return a.status();
}

}  // namespace basalt
