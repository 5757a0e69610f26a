// Opening and closing connections: sqlite3_open*, sqlite3_close (SQLITE_BUSY
// while statements are unfinalized), sqlite3_close_v2 (a zombie freed by
// the last sqlite3_finalize), and sqlite3_db_mutex.
#include <cstring>
#include <string>

#include "api/builtin_ext.h"
#include "api/ext.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/trace.h"
#include "os/vfs.h"

using basalt::Connection;
using basalt::api::DbState;
using basalt::api::Guard;
using basalt::api::kCodeOnThrow;

namespace basalt::api {

namespace {

// Whether a connection opened with `flags` gets its own mutex.
bool SerializedConnection(int flags) {
  ThreadingMode mode = CurrentThreadingMode();
  if (mode == ThreadingMode::kSingleThread) return false;
  if ((flags & SQLITE_OPEN_NOMUTEX) != 0) return false;
  if ((flags & SQLITE_OPEN_FULLMUTEX) != 0) return true;
  return mode == ThreadingMode::kSerialized;
}

// The only access modes sqlite3_open_v2 takes: read-only, read-write, and
// read-write-create.
bool ValidAccessFlags(int flags) {
  int access = flags & (SQLITE_OPEN_READONLY | SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
  return access == SQLITE_OPEN_READONLY || access == SQLITE_OPEN_READWRITE ||
         access == (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
}

int CloseImpl(sqlite3* db, bool allow_zombie) {
  if (db == nullptr) return SQLITE_OK;
  if (!IsOpenOrSick(db)) return SQLITE_MISUSE;
  bool closed = false;
  int rc = Guard(db, kCodeOnThrow, [&] {
    if (!IsOpenOrSick(db)) return SQLITE_MISUSE;  // closed by another thread meanwhile
    // As SQLite: virtual tables disconnect first, finalizing the statements
    // their modules hold.
    if (db->conn != nullptr) db->conn->DisconnectVtabsIfIdle();
    if (db->active_backups > 0) {
      // Unlike SQLite's close_v2 (which would make a zombie), Basalt
      // refuses to close under an unfinished backup either way.
      return SetError(db, SQLITE_BUSY,
                      "unable to close due to unfinalized statements or unfinished backups");
    }
    if (db->stmts != nullptr) {
      if (!allow_zombie) {
        return SetError(db, SQLITE_BUSY,
                        "unable to close due to unfinalized statements or unfinished backups");
      }
      BASALT_DCHECK(db->conn != nullptr);
      db->state.store(DbState::kZombie, std::memory_order_relaxed);  // H3
      return SQLITE_OK;
    }
    if (db->conn != nullptr) basalt::api::TraceClose(db);
    if (db->cb.av_destroy != nullptr) {
      db->cb.av_destroy(db->cb.av_arg);
      db->cb.av_destroy = nullptr;
    }
    DestroyConnection(db);
    closed = true;
    return SQLITE_OK;
  });
  if (closed) RetireIfUnheld(db);
  return rc;
}

}  // namespace

}  // namespace basalt::api

extern "C" {

int sqlite3_open_v2(const char* filename, sqlite3** out, int flags, const char* vfs) {
  if (out == nullptr) return SQLITE_MISUSE;
  *out = nullptr;
  int rc = sqlite3_initialize();
  if (rc != SQLITE_OK) return rc;
  sqlite3* db = nullptr;
  try {
    db = basalt::api::AcquireHandle();
  } catch (...) {
    return SQLITE_NOMEM;
  }
  db->mutex = basalt::api::SerializedConnection(flags) ? &db->own_mutex : nullptr;
  db->own_mutex.Rebias();
  db->state.store(DbState::kSick, std::memory_order_relaxed);  // until the connection opens
  rc = Guard(db, kCodeOnThrow, [&] {
    // Bad access flags: a failed (sick) handle, as SQLite returns one.
    if (!basalt::api::ValidAccessFlags(flags)) {
      db->err_code = SQLITE_MISUSE;
      db->has_msg = false;
      return SQLITE_MISUSE;
    }
    // A null name means the default VFS (the first registered one).
    basalt::Vfs* os = basalt::FindVfs(vfs != nullptr ? vfs : "");
    if (os == nullptr) {
      return basalt::api::SetError(db, SQLITE_ERROR,
                                   std::string("no such vfs: ") + (vfs != nullptr ? vfs : ""));
    }
    auto c = Connection::Open(filename != nullptr ? filename : "", flags, os);
    if (!c.ok()) {
      basalt::api::SetError(db, c.status());
      return c.status().code() & 0xff;
    }
    db->conn = std::move(c).value();
    db->vfs = sqlite3_vfs_find(vfs);
    db->conn->set_api_handle(db);
    db->state.store(DbState::kOpen, std::memory_order_relaxed);
    basalt::api::ClearError(db);
    return SQLITE_OK;
  });
  if ((rc & 0xff) == SQLITE_NOMEM) {
    // As in SQLite, running out of memory while opening returns no handle.
    // (Nobody else has seen this one: no lock needed.)
    basalt::api::DestroyConnection(db);
    basalt::api::RetireHandle(db);
    return SQLITE_NOMEM;
  }
  *out = db;
  // The built-in extensions register their modules and functions through
  // the public API, which takes the connection's mutex itself.
  if (rc == SQLITE_OK) rc = basalt::api::RunBuiltinExtensions(db);
  if (rc == SQLITE_OK) rc = basalt::api::RunAutoExtensions(db);
  return rc;
}

int sqlite3_open(const char* filename, sqlite3** out) {
  return sqlite3_open_v2(filename, out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
}

int sqlite3_close(sqlite3* db) { return basalt::api::CloseImpl(db, false); }

int sqlite3_close_v2(sqlite3* db) { return basalt::api::CloseImpl(db, true); }

sqlite3_mutex* sqlite3_db_mutex(sqlite3* db) {
  if (db == nullptr || db->state.load(std::memory_order_relaxed) == DbState::kClosed) {
    return nullptr;
  }
  return db->mutex;
}

}  // extern "C"
