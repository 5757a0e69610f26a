// Prepared statements: prepare, step, reset, finalize, column access,
// statement information and sqlite3_next_stmt. Binding is in api_bind.cc.
#include <cstring>
#include <memory>
#include <utility>

#include "api/guard.h"
#include "api/handles.h"
#include "api/trace.h"
#include "record/value_ops.h"

using basalt::Type;
using basalt::Value;
using basalt::api::ClearError;
using basalt::api::DbState;
using basalt::api::Guard;
using basalt::api::kCodeOnThrow;
using basalt::api::SetError;

namespace {

// After an exception inside the engine: puts the connection back in a
// consistent state (Connection::RecoverAfterException).
void RecoverConnection(sqlite3* db) noexcept {
  try {
    db->conn->RecoverAfterException();
  } catch (...) {
    // Out of memory again: the next failure tries once more.
  }
}

int PrepareImpl(sqlite3* db, const char* sql, int nbytes, sqlite3_stmt** out, const char** tail) {
  if (out == nullptr) return SQLITE_MISUSE;
  *out = nullptr;
  if (!basalt::api::IsOpen(db) || sql == nullptr) {
    if (tail) *tail = sql;
    return SQLITE_MISUSE;
  }
  size_t len = nbytes < 0 ? std::strlen(sql) : strnlen(sql, static_cast<size_t>(nbytes));
  return Guard(db, kCodeOnThrow, [&] {
    if (!basalt::api::IsOpen(db)) return SQLITE_MISUSE;
    // SQLITE_LIMIT_SQL_LENGTH: a text not NUL-terminated within nbytes is
    // measured whole; otherwise each statement as it is parsed (below).
    const int64_t max_sql = db->conn->limits().get(basalt::LimitId::kSqlLength);
    if (nbytes > 0 && sql[nbytes - 1] != '\0' && nbytes > max_sql) {
      return SetError(db, SQLITE_TOOBIG, "statement too long");
    }
    size_t consumed = 0;
    basalt::Result<std::unique_ptr<basalt::Statement>> r = basalt::Status();
    try {
      r = db->conn->Prepare(std::string_view(sql, len), &consumed);
    } catch (...) {
      int code = basalt::api::NoteException(db);
      RecoverConnection(db);
      return code;
    }
    if (tail) *tail = sql + consumed;
    if (r.ok() && static_cast<int64_t>(consumed) > max_sql) {
      return SetError(db, SQLITE_TOOBIG, "string or blob too big");  // SQLite's tokenizer check
    }
    if (!r.ok()) {
      SetError(db, r.status());
      db->err_offset = db->conn->last_error_offset();
      // As SQLite, a failed prepare goes to the error log (SQLITE_CONFIG_LOG)
      // with the text from the statement on.
      sqlite3_log(r.status().code(), "%s in \"%.*s\"", sqlite3_errmsg(db), static_cast<int>(len),
                  sql);
      return r.status().code() & 0xff;
    }
    ClearError(db);
    if (*r == nullptr) return SQLITE_OK;
    auto s = std::make_unique<sqlite3_stmt>();
    s->stmt = std::move(r).value();
    basalt::api::LinkStatement(db, s.get());
    *out = s.release();
    return SQLITE_OK;
  });
}

// The code an ended execution reports (reset, finalize): an exception's
// first, else the statement's error (extended only when the connection
// asked for extended codes).
int StatementCode(sqlite3_stmt* s) {
  int rc = s->thrown_code;
  if (rc == 0 && s->stmt && !s->stmt->status().ok()) rc = s->stmt->status().code();
  return s->db->extended_codes ? rc : rc & 0xff;
}

// After an exception inside Step: ends the execution (rolling back what
// it did) so that the statement and its connection stay consistent.
void AbandonExecution(sqlite3_stmt* s, int code) noexcept {
  s->thrown_code = code;
  try {
    s->stmt->Reset();
  } catch (...) {
    // Still active: the next reset or finalize tries again.
  }
  RecoverConnection(s->db);
}

// After the statement's row changed: caches it (H5).
void CacheRow(sqlite3_stmt* s) {
  int n = s->stmt->data_count();
  s->row = n > 0 ? s->stmt->column(0) : nullptr;
  s->row_size = n;
}

void ForgetRow(sqlite3_stmt* s) {
  s->row = nullptr;
  s->row_size = 0;
}

Value* ColumnValue(sqlite3_stmt* s, int i) {
  return static_cast<unsigned>(i) < static_cast<unsigned>(s->row_size) ? &s->row[i] : nullptr;
}

// A NUL-terminated text form of column i (numbers rendered as text).
Value* TextForm(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr || v->is_null()) return v;
  if (v->is_string_like() && v->owns_bytes()) return v;
  if (s->text_cache.size() <= static_cast<size_t>(i)) {
    s->text_cache.resize(static_cast<size_t>(i) + 1);
  }
  Value& c = s->text_cache[static_cast<size_t>(i)];
  if (v->is_string_like()) {
    if (v->is_text()) {
      c.SetText(v->text());
    } else {
      c.SetBlob(v->data(), v->size());
    }
  } else {
    c.CopyFrom(*v);
    basalt::Stringify(&c);
  }
  return &c;
}

