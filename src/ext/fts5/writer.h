// Writes one segment: leaf pages into %_data, one %_idx key per leaf that
// holds a term, and doclist indexes for doclists spanning many leaves.
//
// Leaf page:
//   2 bytes   offset of the first rowid on the page if it comes before the
//             first term, else 0 (big-endian)
//   2 bytes   offset of the page index (= end of the data)
//   data      terms and doclists. The first term on a page is stored whole
//             (varint length, bytes); later ones as varint shared-prefix
//             length, varint suffix length, suffix. A doclist is the first
//             rowid as a varint, then deltas; each rowid is followed by
//             varint(2*poslist size + delete flag) and the position list. A
//             rowid that is the first on a page but not right after a term
//             is stored whole. No varint spans two pages; a position list
//             may.
//   page index  varint offset of the first term, then the differences to
//             each next term's offset.
// %_idx(segid, term, pgno): for each leaf with a term, term = the shortest
// prefix of its first term that is larger than every earlier term ('' for
// the first leaf), pgno = 2*leaf + (1 if the last doclist before the next
// such key has a doclist index).
// Doclist index page: flags byte (0 for the root, 1 otherwise), varint
// leftmost child page, varint its first rowid, then per child page 0 (no
// rowid on it) or the delta of its first rowid.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ext/fts5/store.h"

namespace basalt::fts5 {

class SegWriter {
 public:
  SegWriter(DataStore* store, int pgsz, int segid);
  // Continues an incremental merge: the next leaf is pgno, with no b-tree
  // key pending.
  void ResumeAt(int pgno);

  int AppendTerm(std::string_view term);
  int AppendRowid(int64_t rowid);
  // Appends raw position-list bytes after the size field the caller wrote
  // with AppendRaw, splitting at varint boundaries across leaves.
  int AppendPoslistData(const uint8_t* a, int n);
  void AppendRawVarint(uint64_t v) { PutVarint(&buf_, v); }
  // Flush path (pending hash): writes a term's whole doclist.
  int AppendDoclist(std::string_view doclist, bool detail_none);
  // Flushes the last leaf and the b-tree key; *last_leaf = last page (0 if
  // nothing was written).
  int Finish(int* last_leaf);
  int leaves_written() const { return leaves_written_; }

 private:
  struct DlidxLevel {
    std::string buf;
    int pgno = 0;
    bool prev_valid = false;
    int64_t prev = 0;
  };
  int FlushLeaf();
  int FlushBtree();
  int BtreeTerm(std::string_view term);
  void BtreeNoTerm();
  int FlushDlidx(bool* flag);
  int DlidxAppend(int64_t rowid);
  int DlidxClear(bool flush);
  int PageUsed() const { return static_cast<int>(buf_.size() + pgidx_.size()); }

  DataStore* store_;
  int pgsz_;
  int segid_;
  std::string buf_;    // the current leaf, header included
  std::string pgidx_;  // its page index
  std::string term_;   // the last term written
  int pgno_ = 1;
  int prev_pgidx_ = 0;
  bool first_term_in_page_ = true;
  bool first_rowid_in_page_ = false;
  bool first_rowid_in_doclist_ = true;
  int64_t prev_rowid_ = 0;
  int bt_page_ = 1;  // leaf whose %_idx key is pending (0: none)
  std::string bt_term_;
  int empty_ = 0;  // term-less leaves since bt_page_
  int leaves_written_ = 0;
  std::vector<DlidxLevel> dlidx_;
};

}  // namespace basalt::fts5
