// Parameter binding: sqlite3_bind_* and the parameter queries.
#include <cstdint>
#include <cstring>

#include "api/guard.h"
#include "api/handles.h"

using basalt::Type;
using basalt::Value;
using basalt::api::Guard;
using basalt::api::kCodeOnThrow;
using basalt::api::SetError;

namespace {

// SQLITE_LIMIT_LENGTH of the statement's connection.
int64_t LengthLimit(sqlite3_stmt* s) {
  return s->db->conn != nullptr ? s->db->conn->limits().get(basalt::LimitId::kLength) : INT32_MAX;
}

// Binds the value `make` builds, under the statement's connection; text and
// blobs longer than SQLITE_LIMIT_LENGTH are refused when `check_length`.
template <typename Make>
int Bind(sqlite3_stmt* s, int i, Make&& make, bool check_length = true) {
  if (s == nullptr) return SQLITE_MISUSE;
  return Guard(s->db, kCodeOnThrow, [&] {
    if (s->stmt == nullptr) return SQLITE_MISUSE;
    Value v;
    make(&v);
    if (check_length && v.is_string_like() && static_cast<int64_t>(v.size()) > LengthLimit(s)) {
      return SetError(s->db, SQLITE_TOOBIG, "string or blob too big");
    }
    int rc = s->stmt->Bind(i, v);
    if (rc == SQLITE_OK && !s->bound_pointers.empty()) s->bound_pointers.erase(i);
    if (rc == SQLITE_RANGE) return SetError(s->db, SQLITE_RANGE, "column index out of range");
    if (rc != SQLITE_OK) return SetError(s->db, rc, "bad parameter or other API misuse");
    return SQLITE_OK;
  });
}

// The destructor an application passed with its bytes: called whatever
// became of the bind, as SQLite does.
void Destroy(const void* p, void (*del)(void*)) {
  if (del != SQLITE_STATIC && del != SQLITE_TRANSIENT && del != nullptr) del(const_cast<void*>(p));
}

}  // namespace

extern "C" {

int sqlite3_bind_parameter_count(sqlite3_stmt* s) {
  if (s == nullptr) return 0;
  return Guard(s->db, 0, [&] { return s->stmt->param_count(); });
}

const char* sqlite3_bind_parameter_name(sqlite3_stmt* s, int i) {
  if (s == nullptr) return nullptr;
  return Guard(s->db, static_cast<const char*>(nullptr), [&]() -> const char* {
    if (i < 1 || i > s->stmt->param_count()) return nullptr;
    const std::string& n = s->stmt->param_name(i);
    return n.empty() ? nullptr : n.c_str();
  });
}

int sqlite3_bind_parameter_index(sqlite3_stmt* s, const char* name) {
  if (s == nullptr || name == nullptr) return 0;
  return Guard(s->db, 0, [&] { return s->stmt->ParamIndex(name); });
}

int sqlite3_clear_bindings(sqlite3_stmt* s) {
  if (s == nullptr) return SQLITE_MISUSE;
  return Guard(s->db, kCodeOnThrow, [&] {
    s->stmt->ClearBindings();
    s->bound_pointers.clear();
    return SQLITE_OK;
  });
}

int sqlite3_bind_null(sqlite3_stmt* s, int i) {
  return Bind(s, i, [](Value*) {});
}

int sqlite3_bind_int(sqlite3_stmt* s, int i, int v) {
  return Bind(s, i, [&](Value* x) { x->SetInt(v); });
}

int sqlite3_bind_int64(sqlite3_stmt* s, int i, sqlite3_int64 v) {
  return Bind(s, i, [&](Value* x) { x->SetInt(v); });
}

int sqlite3_bind_double(sqlite3_stmt* s, int i, double v) {
  return Bind(s, i, [&](Value* x) {
    if (v == v) x->SetReal(v);  // NaN binds as NULL
  });
}

int sqlite3_bind_text(sqlite3_stmt* s, int i, const char* z, int n, void (*del)(void*)) {
  int rc = Bind(s, i, [&](Value* x) {
    if (z == nullptr) return;
    size_t len = n < 0 ? std::strlen(z) : static_cast<size_t>(n);
    x->SetTextStatic(std::string_view(z, len));
  });
  Destroy(z, del);
  return rc;
}

int sqlite3_bind_text64(sqlite3_stmt* s, int i, const char* z, sqlite3_uint64 n, void (*del)(void*),
                        unsigned char enc) {
  (void)enc;
  if (n > static_cast<sqlite3_uint64>(INT32_MAX)) {
    Destroy(z, del);
    return s == nullptr ? SQLITE_MISUSE : Guard(s->db, kCodeOnThrow, [&] {
      return SetError(s->db, SQLITE_TOOBIG, "string or blob too big");
    });
  }
  return sqlite3_bind_text(s, i, z, static_cast<int>(n), del);
}

int sqlite3_bind_blob(sqlite3_stmt* s, int i, const void* z, int n, void (*del)(void*)) {
  int rc = Bind(s, i, [&](Value* x) {
    if (z != nullptr) x->SetBlobStatic(z, static_cast<size_t>(n < 0 ? 0 : n));
  });
  Destroy(z, del);
  return rc;
}

int sqlite3_bind_blob64(sqlite3_stmt* s, int i, const void* z, sqlite3_uint64 n,
                        void (*del)(void*)) {
  if (n > static_cast<sqlite3_uint64>(INT32_MAX)) {
    Destroy(z, del);
    return s == nullptr ? SQLITE_MISUSE : Guard(s->db, kCodeOnThrow, [&] {
      return SetError(s->db, SQLITE_TOOBIG, "string or blob too big");
    });
  }
  return sqlite3_bind_blob(s, i, z, static_cast<int>(n), del);
}

// No length check, as in SQLite (the 64-bit variant has one).
// As SQLite's, sqlite3_bind_zeroblob does not check SQLITE_LIMIT_LENGTH (the
// 64-bit form does).
int sqlite3_bind_zeroblob(sqlite3_stmt* s, int i, int n) {
  return Bind(
      s, i,
      [&](Value* x) {
        size_t k = static_cast<size_t>(n < 0 ? 0 : n);
        std::memset(x->Reserve(Type::kBlob, k), 0, k);
      },
      /*check_length=*/false);
}

int sqlite3_bind_zeroblob64(sqlite3_stmt* s, int i, sqlite3_uint64 n) {
  if (s == nullptr) return SQLITE_MISUSE;
  if (n > static_cast<sqlite3_uint64>(Guard(s->db, 0, [&] { return LengthLimit(s); }))) {
    return SQLITE_TOOBIG;
  }
  return sqlite3_bind_zeroblob(s, i, static_cast<int>(n));
}

int sqlite3_bind_value(sqlite3_stmt* s, int i, const sqlite3_value* v) {
  return Bind(s, i, [&](Value* x) { x->ShallowCopyFrom(*reinterpret_cast<const Value*>(v)); });
}

}  // extern "C"
