// The SQL functions FTS tables overload (snippet, offsets, matchinfo,
// optimize) and the other registrations of the extension.
#pragma once

#include <span>

#include "ext/fts3/tokenizer.h"
#include "sqlite3.h"

namespace basalt::fts {

struct AuxFunction {
  const char* name;
  void (*fn)(sqlite3_context*, int, sqlite3_value**);
};
std::span<const AuxFunction> AuxFunctions();

// Registers the SQL functions (the auxiliary ones, fts3_tokenizer) and the
// fts4aux / fts3tokenize modules.
int RegisterExtras(sqlite3* db, TokenizerRegistry* reg);

}  // namespace basalt::fts
