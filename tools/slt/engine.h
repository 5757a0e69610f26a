// An SQL engine reached only through the sqlite3 C API, loaded at run time
// with dlopen. The runner never links an engine: Basalt's libbasalt.so and
// the system's libsqlite3.so.0 are interchangeable behind this table.
#pragma once

#include <string>

#include "sqlite3.h"

namespace basalt::slt {

// The C API entry points the runner uses. Each member has the type of the
// sqlite3_* function of the same name.
struct EngineApi {
#define BASALT_SLT_ENGINE_FUNCTIONS(X) \
  X(open_v2)                           \
  X(close)                             \
  X(prepare_v2)                        \
  X(step)                              \
  X(finalize)                          \
  X(column_count)                      \
  X(column_type)                       \
  X(column_text)                       \
  X(column_int)                        \
  X(column_double)                     \
  X(errmsg)                            \
  X(libversion)
#define BASALT_SLT_DECLARE(name) decltype(&::sqlite3_##name) name = nullptr;
  BASALT_SLT_ENGINE_FUNCTIONS(BASALT_SLT_DECLARE)
#undef BASALT_SLT_DECLARE
};

struct Engine {
  std::string name;     // "basalt" or "sqlite": how reports call it
  std::string library;  // the path or soname handed to dlopen
  std::string version;  // sqlite3_libversion() of the loaded library
  EngineApi api;
  void* handle = nullptr;
};

// The library each engine name stands for: "basalt" is libbasalt.so next to
// this executable, "sqlite" the system's libsqlite3.so.0.
std::string DefaultLibrary(const std::string& engine_name);

// dlopens engine->library and resolves every function. On failure returns
// false with *error set; the engine is then unusable.
bool LoadEngine(Engine* engine, std::string* error);

}  // namespace basalt::slt