// Runs a column accessor under the statement's connection.
template <typename R, typename Body>
R Column(sqlite3_stmt* s, R none, Body&& body) {
  if (s == nullptr) return none;
  return Guard(s->db, none, std::forward<Body>(body));
}

// Statement metadata by column index (valid 0..column_count-1).
template <typename Body>
const char* ColumnInfo(sqlite3_stmt* s, int i, Body&& body) {
  if (s == nullptr) return nullptr;
  return Guard(s->db, static_cast<const char*>(nullptr), [&]() -> const char* {
    if (i < 0 || i >= s->stmt->column_count()) return nullptr;
    return body();
  });
}

}  // namespace

extern "C" {

int sqlite3_prepare(sqlite3* db, const char* sql, int n, sqlite3_stmt** out, const char** tail) {
  return PrepareImpl(db, sql, n, out, tail);
}
int sqlite3_prepare_v2(sqlite3* db, const char* sql, int n, sqlite3_stmt** out, const char** tail) {
  return PrepareImpl(db, sql, n, out, tail);
}
int sqlite3_prepare_v3(sqlite3* db, const char* sql, int n, unsigned int flags, sqlite3_stmt** out,
                       const char** tail) {
  (void)flags;
  return PrepareImpl(db, sql, n, out, tail);
}

int sqlite3_step(sqlite3_stmt* s) {
  if (s == nullptr) return SQLITE_MISUSE;
  sqlite3* db = s->db;
  return Guard(db, kCodeOnThrow, [&] {
    if (s->stmt == nullptr) return SQLITE_MISUSE;
    s->thrown_code = 0;
    ForgetRow(s);
    if (!s->running) {
      s->running = true;
      ++s->runs;
      if (basalt::api::Traced(db)) basalt::api::TraceStart(s);
    }
    int rc;
    sqlite3_stmt* outer = db->stepping;
    db->stepping = s;
    try {
      rc = s->stmt->Step();
      db->stepping = outer;
    } catch (...) {
      db->stepping = outer;
      int code = basalt::api::NoteException(db);
      AbandonExecution(s, code);
      s->running = false;
      return code;
    }
    if (rc == SQLITE_ROW) {
      CacheRow(s);
      basalt::api::NoteStepResult(db, SQLITE_ROW);
      if (db->cb.trace_mask != 0) basalt::api::TraceRow(s);
      return rc;
    }
    s->running = false;
    basalt::api::TraceEnd(s);
    if (db->cb.wal_hook != nullptr) basalt::api::RunWalHook(db);
    if (!db->scratch.result_pointers.empty() && db->conn->active_statements() == 0) {
      db->scratch.result_pointers.clear();
    }
    if (rc == SQLITE_DONE) {
      basalt::api::NoteStepResult(db, SQLITE_DONE);
      return rc;
    }
    SetError(db, s->stmt->status());
    return db->extended_codes ? rc : (rc & 0xff);
  });
}

int sqlite3_reset(sqlite3_stmt* s) {
  if (s == nullptr) return SQLITE_OK;
  return Guard(s->db, kCodeOnThrow, [&] {
    int rc = StatementCode(s);
    s->thrown_code = 0;
    ForgetRow(s);
    s->running = false;
    basalt::api::TraceEnd(s);
    s->stmt->Reset();
    basalt::api::ForgetStepResult(s->db, rc);
    return rc;
  });
}

int sqlite3_finalize(sqlite3_stmt* s) {
  if (s == nullptr) return SQLITE_OK;
  sqlite3* db = s->db;
  bool closed = false;
  int rc = Guard(db, kCodeOnThrow, [&] {
    int code = StatementCode(s);
    basalt::api::TraceEnd(s);
    // End the execution here, where a failure is caught (the destructor
    // swallows one); the connection is recovered after a failure.
    bool failed = false;
    try {
      s->stmt->Reset();
    } catch (...) {
      failed = true;
      if (code == SQLITE_OK) code = basalt::api::NoteException(db);
    }
    basalt::api::ForgetStepResult(db, code);
    basalt::api::UnlinkStatement(s);
    delete s;
    if (failed) RecoverConnection(db);
    if (db->state.load(std::memory_order_relaxed) == DbState::kZombie && db->stmts == nullptr) {
      basalt::api::DestroyConnection(db);  // the last statement of a closed connection
      closed = true;
    }
    return code;
  });
  if (closed) basalt::api::RetireIfUnheld(db);
  return rc;
}

int sqlite3_column_count(sqlite3_stmt* s) {
  return Column(s, 0, [&] { return s->stmt->column_count(); });
}

int sqlite3_data_count(sqlite3_stmt* s) {
  return Column(s, 0, [&] { return s->row_size; });
}

const char* sqlite3_column_name(sqlite3_stmt* s, int i) {
  return ColumnInfo(s, i, [&] { return s->stmt->column_name(i).c_str(); });
}

const char* sqlite3_column_decltype(sqlite3_stmt* s, int i) {
  return ColumnInfo(s, i, [&]() -> const char* {
    const std::string& d = s->stmt->column_decltype(i);
    return d.empty() ? nullptr : d.c_str();
  });
}

const char* sqlite3_column_table_name(sqlite3_stmt* s, int i) {
  return ColumnInfo(s, i, [&]() -> const char* {
    const std::string& d = s->stmt->column_table(i);
    return d.empty() ? nullptr : d.c_str();
  });
}

const char* sqlite3_column_origin_name(sqlite3_stmt* s, int i) {
  return ColumnInfo(s, i, [&]() -> const char* {
    const std::string& d = s->stmt->column_origin(i);
    return d.empty() ? nullptr : d.c_str();
  });
}

const char* sqlite3_column_database_name(sqlite3_stmt* s, int i) {
  return ColumnInfo(
      s, i, [&]() -> const char* { return s->stmt->column_table(i).empty() ? nullptr : "main"; });
}

int sqlite3_column_type(sqlite3_stmt* s, int i) {
  return Column(s, SQLITE_NULL, [&] {
    Value* v = ColumnValue(s, i);
    if (v == nullptr) return SQLITE_NULL;
    switch (v->type()) {
      case Type::kInteger:
        return SQLITE_INTEGER;
      case Type::kReal:
        return SQLITE_FLOAT;
      case Type::kText:
        return SQLITE_TEXT;
      case Type::kBlob:
        return SQLITE_BLOB;
      default:
        return SQLITE_NULL;
    }
  });
}

sqlite3_int64 sqlite3_column_int64(sqlite3_stmt* s, int i) {
  return Column(s, sqlite3_int64{0}, [&]() -> sqlite3_int64 {
    Value* v = ColumnValue(s, i);
    if (v == nullptr) return 0;
    return v->is_int() ? v->int_value() : basalt::ValueToInt64(*v);
  });
}

int sqlite3_column_int(sqlite3_stmt* s, int i) {
  return Column(s, 0, [&]() -> int {
    Value* v = ColumnValue(s, i);
    if (v == nullptr) return 0;
    return static_cast<int>(v->is_int() ? v->int_value() : basalt::ValueToInt64(*v));
  });
}

double sqlite3_column_double(sqlite3_stmt* s, int i) {
  return Column(s, 0.0, [&] {
    Value* v = ColumnValue(s, i);
    if (v == nullptr) return 0.0;
    return v->is_real() ? v->real_value() : basalt::ValueToDouble(*v);
  });
}

const unsigned char* sqlite3_column_text(sqlite3_stmt* s, int i) {
  return Column(s, static_cast<const unsigned char*>(nullptr), [&]() -> const unsigned char* {
    Value* v = TextForm(s, i);
    if (v == nullptr || v->is_null()) return nullptr;
    return reinterpret_cast<const unsigned char*>(v->data());
  });
}

const void* sqlite3_column_blob(sqlite3_stmt* s, int i) {
  return Column(s, static_cast<const void*>(nullptr), [&]() -> const void* {
    Value* v = TextForm(s, i);
    if (v == nullptr || v->is_null() || v->size() == 0) return nullptr;
    return v->data();
  });
}

int sqlite3_column_bytes(sqlite3_stmt* s, int i) {
  return Column(s, 0, [&] {
    Value* v = ColumnValue(s, i);
    if (v == nullptr || v->is_null()) return 0;
    if (v->is_string_like()) return static_cast<int>(v->size());
    return static_cast<int>(TextForm(s, i)->size());
  });
}

sqlite3_value* sqlite3_column_value(sqlite3_stmt* s, int i) {
  static const Value null_value;  // what SQLite hands out for no column: a NULL
  auto* none = basalt::api::AsApi(const_cast<Value*>(&null_value));
  return Column(s, none, [&] {
    Value* v = ColumnValue(s, i);
    return v != nullptr ? basalt::api::AsApi(v) : none;
  });
}

// ---- statement info ----

const char* sqlite3_sql(sqlite3_stmt* s) {
  return Column(s, static_cast<const char*>(nullptr), [&] { return s->stmt->sql().c_str(); });
}

int sqlite3_stmt_readonly(sqlite3_stmt* s) {
  return Column(s, 1, [&] { return s->stmt->read_only() ? 1 : 0; });
}
int sqlite3_stmt_busy(sqlite3_stmt* s) {
  return Column(s, 0, [&] { return s->stmt->busy() ? 1 : 0; });
}
int sqlite3_stmt_isexplain(sqlite3_stmt* s) {
  return Column(s, 0, [&] { return s->stmt->explain_mode(); });
}

sqlite3* sqlite3_db_handle(sqlite3_stmt* s) { return s != nullptr ? s->db : nullptr; }

// Newest first, as SQLite walks them; a zombie's statements included.
sqlite3_stmt* sqlite3_next_stmt(sqlite3* db, sqlite3_stmt* s) {
  if (!basalt::api::HasConnection(db)) return nullptr;
  return Guard(db, static_cast<sqlite3_stmt*>(nullptr),
               [&] { return s == nullptr ? db->stmts : s->older; });
}

}  // extern "C"
