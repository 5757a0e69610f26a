// The FTS5 on-disk format: record ids in %_data, the structure record and
// the limits the writer respects. (Leaf pages: see writer.h.)
//
// %_data ids:
//   1                      the averages record: varint row count, then one
//                          varint per column, its total token count
//   10                     the structure record (below)
//   segid<<37 | pgno       leaf page pgno (from 1) of segment segid
//   segid<<37 | 1<<36 | height<<31 | pgno
//                          doclist-index page (height 0: its leaves)
//
// Structure record:
//   4 bytes   cookie, big-endian (incremented by each %_config change)
//   varint    number of levels
//   varint    number of segments, all levels
//   varint    write counter (leaves written by flushes, for automerge)
//   per level: varint segments being merged out of it, varint segment
//   count, then per segment (oldest first): varint segid, varint first
//   leaf, varint last leaf.
#pragma once

#include <cstdint>
#include <vector>

namespace basalt::fts5 {

inline constexpr int64_t kAveragesId = 1;
inline constexpr int64_t kStructureId = 10;
inline constexpr int kMaxSegment = 2000;
inline constexpr int kMinDlidxSize = 4;  // term-less leaves before a doclist index
inline constexpr int kWorkUnit = 64;     // leaves per automerge work quantum
inline constexpr int kOptWorkUnit = 1000;
inline constexpr int kMaxTokenSize = 32768;
inline constexpr char kMainPrefix = '0';

inline int64_t SegmentRowid(int segid, int pgno) { return (int64_t{segid} << 37) + pgno; }
inline int64_t DlidxRowid(int segid, int height, int pgno) {
  return (int64_t{segid} << 37) + (int64_t{1} << 36) + (int64_t{height} << 31) + pgno;
}

struct Segment {
  int id = 0;
  int first = 0;  // first leaf (pages before it were trimmed by a merge)
  int last = 0;   // last leaf; 0 once a merge has consumed the segment
  int Size() const { return 1 + last - first; }
};

struct Level {
  int merge = 0;  // the oldest `merge` segments are inputs of a merge in progress
  std::vector<Segment> segs;
};

struct Structure {
  uint32_t cookie = 0;
  uint64_t write_counter = 0;
  std::vector<Level> levels;
  int SegmentCount() const {
    int n = 0;
    for (const Level& l : levels) n += static_cast<int>(l.segs.size());
    return n;
  }
};

}  // namespace basalt::fts5
