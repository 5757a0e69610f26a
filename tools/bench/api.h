// The sqlite3 C API entry points the benchmark uses, loaded with dlopen so
// that Basalt's library and the system libsqlite3 run the same code in the
// same process.
#pragma once

#include <string>

#include "sqlite3.h"

namespace basalt::bench {

struct Api {
#define BASALT_BENCH_FUNCTIONS(X) \
  X(open_v2)                      \
  X(close)                        \
  X(exec)                         \
  X(prepare_v2)                   \
  X(step)                         \
  X(reset)                        \
  X(finalize)                     \
  X(bind_int64)                   \
  X(bind_double)                  \
  X(bind_text)                    \
  X(column_int64)                 \
  X(column_double)                \
  X(column_text)                  \
  X(column_bytes)                 \
  X(errmsg)                       \
  X(libversion)
#define BASALT_BENCH_DECLARE(name) decltype(&::sqlite3_##name) name = nullptr;
  BASALT_BENCH_FUNCTIONS(BASALT_BENCH_DECLARE)
#undef BASALT_BENCH_DECLARE
};

struct Engine {
  std::string name;
  std::string library;
  Api api;
};

// Loads `library` (RTLD_LOCAL); false with *error on failure.
bool LoadApi(Engine* e, std::string* error);
// libbasalt.so beside this executable.
std::string BasaltLibrary();

}  // namespace basalt::bench
