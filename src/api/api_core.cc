// Connection-level entry points: counters, interrupt, busy handling, exec,
// and the library's version, memory, printf and string helpers.
#include <cstdlib>
#include <cstring>
#include <vector>

#include "api/guard.h"
#include "api/handles.h"
#include "common/mem.h"
#include "common/printf.h"
#include "parser/parser.h"

using basalt::api::ClearError;
using basalt::api::DbState;
using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::kCodeOnThrow;
using basalt::api::SetError;

namespace {

// Open, sick or zombie: a handle the settings calls accept.
bool NotClosed(const sqlite3* db) {
  return db != nullptr && db->state.load(std::memory_order_relaxed) != DbState::kClosed;
}

// Finalizes a statement of sqlite3_exec however the loop ends.
class ExecStatement {
 public:
  ~ExecStatement() { sqlite3_finalize(stmt); }
  sqlite3_stmt* stmt = nullptr;
};

int ExecImpl(sqlite3* db, const char* sql, int (*callback)(void*, int, char**, char**), void* arg,
             char** errmsg) {
  const char* tail = sql;
  int rc = SQLITE_OK;
  while (*tail) {
    ExecStatement st;
    const char* next = nullptr;
    rc = sqlite3_prepare_v2(db, tail, -1, &st.stmt, &next);
    if (rc != SQLITE_OK) break;
    tail = next;
    // Each statement's text starts at its first token (what sqlite3_sql
    // and the trace callbacks show), as in SQLite's exec loop.
    while (*tail == ' ' || (*tail >= '\t' && *tail <= '\r')) ++tail;
    if (st.stmt == nullptr) continue;
    int ncol = sqlite3_column_count(st.stmt);
    std::vector<char*> names(static_cast<size_t>(ncol));
    std::vector<char*> vals(static_cast<size_t>(ncol));
    bool first = true;
    for (;;) {
      rc = sqlite3_step(st.stmt);
      if (rc != SQLITE_ROW) break;
      if (callback == nullptr) continue;
      // A NULL name, or NULL text for a value that is not NULL, is out of
      // memory: the exec ends with SQLITE_NOMEM (the callback never sees a
      // NULL standing for a value it lost).
      bool oom = false;
      if (first) {
        for (int i = 0; i < ncol; ++i) {
          names[static_cast<size_t>(i)] = const_cast<char*>(sqlite3_column_name(st.stmt, i));
          oom |= names[static_cast<size_t>(i)] == nullptr;
        }
        first = false;
      }
      for (int i = 0; i < ncol; ++i) {
        vals[static_cast<size_t>(i)] =
            reinterpret_cast<char*>(const_cast<unsigned char*>(sqlite3_column_text(st.stmt, i)));
        oom |= vals[static_cast<size_t>(i)] == nullptr &&
               sqlite3_column_type(st.stmt, i) != SQLITE_NULL;
      }
      if (oom) {
        rc = SQLITE_NOMEM;
        break;
      }
      if (callback(arg, ncol, vals.data(), names.data()) != 0) {
        sqlite3_finalize(st.stmt);
        st.stmt = nullptr;
        SetError(db, SQLITE_ABORT, "query aborted");
        if (errmsg) *errmsg = sqlite3_mprintf("%s", "query aborted");
        return SQLITE_ABORT;
      }
    }
    if (rc == SQLITE_NOMEM) {
      sqlite3_finalize(st.stmt);
      st.stmt = nullptr;
      SetError(db, SQLITE_NOMEM, "out of memory");
      break;
    }
    if (rc != SQLITE_DONE) {
      std::string msg = sqlite3_errmsg(db);
      int code = sqlite3_extended_errcode(db);
      sqlite3_finalize(st.stmt);
      st.stmt = nullptr;
      SetError(db, code, msg);
      rc = code & 0xff;
      break;
    }
    rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK && errmsg) *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  if (rc == SQLITE_OK) ClearError(db);
  return rc;
}

}  // namespace

