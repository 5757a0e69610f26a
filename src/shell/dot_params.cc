// .parameter: the bindings kept in temp.sqlite_parameters.
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

// Creates temp.sqlite_parameters. Its reserved name needs writable_schema
// and no defensive mode; both settings are restored afterwards. They are
// changed through sqlite3_db_config, not PRAGMAs, so that .trace shows only
// the CREATE statement, as in sqlite3.
void InitTable(sqlite3* db) {
  int defensive = 0;
  int writable = 0;
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, -1, &defensive);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 0, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, -1, &writable);
  sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, 1, nullptr);
  sqlite3_exec(db,
               "CREATE TABLE IF NOT EXISTS temp.sqlite_parameters(\n"
               "  key TEXT PRIMARY KEY,\n"
               "  value\n"
               ") WITHOUT ROWID;",
               nullptr, nullptr, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_WRITABLE_SCHEMA, writable, nullptr);
  sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, defensive, nullptr);
}

}  // namespace

int DotParameter(Shell& sh, const std::vector<std::string>& a) {
  OpenDb(sh, false);
  const size_t n = a.size();
  if (n == 2 && a[1] == "clear") {
    sqlite3_exec(sh.db, "DROP TABLE IF EXISTS temp.sqlite_parameters;", nullptr, nullptr, nullptr);
    return 0;
  }
  if (n == 2 && a[1] == "list") {
    int len = 0;
    ForEachRow(sh.db, "SELECT max(length(key)) FROM temp.sqlite_parameters;",
               [&](sqlite3_stmt* st) { len = sqlite3_column_int(st, 0); });
    if (len > 40) len = 40;
    if (len) {
      ForEachRow(
          sh.db, "SELECT key, quote(value) FROM temp.sqlite_parameters;", [&](sqlite3_stmt* st) {
            std::fprintf(sh.out, "%-*s %s\n", len, ColText(st, 0).c_str(), ColText(st, 1).c_str());
          });
    }
    return 0;
  }
  if (n == 2 && a[1] == "init") {
    InitTable(sh.db);
    return 0;
  }
  if (n == 4 && a[1] == "set") {
    InitTable(sh.db);
    std::string q = "REPLACE INTO temp.sqlite_parameters(key,value)VALUES(" + QuoteLiteral(a[2]) +
                    "," + a[3] + ");";
    sqlite3_stmt* st = nullptr;
    int rc = sqlite3_prepare_v2(sh.db, q.c_str(), -1, &st, nullptr);
    if (rc != SQLITE_OK) {
      sqlite3_finalize(st);
      q = "REPLACE INTO temp.sqlite_parameters(key,value)VALUES(" + QuoteLiteral(a[2]) + "," +
          QuoteLiteral(a[3]) + ");";
      rc = sqlite3_prepare_v2(sh.db, q.c_str(), -1, &st, nullptr);
      if (rc != SQLITE_OK) {
        std::fprintf(stderr, "Error: %s\n", sqlite3_errmsg(sh.db));
        sqlite3_finalize(st);
        return 1;
      }
    }
    sqlite3_step(st);
    sqlite3_finalize(st);
    return 0;
  }
  if (n == 3 && a[1] == "unset") {
    std::string q = "DELETE FROM temp.sqlite_parameters WHERE key=" + QuoteLiteral(a[2]) + ";";
    sqlite3_exec(sh.db, q.c_str(), nullptr, nullptr, nullptr);
    return 0;
  }
  ShowHelp(sh.out, "parameter");  // a usage error that is not an error, as in sqlite3
  return 0;
}

}  // namespace shell
