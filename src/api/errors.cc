// A connection's error state: recording errors (and exceptions caught by
// the entry-point guard), and sqlite3_errcode / errmsg / errstr /
// error_offset / extended_result_codes.
#include <exception>
#include <new>

#include "api/guard.h"
#include "api/handles.h"

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

namespace {

// The code and text an exception maps to. Out of memory needs no
// allocation: the text is the code's own (ResultCodeText).
int Classify(const char** what) noexcept {
  try {
    throw;
  } catch (const std::bad_alloc&) {
    *what = nullptr;
    return SQLITE_NOMEM;
  } catch (const std::exception& e) {
    *what = e.what();
    return SQLITE_INTERNAL;
  } catch (...) {
    *what = nullptr;
    return SQLITE_INTERNAL;
  }
}

}  // namespace

int NoteException(sqlite3* db) noexcept {
  const char* what = nullptr;
  int code = Classify(&what);
  if (db == nullptr) return code;
  db->err_code = code;
  db->err_offset = -1;
  db->err_msg.clear();  // keeps the buffer: no allocation
  db->has_msg = false;  // errmsg shows ResultCodeText(code): "out of memory", ...
  if (what != nullptr) {
    try {
      db->err_msg = what;
      db->has_msg = true;
    } catch (...) {
    }
  }
  return code;
}

int NoteException(FuncContext* ctx) noexcept {
  const char* what = nullptr;
  int code = Classify(&what);
  if (ctx == nullptr) return code;
  ctx->is_error = true;
  ctx->error_code = code;
  try {
    ctx->error_msg = what != nullptr ? what : ResultCodeText(code);
  } catch (...) {
    ctx->error_code = SQLITE_NOMEM;
    ctx->error_msg.clear();
  }
  return code;
}

int NoteException(std::nullptr_t) noexcept {
  const char* what = nullptr;
  return Classify(&what);
}

}  // namespace basalt::api

using basalt::api::Guard;
using basalt::api::IsOpenOrSick;

extern "C" {

int sqlite3_errcode(sqlite3* db) {
  if (db == nullptr) return SQLITE_NOMEM;
  if (!IsOpenOrSick(db)) return SQLITE_MISUSE;
  return Guard(db, SQLITE_NOMEM,
               [&] { return db->extended_codes ? db->err_code : db->err_code & 0xff; });
}

int sqlite3_extended_errcode(sqlite3* db) {
  if (db == nullptr) return SQLITE_NOMEM;
  if (!IsOpenOrSick(db)) return SQLITE_MISUSE;
  return Guard(db, SQLITE_NOMEM, [&] { return db->err_code; });
}

const char* sqlite3_errmsg(sqlite3* db) {
  if (db == nullptr) return basalt::ResultCodeText(SQLITE_NOMEM);
  if (!IsOpenOrSick(db)) return basalt::ResultCodeText(SQLITE_MISUSE);
  return Guard(db, basalt::ResultCodeText(SQLITE_NOMEM), [&]() -> const char* {
    if (db->err_code == SQLITE_OK) return basalt::ResultCodeText(SQLITE_OK);
    if (!db->has_msg || db->err_msg.empty()) return basalt::ResultCodeText(db->err_code);
    return db->err_msg.c_str();
  });
}

const char* sqlite3_errstr(int code) { return basalt::ResultCodeText(code); }

int sqlite3_error_offset(sqlite3* db) {
  if (!IsOpenOrSick(db)) return -1;
  return Guard(db, -1, [&] { return db->err_code != SQLITE_OK ? db->err_offset : -1; });
}

int sqlite3_extended_result_codes(sqlite3* db, int onoff) {
  if (db == nullptr || db->state.load(std::memory_order_relaxed) == basalt::api::DbState::kClosed) {
    return SQLITE_MISUSE;
  }
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    db->extended_codes = onoff != 0;
    return SQLITE_OK;
  });
}

}  // extern "C"
