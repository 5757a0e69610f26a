// Dot-commands that report on the library rather than the data: .scanstats
// and .dbinfo. Both depend on library features (statement scan status, the
// sqlite_dbpage table) that sqlite3's Debian build lacks too; they answer
// as that build does.
#include <cstdio>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {

// .scanstats on|off: remembered, but never shown without scan status.
int DotScanStats(Shell& sh, const std::vector<std::string>& a) {
  if (a.size() != 2) {
    std::fprintf(stderr, "Usage: .scanstats on|off\n");
    return 1;
  }
  sh.scan_stats = BooleanValue(a[1]);
  std::fprintf(stderr, "Warning: .scanstats not available in this build.\n");
  return 0;
}

// .dbinfo ?DB?: reads page 1 through sqlite_dbpage; where that table is
// missing the library's error is the answer.
int DotDbInfo(Shell& sh, const std::vector<std::string>& a) {
  (void)a;
  OpenDb(sh, false);
  if (sh.db == nullptr) return 1;
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(sh.db, "SELECT data FROM sqlite_dbpage(?1) WHERE pgno=1", -1, &st,
                              nullptr);
  if (rc != SQLITE_OK) {
    std::fprintf(stderr, "error: %s\n", sqlite3_errmsg(sh.db));
    sqlite3_finalize(st);
    return 1;
  }
  sqlite3_finalize(st);
  std::fprintf(stderr, "Error: .dbinfo is not available in this build of the basalt shell\n");
  return 1;
}

}  // namespace shell
