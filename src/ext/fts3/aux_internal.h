// Shared by the auxiliary functions (aux.cc, snippet.cc, matchinfo.cc).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "ext/fts3/cursor.h"
#include "ext/fts3/module.h"

namespace basalt::fts {

// The cursor a pointer argument carries; sets an error on ctx when none.
FtsCursor* CursorArg(sqlite3_context* ctx, sqlite3_value* v, const char* fn);
bool ColumnIsNull(FtsCursor* c, int col);
// For each phrase, the positions of its last token in column `col` of the
// current row (after NEAR filtering).
std::vector<std::vector<int>> PhraseLastPositions(FtsCursor* c, int col);

int RegisterAuxTables(sqlite3* db, TokenizerRegistry* reg);

void SnippetFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv);
void MatchinfoFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv);

}  // namespace basalt::fts
