// The objects behind the C API's opaque handles (internal to src/api).
//
// Life of a connection handle (sqlite3::state):
//   kOpen    usable.
//   kSick    sqlite3_open* failed: the handle exists so that errcode/errmsg
//            can explain why; everything else is SQLITE_MISUSE; close frees.
//   kZombie  sqlite3_close_v2 ran while statements were unfinalized: the
//            statements still work, the connection answers SQLITE_MISUSE,
//            and the last sqlite3_finalize closes it.
//   kClosed  closed. The memory is never returned to the allocator: it is
//            kept in a pool (handle_pool.cc) and reused by a later open, so
//            a stale handle passed to the API finds kClosed (SQLITE_MISUSE)
//            or a newer connection, never freed memory.
// Invariants:
//   H1. conn is non-null exactly in kOpen and kZombie.
//   H2. stmts lists the connection's unfinalized statements, newest first
//       (the order sqlite3_next_stmt walks); every one has db == this.
//   H3. A zombie has at least one statement.
//   H5. A statement's row / row_size equal stmt->column(0) /
//       stmt->data_count() between API calls.
//   H4. mutex is &own_mutex (serialized connections) or null; everything
//       but state, conn's interrupt flag and mutex itself is read and
//       written only while holding it (when there is one).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/mutex.h"
#include "catalog/function.h"
#include "main/connection.h"
#include "main/statement.h"
#include "record/value.h"
#include "sqlite3.h"

namespace basalt::api {
enum class DbState : uint8_t { kOpen, kSick, kZombie, kClosed };
}  // namespace basalt::api

// sqlite3_db_config flags that the API layer keeps (the others live in the
// connection's CompileOptions). Defaults are the reference build's.
// Recorded and reported: Basalt does not yet act on them (triggers and
// views cannot be switched off, double-quoted strings always fall back to
// literals, DEFENSIVE does not restrict writable_schema).
struct DbConfig {
  bool fts3_tokenizer = true;  // Debian's build enables both by default
  bool load_extension = true;
  bool no_ckpt_on_close = false;
  bool qpsg = false;
  bool trigger_eqp = false;
  bool reset_database = false;
  bool defensive = false;
  bool legacy_file_format = false;
};

// A pointer passed with sqlite3_bind_pointer / sqlite3_result_pointer: the
// value is a NULL whose subtype is 'p' and whose payload is the box's
// address (api_pointer.cc). The destructor runs when the box goes.
struct PointerBox {
  void* ptr = nullptr;
  std::string type;
  void (*del)(void*) = nullptr;
  PointerBox(void* p, const char* t, void (*d)(void*)) : ptr(p), type(t), del(d) {}
  ~PointerBox() {
    if (del != nullptr) del(ptr);
  }
  PointerBox(const PointerBox&) = delete;
  PointerBox& operator=(const PointerBox&) = delete;
};

// Per-connection callbacks kept by the API layer (reset when the handle
// returns to the pool).
struct ApiCallbacks {
  // Tracing (api_trace.cc): sqlite3_trace_v2, or the legacy sqlite3_trace
  // (setting one replaces the other), and the legacy sqlite3_profile.
  unsigned trace_mask = 0;
  int (*trace_v2)(unsigned, void*, void*, void*) = nullptr;
  void (*trace_legacy)(void*, const char*) = nullptr;
  void* trace_arg = nullptr;
  void (*profile)(void*, const char*, sqlite3_uint64) = nullptr;
  void* profile_arg = nullptr;
  // sqlite3_set_authorizer (api_auth.cc).
  int (*auth)(void*, int, const char*, const char*, const char*, const char*) = nullptr;
  void* auth_arg = nullptr;
  // sqlite3_collation_needed / 16 (api_collation.cc).
  void (*coll_needed)(void*, sqlite3*, int, const char*) = nullptr;
  void (*coll_needed16)(void*, sqlite3*, int, const void*) = nullptr;
  void* coll_needed_arg = nullptr;
  DbConfig dbconfig;
  // sqlite3_wal_hook. As in SQLite, the automatic checkpoint is itself the
  // default WAL hook: without a user hook, wal_hook_arg holds its frame
  // threshold.
  int (*wal_hook)(void*, sqlite3*, const char*, int) = nullptr;
  void* wal_hook_arg = reinterpret_cast<void*>(intptr_t{1000});
  // sqlite3_autovacuum_pages (api_hooks.cc); av_destroy(av_arg) runs when
  // the callback is replaced or the connection closes.
  unsigned (*av_pages)(void*, const char*, unsigned, unsigned, unsigned) = nullptr;
  void* av_arg = nullptr;
  void (*av_destroy)(void*) = nullptr;
};

// Per-connection memory the API layer hands out or remembers (reset when
// the handle returns to the pool).
struct ApiScratch {
  std::u16string err_msg16;  // sqlite3_errmsg16's last answer
  // The WAL frame count last reported to the wal hook, per database.
  std::vector<uint32_t> wal_seen;
  // sqlite3_db_filename's answers, by database name (api_filename.cc).
  std::unordered_map<std::string, std::string> filenames;
  // sqlite3_result_pointer boxes: freed once no statement of the
  // connection is running (no register can hold one then).
  std::vector<std::unique_ptr<PointerBox>> result_pointers;
};

