// Prepared statements: prepare, step, column access, parameter binding.
#include <cstring>
#include <new>

#include "api/handles.h"
#include "record/value_ops.h"

using basalt::Statement;
using basalt::Type;
using basalt::Value;
using basalt::api::ClearError;
using basalt::api::SetError;

namespace {

int PrepareImpl(sqlite3* db, const char* sql, int nbytes, sqlite3_stmt** out, const char** tail) {
  if (out == nullptr) return SQLITE_MISUSE;
  *out = nullptr;
  if (db == nullptr || sql == nullptr) {
    if (tail) *tail = sql;
    return SetError(db, SQLITE_MISUSE, "bad parameter or other API misuse");
  }
  size_t len = nbytes < 0 ? std::strlen(sql) : strnlen(sql, static_cast<size_t>(nbytes));
  try {
    size_t consumed = 0;
    auto r = db->conn->Prepare(std::string_view(sql, len), &consumed);
    if (tail) *tail = sql + consumed;
    if (!r.ok()) {
      SetError(db, r.status());
      db->err_offset = db->conn->last_error_offset();
      return r.status().code() & 0xff;
    }
    ClearError(db);
    if (*r == nullptr) return SQLITE_OK;
    auto* s = new sqlite3_stmt();
    s->db = db;
    s->stmt = std::move(r).value();
    db->stmts.push_back(s);
    *out = s;
    return SQLITE_OK;
  } catch (const std::bad_alloc&) {
    return SetError(db, SQLITE_NOMEM, "out of memory");
  }
}

Value* ColumnValue(sqlite3_stmt* s, int i) {
  if (s == nullptr || s->stmt == nullptr) return nullptr;
  if (i < 0 || i >= s->stmt->data_count()) return nullptr;
  return s->stmt->column(i);
}

// A NUL-terminated text form of column i (numbers rendered as text).
Value* TextForm(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr || v->is_null()) return v;
  if (v->is_string_like() && v->owns_bytes()) return v;
  if (s->text_cache.size() <= static_cast<size_t>(i)) s->text_cache.resize(static_cast<size_t>(i) + 1);
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

int BindValue(sqlite3_stmt* s, int i, const Value& v) {
  if (s == nullptr || s->stmt == nullptr) return SQLITE_MISUSE;
  int rc = s->stmt->Bind(i, v);
  if (rc == SQLITE_RANGE) return SetError(s->db, SQLITE_RANGE, "column index out of range");
  if (rc != SQLITE_OK) return SetError(s->db, rc, "bad parameter or other API misuse");
  return SQLITE_OK;
}

void Destroy(const void* p, void (*del)(void*)) {
  if (del != SQLITE_STATIC && del != SQLITE_TRANSIENT && del != nullptr) del(const_cast<void*>(p));
}

}  // namespace

extern "C" {

int sqlite3_prepare(sqlite3* db, const char* sql, int n, sqlite3_stmt** out, const char** tail) {
  return PrepareImpl(db, sql, n, out, tail);
}
int sqlite3_prepare_v2(sqlite3* db, const char* sql, int n, sqlite3_stmt** out,
                       const char** tail) {
  return PrepareImpl(db, sql, n, out, tail);
}
int sqlite3_prepare_v3(sqlite3* db, const char* sql, int n, unsigned int flags,
                       sqlite3_stmt** out, const char** tail) {
  (void)flags;
  return PrepareImpl(db, sql, n, out, tail);
}

int sqlite3_step(sqlite3_stmt* s) {
  if (s == nullptr || s->stmt == nullptr) return SQLITE_MISUSE;
  try {
    int rc = s->stmt->Step();
    if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
      ClearError(s->db);
      return rc;
    }
    SetError(s->db, s->stmt->status());
    return s->db->extended_codes ? rc : (rc & 0xff);
  } catch (const std::bad_alloc&) {
    return SetError(s->db, SQLITE_NOMEM, "out of memory");
  }
}

int sqlite3_reset(sqlite3_stmt* s) {
  if (s == nullptr) return SQLITE_OK;
  int rc = s->stmt->status().ok() ? SQLITE_OK : s->stmt->status().code();
  s->stmt->Reset();
  return rc & 0xff;
}

