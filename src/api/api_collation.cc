// User collating sequences: sqlite3_create_collation, _v2 and 16, and
// sqlite3_collation_needed / 16. The connection keeps them in its
// CollationSet (record/collation_set.h); the engine hands compare
// functions UTF-8 text, so a collation registered for UTF-16 gets a
// trampoline that converts both strings first.
#include <cstring>
#include <string>

#include "api/guard.h"
#include "api/handles.h"
#include "common/utf.h"

using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::kCodeOnThrow;
using basalt::api::SetError;

namespace {

using CompareFn = int (*)(void*, int, const void*, int, const void*);

// A UTF-16 collation: the application's function and what to convert to.
struct Utf16Collation {
  CompareFn compare;
  void* arg;
  void (*destroy)(void*);
  bool big_endian;
};

std::string ToUtf16(const void* p, int n, bool big_endian) {
  std::u16string u = basalt::Utf8ToUtf16(
      std::string_view(static_cast<const char*>(p), static_cast<size_t>(n < 0 ? 0 : n)));
  std::string out(u.size() * 2, '\0');
  for (size_t i = 0; i < u.size(); ++i) {
    auto hi = static_cast<char>(u[i] >> 8), lo = static_cast<char>(u[i] & 0xff);
    out[2 * i] = big_endian ? hi : lo;
    out[2 * i + 1] = big_endian ? lo : hi;
  }
  return out;
}

int CompareUtf16(void* arg, int n1, const void* a, int n2, const void* b) {
  auto* c = static_cast<Utf16Collation*>(arg);
  std::string x = ToUtf16(a, n1, c->big_endian), y = ToUtf16(b, n2, c->big_endian);
  return c->compare(c->arg, static_cast<int>(x.size()), x.data(), static_cast<int>(y.size()),
                    y.data());
}

void DestroyUtf16(void* arg) {
  auto* c = static_cast<Utf16Collation*>(arg);
  if (c->destroy != nullptr) c->destroy(c->arg);
  delete c;
}

bool NativeBigEndian() {
  const uint16_t one = 1;
  unsigned char b;
  std::memcpy(&b, &one, 1);
  return b == 0;
}

int CreateCollation(sqlite3* db, const char* name, int enc, void* arg, CompareFn cmp,
                    void (*destroy)(void*)) {
  if (!HasConnection(db) || name == nullptr) return SQLITE_MISUSE;
  return Guard(db, kCodeOnThrow, [&] {
    int e = enc & ~SQLITE_UTF16_ALIGNED;
    if (e == SQLITE_UTF16) e = NativeBigEndian() ? SQLITE_UTF16BE : SQLITE_UTF16LE;
    if (e < SQLITE_UTF8 || e > SQLITE_UTF16BE)
      return SetError(db, SQLITE_MISUSE, "bad parameter or other API misuse");
    if (db->conn->active_statements() > 0 && db->conn->collations().Defines(name, e)) {
      return SetError(db, SQLITE_BUSY,
                      "unable to delete/modify collation sequence due to active statements");
    }
    void* use_arg = arg;
    CompareFn use_cmp = cmp;
    void (*use_destroy)(void*) = destroy;
    if (cmp != nullptr && e != SQLITE_UTF8) {
      auto* w = new Utf16Collation{cmp, arg, destroy, e == SQLITE_UTF16BE};
      use_arg = w;
      use_cmp = CompareUtf16;
      use_destroy = DestroyUtf16;
    }
    if (db->conn->collations().Define(name, e, use_cmp, use_arg, use_destroy) || cmp == nullptr) {
      db->conn->ExpireStatements();
    }
    // A deletion still owns the application's destructor (SQLite calls it).
    if (cmp == nullptr && destroy != nullptr) destroy(arg);
    basalt::api::ClearError(db);
    return SQLITE_OK;
  });
}

// Installs the connection's `needed` hook to call whichever callback is set.
void InstallNeeded(sqlite3* db) {
  basalt::CollationSet& set = db->conn->collations();
  if (db->cb.coll_needed == nullptr && db->cb.coll_needed16 == nullptr) {
    set.needed = nullptr;
    return;
  }
  set.needed = [db](std::string_view name) {
    std::string n(name);
    const ApiCallbacks cb = db->cb;
    if (cb.coll_needed != nullptr) {
      cb.coll_needed(cb.coll_needed_arg, db, SQLITE_UTF8, n.c_str());
    } else if (cb.coll_needed16 != nullptr) {
      std::u16string u = basalt::Utf8ToUtf16(n);
      u.push_back(u'\0');
      cb.coll_needed16(cb.coll_needed_arg, db, SQLITE_UTF16, u.data());
    }
  };
}

}  // namespace

extern "C" {

int sqlite3_create_collation(sqlite3* db, const char* name, int enc, void* arg, CompareFn cmp) {
  return CreateCollation(db, name, enc, arg, cmp, nullptr);
}

int sqlite3_create_collation_v2(sqlite3* db, const char* name, int enc, void* arg, CompareFn cmp,
                                void (*destroy)(void*)) {
  return CreateCollation(db, name, enc, arg, cmp, destroy);
}

int sqlite3_create_collation16(sqlite3* db, const void* name, int enc, void* arg, CompareFn cmp) {
  if (name == nullptr) return SQLITE_MISUSE;
  size_t n = 0;
  while (static_cast<const char16_t*>(name)[n] != 0) ++n;
  return Guard(nullptr, SQLITE_NOMEM, [&] {
    std::string utf8 = basalt::Utf16ToUtf8(name, n * 2, NativeBigEndian());
    return CreateCollation(db, utf8.c_str(), enc, arg, cmp, nullptr);
  });
}

int sqlite3_collation_needed(sqlite3* db, void* arg,
                             void (*cb)(void*, sqlite3*, int, const char*)) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  return Guard(db, kCodeOnThrow, [&] {
    db->cb.coll_needed = cb;
    db->cb.coll_needed16 = nullptr;
    db->cb.coll_needed_arg = arg;
    InstallNeeded(db);
    return SQLITE_OK;
  });
}

int sqlite3_collation_needed16(sqlite3* db, void* arg,
                               void (*cb)(void*, sqlite3*, int, const void*)) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  return Guard(db, kCodeOnThrow, [&] {
    db->cb.coll_needed16 = cb;
    db->cb.coll_needed = nullptr;
    db->cb.coll_needed_arg = arg;
    InstallNeeded(db);
    return SQLITE_OK;
  });
}

}  // extern "C"
