// The fts5 module's sqlite3_module methods: create/connect (shadow
// tables), best-index and filter (the query plans), reading rows, writes
// and commands through xUpdate, transactions, rename and drop.
#include <algorithm>
#include <cstring>

#include "ext/fts5/cursor.h"
#include "ext/fts5/module.h"

namespace basalt::fts5 {
namespace {

Table* Tab(sqlite3_vtab* v) { return reinterpret_cast<Table*>(v); }
Cursor* Cur(sqlite3_vtab_cursor* c) { return reinterpret_cast<Cursor*>(c); }

int CreateOrConnect(sqlite3* db, void* aux, int argc, const char* const* argv, bool create,
                    sqlite3_vtab** out, char** err_out) {
  auto* g = static_cast<Global*>(aux);
  auto t = std::make_unique<Table>();
  std::string err;
  int rc = ParseConfig(db, g, argc, argv, &t->cfg, &err);
  t->index = std::make_unique<Index>(&t->cfg);
  const Config& c = t->cfg;
  if (rc == SQLITE_OK && create) {
    std::string sql = "CREATE TABLE " + c.Shadow("_data") +
                      "(id INTEGER PRIMARY KEY, block BLOB);CREATE TABLE " + c.Shadow("_idx") +
                      "(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;";
    if (c.content == Content::kNormal) {
      sql += "CREATE TABLE " + c.Shadow("_content") + "(id INTEGER PRIMARY KEY";
      for (int i = 0; i < c.ncol(); ++i) sql += ", c" + std::to_string(i);
      sql += ");";
    }
    if (c.columnsize) {
      sql += "CREATE TABLE " + c.Shadow("_docsize") + "(id INTEGER PRIMARY KEY, sz BLOB);";
    }
    sql += "CREATE TABLE " + c.Shadow("_config") + "(k PRIMARY KEY, v) WITHOUT ROWID;";
    rc = ExecSql(db, sql, &err);
    if (rc == SQLITE_OK) rc = t->index->Reinit();
    if (rc == SQLITE_OK) rc = t->ConfigValue("version", nullptr, kFileFormatVersion);
  }
  if (rc == SQLITE_OK) {
    std::string decl = "CREATE TABLE x(";
    for (const std::string& col : c.cols) decl += QuoteIdent(col) + ", ";
    decl += QuoteIdent(c.name) + " HIDDEN, rank HIDDEN)";
    rc = sqlite3_declare_vtab(db, decl.c_str());
  }
  if (rc == SQLITE_OK) rc = t->cfg.Load(&err);
  if (rc != SQLITE_OK) {
    if (!err.empty()) *err_out = sqlite3_mprintf("%s", err.c_str());
    return rc;
  }
  g->tables[TableKey(t->cfg.schema, t->cfg.name)] = t.get();
  *out = &t.release()->base;
  return SQLITE_OK;
}

int XCreate(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
            char** err) {
  return CreateOrConnect(db, aux, argc, argv, true, out, err);
}
int XConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
             char** err) {
  return CreateOrConnect(db, aux, argc, argv, false, out, err);
}
void Forget(Table* t) {
  auto& m = t->cfg.global->tables;
  auto it = m.find(TableKey(t->cfg.schema, t->cfg.name));
  if (it != m.end() && it->second == t) m.erase(it);
}

int XDisconnect(sqlite3_vtab* v) {
  Forget(Tab(v));
  delete Tab(v);
  return SQLITE_OK;
}
int XDestroy(sqlite3_vtab* v) {
  Table* t = Tab(v);
  t->ResetStatements();
  std::string sql = "DROP TABLE IF EXISTS " + t->cfg.Shadow("_data") + ";DROP TABLE IF EXISTS " +
                    t->cfg.Shadow("_idx") + ";DROP TABLE IF EXISTS " + t->cfg.Shadow("_config") +
                    ";";
  if (t->cfg.columnsize) sql += "DROP TABLE IF EXISTS " + t->cfg.Shadow("_docsize") + ";";
  if (t->cfg.content == Content::kNormal) {
    sql += "DROP TABLE IF EXISTS " + t->cfg.Shadow("_content") + ";";
  }
  int rc = ExecSql(t->cfg.db, sql, nullptr);
  if (rc == SQLITE_OK) {
    Forget(t);
    delete t;
  }
  return rc;
}

int XOpen(sqlite3_vtab* v, sqlite3_vtab_cursor** out) {
  auto* c = new Cursor();
  c->tab = Tab(v);
  RegisterCursor(c->tab->cfg.global, c);
  *out = &c->base;
  return SQLITE_OK;
}
int XClose(sqlite3_vtab_cursor* vc) {
  Cursor* c = Cur(vc);
  UnregisterCursor(c->tab->cfg.global, c);
  delete c;
  return SQLITE_OK;
}

int XNext(sqlite3_vtab_cursor* vc) {
  Cursor* c = Cur(vc);
  c->ResetRow();
  switch (c->mode) {
    case Cursor::kScan:
    case Cursor::kLookup: {
      int rc = sqlite3_step(c->scan);
      c->eof = rc != SQLITE_ROW;
      if (!c->eof) c->rowid = sqlite3_column_int64(c->scan, 0);
      return c->eof && rc != SQLITE_DONE ? sqlite3_reset(c->scan) : SQLITE_OK;
    }
    case Cursor::kSorted: {
      int rc = sqlite3_step(c->sorter);
      c->eof = rc != SQLITE_ROW;
      if (!c->eof) c->rowid = sqlite3_column_int64(c->sorter, 0);
      return c->eof && rc != SQLITE_DONE ? sqlite3_reset(c->sorter) : SQLITE_OK;
    }
    case Cursor::kSpecial:
      c->eof = true;
      return SQLITE_OK;
    case Cursor::kMatch:
    case Cursor::kSource:
      if (++c->at >= c->rowids.size()) {
        c->eof = true;
      } else {
        c->rowid = c->rowids[c->at];
      }
      return SQLITE_OK;
  }
  return SQLITE_OK;
}
int XEof(sqlite3_vtab_cursor* vc) { return Cur(vc)->eof ? 1 : 0; }
int XRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = Cur(vc)->rowid;
  return SQLITE_OK;
}

