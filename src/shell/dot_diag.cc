// Dot-commands that reach below SQL: .scanstats, .dbinfo and .imposter. The
// first two depend on library features (statement scan status, the
// sqlite_dbpage table) that sqlite3's Debian build lacks too, and answer as
// that build does.
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

// .imposter INDEX IMPOSTER | .imposter off: a table IMPOSTER over the
// B-tree of INDEX (or of a WITHOUT ROWID table), made with
// SQLITE_TESTCTRL_IMPOSTER. Its columns are the B-tree's, from PRAGMA
// index_xinfo: expressions named exprN (N the position, from 1), the rowid
// _ROWID_; all of them form the key of an index's imposter, the table's
// key columns that of a table's. "off" forgets the imposters.
int DotImposter(Shell& sh, const std::vector<std::string>& a) {
  const bool off = a.size() == 2 && sqlite3_stricmp(a[1].c_str(), "off") == 0;
  if (a.size() != 3 && !off) {
    std::fprintf(stderr, "Usage: .imposter INDEX IMPOSTER\n       .imposter off\n");
    return 1;
  }
  OpenDb(sh, false);
  if (off) {
    sqlite3_test_control(SQLITE_TESTCTRL_IMPOSTER, sh.db, "main", 0, 1);
    return 0;
  }
  int root = 0;
  bool is_table = false;
  const std::string name = QuoteLiteral(a[1]);
  ForEachRow(sh.db,
             "SELECT rootpage, 0 FROM sqlite_schema WHERE name=" + name +
                 " AND type='index' UNION ALL SELECT rootpage, 1 FROM sqlite_schema WHERE name=" +
                 name + " AND type='table' AND sql LIKE '%without%rowid%'",
             [&](sqlite3_stmt* st) {
               if (root != 0) return;
               root = sqlite3_column_int(st, 0);
               is_table = sqlite3_column_int(st, 1) != 0;
             });
  std::string columns, key;
  int n = 0;
  ForEachRow(sh.db, "PRAGMA index_xinfo=" + name, [&](sqlite3_stmt* st) {
    ++n;
    const auto* col = reinterpret_cast<const char*>(sqlite3_column_text(st, 2));
    std::string c = col != nullptr                    ? QuoteIdent(col)
                    : sqlite3_column_int(st, 1) == -2 ? "\"expr" + std::to_string(n) + "\""
                                                      : "\"_ROWID_\"";
    columns += c + ",";
    if (!is_table || sqlite3_column_int(st, 5) != 0) key += (key.empty() ? "" : ",") + c;
  });
  if (n == 0 || root == 0) {
    std::fprintf(stderr, "no such index: \"%s\"\n", a[1].c_str());
    return 1;
  }
  const std::string sql =
      "CREATE TABLE " + QuoteIdent(a[2]) + "(" + columns + "PRIMARY KEY(" + key + "))WITHOUT ROWID";
  sqlite3_test_control(SQLITE_TESTCTRL_IMPOSTER, sh.db, "main", 1, root);
  char* err = nullptr;
  int rc = sqlite3_exec(sh.db, sql.c_str(), nullptr, nullptr, &err);
  sqlite3_test_control(SQLITE_TESTCTRL_IMPOSTER, sh.db, "main", 0, 0);
  if (rc != SQLITE_OK) {
    std::fprintf(stderr, "Error in [%s]: %s\n", sql.c_str(), err != nullptr ? err : "");
    sqlite3_free(err);
    return 1;
  }
  std::fprintf(sh.out, "%s;\n", sql.c_str());
  std::fprintf(sh.out, "WARNING: writing to an imposter table will corrupt the \"%s\" %s!\n",
               a[1].c_str(), is_table ? "table" : "index");
  return 0;
}

}  // namespace shell