int sqlite3_finalize(sqlite3_stmt* s) {
  if (s == nullptr) return SQLITE_OK;
  sqlite3* db = s->db;
  int rc = s->stmt && !s->stmt->status().ok() ? s->stmt->status().code() & 0xff : SQLITE_OK;
  if (db != nullptr) {
    auto& v = db->stmts;
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == s) {
        v.erase(v.begin() + static_cast<long>(i));
        break;
      }
    }
  }
  s->stmt.reset();
  delete s;
  return rc;
}

int sqlite3_clear_bindings(sqlite3_stmt* s) {
  if (s && s->stmt) s->stmt->ClearBindings();
  return SQLITE_OK;
}

int sqlite3_column_count(sqlite3_stmt* s) {
  return s && s->stmt ? s->stmt->column_count() : 0;
}

int sqlite3_data_count(sqlite3_stmt* s) { return s && s->stmt ? s->stmt->data_count() : 0; }

const char* sqlite3_column_name(sqlite3_stmt* s, int i) {
  if (s == nullptr || i < 0 || i >= s->stmt->column_count()) return nullptr;
  return s->stmt->column_name(i).c_str();
}

const char* sqlite3_column_decltype(sqlite3_stmt* s, int i) {
  if (s == nullptr || i < 0 || i >= s->stmt->column_count()) return nullptr;
  const std::string& d = s->stmt->column_decltype(i);
  return d.empty() ? nullptr : d.c_str();
}

const char* sqlite3_column_table_name(sqlite3_stmt* s, int i) {
  if (s == nullptr || i < 0 || i >= s->stmt->column_count()) return nullptr;
  const std::string& d = s->stmt->column_table(i);
  return d.empty() ? nullptr : d.c_str();
}

const char* sqlite3_column_origin_name(sqlite3_stmt* s, int i) {
  if (s == nullptr || i < 0 || i >= s->stmt->column_count()) return nullptr;
  const std::string& d = s->stmt->column_origin(i);
  return d.empty() ? nullptr : d.c_str();
}

const char* sqlite3_column_database_name(sqlite3_stmt* s, int i) {
  if (s == nullptr || i < 0 || i >= s->stmt->column_count()) return nullptr;
  return s->stmt->column_table(i).empty() ? nullptr : "main";
}

int sqlite3_column_type(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr) return SQLITE_NULL;
  switch (v->type()) {
    case Type::kInteger: return SQLITE_INTEGER;
    case Type::kReal: return SQLITE_FLOAT;
    case Type::kText: return SQLITE_TEXT;
    case Type::kBlob: return SQLITE_BLOB;
    default: return SQLITE_NULL;
  }
}

int sqlite3_column_int(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr) return 0;
  return static_cast<int>(v->is_int() ? v->int_value() : basalt::ValueToInt64(*v));
}

sqlite3_int64 sqlite3_column_int64(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr) return 0;
  return v->is_int() ? v->int_value() : basalt::ValueToInt64(*v);
}

double sqlite3_column_double(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr) return 0.0;
  return v->is_real() ? v->real_value() : basalt::ValueToDouble(*v);
}

const unsigned char* sqlite3_column_text(sqlite3_stmt* s, int i) {
  Value* v = TextForm(s, i);
  if (v == nullptr || v->is_null()) return nullptr;
  return reinterpret_cast<const unsigned char*>(v->data());
}

const void* sqlite3_column_blob(sqlite3_stmt* s, int i) {
  Value* v = TextForm(s, i);
  if (v == nullptr || v->is_null() || v->size() == 0) return nullptr;
  return v->data();
}

int sqlite3_column_bytes(sqlite3_stmt* s, int i) {
  Value* v = ColumnValue(s, i);
  if (v == nullptr || v->is_null()) return 0;
  if (v->is_string_like()) return static_cast<int>(v->size());
  Value* t = TextForm(s, i);
  return static_cast<int>(t->size());
}

sqlite3_value* sqlite3_column_value(sqlite3_stmt* s, int i) {
  static Value null_value;
  Value* v = ColumnValue(s, i);
  return basalt::api::AsApi(v ? v : &null_value);
}

// ---- binding ----

int sqlite3_bind_parameter_count(sqlite3_stmt* s) { return s ? s->stmt->param_count() : 0; }

const char* sqlite3_bind_parameter_name(sqlite3_stmt* s, int i) {
  if (s == nullptr || i < 1 || i > s->stmt->param_count()) return nullptr;
  const std::string& n = s->stmt->param_name(i);
  return n.empty() ? nullptr : n.c_str();
}