int XColumn(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int col) {
  Cursor* c = Cur(vc);
  int n = c->tab->cfg.ncol();
  if (c->mode == Cursor::kSpecial) {
    if (col == n) sqlite3_result_int64(ctx, c->special);
    return SQLITE_OK;
  }
  if (col == n) {
    // An UPDATE reads unchanged columns with sqlite3_vtab_nochange() set;
    // the table-named column must then stay NULL (it is a command slot).
    if (!sqlite3_vtab_nochange(ctx)) sqlite3_result_int64(ctx, c->id);
    return SQLITE_OK;
  }
  if (col == n + 1) {
    if (c->mode == Cursor::kMatch || c->mode == Cursor::kSorted || c->mode == Cursor::kSource) {
      std::string err;
      int rc = c->FindRank(&err);
      if (rc != SQLITE_OK) {
        c->tab->SetError(err);
        return rc;
      }
      InvokeAux(c->rank, c, ctx, static_cast<int>(c->rank_vals.size()), c->rank_vals.data());
    }
    return SQLITE_OK;
  }
  if (c->mode == Cursor::kScan || c->mode == Cursor::kLookup) {
    if (c->tab->cfg.content != Content::kNone) {
      sqlite3_result_value(ctx, sqlite3_column_value(c->scan, col + 1));
    }
    return SQLITE_OK;
  }
  if (c->tab->cfg.content == Content::kNone) return SQLITE_OK;
  int rc = c->LoadRow();
  if (rc != SQLITE_OK) return rc;
  if (sqlite3_value* v = c->ColumnValue(col)) sqlite3_result_value(ctx, v);
  return SQLITE_OK;
}

