// Connections, errors, exec and library-level entry points.
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <new>

#include "api/handles.h"
#include "common/printf.h"
#include "parser/parser.h"

using basalt::Connection;
using basalt::Status;

namespace basalt::api {

int SetError(sqlite3* db, int code, const std::string& msg) {
  if (db == nullptr) return code;
  db->err_code = code;
  db->err_msg = msg;
  db->has_msg = true;
  return code;
}

int SetError(sqlite3* db, const Status& st) {
  if (st.ok()) {
    ClearError(db);
    return SQLITE_OK;
  }
  return SetError(db, st.code(), st.message());
}

void ClearError(sqlite3* db) {
  if (db == nullptr) return;
  db->err_code = SQLITE_OK;
  db->err_msg.clear();
  db->has_msg = false;
  db->err_offset = -1;
}

}  // namespace basalt::api

using basalt::api::ClearError;
using basalt::api::SetError;

extern "C" {

const char* sqlite3_libversion(void) { return SQLITE_VERSION; }
const char* sqlite3_sourceid(void) { return SQLITE_SOURCE_ID; }
int sqlite3_libversion_number(void) { return SQLITE_VERSION_NUMBER; }
int sqlite3_threadsafe(void) { return 1; }
int sqlite3_initialize(void) { return SQLITE_OK; }
int sqlite3_shutdown(void) { return SQLITE_OK; }

int sqlite3_open_v2(const char* filename, sqlite3** out, int flags, const char* vfs) {
  (void)vfs;
  if (out == nullptr) return SQLITE_MISUSE;
  *out = nullptr;
  try {
    auto* db = new sqlite3();
    *out = db;
    auto c = Connection::Open(filename ? filename : "", flags);
    if (!c.ok()) {
      SetError(db, c.status());
      return c.status().code() & 0xff;
    }
    db->conn = std::move(c).value();
    db->conn->set_api_handle(db);
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SQLITE_NOMEM;
  }
}

int sqlite3_open(const char* filename, sqlite3** out) {
  return sqlite3_open_v2(filename, out, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
}

int sqlite3_close_v2(sqlite3* db) {
  if (db == nullptr) return SQLITE_OK;
  for (sqlite3_stmt* s : db->stmts) {
    s->stmt.reset();
    s->db = nullptr;
    delete s;
  }
  db->stmts.clear();
  delete db;
  return SQLITE_OK;
}

int sqlite3_close(sqlite3* db) {
  if (db == nullptr) return SQLITE_OK;
  if (!db->stmts.empty()) {
    return SetError(db, SQLITE_BUSY, "unable to close due to unfinalized statements or unfinished backups");
  }
  delete db;
  return SQLITE_OK;
}

int sqlite3_errcode(sqlite3* db) {
  if (db == nullptr) return SQLITE_NOMEM;
  return db->err_code & 0xff;
}

int sqlite3_extended_errcode(sqlite3* db) {
  if (db == nullptr) return SQLITE_NOMEM;
  return db->err_code;
}

const char* sqlite3_errmsg(sqlite3* db) {
  if (db == nullptr) return "out of memory";
  if (db->err_code == SQLITE_OK) return "not an error";
  if (!db->has_msg || db->err_msg.empty()) return basalt::ResultCodeText(db->err_code);
  return db->err_msg.c_str();
}

const char* sqlite3_errstr(int code) { return basalt::ResultCodeText(code); }

int sqlite3_error_offset(sqlite3* db) { return db ? db->err_offset : -1; }

int sqlite3_extended_result_codes(sqlite3* db, int onoff) {
  if (db) db->extended_codes = onoff != 0;
  return SQLITE_OK;
}

sqlite3_int64 sqlite3_last_insert_rowid(sqlite3* db) {
  return db && db->conn ? db->conn->LastInsertRowid() : 0;
}

void sqlite3_set_last_insert_rowid(sqlite3* db, sqlite3_int64 v) {
  if (db && db->conn) db->conn->set_last_insert_rowid(v);
}

int sqlite3_changes(sqlite3* db) {
  return db && db->conn ? static_cast<int>(db->conn->Changes()) : 0;
}
sqlite3_int64 sqlite3_changes64(sqlite3* db) { return db && db->conn ? db->conn->Changes() : 0; }
int sqlite3_total_changes(sqlite3* db) {
  return db && db->conn ? static_cast<int>(db->conn->TotalChanges()) : 0;
}
sqlite3_int64 sqlite3_total_changes64(sqlite3* db) {
  return db && db->conn ? db->conn->TotalChanges() : 0;
}

int sqlite3_get_autocommit(sqlite3* db) { return db && db->conn ? db->conn->autocommit() : 1; }

void sqlite3_interrupt(sqlite3* db) {
  if (db && db->conn) db->conn->Interrupt();
}

int sqlite3_busy_timeout(sqlite3* db, int ms) {
  if (db) db->busy_timeout_ms = ms;
  return SQLITE_OK;
}

int sqlite3_complete(const char* sql) { return basalt::Parser::IsComplete(sql ? sql : "") ? 1 : 0; }

int sqlite3_exec(sqlite3* db, const char* sql, int (*callback)(void*, int, char**, char**),
                 void* arg, char** errmsg) {
  if (errmsg) *errmsg = nullptr;
  if (db == nullptr) return SQLITE_MISUSE;
  if (sql == nullptr) sql = "";
  const char* tail = sql;
  int rc = SQLITE_OK;
  while (*tail) {
    sqlite3_stmt* stmt = nullptr;
    const char* next = nullptr;
    rc = sqlite3_prepare_v2(db, tail, -1, &stmt, &next);
    if (rc != SQLITE_OK) break;
    tail = next;
    if (stmt == nullptr) continue;
    int ncol = sqlite3_column_count(stmt);
    std::vector<char*> names(static_cast<size_t>(ncol));
    std::vector<char*> vals(static_cast<size_t>(ncol));
    bool first = true;
    for (;;) {
      rc = sqlite3_step(stmt);
      if (rc == SQLITE_ROW) {
        if (callback) {
          if (first) {
            for (int i = 0; i < ncol; ++i) {
              names[static_cast<size_t>(i)] = const_cast<char*>(sqlite3_column_name(stmt, i));
            }
            first = false;
          }
          for (int i = 0; i < ncol; ++i) {
            vals[static_cast<size_t>(i)] =
                reinterpret_cast<char*>(const_cast<unsigned char*>(sqlite3_column_text(stmt, i)));
          }
          if (callback(arg, ncol, vals.data(), names.data()) != 0) {
            sqlite3_finalize(stmt);
            SetError(db, SQLITE_ABORT, "query aborted");
            if (errmsg) *errmsg = sqlite3_mprintf("%s", "query aborted");
            return SQLITE_ABORT;
          }
        }
        continue;
      }
      break;
    }
    if (rc != SQLITE_DONE) {
      std::string msg = sqlite3_errmsg(db);
      int code = sqlite3_extended_errcode(db);
      sqlite3_finalize(stmt);
      SetError(db, code, msg);
      rc = code & 0xff;
      break;
    }
    sqlite3_finalize(stmt);
    rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK && errmsg) *errmsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  if (rc == SQLITE_OK) ClearError(db);
  return rc;
}

// ---- memory and printf ----

void* sqlite3_malloc(int n) { return n <= 0 ? nullptr : std::malloc(static_cast<size_t>(n)); }
void* sqlite3_malloc64(sqlite3_uint64 n) { return n == 0 ? nullptr : std::malloc(n); }
void* sqlite3_realloc(void* p, int n) {
  if (n <= 0) {
    std::free(p);
    return nullptr;
  }
  return std::realloc(p, static_cast<size_t>(n));
}
void* sqlite3_realloc64(void* p, sqlite3_uint64 n) {
  if (n == 0) {
    std::free(p);
    return nullptr;
  }
  return std::realloc(p, n);
}
void sqlite3_free(void* p) { std::free(p); }
sqlite3_uint64 sqlite3_msize(void* p) {
  (void)p;
  return 0;
}

char* sqlite3_vmprintf(const char* fmt, va_list ap) {
  if (fmt == nullptr) return nullptr;
  std::string s;
  va_list copy;
  va_copy(copy, ap);
  bool ok = basalt::SqlVAppendf(&s, basalt::kPrintfMaxLength, fmt, copy);
  va_end(copy);
  if (!ok) return nullptr;
  char* out = static_cast<char*>(std::malloc(s.size() + 1));
  if (out == nullptr) return nullptr;
  std::memcpy(out, s.data(), s.size());
  out[s.size()] = '\0';
  return out;
}

char* sqlite3_mprintf(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* r = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return r;
}

char* sqlite3_vsnprintf(int n, char* buf, const char* fmt, va_list ap) {
  return basalt::SqlVSnprintf(n, buf, fmt, ap);
}

char* sqlite3_snprintf(int n, char* buf, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char* r = basalt::SqlVSnprintf(n, buf, fmt, ap);
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
