#include "engines.h"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <vector>

namespace basalt::apitest {

const Api& Basalt() {
  static const Api api = [] {
    Api a;
    a.name = "basalt";
#define BASALT_API_TEST_BIND(fn) a.fn = &::sqlite3_##fn;
    BASALT_API_TEST_FUNCTIONS(BASALT_API_TEST_BIND)
    BASALT_API_TEST_FUNCTIONS_2(BASALT_API_TEST_BIND)
    BASALT_API_TEST_FUNCTIONS_3(BASALT_API_TEST_BIND)
    BASALT_API_TEST_FUNCTIONS_4(BASALT_API_TEST_BIND)
#undef BASALT_API_TEST_BIND
    return a;
  }();
  return api;
}

const Api* Sqlite() {
  static const Api* api = []() -> const Api* {
    void* h = ::dlopen("libsqlite3.so.0", RTLD_NOW | RTLD_LOCAL);
    if (h == nullptr) return nullptr;
    auto* a = new Api();
    a->name = "sqlite";
#define BASALT_API_TEST_RESOLVE(fn)                                      \
  a->fn = reinterpret_cast<decltype(a->fn)>(::dlsym(h, "sqlite3_" #fn)); \
  if (a->fn == nullptr) {                                                \
    delete a;                                                            \
    return nullptr;                                                      \
  }
    BASALT_API_TEST_FUNCTIONS(BASALT_API_TEST_RESOLVE)
    BASALT_API_TEST_FUNCTIONS_2(BASALT_API_TEST_RESOLVE)
    BASALT_API_TEST_FUNCTIONS_3(BASALT_API_TEST_RESOLVE)
    BASALT_API_TEST_FUNCTIONS_4(BASALT_API_TEST_RESOLVE)
#undef BASALT_API_TEST_RESOLVE
    return a;
  }();
  return api;
}

namespace {
struct TempDirs {
  std::mutex mu;
  std::vector<std::string> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& d : dirs) std::filesystem::remove_all(d, ec);
  }
};
TempDirs& Dirs() {
  static TempDirs dirs;
  return dirs;
}
}  // namespace

std::string TempDir(const std::string& tag) {
  std::string base = std::filesystem::temp_directory_path().string() + "/basalt-api-" + tag + "-" +
                     std::to_string(::getpid()) + "-XXXXXX";
  std::vector<char> buf(base.begin(), base.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr) std::abort();
  std::string dir(buf.data());
  std::lock_guard<std::mutex> g(Dirs().mu);
  Dirs().dirs.push_back(dir);
  return dir;
}

}  // namespace basalt::apitest
