// .backup/.save and .restore through the online-backup API. The backup
// functions are looked up at run time: a library without them gets a clear
// error instead of a shell that does not start.
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

struct BackupApi {
  sqlite3_backup* (*init)(sqlite3*, const char*, sqlite3*, const char*);
  int (*step)(sqlite3_backup*, int);
  int (*finish)(sqlite3_backup*);
};

bool LoadBackupApi(BackupApi* api) {
  api->init = reinterpret_cast<decltype(api->init)>(dlsym(RTLD_DEFAULT, "sqlite3_backup_init"));
  api->step = reinterpret_cast<decltype(api->step)>(dlsym(RTLD_DEFAULT, "sqlite3_backup_step"));
  api->finish =
      reinterpret_cast<decltype(api->finish)>(dlsym(RTLD_DEFAULT, "sqlite3_backup_finish"));
  if (api->init && api->step && api->finish) return true;
  std::fprintf(stderr, "Error: this library has no sqlite3_backup_* functions\n");
  return false;
}

}  // namespace

int DotBackup(Shell& sh, const std::vector<std::string>& a) {
  std::string dest, db = "main";
  bool have_db = false;
  for (size_t j = 1; j < a.size(); ++j) {
    const char* z = a[j].c_str();
    if (z[0] == '-') {
      if (z[1] == '-') ++z;
      if (std::strcmp(z, "-append") == 0 || std::strcmp(z, "-async") == 0) continue;
      std::fprintf(stderr, "unknown option: %s\n", a[j].c_str());
      return 1;
    }
    if (dest.empty()) {
      dest = z;
    } else if (!have_db) {
      have_db = true;
      db = dest;
      dest = z;
    } else {
      std::fprintf(stderr, "Usage: .backup ?DB? ?OPTIONS? FILENAME\n");
      return 1;
    }
  }
  if (dest.empty()) {
    std::fprintf(stderr, "missing FILENAME argument on .backup\n");
    return 1;
  }
  BackupApi api;
  if (!LoadBackupApi(&api)) return 1;
  OpenDb(sh, false);
  sqlite3* to = nullptr;
  if (sqlite3_open_v2(dest.c_str(), &to, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    std::fprintf(stderr, "Error: cannot open \"%s\"\n", dest.c_str());
    sqlite3_close(to);
    return 1;
  }
  sqlite3_backup* b = api.init(to, "main", sh.db, db.c_str());
  if (b == nullptr) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(to));
    sqlite3_close(to);
    return 1;
  }
  int rc;
  while ((rc = api.step(b, 100)) == SQLITE_OK) {
  }
  api.finish(b);
  int result = 0;
  if (rc != SQLITE_DONE) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(to));
    result = 1;
  }
  sqlite3_close(to);
  return result;
}

int DotRestore(Shell& sh, const std::vector<std::string>& a) {
  std::string src, db = "main";
  if (a.size() == 2) {
    src = a[1];
  } else if (a.size() == 3) {
    db = a[1];
    src = a[2];
  } else {
    std::fprintf(stderr, "Usage: .restore ?DB? FILE\n");
    return 1;
  }
  BackupApi api;
  if (!LoadBackupApi(&api)) return 1;
  sqlite3* from = nullptr;
  if (sqlite3_open(src.c_str(), &from) != SQLITE_OK) {
    std::fprintf(stderr, "Error: cannot open \"%s\"\n", src.c_str());
    sqlite3_close(from);
    return 1;
  }
  OpenDb(sh, false);
  sqlite3_backup* b = api.init(sh.db, db.c_str(), from, "main");
  if (b == nullptr) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
    sqlite3_close(from);
    return 1;
  }
  int rc;
  int busy = 0;
  while ((rc = api.step(b, 100)) == SQLITE_OK || rc == SQLITE_BUSY) {
    if (rc == SQLITE_BUSY) {
      if (busy++ >= 3) break;
      sqlite3_sleep(100);
    }
  }
  api.finish(b);
  int result = 0;
  if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED) {
    std::fprintf(stderr, "Error: source database is busy\n");
    result = 1;
  } else if (rc != SQLITE_DONE) {
    std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
    result = 1;
  }
  sqlite3_close(from);
  return result;
}

}  // namespace shell
