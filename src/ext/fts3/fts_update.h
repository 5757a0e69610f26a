// Writes to an FTS table (update.cc) and the special commands
// (commands.cc).
#pragma once

#include <vector>

#include "ext/fts3/fts_table.h"

namespace basalt::fts {

// The xUpdate body.
int UpdateRow(FtsTable* t, int argc, sqlite3_value** argv, sqlite3_int64* rowid);
// INSERT INTO t(t) VALUES(cmd).
int SpecialInsert(FtsTable* t, const char* cmd);
// %_stat row 0 as numbers: document count, token totals per column, bytes.
int ReadStat(FtsTable* t, std::vector<int64_t>* a);
int WriteDocsize(FtsTable* t, int64_t docid, const std::vector<int>& sz);
int UpdateTotals(FtsTable* t, const std::vector<int>& ins, const std::vector<int>& del,
                 int changes);

}  // namespace basalt::fts
