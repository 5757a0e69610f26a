// The fts5 module object and the methods defined outside module.cc.
#pragma once

#include "ext/fts5/cursor.h"

namespace basalt::fts5 {

const sqlite3_module* Fts5Module();
// The key of Global::tables.
std::string TableKey(const std::string& schema, const std::string& name);
const sqlite3_module* Fts5VocabModule();

// An auxiliary function called from SQL: argv[0] is the cursor id an fts5
// table's hidden column gives (user data: the AuxFunctionEntry).
void AuxFunctionCall(sqlite3_context* ctx, int argc, sqlite3_value** argv);

int XBestIndex(sqlite3_vtab* v, sqlite3_index_info* info);
int XFilter(sqlite3_vtab_cursor* vc, int idx, const char* idx_str, int argc, sqlite3_value** argv);
// The commands written as INSERT INTO t(t[, rank]) VALUES(cmd[, arg]).
int SpecialInsert(Table* t, const char* cmd, sqlite3_value* arg);

int XUpdate(sqlite3_vtab* v, int argc, sqlite3_value** argv, sqlite3_int64* rowid);

}  // namespace basalt::fts5
