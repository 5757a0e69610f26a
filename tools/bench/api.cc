#include "api.h"

#include <dlfcn.h>
#include <limits.h>
#include <unistd.h>

namespace basalt::bench {

std::string BasaltLibrary() {
  char exe[PATH_MAX];
  const ssize_t n = ::readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  if (n <= 0) return "libbasalt.so";
  std::string dir(exe, static_cast<size_t>(n));
  dir.resize(dir.rfind('/') + 1);
  return dir + "libbasalt.so";
}

bool LoadApi(Engine* e, std::string* error) {
  void* h = ::dlopen(e->library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* why = ::dlerror();
    *error = "cannot load " + e->library + ": " + (why ? why : "?");
    return false;
  }
#define BASALT_BENCH_RESOLVE(name)                                                     \
  e->api.name = reinterpret_cast<decltype(e->api.name)>(::dlsym(h, "sqlite3_" #name)); \
  if (e->api.name == nullptr) {                                                        \
    *error = e->library + " lacks sqlite3_" #name;                                     \
    return false;                                                                      \
  }
  BASALT_BENCH_FUNCTIONS(BASALT_BENCH_RESOLVE)
#undef BASALT_BENCH_RESOLVE
  return true;
}

}  // namespace basalt::bench
