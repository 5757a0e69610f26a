// sqlite_stmt: an eponymous-only, read-only virtual table with one row per
// prepared statement of the connection, as SQLite's stmt extension:
//
//   sql     the statement's SQL text (NULL if not kept)
//   ncol    result columns
//   ro      sqlite3_stmt_readonly()
//   busy    sqlite3_stmt_busy()
//   nscan, nsort, naidx, nstep, reprep, run, mem
//           sqlite3_stmt_status() counters FULLSCAN_STEP, SORT, AUTOINDEX,
//           VM_STEP, REPREPARE, RUN and MEMUSED
//
// The rows are a snapshot taken by xFilter (walking sqlite3_next_stmt), so
// what the querying statement itself does while it runs cannot change
// them. Written against the public C API only.
#include <new>
#include <string>
#include <vector>

#include "ext/registrar.h"
#include "sqlite3.h"

namespace basalt::stmtvtab {
namespace {

constexpr int kIntColumns = 10;  // ncol .. mem

struct Row {
  bool has_sql = false;
  std::string sql;
  sqlite3_int64 ints[kIntColumns] = {};
};

struct Table {
  sqlite3_vtab base;  // first: SQLite's view of the object
  sqlite3* db;
};

struct Cursor {
  sqlite3_vtab_cursor base;  // first
  sqlite3* db;
  std::vector<Row> rows;
  size_t at = 0;
};

int XConnect(sqlite3* db, void*, int, const char* const*, sqlite3_vtab** out, char**) {
  int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(sql,ncol,ro,busy,nscan,nsort,naidx,nstep,reprep,run,mem)");
  if (rc != SQLITE_OK) return rc;
  auto* t = new (std::nothrow) Table();
  if (t == nullptr) return SQLITE_NOMEM;
  t->db = db;
  *out = &t->base;
  return SQLITE_OK;
}

int XDisconnect(sqlite3_vtab* vtab) {
  delete reinterpret_cast<Table*>(vtab);
  return SQLITE_OK;
}

int XBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 500.0;
  info->estimatedRows = 500;
  return SQLITE_OK;
}

int XOpen(sqlite3_vtab* vtab, sqlite3_vtab_cursor** out) {
  auto* c = new (std::nothrow) Cursor();
  if (c == nullptr) return SQLITE_NOMEM;
  c->db = reinterpret_cast<Table*>(vtab)->db;
  *out = &c->base;
  return SQLITE_OK;
}

int XClose(sqlite3_vtab_cursor* cur) {
  delete reinterpret_cast<Cursor*>(cur);
  return SQLITE_OK;
}

int XFilter(sqlite3_vtab_cursor* cur, int, const char*, int, sqlite3_value**) {
  auto* c = reinterpret_cast<Cursor*>(cur);
  static constexpr int kCounters[] = {SQLITE_STMTSTATUS_FULLSCAN_STEP, SQLITE_STMTSTATUS_SORT,
                                      SQLITE_STMTSTATUS_AUTOINDEX,     SQLITE_STMTSTATUS_VM_STEP,
                                      SQLITE_STMTSTATUS_REPREPARE,     SQLITE_STMTSTATUS_RUN,
                                      SQLITE_STMTSTATUS_MEMUSED};
  try {
    c->rows.clear();
    c->at = 0;
    for (sqlite3_stmt* s = sqlite3_next_stmt(c->db, nullptr); s != nullptr;
         s = sqlite3_next_stmt(c->db, s)) {
      Row row;
      if (const char* sql = sqlite3_sql(s)) {
        row.has_sql = true;
        row.sql = sql;
      }
      row.ints[0] = sqlite3_column_count(s);
      row.ints[1] = sqlite3_stmt_readonly(s);
      row.ints[2] = sqlite3_stmt_busy(s);
      for (int i = 0; i < 7; ++i) row.ints[3 + i] = sqlite3_stmt_status(s, kCounters[i], 0);
      c->rows.push_back(std::move(row));
    }
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
  return SQLITE_OK;
}

int XNext(sqlite3_vtab_cursor* cur) {
  ++reinterpret_cast<Cursor*>(cur)->at;
  return SQLITE_OK;
}

int XEof(sqlite3_vtab_cursor* cur) {
  auto* c = reinterpret_cast<Cursor*>(cur);
  return c->at >= c->rows.size();
}

int XColumn(sqlite3_vtab_cursor* cur, sqlite3_context* ctx, int column) {
  auto* c = reinterpret_cast<Cursor*>(cur);
  const Row& row = c->rows[c->at];
  if (column == 0) {
    if (row.has_sql) {
      sqlite3_result_text(ctx, row.sql.data(), static_cast<int>(row.sql.size()), SQLITE_TRANSIENT);
    }
  } else if (column >= 1 && column <= kIntColumns) {
    sqlite3_result_int64(ctx, row.ints[column - 1]);
  }
  return SQLITE_OK;
}

int XRowid(sqlite3_vtab_cursor* cur, sqlite3_int64* rowid) {
  *rowid = static_cast<sqlite3_int64>(reinterpret_cast<Cursor*>(cur)->at) + 1;
  return SQLITE_OK;
}

// Eponymous-only: no xCreate, so CREATE VIRTUAL TABLE ... USING sqlite_stmt fails.
const sqlite3_module kModule = {0,       nullptr, XConnect, XBestIndex, XDisconnect, nullptr,
                                XOpen,   XClose,  XFilter,  XNext,      XEof,        XColumn,
                                XRowid,  nullptr, nullptr,  nullptr,    nullptr,     nullptr,
                                nullptr, nullptr, nullptr,  nullptr,    nullptr,     nullptr};

int StmtInit(sqlite3* db) { return sqlite3_create_module(db, "sqlite_stmt", &kModule, nullptr); }

}  // namespace

const basalt::ext::Registrar kRegisterStmt{&StmtInit};

}  // namespace basalt::stmtvtab