struct sqlite3 {
  std::atomic<basalt::api::DbState> state{basalt::api::DbState::kClosed};
  sqlite3_mutex own_mutex{sqlite3_mutex::Kind::kConnection};
  sqlite3_mutex* mutex = nullptr;  // H4
  std::unique_ptr<basalt::Connection> conn;
  int err_code = SQLITE_OK;  // extended code of the most recent error
  std::string err_msg;
  int err_offset = -1;
  bool has_msg = false;
  bool extended_codes = false;
  sqlite3_stmt* stmts = nullptr;  // H2: newest first
  ApiCallbacks cb;
  ApiScratch scratch;
  int active_backups = 0;            // sqlite3_backup objects using this connection
  uint64_t blob_writes = 0;          // sqlite3_blob_write calls that changed a row (api_blob.cc)
  sqlite3_stmt* stepping = nullptr;  // the statement sqlite3_step runs (trigger tracing)
  bool psow = true;                  // SQLITE_FCNTL_POWERSAFE_OVERWRITE (on by default, as unix)
  sqlite3_vfs* vfs = nullptr;        // the VFS it was opened with (SQLITE_FCNTL_VFS_POINTER)
  sqlite3_file closed_journal{};     // SQLITE_FCNTL_JOURNAL_POINTER without a journal open
  // SQLITE_FCNTL_RESERVE_BYTES requested per database (api_dbinfo.cc).
  std::unordered_map<const void*, int> reserve_wanted;
};

struct sqlite3_stmt {
  sqlite3* db = nullptr;
  std::unique_ptr<basalt::Statement> stmt;
  sqlite3_stmt* newer = nullptr;  // neighbours in db->stmts
  sqlite3_stmt* older = nullptr;
  // The current row, as the column accessors read it: row_size values at
  // row (0 and null without a row). Refreshed by every step and reset
  // (H5), so an accessor indexes it directly.
  basalt::Value* row = nullptr;
  int row_size = 0;
  std::vector<basalt::Value> text_cache;  // per column: text/blob conversions
  // The code an exception (out of memory) ended the last step with; the
  // next sqlite3_reset or sqlite3_finalize reports it.
  int thrown_code = 0;
  // When the current execution began (steady clock, ns), for the profile
  // trace; -1 when none is being timed.
  int64_t trace_start_ns = -1;
  // Between the first step of an execution and its end (done, error,
  // reset): the next step does not start a new one (trace events).
  bool running = false;
  int64_t runs = 0;  // executions started (SQLITE_STMTSTATUS_RUN)
  // UTF-16 forms handed out (api_utf16.cc): per column of the current row,
  // and per (kind << 16 | column) for names, which last as long as the
  // statement (node-based map: the strings never move).
  std::vector<std::u16string> text16;
  std::unordered_map<int, std::u16string> names16;
  // sqlite3_bind_pointer boxes, by parameter: replaced by the next bind of
  // that parameter, freed by sqlite3_clear_bindings and finalize.
  std::unordered_map<int, std::unique_ptr<PointerBox>> bound_pointers;
};

namespace basalt::api {

// Records an error on the connection; returns the primary or extended code
// the caller should return.
int SetError(sqlite3* db, int code, const std::string& msg);
int SetError(sqlite3* db, const Status& st);
inline void ClearError(sqlite3* db) {
  if (db == nullptr) return;
  db->err_code = SQLITE_OK;
  db->err_msg.clear();
  db->has_msg = false;
  db->err_offset = -1;
}

// After sqlite3_step answers SQLITE_ROW or SQLITE_DONE, sqlite3_errcode
// says so too ("another row available", "no more rows available"), as in
// SQLite; the next call that succeeds clears it.
inline void NoteStepResult(sqlite3* db, int rc) {
  ClearError(db);
  if (db != nullptr) db->err_code = rc;
}
// sqlite3_reset / sqlite3_finalize of a statement without error: clears
// what NoteStepResult set.
inline void ForgetStepResult(sqlite3* db, int rc) {
  if (db != nullptr && rc == SQLITE_OK &&
      (db->err_code == SQLITE_ROW || db->err_code == SQLITE_DONE)) {
    ClearError(db);
  }
}

// SQLite's safety checks on a connection handle.
inline bool IsOpen(const sqlite3* db) {
  return db != nullptr && db->state.load(std::memory_order_relaxed) == DbState::kOpen;
}
inline bool IsOpenOrSick(const sqlite3* db) {
  if (db == nullptr) return false;
  DbState s = db->state.load(std::memory_order_relaxed);
  return s == DbState::kOpen || s == DbState::kSick;
}
// Open or zombie: the engine connection exists (H1).
inline bool HasConnection(const sqlite3* db) {
  if (db == nullptr) return false;
  DbState s = db->state.load(std::memory_order_relaxed);
  return s == DbState::kOpen || s == DbState::kZombie;
}

// The pool of connection handles (handle_pool.cc). AcquireHandle returns a
// closed handle (throws std::bad_alloc when none can be made); RetireHandle
// takes back a handle whose connection is gone and whose mutex is free.
sqlite3* AcquireHandle();
void RetireHandle(sqlite3* db) noexcept;

// Adds a new statement to db's list / removes it (H2).
void LinkStatement(sqlite3* db, sqlite3_stmt* s) noexcept;
void UnlinkStatement(sqlite3_stmt* s) noexcept;

// Closes the engine connection of a handle with no statements left (under
// its mutex) and marks the handle closed. Then, once the mutex is left,
// RetireIfUnheld returns the handle to the pool.
void DestroyConnection(sqlite3* db) noexcept;
void RetireIfUnheld(sqlite3* db) noexcept;

inline Value* AsValue(sqlite3_value* v) { return reinterpret_cast<Value*>(v); }
inline sqlite3_value* AsApi(Value* v) { return reinterpret_cast<sqlite3_value*>(v); }
inline FuncContext* AsCtx(sqlite3_context* c) { return reinterpret_cast<FuncContext*>(c); }

}  // namespace basalt::api
