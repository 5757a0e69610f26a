#include "session_engines.h"

#include <dlfcn.h>

namespace basalt::sessiontest {
namespace {

const Lib* Load(const char* path, const char* name) {
  void* h = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) return nullptr;
  auto* lib = new Lib();
  lib->name = name;
  bool ok = true;
#define BASALT_SESSION_TEST_RESOLVE(field, sym)                          \
  lib->field = reinterpret_cast<decltype(lib->field)>(::dlsym(h, #sym)); \
  ok = ok && lib->field != nullptr;
  BASALT_SESSION_TEST_FUNCTIONS(BASALT_SESSION_TEST_RESOLVE)
#undef BASALT_SESSION_TEST_RESOLVE
  if (!ok) {
    delete lib;
    return nullptr;
  }
  return lib;
}

}  // namespace

const Lib* BasaltLib() {
  static const Lib* lib = Load(BASALT_LIBRARY_PATH, "basalt");
  return lib;
}

const Lib* SqliteLib() {
  static const Lib* lib = Load("libsqlite3.so.0", "sqlite");
  return lib;
}

}  // namespace basalt::sessiontest
