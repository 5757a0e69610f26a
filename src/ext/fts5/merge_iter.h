// The iterator a merge reads its input segments with: every (term, rowid)
// entry of the inputs in order, through a tournament tree over per-segment
// cursors, exactly as SQLite's multi-segment iterator resolves them:
//   1. Slot 0 holds the newest input; the tree has a power-of-two number of
//      slots, empty ones at EOF.
//   2. When two cursors meet in the tree on the same term and rowid, the
//      older one is advanced at once and the newer takes over the older
//      entry's delete flag.
// Which cursors have moved past their term when a partial merge stops
// decides how the inputs are trimmed, so these rules matter to the bytes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ext/fts5/reader.h"

namespace basalt::fts5 {

struct SegCursor {
  std::unique_ptr<SegReader> reader;  // null for an unused tree slot
  RawDoclist dl;
  size_t i = 0;
  bool del = false;  // the current entry's delete flag (may be inherited)
  bool eof = true;
  const RawEntry& entry() const { return dl[i]; }
  int64_t rowid() const { return dl[i].rowid; }
  const std::string& term() const { return reader->term(); }
  // Moves to the next entry; *new_term is set when it moved to a new term.
  int Next(bool* new_term);
  int Start();
};

class MergeIter {
 public:
  // `oldest_first` are the input segments, oldest first.
  int Init(DataStore* store, const std::vector<Segment>& oldest_first, bool detail_none);
  bool eof() const { return cur().eof; }
  SegCursor& cur() { return seg_[first_[1].first]; }
  const SegCursor& cur() const { return seg_[first_[1].first]; }
  int Next();
  // The cursor reading input i (oldest first).
  SegCursor& input(int i) { return seg_[ninput_ - 1 - i]; }

 private:
  struct Node {
    int first = 0;
    bool term_eq = false;
  };
  int Compare(int out);
  int Advanced(int changed, int minset);
  bool AdvanceRowid(int changed);
  std::vector<SegCursor> seg_;
  std::vector<Node> first_;
  int ninput_ = 0;
};

}  // namespace basalt::fts5
