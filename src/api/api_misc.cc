// Remaining connection-level calls: sqlite3_get_table / free_table (built
// on sqlite3_exec), the WAL checkpoint calls (through PRAGMA
// wal_checkpoint / wal_autocheckpoint, which hold the logic),
// sqlite3_unlock_notify, sqlite3_system_errno and sqlite3_test_control.
#include <cerrno>
#include <cstdarg>
#include <string>
#include <vector>

#include "api/guard.h"
#include "api/handles.h"

using basalt::api::HasConnection;

namespace {

struct TableResult {
  std::vector<char*> cells;  // column names, then the rows
  int ncol = 0;
  int nrow = 0;
  bool failed = false;
};

char* Dup(const char* z) { return z != nullptr ? sqlite3_mprintf("%s", z) : nullptr; }

int Collect(void* arg, int ncol, char** vals, char** names) {
  auto* t = static_cast<TableResult*>(arg);
  if (t->nrow == 0 && t->cells.empty()) {
    t->ncol = ncol;
    for (int i = 0; i < ncol; ++i) t->cells.push_back(Dup(names[i]));
  } else if (ncol != t->ncol) {
    t->failed = true;  // statements of the script return different widths
    return 1;
  }
  for (int i = 0; i < ncol; ++i) t->cells.push_back(Dup(vals[i]));
  ++t->nrow;
  return 0;
}

void FreeCells(std::vector<char*>* cells) {
  for (char* c : *cells) sqlite3_free(c);
  cells->clear();
}

}  // namespace

namespace basalt::api {

// After a statement ended: a database in WAL mode whose log grew has
// committed; the hook hears of each (the frame count only grows by
// commits, and checkpoints that restart the log start it again from 0).
void RunWalHook(sqlite3* db) {
  basalt::SchemaStore& dbs = db->conn->dbs();
  std::vector<uint32_t>& seen = db->scratch.wal_seen;
  if (seen.size() < static_cast<size_t>(dbs.size())) seen.resize(static_cast<size_t>(dbs.size()));
  for (int i = 0; i < dbs.size(); ++i) {
    basalt::Database* d = dbs.at(i);
    uint32_t frames = d->bt != nullptr ? d->bt->pager()->wal_frame_count() : 0;
    uint32_t& last = seen[static_cast<size_t>(i)];
    const bool grew = frames > last;
    last = frames;
    if (grew && db->cb.wal_hook != nullptr) {
      db->cb.wal_hook(db->cb.wal_hook_arg, db, d->name.c_str(), static_cast<int>(frames));
    }
  }
}

}  // namespace basalt::api

