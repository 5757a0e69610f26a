// Helpers shared by the hook and session tests (session_engines.h).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "session_engines.h"

namespace basalt::sessiontest {

// Both libraries, or a skipped test when the system one is missing.
#define BASALT_REQUIRE_LIBS()                                  \
  const Lib* B = BasaltLib();                                  \
  const Lib* S = SqliteLib();                                  \
  ASSERT_NE(B, nullptr) << "cannot load " BASALT_LIBRARY_PATH; \
  if (S == nullptr) GTEST_SKIP() << "the system libsqlite3 is not available"

inline sqlite3* OpenMemory(const Lib* L) {
  sqlite3* db = nullptr;
  L->open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  return db;
}

// Runs the SQL; failures are noted in the returned text ("" when fine).
inline std::string Exec(const Lib* L, sqlite3* db, const std::string& sql) {
  char* err = nullptr;
  int rc = L->exec(db, sql.c_str(), nullptr, nullptr, &err);
  std::string out;
  if (rc != SQLITE_OK) out = "error " + std::to_string(rc) + ": " + (err ? err : "");
  L->free(err);
  return out;
}

inline std::string ValueText(const Lib* L, sqlite3_value* v) {
  if (v == nullptr) return "undef";
  switch (L->value_type(v)) {
    case SQLITE_INTEGER:
      return "i" + std::to_string(L->value_int64(v));
    case SQLITE_FLOAT: {
      char buf[64];
      std::snprintf(buf, sizeof(buf), "r%.17g", L->value_double(v));
      return buf;
    }
    case SQLITE_TEXT:
      return "t'" + std::string(reinterpret_cast<const char*>(L->value_text(v))) + "'";
    case SQLITE_BLOB:
      return "b" + std::to_string(L->value_bytes(v));
    default:
      return "null";
  }
}

// Every row of a query, one line each.
inline std::string Dump(const Lib* L, sqlite3* db, const std::string& sql) {
  sqlite3_stmt* st = nullptr;
  if (L->prepare_v2(db, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) {
    return std::string("prepare failed: ") + L->errmsg(db);
  }
  std::string out;
  while (L->step(st) == SQLITE_ROW) {
    for (int i = 0; i < L->column_count(st); ++i) {
      out += (i ? "|" : "") + ValueText(L, L->column_value(st, i));
    }
    out += "\n";
  }
  L->finalize(st);
  return out;
}

inline std::string Hex(const void* p, int n) {
  static const char* d = "0123456789abcdef";
  std::string s;
  const auto* b = static_cast<const unsigned char*>(p);
  for (int i = 0; i < n; ++i) {
    s.push_back(d[b[i] >> 4]);
    s.push_back(d[b[i] & 15]);
  }
  return s;
}

// A buffer the library allocated, as a string (freed).
inline std::string Take(const Lib* L, int n, void* p) {
  std::string s(static_cast<const char*>(p), static_cast<size_t>(n > 0 ? n : 0));
  L->free(p);
  return s;
}

// Stream callbacks over a std::string.
struct StreamIn {
  const std::string* data;
  size_t pos = 0;
};
inline int ReadStream(void* in, void* buf, int* n) {
  auto* s = static_cast<StreamIn*>(in);
  size_t k = std::min(static_cast<size_t>(*n), s->data->size() - s->pos);
  k = std::min<size_t>(k, 7);  // small chunks: exercise reassembly
  std::memcpy(buf, s->data->data() + s->pos, k);
  s->pos += k;
  *n = static_cast<int>(k);
  return SQLITE_OK;
}
inline int WriteStream(void* out, const void* data, int n) {
  static_cast<std::string*>(out)->append(static_cast<const char*>(data), static_cast<size_t>(n));
  return SQLITE_OK;
}

// Every update / preupdate hook call (mode: 1 update, 2 preupdate, 3 both)
// the statements of `script` make, with the values the callback can read;
// `after` runs once the hooks are removed (no calls).
std::string HookTranscript(const Lib* L, const std::vector<std::string>& script, int mode,
                           const std::string& after);

}  // namespace basalt::sessiontest