int sqlite3_bind_parameter_index(sqlite3_stmt* s, const char* name) {
  if (s == nullptr || name == nullptr) return 0;
  return s->stmt->ParamIndex(name);
}

int sqlite3_bind_null(sqlite3_stmt* s, int i) { return BindValue(s, i, Value()); }

int sqlite3_bind_int(sqlite3_stmt* s, int i, int v) { return BindValue(s, i, Value::Int(v)); }

int sqlite3_bind_int64(sqlite3_stmt* s, int i, sqlite3_int64 v) {
  return BindValue(s, i, Value::Int(v));
}

int sqlite3_bind_double(sqlite3_stmt* s, int i, double v) {
  Value x;
  if (v != v) {
    x.SetNull();  // NaN binds as NULL
  } else {
    x.SetReal(v);
  }
  return BindValue(s, i, x);
}

int sqlite3_bind_text(sqlite3_stmt* s, int i, const char* z, int n, void (*del)(void*)) {
  Value x;
  if (z != nullptr) {
    size_t len = n < 0 ? std::strlen(z) : static_cast<size_t>(n);
    x.SetTextStatic(std::string_view(z, len));
  }
  int rc = BindValue(s, i, x);
  Destroy(z, del);
  return rc;
}

int sqlite3_bind_text64(sqlite3_stmt* s, int i, const char* z, sqlite3_uint64 n,
                        void (*del)(void*), unsigned char enc) {
  (void)enc;
  return sqlite3_bind_text(s, i, z, static_cast<int>(n), del);
}

int sqlite3_bind_blob(sqlite3_stmt* s, int i, const void* z, int n, void (*del)(void*)) {
  Value x;
  if (z != nullptr) x.SetBlobStatic(z, static_cast<size_t>(n < 0 ? 0 : n));
  int rc = BindValue(s, i, x);
  Destroy(z, del);
  return rc;
}

int sqlite3_bind_blob64(sqlite3_stmt* s, int i, const void* z, sqlite3_uint64 n,
                        void (*del)(void*)) {
  return sqlite3_bind_blob(s, i, z, static_cast<int>(n), del);
}

int sqlite3_bind_zeroblob(sqlite3_stmt* s, int i, int n) {
  Value x;
  char* p = x.Reserve(Type::kBlob, static_cast<size_t>(n < 0 ? 0 : n));
  std::memset(p, 0, static_cast<size_t>(n < 0 ? 0 : n));
  return BindValue(s, i, x);
}

int sqlite3_bind_zeroblob64(sqlite3_stmt* s, int i, sqlite3_uint64 n) {
  if (n > 1000000000ULL) return SQLITE_TOOBIG;
  return sqlite3_bind_zeroblob(s, i, static_cast<int>(n));
}

int sqlite3_bind_value(sqlite3_stmt* s, int i, const sqlite3_value* v) {
  return BindValue(s, i, *reinterpret_cast<const Value*>(v));
}

// ---- statement info ----

const char* sqlite3_sql(sqlite3_stmt* s) { return s ? s->stmt->sql().c_str() : nullptr; }

char* sqlite3_expanded_sql(sqlite3_stmt* s) {
  if (s == nullptr) return nullptr;
  return sqlite3_mprintf("%s", s->stmt->sql().c_str());
}

int sqlite3_stmt_readonly(sqlite3_stmt* s) { return s ? s->stmt->read_only() : 1; }
int sqlite3_stmt_busy(sqlite3_stmt* s) { return s ? s->stmt->busy() : 0; }
int sqlite3_stmt_isexplain(sqlite3_stmt* s) { return s ? s->stmt->explain_mode() : 0; }

sqlite3* sqlite3_db_handle(sqlite3_stmt* s) { return s ? s->db : nullptr; }

sqlite3_stmt* sqlite3_next_stmt(sqlite3* db, sqlite3_stmt* s) {
  if (db == nullptr) return nullptr;
  if (s == nullptr) return db->stmts.empty() ? nullptr : db->stmts.front();
  for (size_t i = 0; i + 1 < db->stmts.size(); ++i) {
    if (db->stmts[i] == s) return db->stmts[i + 1];
  }
  return nullptr;
}

}  // extern "C"
