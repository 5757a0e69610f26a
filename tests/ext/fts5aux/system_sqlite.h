// The system libsqlite3, loaded with dlopen so the tests never link it (they
// link Basalt's objects, whose sqlite3_* symbols would clash). Gives the
// few C API entry points the FTS5 comparison programs use, and the
// connection's fts5_api.
#pragma once

#include <dlfcn.h>

#include <cstdio>
#include <string>

#include "ext/fts5/fts5_abi.h"

namespace basalt::fts5test {

struct SystemSqlite;
// The loaded library; sqlite_forward.cc routes the sqlite3_* calls of the
// code under test (auxiliary functions) to it.
extern SystemSqlite g_system;

#define FTS5TEST_FUNCTIONS(X) \
  X(open)                     \
  X(close)                    \
  X(exec)                     \
  X(errmsg)                   \
  X(free)                     \
  X(prepare_v2)               \
  X(step)                     \
  X(reset)                    \
  X(finalize)                 \
  X(bind_pointer)             \
  X(bind_text)                \
  X(bind_int64)               \
  X(column_count)             \
  X(column_type)              \
  X(column_text)              \
  X(column_bytes)             \
  X(column_double)            \
  X(column_int64)             \
  X(value_text)               \
  X(value_int)                \
  X(value_double)             \
  X(result_text)              \
  X(result_double)            \
  X(result_error)             \
  X(result_error_code)        \
  X(result_error_nomem)

struct SystemSqlite {
#define FTS5TEST_MEMBER(name) decltype(&sqlite3_##name) name = nullptr;
  FTS5TEST_FUNCTIONS(FTS5TEST_MEMBER)
#undef FTS5TEST_MEMBER

  // Loads the library; false (with a message on stderr) if it cannot.
  bool Load(const char* path = "libsqlite3.so.0") {
    void* h = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) {
      std::fprintf(stderr, "cannot load %s\n", path);
      return false;
    }
#define FTS5TEST_RESOLVE(name)                                           \
  name = reinterpret_cast<decltype(name)>(::dlsym(h, "sqlite3_" #name)); \
  if (name == nullptr) {                                                 \
    std::fprintf(stderr, "%s lacks sqlite3_%s\n", path, #name);          \
    return false;                                                        \
  }
    FTS5TEST_FUNCTIONS(FTS5TEST_RESOLVE)
#undef FTS5TEST_RESOLVE
    return true;
  }

  // The fts5_api of `db` (nullptr if the library has no FTS5).
  fts5_api* Fts5Api(sqlite3* db) const {
    fts5_api* api = nullptr;
    sqlite3_stmt* st = nullptr;
    if (prepare_v2(db, "SELECT fts5(?1)", -1, &st, nullptr) != SQLITE_OK) return nullptr;
    bind_pointer(st, 1, &api, "fts5_api_ptr", nullptr);
    step(st);
    finalize(st);
    return api;
  }
};

}  // namespace basalt::fts5test
