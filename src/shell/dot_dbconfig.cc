// .dbconfig: lists or changes the connection's boolean sqlite3_db_config
// settings, one "%19s on|off" line per setting, in sqlite3's (alphabetical)
// order.
//
//   .dbconfig              every setting
//   .dbconfig NAME         the one setting called NAME
//   .dbconfig NAME VALUE   sets NAME to the boolean VALUE first, then shows it
// An unknown NAME is reported on standard error; the command still succeeds,
// as in sqlite3.
#include <cstdio>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

struct DbConfigOp {
  const char* name;
  int op;
};

// Sorted by name: the listing order.
const DbConfigOp kDbConfigOps[] = {
    {"defensive", SQLITE_DBCONFIG_DEFENSIVE},
    {"dqs_ddl", SQLITE_DBCONFIG_DQS_DDL},
    {"dqs_dml", SQLITE_DBCONFIG_DQS_DML},
    {"enable_fkey", SQLITE_DBCONFIG_ENABLE_FKEY},
    {"enable_qpsg", SQLITE_DBCONFIG_ENABLE_QPSG},
    {"enable_trigger", SQLITE_DBCONFIG_ENABLE_TRIGGER},
    {"enable_view", SQLITE_DBCONFIG_ENABLE_VIEW},
    {"fts3_tokenizer", SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER},
    {"legacy_alter_table", SQLITE_DBCONFIG_LEGACY_ALTER_TABLE},
    {"legacy_file_format", SQLITE_DBCONFIG_LEGACY_FILE_FORMAT},
    {"load_extension", SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION},
    {"no_ckpt_on_close", SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE},
    {"reset_database", SQLITE_DBCONFIG_RESET_DATABASE},
    {"trigger_eqp", SQLITE_DBCONFIG_TRIGGER_EQP},
    {"trusted_schema", SQLITE_DBCONFIG_TRUSTED_SCHEMA},
    {"writable_schema", SQLITE_DBCONFIG_WRITABLE_SCHEMA},
};

}  // namespace

int DotDbConfig(Shell& sh, const std::vector<std::string>& a) {
  OpenDb(sh, false);
  int shown = 0;
  for (const DbConfigOp& c : kDbConfigOps) {
    if (a.size() > 1 && a[1] != c.name) continue;
    if (a.size() >= 3) sqlite3_db_config(sh.db, c.op, BooleanValue(a[2]) ? 1 : 0, nullptr);
    int v = 0;
    sqlite3_db_config(sh.db, c.op, -1, &v);
    std::fprintf(sh.out, "%19s %s\n", c.name, v ? "on" : "off");
    ++shown;
  }
  if (a.size() > 1 && shown == 0) {
    std::fprintf(stderr, "Error: unknown dbconfig \"%s\"\n", a[1].c_str());
    std::fprintf(stderr, "Enter \".dbconfig\" with no arguments for a list\n");
  }
  return 0;
}

}  // namespace shell
