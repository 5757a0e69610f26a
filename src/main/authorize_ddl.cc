// The authorizer questions of CREATE and DROP, in SQLite's order. Besides
// the statement's own action (SQLITE_CREATE_TABLE, SQLITE_DROP_INDEX, ...)
// SQLite asks about what it does to carry it out, because it does that by
// running statements of its own on the schema table:
//   CREATE TABLE  INSERT sqlite_master; CREATE_TABLE t; per automatic index
//                 (PRIMARY KEY / UNIQUE, in the order written): INSERT
//                 sqlite_master, CREATE_INDEX sqlite_autoindex_t_N, READ of
//                 each indexed column, INSERT sqlite_master (left out when an
//                 earlier automatic index has the same columns); READ of the
//                 columns in CHECK constraints, then in generated columns;
//                 then the UPDATE of the new sqlite_master row (type, name,
//                 tbl_name, rootpage, sql) and a READ of its ROWID.
//   CREATE VIEW   INSERT sqlite_master; CREATE_VIEW v; the row UPDATE.
//   CREATE INDEX  INSERT sqlite_master; CREATE_INDEX i; READ of the columns
//                 of its WHERE, then of its terms; INSERT sqlite_master;
//                 REINDEX i.
//   CREATE TRIGGER  CREATE_TRIGGER; INSERT into the schema table of the
//                 trigger's table's database, then of the trigger's own.
//   DROP ...      DELETE sqlite_master; DROP_* x; then (tables and views)
//                 DELETE x and each trigger dropped with it; the DELETE of
//                 the schema rows (READs of name/tbl_name and type) and, per
//                 B-tree freed, the UPDATE / READ of rootpage SQLite uses to
//                 renumber root pages.
// The schema table is that of the object's database (sqlite_temp_master
// for TEMP).
#include <strings.h>

#include <set>
#include <string>
#include <vector>

#include "common/strings.h"
#include "main/authorize_asker.h"

