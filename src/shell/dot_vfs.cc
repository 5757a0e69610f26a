// .vfsinfo ?AUX?, .vfsname ?AUX?, .vfslist: the VFS of a database and the
// registered VFSes, as sqlite3 3.40.1 prints them (nothing before a
// database is open, or for an unknown schema).
#include <cstdio>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

void PrintVfs(FILE* out, const sqlite3_vfs* v, const char* mark) {
  std::fprintf(out, "vfs.zName      = \"%s\"%s\n", v->zName, mark);
  std::fprintf(out, "vfs.iVersion   = %d\n", v->iVersion);
  std::fprintf(out, "vfs.szOsFile   = %d\n", v->szOsFile);
  std::fprintf(out, "vfs.mxPathname = %d\n", v->mxPathname);
}

}  // namespace

int DotVfsInfo(Shell& sh, const std::vector<std::string>& a) {
  const std::string db = a.size() == 2 ? a[1] : "main";
  sqlite3_vfs* v = nullptr;
  if (sh.db != nullptr) {
    sqlite3_file_control(sh.db, db.c_str(), SQLITE_FCNTL_VFS_POINTER, &v);
    if (v != nullptr) PrintVfs(sh.out, v, "");
  }
  return 0;
}

int DotVfsName(Shell& sh, const std::vector<std::string>& a) {
  const std::string db = a.size() == 2 ? a[1] : "main";
  char* name = nullptr;
  if (sh.db != nullptr) {
    sqlite3_file_control(sh.db, db.c_str(), SQLITE_FCNTL_VFSNAME, &name);
    if (name != nullptr) {
      std::fprintf(sh.out, "%s\n", name);
      sqlite3_free(name);
    }
  }
  return 0;
}

int DotVfsList(Shell& sh, const std::vector<std::string>&) {
  sqlite3_vfs* current = nullptr;
  if (sh.db != nullptr) sqlite3_file_control(sh.db, "main", SQLITE_FCNTL_VFS_POINTER, &current);
  for (sqlite3_vfs* v = sqlite3_vfs_find(nullptr); v != nullptr; v = v->pNext) {
    PrintVfs(sh.out, v, v == current ? "  <--- CURRENT" : "");
    if (v->pNext != nullptr) std::fprintf(sh.out, "-----------------------------------\n");
  }
  return 0;
}

}  // namespace shell