extern "C" {

// The exported data symbols of SQLite's interface. Basalt does not read
// the two directories yet; they exist so programs that set them link and
// run unchanged.
const char sqlite3_version[] = SQLITE_VERSION;
char* sqlite3_temp_directory = nullptr;
char* sqlite3_data_directory = nullptr;

const char* sqlite3_libversion(void) { return sqlite3_version; }
const char* sqlite3_sourceid(void) { return SQLITE_SOURCE_ID; }
int sqlite3_libversion_number(void) { return SQLITE_VERSION_NUMBER; }

sqlite3_int64 sqlite3_last_insert_rowid(sqlite3* db) {
  if (!HasConnection(db)) return 0;
  return Guard(db, sqlite3_int64{0},
               [&] { return HasConnection(db) ? db->conn->LastInsertRowid() : 0; });
}

void sqlite3_set_last_insert_rowid(sqlite3* db, sqlite3_int64 v) {
  if (!HasConnection(db)) return;
  basalt::api::GuardVoid(db, [&] {
    if (HasConnection(db)) db->conn->set_last_insert_rowid(v);
  });
}

sqlite3_int64 sqlite3_changes64(sqlite3* db) {
  if (!HasConnection(db)) return 0;
  return Guard(db, sqlite3_int64{0}, [&] { return HasConnection(db) ? db->conn->Changes() : 0; });
}
int sqlite3_changes(sqlite3* db) { return static_cast<int>(sqlite3_changes64(db)); }

sqlite3_int64 sqlite3_total_changes64(sqlite3* db) {
  if (!HasConnection(db)) return 0;
  return Guard(db, sqlite3_int64{0},
               [&] { return HasConnection(db) ? db->conn->TotalChanges() : 0; });
}
int sqlite3_total_changes(sqlite3* db) { return static_cast<int>(sqlite3_total_changes64(db)); }

int sqlite3_get_autocommit(sqlite3* db) {
  if (!HasConnection(db)) return 1;
  return Guard(db, 1, [&] { return HasConnection(db) ? (db->conn->autocommit() ? 1 : 0) : 1; });
}

// No lock: it is meant to be called from another thread while a statement
// runs (holding the mutex). The flag is atomic.
void sqlite3_interrupt(sqlite3* db) {
  if (HasConnection(db)) db->conn->Interrupt();
}

int sqlite3_busy_timeout(sqlite3* db, int ms) {
  if (!NotClosed(db)) return SQLITE_MISUSE;
  return Guard(db, kCodeOnThrow, [&] {
    if (HasConnection(db)) db->conn->SetBusyTimeout(ms);
    return SQLITE_OK;
  });
}

// The callback gets the number of times it was called before for the same
// lock; returning 0 gives up (SQLITE_BUSY). It replaces a busy timeout.
int sqlite3_busy_handler(sqlite3* db, int (*callback)(void*, int), void* arg) {
  if (!NotClosed(db)) return SQLITE_MISUSE;
  return Guard(db, kCodeOnThrow, [&] {
    if (!HasConnection(db)) return SQLITE_OK;
    if (callback == nullptr) {
      db->conn->SetBusyHandler(nullptr);
    } else {
      db->conn->SetBusyHandler([callback, arg](int count) { return callback(arg, count) != 0; });
    }
    return SQLITE_OK;
  });
}

int sqlite3_complete(const char* sql) {
  return Guard(nullptr, 0,
               [&] { return basalt::Parser::IsComplete(sql != nullptr ? sql : "") ? 1 : 0; });
}

int sqlite3_exec(sqlite3* db, const char* sql, int (*callback)(void*, int, char**, char**),
                 void* arg, char** errmsg) {
  if (errmsg) *errmsg = nullptr;
  if (!basalt::api::IsOpen(db)) return SQLITE_MISUSE;
  if (sql == nullptr) sql = "";
  return Guard(db, kCodeOnThrow, [&] { return ExecImpl(db, sql, callback, arg, errmsg); });
}

// ---- memory and printf ----

void* sqlite3_malloc(int n) {
  return sqlite3_malloc64(n <= 0 ? 0 : static_cast<sqlite3_uint64>(n));
}
void* sqlite3_malloc64(sqlite3_uint64 n) {
  if (sqlite3_initialize() != SQLITE_OK) return nullptr;
  return basalt::mem::Malloc(n);
}
void* sqlite3_realloc(void* p, int n) {
  return sqlite3_realloc64(p, n <= 0 ? 0 : static_cast<sqlite3_uint64>(n));
}
void* sqlite3_realloc64(void* p, sqlite3_uint64 n) {
  if (sqlite3_initialize() != SQLITE_OK) return nullptr;
  return basalt::mem::Realloc(p, n);
}
void sqlite3_free(void* p) { basalt::mem::Free(p); }
sqlite3_uint64 sqlite3_msize(void* p) { return basalt::mem::Size(p); }

char* sqlite3_vmprintf(const char* fmt, va_list ap) {
  if (fmt == nullptr || sqlite3_initialize() != SQLITE_OK) return nullptr;
  return Guard(nullptr, static_cast<char*>(nullptr), [&]() -> char* {
    std::string s;
    va_list copy;
    va_copy(copy, ap);
    bool ok = basalt::SqlVAppendf(&s, basalt::kPrintfMaxLength, fmt, copy);
    va_end(copy);
    if (!ok) return nullptr;
    char* out = static_cast<char*>(basalt::mem::Malloc(s.size() + 1));
    if (out == nullptr) return nullptr;
    std::memcpy(out, s.data(), s.size());
    out[s.size()] = '\0';
    return out;
  });
}

char* sqlite3_mprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* r = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return r;
}

char* sqlite3_vsnprintf(int n, char* buf, const char* fmt, va_list ap) {
  return Guard(nullptr, buf, [&] { return basalt::SqlVSnprintf(n, buf, fmt, ap); });
}

char* sqlite3_snprintf(int n, char* buf, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* r = sqlite3_vsnprintf(n, buf, fmt, ap);
  va_end(ap);
  return r;
}

int sqlite3_stricmp(const char* a, const char* b) {
  for (;; ++a, ++b) {
    int x = static_cast<unsigned char>(*a), y = static_cast<unsigned char>(*b);
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y || x == 0) return x - y;
  }
}

int sqlite3_strnicmp(const char* a, const char* b, int n) {
  for (; n > 0; --n, ++a, ++b) {
    int x = static_cast<unsigned char>(*a), y = static_cast<unsigned char>(*b);
    if (x >= 'A' && x <= 'Z') x += 32;
    if (y >= 'A' && y <= 'Z') y += 32;
    if (x != y || x == 0) return x - y;
  }
  return 0;
}

}  // extern "C"
