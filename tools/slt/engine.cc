// Engine loading. Libraries are opened RTLD_LOCAL so that two engines that
// export the same sqlite3_* names can live in one process (--engine both).
#include "engine.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

namespace basalt::slt {

std::string DefaultLibrary(const std::string& engine_name) {
  if (engine_name == "sqlite") return "libsqlite3.so.0";
  // Basalt's library is built into the same directory as this executable.
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return "libbasalt.so";
  std::string dir(exe, n);
  const size_t slash = dir.rfind('/');
  dir.resize(slash == std::string::npos ? 0 : slash + 1);
  return dir + "libbasalt.so";
}

bool LoadEngine(Engine* engine, std::string* error) {
  engine->handle = ::dlopen(engine->library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (engine->handle == nullptr) {
    const char* why = ::dlerror();
    *error = "cannot load engine '" + engine->name + "' from " + engine->library + ": " +
             (why ? why : "unknown error");
    return false;
  }
  EngineApi& api = engine->api;
  std::string missing;
#define BASALT_SLT_RESOLVE(name)                                                              \
  api.name = reinterpret_cast<decltype(api.name)>(::dlsym(engine->handle, "sqlite3_" #name)); \
  if (api.name == nullptr) missing += " sqlite3_" #name;
  BASALT_SLT_ENGINE_FUNCTIONS(BASALT_SLT_RESOLVE)
#undef BASALT_SLT_RESOLVE
  if (!missing.empty()) {
    *error = "engine '" + engine->name + "' (" + engine->library + ") lacks:" + missing;
    ::dlclose(engine->handle);
    engine->handle = nullptr;
    return false;
  }
  const char* version = api.libversion();
  engine->version = version ? version : "?";
  return true;
}

}  // namespace basalt::slt
