// FTS5 query expressions: the parse tree of a MATCH string and its
// evaluation into matching rowids with, per phrase, the positions of its
// matches in each row.
//
// Grammar (precedence low to high: OR, AND, NOT, implicit AND):
//   or      := and (OR and)*
//   and     := not (AND not)*
//   not     := unary (NOT unary)*
//   unary   := '(' or ')' | colset ':' '(' or ')' | cnearset+
//   cnearset:= [colset ':'] nearset
//   colset  := ['-'] (word | '{' word+ '}')
//   nearset := ['^'] phrase | NEAR '(' phrase+ [',' integer] ')'
//   phrase  := word ['*'] ('+' word ['*'])*
// A word is a bareword or a "string" ("" inside escapes a quote); each is
// run through the table's tokenizer, so one word may give several tokens.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ext/fts5/config.h"
#include "ext/fts5/index.h"

namespace basalt::fts5 {

struct PhraseToken {
  std::string text;
  bool prefix = false;
};

// Matches of one phrase: rowids ascending, and for each the match start
// positions (column << 32 | offset) ascending, stored flat.
struct PhraseHits {
  std::vector<int64_t> rowids;
  std::vector<uint32_t> start{0};  // row i: pos[start[i] .. start[i+1])
  std::vector<uint64_t> pos;
  void Add(int64_t rowid, std::span<const uint64_t> p) {
    rowids.push_back(rowid);
    pos.insert(pos.end(), p.begin(), p.end());
    start.push_back(static_cast<uint32_t>(pos.size()));
  }
  // The positions of rowid (empty if it has no match).
  std::span<const uint64_t> Find(int64_t rowid) const;
};

struct Phrase {
  std::vector<PhraseToken> tokens;
  std::vector<int> cols;  // allowed columns; empty = all
  bool caret = false;
  PhraseHits hits;       // filled by evaluation
  bool trimmed = false;  // hits narrowed by a NEAR group
  bool negated = false;  // under the right side of a NOT: reports no hits
};

struct ExprNode {
  enum Kind { kNear, kAnd, kOr, kNot, kEmpty };
  Kind kind = kNear;
  std::vector<std::unique_ptr<ExprNode>> kids;
  std::vector<Phrase*> phrases;  // kNear: its phrases (one unless NEAR)
  int near = 10;
  bool is_near = false;
};

struct Expr {
  std::vector<std::unique_ptr<Phrase>> phrases;  // in query order
  std::unique_ptr<ExprNode> root;                // null: matches nothing
};

// Parses `query`; `col` >= 0 restricts every phrase to that column (a
// column MATCH). On error *err holds SQLite's message.
int ParseExpr(const Config& cfg, const std::string& query, int col, Expr* out, std::string* err);

// Combines two parsed expressions with AND (several MATCH constraints).
void AndExpr(Expr* into, Expr* other);

// Evaluates the expression: *rowids gets the matching rowids ascending and
// each phrase its hits.
int EvalExpr(Index* index, const Config& cfg, Expr* e, std::vector<int64_t>* rowids);

// Hits of one phrase over the whole table (xQueryPhrase).
int EvalPhrase(Index* index, const Config& cfg, Phrase* p);

}  // namespace basalt::fts5
