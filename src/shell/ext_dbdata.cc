// sqlite_dbdata and sqlite_dbptr, the recovery-support tables of sqlite3
// 3.40.1's shell:
//   sqlite_dbdata(pgno, cell, field, value, schema HIDDEN)
//   sqlite_dbptr(pgno, child, schema HIDDEN)
// Both read the database page by page through the sqlite_dbpage table, as
// the reference does. Neither Debian's libsqlite3 nor Basalt's library
// provides sqlite_dbpage, so a scan ends, as the reference's does, with the
// error of preparing that query ("no such table: sqlite_dbpage"), after
// checking the schema (PRAGMA page_count) when no page number is given.
// Decoding pages is not written: with a library that has sqlite_dbpage the
// scan fails with a message saying so.
#include <string>

#include "shell/shell_ext.h"

namespace shell {
namespace {

struct DbdataTable {
  sqlite3_vtab base;
  sqlite3* db = nullptr;
  bool ptr = false;  // sqlite_dbptr
};

struct DbdataCursor {
  sqlite3_vtab_cursor base;
};

int Connect(sqlite3* db, void* aux, int, const char* const*, sqlite3_vtab** out, char**) {
  const bool ptr = aux != nullptr;
  const int rc = sqlite3_declare_vtab(
      db, ptr ? "CREATE TABLE x(  pgno INTEGER,  child INTEGER,  schema TEXT HIDDEN)"
              : "CREATE TABLE x(  pgno INTEGER,  cell INTEGER,  field INTEGER,  value ANY,  "
                "schema TEXT HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  auto* t = new DbdataTable();
  t->db = db;
  t->ptr = ptr;
  *out = &t->base;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* vt) {
  sqlite3_free(vt->zErrMsg);
  delete reinterpret_cast<DbdataTable*>(vt);
  return SQLITE_OK;
}

// idxNum bit 1: schema = ? (first argument); bit 2: pgno = ?.
int BestIndex(sqlite3_vtab* vt, sqlite3_index_info* info) {
  const int schema_col = reinterpret_cast<DbdataTable*>(vt)->ptr ? 2 : 4;
  int schema = -1, pgno = -1;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& k = info->aConstraint[i];
    if (k.op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (k.iColumn == schema_col) {
      if (!k.usable) return SQLITE_CONSTRAINT;
      schema = i;
    } else if (k.iColumn == 0 && k.usable) {
      pgno = i;
    }
  }
  int argv = 0;
  info->idxNum = 0;
  if (schema >= 0) {
    info->aConstraintUsage[schema].argvIndex = ++argv;
    info->aConstraintUsage[schema].omit = 1;
    info->idxNum |= 1;
  }
  if (pgno >= 0) {
    info->aConstraintUsage[pgno].argvIndex = ++argv;
    info->aConstraintUsage[pgno].omit = 1;
    info->idxNum |= 2;
    info->estimatedCost = 100;
    info->estimatedRows = 20;
  } else {
    info->estimatedCost = 100000000;
    info->estimatedRows = 1000000000;
  }
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new DbdataCursor())->base;
  return SQLITE_OK;
}

int Close(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<DbdataCursor*>(c);
  return SQLITE_OK;
}

int Fail(sqlite3_vtab* vt, const char* msg) {
  sqlite3_free(vt->zErrMsg);
  vt->zErrMsg = sqlite3_mprintf("%s", msg);
  return SQLITE_ERROR;
}

int Filter(sqlite3_vtab_cursor* vc, int idx_num, const char*, int, sqlite3_value** argv) {
  auto* t = reinterpret_cast<DbdataTable*>(vc->pVtab);
  std::string schema = "main";
  if (idx_num & 1) {
    const unsigned char* z = sqlite3_value_text(argv[0]);
    schema = z == nullptr ? "" : reinterpret_cast<const char*>(z);
  }
  if (!(idx_num & 2)) {  // the whole database: its size first
    char* sql = sqlite3_mprintf("PRAGMA %Q.page_count", schema.c_str());
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(t->db, sql, -1, &st, nullptr);
    sqlite3_free(sql);
    if (rc == SQLITE_OK) {
      sqlite3_step(st);
      rc = sqlite3_finalize(st);
    }
    if (rc != SQLITE_OK) return Fail(vc->pVtab, sqlite3_errmsg(t->db));
  }
  sqlite3_stmt* pages = nullptr;
  if (sqlite3_prepare_v2(t->db, "SELECT data FROM sqlite_dbpage(?) WHERE pgno=?", -1, &pages,
                         nullptr) != SQLITE_OK) {
    return Fail(vc->pVtab, sqlite3_errmsg(t->db));
  }
  sqlite3_finalize(pages);
  return Fail(vc->pVtab, "sqlite_dbdata: decoding pages is not available in the basalt shell");
}

int Next(sqlite3_vtab_cursor*) { return SQLITE_OK; }
int Eof(sqlite3_vtab_cursor*) { return 1; }
int Column(sqlite3_vtab_cursor*, sqlite3_context*, int) { return SQLITE_OK; }
int Rowid(sqlite3_vtab_cursor*, sqlite3_int64* out) {
  *out = 0;
  return SQLITE_OK;
}

sqlite3_module MakeModule() {
  sqlite3_module m{};
  m.xConnect = Connect;
  m.xBestIndex = BestIndex;
  m.xDisconnect = Disconnect;
  m.xOpen = Open;
  m.xClose = Close;
  m.xFilter = Filter;
  m.xNext = Next;
  m.xEof = Eof;
  m.xColumn = Column;
  m.xRowid = Rowid;
  return m;
}

}  // namespace

void RegisterDbdata(sqlite3* db) {
  static const sqlite3_module kModule = MakeModule();
  static int ptr_marker = 1;
  sqlite3_create_module(db, "sqlite_dbdata", &kModule, nullptr);
  sqlite3_create_module(db, "sqlite_dbptr", &kModule, &ptr_marker);
}

}  // namespace shell
