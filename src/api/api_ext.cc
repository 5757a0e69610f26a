// Loadable extensions: sqlite3_load_extension, sqlite3_enable_load_extension
// and the automatic extensions (sqlite3_auto_extension, cancel, reset).
//
// An extension is a shared library with an entry point
//   int init(sqlite3*, char** errmsg, const sqlite3_api_routines*)
// (sqlite3ext.h) named by the caller, else sqlite3_extension_init, else
// sqlite3_<name>_init where <name> is the file's base name, lower case,
// without a leading "lib" and without its extension, letters only. The
// library stays loaded for the rest of the process (Basalt never unloads
// one: an extension may have registered functions another connection
// still calls). Automatic extensions run at the end of every
// sqlite3_open*, after Basalt's built-in ones.
#include <dlfcn.h>

#include <algorithm>
#include <cctype>
#include <mutex>
#include <string>
#include <vector>

#include "api/ext.h"
#include "api/ext_routines.h"
#include "api/guard.h"
#include "api/handles.h"

using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::SetError;

namespace {

using EntryPoint = int (*)(sqlite3*, char**, const sqlite3_api_routines*);

std::mutex& AutoMutex() {
  static std::mutex mu;
  return mu;
}
std::vector<void (*)()>& AutoList() {
  static auto* list = new std::vector<void (*)()>();
  return *list;
}

// sqlite3_<name>_init for the file `path`.
std::string DefaultEntry(const std::string& path) {
  size_t slash = path.find_last_of('/');
  std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  if (base.compare(0, 3, "lib") == 0) base = base.substr(3);
  std::string name;
  for (char c : base) {
    if (c == '.') break;
    if (std::isalpha(static_cast<unsigned char>(c))) {
      name.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    }
  }
  return "sqlite3_" + name + "_init";
}

int LoadImpl(sqlite3* db, const char* file, const char* proc, char** errmsg) {
  auto fail = [&](const std::string& msg) {
    if (errmsg != nullptr) *errmsg = sqlite3_mprintf("%s", msg.c_str());
    return SetError(db, SQLITE_ERROR, msg);
  };
  if (!db->cb.dbconfig.load_extension) return fail("not authorized");
  void* handle = nullptr;
  std::string tried;
  for (const std::string& name : {std::string(file), std::string(file) + ".so"}) {
    handle = dlopen(name.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (handle != nullptr) break;
    const char* e = dlerror();
    if (e != nullptr) tried = e;  // SQLite reports the last attempt's error
  }
  if (handle == nullptr) return fail(tried);
  std::string entry = proc != nullptr ? proc : "sqlite3_extension_init";
  auto init = reinterpret_cast<EntryPoint>(dlsym(handle, entry.c_str()));
  if (init == nullptr && proc == nullptr) {
    entry = DefaultEntry(file);
    init = reinterpret_cast<EntryPoint>(dlsym(handle, entry.c_str()));
  }
  if (init == nullptr) {
    // SQLite reports the loader's own message when it has one.
    const char* e = dlerror();
    return fail(e != nullptr ? std::string(e)
                             : "no entry point [" + entry + "] in shared library [" + file + "]");
  }
  char* msg = nullptr;
  int rc = init(db, &msg, basalt::api::ExtensionRoutines());
  if (rc != SQLITE_OK && rc != SQLITE_OK_LOAD_PERMANENTLY) {
    std::string text = std::string("error during initialization: ") + (msg != nullptr ? msg : "");
    sqlite3_free(msg);
    return fail(text);
  }
  sqlite3_free(msg);
  basalt::api::ClearError(db);
  return SQLITE_OK;
}

}  // namespace

namespace basalt::api {

int RunAutoExtensions(sqlite3* db) {
  std::vector<void (*)()> list;
  {
    std::lock_guard<std::mutex> g(AutoMutex());
    if (AutoList().empty()) return SQLITE_OK;
    int rc = Guard(nullptr, SQLITE_NOMEM, [&] {
      list = AutoList();
      return SQLITE_OK;
    });
    if (rc != SQLITE_OK) return rc;
  }
  for (void (*fn)() : list) {
    char* msg = nullptr;
    int rc = reinterpret_cast<EntryPoint>(fn)(db, &msg, ExtensionRoutines());
    if (rc != SQLITE_OK) {
      std::string text =
          std::string("automatic extension loading failed: ") + (msg != nullptr ? msg : "");
      sqlite3_free(msg);
      Guard(db, 0, [&] { return SetError(db, rc, text); });
      return rc;
    }
    sqlite3_free(msg);
  }
  return SQLITE_OK;
}

}  // namespace basalt::api

extern "C" {

int sqlite3_load_extension(sqlite3* db, const char* file, const char* proc, char** errmsg) {
  if (errmsg != nullptr) *errmsg = nullptr;
  if (!HasConnection(db) || file == nullptr) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] { return LoadImpl(db, file, proc, errmsg); });
}

int sqlite3_enable_load_extension(sqlite3* db, int onoff) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    db->cb.dbconfig.load_extension = onoff != 0;
    return SQLITE_OK;
  });
}

int sqlite3_auto_extension(void (*entry)(void)) {
  if (entry == nullptr) return SQLITE_MISUSE;
  std::lock_guard<std::mutex> g(AutoMutex());
  return Guard(nullptr, SQLITE_NOMEM, [&] {
    auto& list = AutoList();
    if (std::find(list.begin(), list.end(), entry) == list.end()) list.push_back(entry);
    return SQLITE_OK;
  });
}

int sqlite3_cancel_auto_extension(void (*entry)(void)) {
  std::lock_guard<std::mutex> g(AutoMutex());
  auto& list = AutoList();
  auto it = std::find(list.begin(), list.end(), entry);
  if (it == list.end()) return 0;
  list.erase(it);
  return 1;
}

void sqlite3_reset_auto_extension(void) {
  std::lock_guard<std::mutex> g(AutoMutex());
  AutoList().clear();
}

}  // extern "C"