extern "C" {

// The result array is preceded by one hidden slot holding its length, so
// that sqlite3_free_table can free every string.
int sqlite3_get_table(sqlite3* db, const char* sql, char*** result, int* nrow, int* ncol,
                      char** errmsg) {
  if (result == nullptr) return SQLITE_MISUSE;
  *result = nullptr;
  if (nrow) *nrow = 0;
  if (ncol) *ncol = 0;
  TableResult t;
  int rc = sqlite3_exec(db, sql, Collect, &t, errmsg);
  if (t.failed) {
    FreeCells(&t.cells);
    if (errmsg != nullptr) {
      sqlite3_free(*errmsg);
      *errmsg = sqlite3_mprintf("%s",
                                "sqlite3_get_table() called with two or more "
                                "incompatible queries");
    }
    return SQLITE_ERROR;
  }
  if (rc != SQLITE_OK) {
    FreeCells(&t.cells);
    return rc;
  }
  auto** out = static_cast<char**>(sqlite3_malloc64((t.cells.size() + 1) * sizeof(char*)));
  if (out == nullptr) {
    FreeCells(&t.cells);
    return SQLITE_NOMEM;
  }
  out[0] = reinterpret_cast<char*>(static_cast<intptr_t>(t.cells.size() + 1));
  for (size_t i = 0; i < t.cells.size(); ++i) out[i + 1] = t.cells[i];
  *result = out + 1;
  if (nrow) *nrow = t.nrow;
  if (ncol) *ncol = t.ncol;
  return SQLITE_OK;
}

void sqlite3_free_table(char** result) {
  if (result == nullptr) return;
  char** base = result - 1;
  auto n = static_cast<size_t>(reinterpret_cast<intptr_t>(base[0]));
  for (size_t i = 1; i < n; ++i) sqlite3_free(base[i]);
  sqlite3_free(base);
}

int sqlite3_wal_checkpoint_v2(sqlite3* db, const char* name, int mode, int* log, int* ckpt) {
  if (log) *log = -1;
  if (ckpt) *ckpt = -1;
  if (!HasConnection(db)) return SQLITE_MISUSE;
  static const char* const kModes[] = {"PASSIVE", "FULL", "RESTART", "TRUNCATE"};
  if (mode < SQLITE_CHECKPOINT_PASSIVE || mode > SQLITE_CHECKPOINT_TRUNCATE) {
    return SQLITE_MISUSE;
  }
  char* sql = name != nullptr && *name != '\0'
                  ? sqlite3_mprintf("PRAGMA \"%w\".wal_checkpoint(%s)", name, kModes[mode])
                  : sqlite3_mprintf("PRAGMA wal_checkpoint(%s)", kModes[mode]);
  if (sql == nullptr) return SQLITE_NOMEM;
  sqlite3_stmt* s = nullptr;
  int rc = sqlite3_prepare_v2(db, sql, -1, &s, nullptr);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_step(s);
  int busy = 0;
  if (rc == SQLITE_ROW) {
    busy = sqlite3_column_int(s, 0);
    if (log) *log = sqlite3_column_int(s, 1);
    if (ckpt) *ckpt = sqlite3_column_int(s, 2);
    rc = SQLITE_OK;
  }
  int fin = sqlite3_finalize(s);
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  if (rc == SQLITE_OK) rc = fin;
  if (rc == SQLITE_OK && busy && mode != SQLITE_CHECKPOINT_PASSIVE) rc = SQLITE_BUSY;
  return rc;
}

int sqlite3_wal_checkpoint(sqlite3* db, const char* name) {
  return sqlite3_wal_checkpoint_v2(db, name, SQLITE_CHECKPOINT_PASSIVE, nullptr, nullptr);
}

void* sqlite3_wal_hook(sqlite3* db, int (*cb)(void*, sqlite3*, const char*, int), void* arg) {
  if (!HasConnection(db)) return nullptr;
  return basalt::api::Guard(db, static_cast<void*>(nullptr), [&] {
    void* old = db->cb.wal_hook_arg;
    // A hook of the application's replaces the automatic checkpoint.
    if (db->cb.wal_hook == nullptr) {
      sqlite3_exec(db, "PRAGMA wal_autocheckpoint = 0", nullptr, nullptr, nullptr);
    }
    db->cb.wal_hook = cb;
    db->cb.wal_hook_arg = arg;
    return old;
  });
}

int sqlite3_wal_autocheckpoint(sqlite3* db, int frames) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  char* sql = sqlite3_mprintf("PRAGMA wal_autocheckpoint = %d", frames < 0 ? 0 : frames);
  int rc = sqlite3_exec(db, sql, nullptr, nullptr, nullptr);
  sqlite3_free(sql);
  // The automatic checkpoint becomes the WAL hook again.
  basalt::api::Guard(db, 0, [&] {
    db->cb.wal_hook = nullptr;
    db->cb.wal_hook_arg = reinterpret_cast<void*>(static_cast<intptr_t>(frames < 0 ? 0 : frames));
    return 0;
  });
  return rc;
}

// Basalt has no shared cache, so a connection is never blocked by another
// one's table lock: as documented for that case, the callback runs at
// once (with the connection as its only argument).
int sqlite3_unlock_notify(sqlite3* db, void (*cb)(void**, int), void* arg) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  if (cb != nullptr) cb(&arg, 1);
  return SQLITE_OK;
}

int sqlite3_system_errno(sqlite3* db) { return HasConnection(db) ? errno : 0; }

// The operations SQLite answers outside its test builds that make sense
// for Basalt; every other one answers 0, as SQLite does for an operation
// it does not know.
int sqlite3_test_control(int op, ...) {
  va_list ap;
  va_start(ap, op);
  int rc = 0;
  switch (op) {
    case SQLITE_TESTCTRL_ALWAYS:
    case SQLITE_TESTCTRL_ASSERT:
      rc = va_arg(ap, int);
      break;
    case SQLITE_TESTCTRL_BYTEORDER:
      rc = 1234 * 100 + 1 * 10 + 0;  // SQLITE_BYTEORDER, little endian
      break;
    case SQLITE_TESTCTRL_PENDING_BYTE:
      rc = 0x40000000;  // fixed in Basalt: the lock-byte page never moves
      break;
    case SQLITE_TESTCTRL_ISINIT:
      rc = SQLITE_OK;
      break;
    case SQLITE_TESTCTRL_IMPOSTER: {
      // (db, schema name, on/off, root page): see DdlExecutor::SetImposter.
      sqlite3* db = va_arg(ap, sqlite3*);
      const char* name = va_arg(ap, const char*);
      int on = va_arg(ap, int);
      int root = va_arg(ap, int);
      if (HasConnection(db) && name != nullptr) {
        basalt::api::Guard(db, 0, [&] {
          int i = db->conn->dbs().Find(name);
          if (i >= 0) db->conn->ddl().SetImposter(i, on != 0, static_cast<uint32_t>(root));
          return 0;
        });
      }
      break;
    }
    default:
      break;
  }
  va_end(ap);
  return rc;
}

}  // extern "C"
