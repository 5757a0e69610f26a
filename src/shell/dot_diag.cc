// Dot-commands that reach below SQL: .scanstats, .dbinfo and .imposter. The
// first two depend on library features (statement scan status, the
// sqlite_dbpage table) that sqlite3's Debian build lacks too, and answer as
// that build does; .imposter needs a test control Basalt lacks (below).
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

namespace shell {

// .imposter INDEX IMPOSTER | .imposter off: the arguments are checked and
// the index (or WITHOUT ROWID table) looked up as sqlite3 does; creating
// the imposter table needs SQLITE_TESTCTRL_IMPOSTER, which Basalt's library
// does not provide, so a found index is answered with "not available"
// rather than an ordinary table that would not share the index's b-tree.
int DotImposter(Shell& sh, const std::vector<std::string>& a) {
  const bool off = a.size() == 2 && sqlite3_stricmp(a[1].c_str(), "off") == 0;
  if (a.size() != 3 && !off) {
    std::fprintf(stderr, "Usage: .imposter INDEX IMPOSTER\n       .imposter off\n");
    return 1;
  }
  OpenDb(sh, false);
  if (off) return 0;
  int root = 0;
  const std::string name = QuoteLiteral(a[1]);
  ForEachRow(sh.db,
             "SELECT rootpage FROM sqlite_schema WHERE name=" + name +
                 " AND (type='index' OR (type='table' AND sql LIKE '%without%rowid%'))",
             [&](sqlite3_stmt* st) {
               if (root == 0) root = sqlite3_column_int(st, 0);
             });
  int columns = 0;
  ForEachRow(sh.db, "PRAGMA index_xinfo=" + name, [&](sqlite3_stmt*) { ++columns; });
  if (columns == 0 || root == 0) {
    std::fprintf(stderr, "no such index: \"%s\"\n", a[1].c_str());
    return 1;
  }
  std::fprintf(stderr, "Error: .imposter is not available in this build of the basalt shell\n");
  return 1;
}

}  // namespace shell
