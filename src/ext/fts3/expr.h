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

// A phrase's (or a token's) documents by ascending docid; each document's
// positions (sorted by column then offset) are pos[begin, begin + count).
struct PhraseDoc {
  int64_t docid;
  uint32_t begin;
  uint32_t count;
};
struct Hits {
  std::vector<PhraseDoc> docs;
  std::vector<Position> pos;
  void Add(int64_t docid, const Position* p, size_t n) {
    docs.push_back(PhraseDoc{docid, static_cast<uint32_t>(pos.size()), static_cast<uint32_t>(n)});
    pos.insert(pos.end(), p, p + n);
  }
};

struct QueryResult {
  std::vector<const Expr*> phrases;  // by phrase_index
  std::vector<Hits> hits;            // by phrase_index: start positions, all documents
  // The phrases snippet/offsets/matchinfo see: the first naux (those on
  // the right of a NOT come after them).
  int naux = 0;
  // By phrase_index: every token deferred (deferred.cc); ndoc: the
  // table's document count when any is.
  std::vector<bool> deferred;
  int64_t ndoc = 0;
  // By phrase_index, for a phrase only some of whose tokens are deferred:
  // the matchinfo 'x' totals SQLite counts on its other tokens.
  std::vector<std::vector<uint32_t>> partial;
};

// All occurrences of one token, by ascending docid (pending terms included).
// ovfl, when given: the overflow pages SQLite weighs for the token (-1 when
// the caller must work them out: a prefix scan).
int TokenHits(FtsTable* t, const PhraseToken& tok, int langid, Hits* out, int64_t* ovfl = nullptr);
// The page size of the table's database (cached).
int PageSize(FtsTable* t, int* out);

// Which phrases SQLite defers (reads from each row's text instead of the
// index) because their doclists are large: see deferred.cc. toks and ovfl
// hold each phrase's token hits and overflow pages (TokenHits).
int SelectDeferred(FtsTable* t, const Expr* root, int langid,
                   const std::vector<const Expr*>& phrases,
                   const std::vector<std::vector<Hits>>& toks,
                   const std::vector<std::vector<int64_t>>& ovfl, std::vector<bool>* deferred,
                   std::vector<std::vector<uint32_t>>* partial, int64_t* ndoc);

// Gathers each phrase's hits for language `langid` (pending terms
// included); the rows themselves come from an Engine (engine.h).
int EvalExpr(FtsTable* t, const Expr* e, int langid, QueryResult* out);

}  // namespace basalt::fts