namespace basalt {

namespace {

bool SameName(std::string_view a, std::string_view b) {
  return a.size() == b.size() && strncasecmp(a.data(), b.data(), a.size()) == 0;
}

// The target of a CREATE statement: its database name and whether TEMP.
struct Target {
  std::string db;
  bool temp = false;
};

Target CreateTarget(bool temp, std::string_view schema) {
  temp = temp || EqualsIgnoreCase(schema, "temp");
  return {temp ? "temp" : (schema.empty() ? "main" : std::string(schema)), temp};
}

// A question about the statement's own action: IGNORE makes the whole
// statement a no-op (SQLite jumps to its exit without an error).
bool AskHead(Asker* a, int action, std::string_view a1, std::string_view a2, std::string_view db,
             bool a1_null = false, bool a2_null = false) {
  if (!a->Ask(action, a1, a2, db, a1_null, a2_null)) return false;
  a->noop = a->last() == AuthResult::kIgnore;
  return !a->noop;
}

// UPDATE of the schema row just inserted (SQLite fills it in at the end).
bool AskRowUpdate(Asker* a, const Target& t) {
  std::string_view st = AuthSchemaTable(t.temp);
  for (const char* col : {"type", "name", "tbl_name", "rootpage", "sql"}) {
    if (!a->Ask(kAuthUpdate, st, col, t.db)) return false;
  }
  return a->Ask(kAuthRead, st, "ROWID", t.db);
}

// READ questions for the column references in `e`, in SQLite's walk order
// (an operand before the next, left before right). `column_name` maps a
// name to the table's spelling of it ("" when it is not a column).
template <typename NameOf>
bool AskReads(Asker* a, const ast::Expr* e, std::string_view table, std::string_view db,
              const NameOf& column_name) {
  if (e == nullptr) return true;
  if (e->kind == ast::ExprKind::kColumn && (e->table.empty() || SameName(e->table, table))) {
    std::string name = column_name(e->text);
    if (!name.empty() && !a->Ask(kAuthRead, table, name, db)) return false;
  }
  if (!AskReads(a, e->left, table, db, column_name)) return false;
  if (!AskReads(a, e->right, table, db, column_name)) return false;
  if (e->list != nullptr) {
    for (const ast::ExprItem& item : e->list->items) {
      if (!AskReads(a, item.expr, table, db, column_name)) return false;
    }
  }
  return true;
}

bool IsIntegerType(std::string_view type) { return EqualsIgnoreCase(type, "INTEGER"); }

// The automatic indexes and CHECK / generated-column reads of a new table.
void AskCreateTableBody(Asker* a, const ast::CreateTableStmt* c, const Target& t) {
  auto column_name = [&](std::string_view n) -> std::string {
    for (const ast::ColumnDef* col : c->columns) {
      if (SameName(col->name, n)) return std::string(col->name);
    }
    return std::string();
  };
  std::string_view st = AuthSchemaTable(t.temp);
  std::vector<std::vector<std::string>> made;
  auto index = [&](std::vector<std::string> cols) {
    std::string name =
        "sqlite_autoindex_" + std::string(c->name) + "_" + std::to_string(made.size() + 1);
    if (!a->Ask(kAuthInsert, st, "", t.db, false, true) ||
        !a->Ask(t.temp ? kAuthCreateTempIndex : kAuthCreateIndex, name, c->name, t.db)) {
      return false;
    }
    for (const std::string& col : cols) {
      if (!a->Ask(kAuthRead, c->name, col, t.db)) return false;
    }
    bool repeated = false;
    for (const auto& m : made) {
      repeated = repeated || (m.size() == cols.size() &&
                              std::equal(m.begin(), m.end(), cols.begin(), SameName));
    }
    made.push_back(std::move(cols));
    return repeated || a->Ask(kAuthInsert, st, "", t.db, false, true);
  };
  std::vector<const ast::Expr*> checks, generated;
  for (const ast::ColumnDef* col : c->columns) {
    for (const ast::ColumnConstraint* k : col->constraints) {
      if (k->kind == ast::ConstraintKind::kPrimaryKey) {
        // INTEGER PRIMARY KEY (not DESC) of a rowid table is the rowid.
        bool rowid =
            !c->without_rowid && IsIntegerType(col->type) && k->order != ast::SortOrder::kDesc;
        if (!rowid && !index({std::string(col->name)})) return;
      } else if (k->kind == ast::ConstraintKind::kUnique) {
        if (!index({std::string(col->name)})) return;
      } else if (k->kind == ast::ConstraintKind::kCheck) {
        checks.push_back(k->expr);
      } else if (k->kind == ast::ConstraintKind::kGenerated) {
        generated.push_back(k->expr);
      }
    }
  }
  for (const ast::TableConstraint* k : c->constraints) {
    if (k->kind == ast::ConstraintKind::kCheck) {
      checks.push_back(k->check);
      continue;
    }
    if (k->kind != ast::ConstraintKind::kPrimaryKey && k->kind != ast::ConstraintKind::kUnique) {
      continue;
    }
    std::vector<std::string> cols;
    for (const ast::ExprItem& item : k->columns->items) {
      const ast::Expr* e = item.expr;
      while (e != nullptr && e->kind == ast::ExprKind::kCollate) e = e->left;
      std::string n = e != nullptr ? column_name(e->text) : std::string();
      cols.push_back(n.empty() && e != nullptr ? std::string(e->text) : n);
    }
    if (k->kind == ast::ConstraintKind::kPrimaryKey && !c->without_rowid && cols.size() == 1) {
      const ast::ColumnDef* col = nullptr;
      for (const ast::ColumnDef* d : c->columns) {
        if (SameName(d->name, cols[0])) col = d;
      }
      if (col != nullptr && IsIntegerType(col->type)) continue;  // the rowid
    }
    if (!index(std::move(cols))) return;
  }
  for (const auto* list : {&checks, &generated}) {
    for (const ast::Expr* e : *list) {
      if (!AskReads(a, e, c->name, t.db, column_name)) return;
    }
  }
}

void AskCreateIndexBody(Asker* a, const Catalog& cat, const ast::CreateIndexStmt* c,
                        const std::string& db, bool temp) {
  const Table* tab = cat.FindTable(db, c->table);
  if (tab == nullptr) return;
  auto column_name = [&](std::string_view n) -> std::string {
    for (const Column& col : tab->columns) {
      if (SameName(col.name, n)) return col.name;
    }
    return std::string();
  };
  if (!AskReads(a, c->where, tab->name, db, column_name)) return;
  for (const ast::ExprItem& item : c->columns->items) {
    if (!AskReads(a, item.expr, tab->name, db, column_name)) return;
  }
  if (a->Ask(kAuthInsert, AuthSchemaTable(temp), "", db, false, true)) {
    a->Ask(kAuthReindex, c->name, "", db, false, true);
  }
}

}  // namespace

void AuthorizeCreate(Asker* a, const Catalog& cat, const ast::Stmt* st) {
  switch (st->kind) {
    case ast::StmtKind::kCreateTable: {
      auto* c = st->As<ast::CreateTableStmt>();
      Target t = CreateTarget(c->temp, c->schema);
      // The first two questions follow the TEMP keyword, not the database
      // (CREATE TABLE temp.x asks about sqlite_master and CREATE_TABLE).
      if (!AskHead(a, kAuthInsert, AuthSchemaTable(c->temp), "", t.db, false, true) ||
          !AskHead(a, c->temp ? kAuthCreateTempTable : kAuthCreateTable, c->name, "", t.db, false,
                   true)) {
        return;
      }
      if (c->if_not_exists && cat.FindTable(t.db, c->name) != nullptr) return;
      // CREATE TABLE ... AS SELECT: the query's reads come first, then
      // the row update (DdlExecutor::CreateTableAs).
      if (c->as_select != nullptr) return;
      AskCreateTableBody(a, c, t);
      AskRowUpdate(a, t);
      return;
    }
    case ast::StmtKind::kCreateView: {
      auto* c = st->As<ast::CreateViewStmt>();
      Target t = CreateTarget(c->temp, c->schema);
      if (!AskHead(a, kAuthInsert, AuthSchemaTable(c->temp), "", t.db, false, true) ||
          !AskHead(a, c->temp ? kAuthCreateTempView : kAuthCreateView, c->name, "", t.db, false,
                   true)) {
        return;
      }
      if (c->if_not_exists && cat.FindTable(t.db, c->name) != nullptr) return;
      AskRowUpdate(a, t);
      return;
    }
    case ast::StmtKind::kCreateIndex: {
      auto* c = st->As<ast::CreateIndexStmt>();
      std::string db = AuthTableDb(cat, c->schema, c->table);
      bool temp = db == "temp";
      if (!a->Ask(kAuthInsert, AuthSchemaTable(temp), "", db, false, true) ||
          !a->Ask(temp ? kAuthCreateTempIndex : kAuthCreateIndex, c->name, c->table, db)) {
        return;
      }
      if (c->if_not_exists && cat.FindIndex(db, c->name) != nullptr) return;
      AskCreateIndexBody(a, cat, c, db, temp);
      return;
    }
    case ast::StmtKind::kCreateTrigger: {
      auto* c = st->As<ast::CreateTriggerStmt>();
      Target t = CreateTarget(c->temp, c->schema);
      std::string table_db = AuthTableDb(cat, c->temp ? std::string_view() : c->schema, c->table);
      if (table_db.empty()) table_db = t.db;
      if (a->Ask(t.temp ? kAuthCreateTempTrigger : kAuthCreateTrigger, c->name, c->table, t.db) &&
          a->Ask(kAuthInsert, AuthSchemaTable(table_db == "temp"), "", table_db, false, true)) {
        a->Ask(kAuthInsert, AuthSchemaTable(t.temp), "", t.db, false, true);
      }
      return;
    }
    case ast::StmtKind::kCreateVirtualTable: {
      auto* c = st->As<ast::CreateVirtualTableStmt>();
      std::string db = c->schema.empty() ? "main" : std::string(c->schema);
      // Then the UPDATE of the new schema row, compiled with the statement
      // (the module's xCreate runs later, when it executes).
      // IF NOT EXISTS on an existing table stops after the first question.
      if (!AskHead(a, kAuthInsert, AuthSchemaTable(false), "", db, false, true) ||
          (c->if_not_exists && cat.FindTable(db, c->name) != nullptr)) {
        return;
      }
      if (AskHead(a, kAuthCreateVtable, c->name, c->module, db)) {
        AskRowUpdate(a, Target{db, EqualsIgnoreCase(db, "temp")});
      }
      return;
    }
    default:
      return;
  }
}

namespace {

// The DELETE of schema rows SQLite runs for a DROP: its WHERE reads
// `key` (name or tbl_name) and type.
bool AskSchemaDelete(Asker* a, bool temp, std::string_view db, const char* key) {
  std::string_view st = AuthSchemaTable(temp);
  return a->Ask(kAuthDelete, st, "", db, false, true) && a->Ask(kAuthRead, st, key, db) &&
         a->Ask(kAuthRead, st, "type", db);
}

// Per B-tree freed, the root-page renumbering UPDATE SQLite prepares.
bool AskRootMoves(Asker* a, bool temp, std::string_view db, size_t btrees) {
  std::string_view st = AuthSchemaTable(temp);
  for (size_t i = 0; i < btrees; ++i) {
    if (!a->Ask(kAuthUpdate, st, "rootpage", db) || !a->Ask(kAuthRead, st, "rootpage", db)) {
      return false;
    }
  }
  return true;
}

// DROP_TRIGGER for one trigger, then the deletion of its schema row.
bool AskTriggerDrop(Asker* a, const Catalog& cat, const Trigger* tr) {
  bool temp = tr->owner->db_index == Catalog::kTemp;
  std::string db = cat.name(tr->owner->db_index);
  return a->Ask(temp ? kAuthDropTempTrigger : kAuthDropTrigger, tr->name, tr->table_name, db) &&
         a->Ask(kAuthDelete, AuthSchemaTable(temp), "", db, false, true) &&
         AskSchemaDelete(a, temp, db, "name");
}

// After DROP TABLE / VIEW t was allowed: its rows, its triggers (TEMP ones
// on a non-TEMP table first, then its own newest first), its schema rows
// and its B-trees.
void AskTableDropBody(Asker* a, const Catalog& cat, const Table* t, const std::string& db,
                      bool temp) {
  if (!a->Ask(kAuthDelete, t->name, "", db, false, true)) return;
  if (t->is_virtual) {
    AskSchemaDelete(a, temp, db, "tbl_name");
    return;
  }
  if (!t->is_view) {
    std::vector<const Trigger*> on;
    cat.TriggersOn(t, &on);
    for (const Trigger* tr : on) {
      if (tr->owner->db_index != t->db() && !AskTriggerDrop(a, cat, tr)) return;
    }
    for (auto it = on.rbegin(); it != on.rend(); ++it) {
      if ((*it)->owner->db_index == t->db() && !AskTriggerDrop(a, cat, *it)) return;
    }
  }
  if (!AskSchemaDelete(a, temp, db, "tbl_name") || t->is_view) return;
  std::set<uint32_t> roots = {t->root};
  for (const Index* idx : t->indexes) roots.insert(idx->root);
  AskRootMoves(a, temp, db, roots.size());
}

}  // namespace

void AuthorizeDrop(Asker* a, const Catalog& cat, const ast::DropStmt* d) {
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
        arg2 = t->module;
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
    if (a->Ask(action, d->name, arg2, db, false, arg2.empty()) &&
        a->Ask(kAuthDelete, AuthSchemaTable(temp), "", db, false, true)) {
      AskSchemaDelete(a, temp, db, "name");
    }
    return;
  }
  if (!a->Ask(kAuthDelete, AuthSchemaTable(temp), "", db, false, true) ||
      !a->Ask(action, d->name, arg2, db, false, arg2.empty())) {
    return;
  }
  if (d->object == ast::ObjectKind::kIndex) {
    if (AskSchemaDelete(a, temp, db, "name")) AskRootMoves(a, temp, db, 1);
    return;
  }
  AskTableDropBody(a, cat, cat.FindTable(d->schema, d->name), db, temp);
}

Status AuthorizeSchemaRowUpdate(const AuthHook& auth, const Catalog& cat, bool temp,
                                std::string_view db) {
  if (auth.fn == nullptr) return Status();
  Asker a(auth, cat);
  AskRowUpdate(&a, Target{std::string(db), temp});
  return a.status();
}

}  // namespace basalt