int XRename(sqlite3_vtab* v, const char* name) {
  Table* t = Tab(v);
  int rc = t->Sync();
  if (rc != SQLITE_OK) return rc;
  t->ResetStatements();
  std::string sql;
  std::vector<const char*> names = {"_data", "_idx", "_config"};
  if (t->cfg.columnsize) names.push_back("_docsize");
  if (t->cfg.content == Content::kNormal) names.push_back("_content");
  for (const char* s : names) {
    sql +=
        "ALTER TABLE " + t->cfg.Shadow(s) + " RENAME TO " + QuoteIdent(std::string(name) + s) + ";";
  }
  rc = ExecSql(t->cfg.db, sql, nullptr);
  if (rc == SQLITE_OK) {
    Forget(t);
    t->cfg.name = name;
    t->cfg.global->tables[TableKey(t->cfg.schema, t->cfg.name)] = t;
  }
  return rc;
}

int XShadowName(const char* name) {
  for (const char* s : {"config", "content", "data", "docsize", "idx"}) {
    if (sqlite3_stricmp(name, s) == 0) return 1;
  }
  return 0;
}

int XFindFunction(sqlite3_vtab* v, int, const char* name,
                  void (**fn)(sqlite3_context*, int, sqlite3_value**), void** arg) {
  const AuxFunctionEntry* e = Tab(v)->cfg.global->FindFunction(name);
  if (e == nullptr) return 0;
  *fn = &AuxFunctionCall;
  *arg = const_cast<AuxFunctionEntry*>(e);
  return 1;
}

// Runs fn with the table marked busy (see Table::busy).
template <typename Fn>
int Busy(Table* t, Fn&& fn) {
  ++t->busy;
  int rc = fn();
  --t->busy;
  return rc;
}

int XSync(sqlite3_vtab* v) {
  return Busy(Tab(v), [&] { return Tab(v)->Sync(); });
}
int XBegin(sqlite3_vtab*) { return SQLITE_OK; }
int XCommit(sqlite3_vtab*) { return SQLITE_OK; }
int XRollback(sqlite3_vtab* v) {
  Tab(v)->index->DiscardPending();
  Tab(v)->totals_valid = false;
  return SQLITE_OK;
}
int XSavepoint(sqlite3_vtab* v, int) {
  if (Tab(v)->busy > 0) return SQLITE_OK;
  return Busy(Tab(v), [&] { return Tab(v)->Sync(); });
}
int XRelease(sqlite3_vtab* v, int) {
  if (Tab(v)->busy > 0) return SQLITE_OK;
  return Busy(Tab(v), [&] { return Tab(v)->Sync(); });
}
int XRollbackTo(sqlite3_vtab* v, int) {
  if (Tab(v)->busy > 0) return SQLITE_OK;
  return XRollback(v);
}
int XUpdateBusy(sqlite3_vtab* v, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  return Busy(Tab(v), [&] { return XUpdate(v, argc, argv, rowid); });
}
int XFilterBusy(sqlite3_vtab_cursor* vc, int idx, const char* s, int argc, sqlite3_value** argv) {
  Table* t = Cur(vc)->tab;
  return Busy(t, [&] { return XFilter(vc, idx, s, argc, argv); });
}
int XRenameBusy(sqlite3_vtab* v, const char* name) {
  return Busy(Tab(v), [&] { return XRename(v, name); });
}

const sqlite3_module kModule = {3,          XCreate,  XConnect,    XBestIndex,    XDisconnect,
                                XDestroy,   XOpen,    XClose,      XFilterBusy,   XNext,
                                XEof,       XColumn,  XRowid,      XUpdateBusy,   XBegin,
                                XSync,      XCommit,  XRollback,   XFindFunction, XRenameBusy,
                                XSavepoint, XRelease, XRollbackTo, XShadowName};

}  // namespace

void AuxFunctionCall(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  auto* fn = static_cast<const AuxFunctionEntry*>(sqlite3_user_data(ctx));
  Global* g = static_cast<Global*>(fn->owner);
  // The first argument is the table's hidden column: the cursor id.
  int64_t id = argc > 0 ? sqlite3_value_int64(argv[0]) : 0;
  Cursor* c = FindCursor(g, id);
  if (c == nullptr) {
    char* m = sqlite3_mprintf("no such cursor: %lld", static_cast<long long>(id));
    sqlite3_result_error(ctx, m, -1);
    sqlite3_free(m);
    return;
  }
  InvokeAux(fn, c, ctx, argc - 1, argv + 1);
}

const sqlite3_module* Fts5Module() { return &kModule; }

}  // namespace basalt::fts5
