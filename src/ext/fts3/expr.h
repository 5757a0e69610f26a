// MATCH expressions (the enhanced query syntax: AND, OR, NOT, NEAR[/n],
// parentheses, "phrases", prefix*, ^first, column:term) parsed into a tree,
// and their evaluation against the index.
//
// Precedence, tightest first: NEAR, NOT, AND (also implied between two
// operands), OR; all left-associative. NEAR joins phrases only.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ext/fts3/fts_table.h"

namespace basalt::fts {

struct PhraseToken {
  std::string text;
  bool prefix = false;
  bool first = false;  // ^: must be the column's first token
};

struct Expr {
  enum Kind { kPhrase, kNear, kNot, kAnd, kOr } kind = kPhrase;
  int near = 10;  // kNear: NEAR/n
  int col = -1;   // kPhrase: column filter, -1 for all
  std::vector<PhraseToken> tokens;
  std::unique_ptr<Expr> left, right;
  int phrase_index = -1;  // kPhrase: position among the query's phrases
};

// Parses `query`; *out is null when it holds no phrase at all. default_col
// is the column the MATCH applied to (-1: the whole table). Returns
// SQLITE_ERROR with *err set on a malformed expression.
int ParseExpr(const FtsTable* t, std::string_view query, int default_col,
              std::unique_ptr<Expr>* out, std::string* err);

// Per-document occurrences of each phrase: phrase index -> docid -> start
// positions (sorted by column then offset).
using Hits = std::map<int64_t, std::vector<Position>>;

struct QueryResult {
  std::vector<int64_t> docids;       // matching documents, ascending
  std::vector<const Expr*> phrases;  // by phrase_index
  std::vector<Hits> hits;            // by phrase_index, all documents, NEAR-filtered
  std::vector<Hits> raw_hits;        // the same before NEAR filtering
  // The phrases snippet/offsets/matchinfo see: the first naux (those on
  // the right of a NOT come after them).
  int naux = 0;
  // matchinfo 'x' totals (hits in all rows, rows hit) per phrase and
  // column, computed at the first request for them (see TotalsDocs).
  std::vector<uint32_t> x_totals;
  bool desc = false;  // the cursor walks docids in descending order
};

// Evaluates `e` for language `langid` (pending terms included).
int EvalExpr(FtsTable* t, const Expr* e, int langid, QueryResult* out);

// The occurrences of each phrase in one matching document after NEAR
// filtering: result[phrase] = positions.
std::vector<std::vector<Position>> DocPhraseHits(const QueryResult& r, const Expr* root,
                                                 int64_t docid);

// The documents whose hits make matchinfo 'x' totals, per phrase. A phrase
// outside NEAR counts every document holding it. For the phrases of a NEAR
// group SQLite walks the group's documents and counts those where the
// whole query tests true while its other parts stay where they are, on the
// row `at` that first asked for the totals (each other part on its first
// document from `at` on, in the cursor's order): all of the group's
// documents when only OR joins it to the rest, just `at` under AND.
std::vector<std::vector<int64_t>> TotalsDocs(const QueryResult& r, const Expr* root, int64_t at);

}  // namespace basalt::fts
