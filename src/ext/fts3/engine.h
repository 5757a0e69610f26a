// The MATCH row iterator, modelled on the way SQLite walks an FTS3/4 query
// so that what the auxiliary functions see on each row is what SQLite's
// functions see.
//
// Every node of the expression keeps a position: the docid it stands on,
// whether it has run off its end, whether it has been started. Rows come
// from advancing the root (AND and NEAR leapfrog their children, OR takes
// the smaller, NOT only moves its right side up to its left) and testing
// the whole expression on the root's docid. That test trims the position
// lists of NEAR groups in place: in the phrase's in-memory doclist (so a
// later pass over it reads the trimmed list) unless the phrase is read
// incrementally from several tokens. A failed NEAR group forgets the
// current lists of its phrases standing on the row.
//
// The auxiliary functions read a phrase's list on the row when its node
// stands there, else (under an OR only) its doclist entry for the row when
// every phrase of its NEAR group has one; matchinfo 'y'/'b' read the lists
// of the nodes standing on the row; matchinfo 'x' totals come from one pass
// over the phrase (or its NEAR group, testing the whole expression on each
// candidate with every other node left where it stands).
#pragma once

#include <memory>
#include <vector>

#include "ext/fts3/expr.h"

namespace basalt::fts {

class Engine {
 public:
  // Builds the iterator for `root` over the hits `r` holds (taking them);
  // cursor_desc: rows in descending docid order.
  void Start(const FtsTable* t, const Expr* root, QueryResult* r, bool cursor_desc);
  // Moves to the next row that passes the expression.
  void Next();
  bool eof() const { return eof_; }
  int64_t row() const { return prev_; }

  // The positions (of the last token) of aux phrase i in column col, as
  // snippet(), offsets() and matchinfo 'x'/'s' read them.
  // *out is replaced.
  void Poslist(int i, int col, std::vector<int>* out);
  uint32_t PoslistSize(int i, int col);
  // matchinfo 'x' totals of aux phrase i: per column, hits then rows.
  const std::vector<uint32_t>& Totals(int i);
  // A totals pass could not bring its group back to the row it stood on
  // (SQLite then fails with SQLITE_CORRUPT_VTAB).
  bool corrupt() const { return corrupt_; }
  // Tests the whole expression on the current row again (matchinfo does
  // after gathering totals).
  void Retest();
  // matchinfo 'y' (bitmap false) or 'b' (true) into out (zeroed first).
  void LocalHits(bool bitmap, std::vector<uint32_t>* out);

 private:
  // A position list in place: the phrase's store (trimming it persists) or
  // its private copy. Null when the phrase has no current list.
  struct ListRef {
    Position* p = nullptr;
    uint32_t* n = nullptr;
    explicit operator bool() const { return n != nullptr; }
  };
  struct Phrase {
    int ntok = 1;
    int col = -1;               // column filter, -1 for all
    Hits h;                     // docs in the index's docid order; last-token positions
    bool incr = false;          // read incrementally (never restarted yet)
    bool private_list = false;  // incr: the current list is a merged copy
    int at = -1;                // current entry; -1 before the first
    bool started = false;
    int64_t docid = 0;
    bool has_list = false;      // the current list is valid
    std::vector<Position> own;  // the current list when private
    uint32_t own_n = 0;
    int or_at = kNone;  // the OR lookup's entry
    int64_t or_docid = 0;
    bool deferred = false;             // read from each row's text (deferred.cc)
    std::vector<uint32_t> partial_mi;  // some tokens deferred: SQLite's totals
    bool stats = false;                // totals gathered
    std::vector<uint32_t> mi;          // per column: hits, rows
  };
  struct Node {
    Expr::Kind kind = Expr::kPhrase;
    int near = 10;
    Node* parent = nullptr;
    Node* left = nullptr;
    Node* right = nullptr;
    Phrase* ph = nullptr;
    int iphrase = 0;  // matchinfo number (0 on the right of a NOT, as SQLite)
    int64_t docid = 0;
    bool eof = false;
    bool start = false;
    bool deferred = false;  // a deferred phrase, or both sides deferred
    // A NEAR group's root: its phrase nodes left to right, and the
    // distance between each and the next.
    std::vector<Node*> chain;
    std::vector<int> dist;
  };
  static constexpr int kNone = -2;

  Node* Build(const Expr* e, Node* parent, bool under_not);
  void NearChains(Node* n);
  int Cmp(int64_t a, int64_t b) const;     // in the cursor's order
  int IdxCmp(int64_t a, int64_t b) const;  // in the index's order
  ListRef List(Phrase* p);
  size_t Size(const Phrase* p) const { return p->h.docs.size(); }
  void PhraseNext(Phrase* p, bool* eof);
  void NextRow(Node* n);
  void NearEof(Node* child);
  bool Test(Node* n);
  bool TestDeferred(Node* n);
  bool NearTest(Node* n);
  void Invalidate(Phrase* p);
  void Restart(Node* n);
  void Gather(Node* n);
  void UpdateCounts(Node* n);
  void OrLookup(Phrase* p);
  // The list Poslist reads (all columns; *count positions), or null.
  const Position* ListFor(int i, int col, uint32_t* count);
  void NodeHits(Node* n, bool bitmap, std::vector<uint32_t>* out);

  int ncol_ = 0;
  bool cursor_desc_ = false;
  bool index_desc_ = false;
  std::vector<std::unique_ptr<Node>> nodes_;
  std::vector<std::unique_ptr<Phrase>> phrases_;
  std::vector<Node*> aux_;  // aux phrase nodes, by matchinfo number
  Node* root_ = nullptr;
  int64_t prev_ = 0;
  bool eof_ = true;
  bool any_deferred_ = false;
  bool corrupt_ = false;
  int64_t ndoc_ = 0;  // the table's rows (deferred phrases' 'x' totals)
};

}  // namespace basalt::fts
