// Reads one segment term by term (see writer.h for the page format): seeks
// through %_idx, walks the terms of each leaf through its page index, and
// decodes a term's doclist across leaves.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ext/fts5/format.h"
#include "ext/fts5/store.h"

namespace basalt::fts5 {

// One rowid of a doclist: its size field (2*poslist bytes + delete flag)
// and position-list bytes.
struct RawEntry {
  int64_t rowid = 0;
  bool del = false;
  std::string pos;  // detail=none: empty (flags kept in `none_flags`)
  int none_flags = 0;
  int pgno = 0;  // the leaf holding the rowid (segment doclists only)
};
using RawDoclist = std::vector<RawEntry>;

struct Leaf {
  std::string data;
  int szleaf = 0;
  int rowid_ptr = 0;
  const uint8_t* p() const { return reinterpret_cast<const uint8_t*>(data.data()); }
  int nn() const { return static_cast<int>(data.size()); }
};

class SegReader {
 public:
  SegReader(DataStore* store, const Segment& seg, bool detail_none)
      : store_(store), seg_(seg), none_(detail_none) {}
  // Positions at the segment's first term.
  int First();
  // Positions at the first term >= key.
  int Seek(std::string_view key);
  int Next();
  bool eof() const { return eof_; }
  const std::string& term() const { return term_; }
  // Decodes the current term's doclist.
  int ReadDoclist(RawDoclist* out);

  // Where the current term sits, for trimming after a partial merge.
  int term_pgno() const { return term_pgno_; }
  int term_end() const { return term_end_; }    // offset just after the term
  int next_term() const { return next_term_; }  // next term's offset, or nn+1
  int pgidx_off() const { return pgidx_off_; }  // after that page-index entry
  const Leaf& term_leaf() const { return leaf_; }
  const Segment& segment() const { return seg_; }
  // Whether the %_idx key Seek started from flags a doclist index.
  bool seek_dlidx() const { return seek_dlidx_; }

 private:
  int LoadLeaf(int pgno, Leaf* out);
  int StartAt(int pgno);  // first term on pgno or a later leaf
  int ReadTermAt(int off, bool first);

  DataStore* store_;
  Segment seg_;
  bool none_;
  bool eof_ = true;
  std::string term_;
  Leaf leaf_;  // the leaf holding the current term
  int term_pgno_ = 0;
  int term_end_ = 0;
  int next_term_ = 0;
  int pgidx_off_ = 0;
  bool seek_dlidx_ = false;
};

}  // namespace basalt::fts5
