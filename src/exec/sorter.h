// The sorter behind ORDER BY, GROUP BY and CREATE INDEX: collects records
// and sorts them stably by their first KeyInfo::n_fields fields. With a
// bound k (ORDER BY ... LIMIT) it keeps only the first k rows of that stable
// order in a max-heap, dropping every row that cannot be among them on
// arrival.
//
// Spilling (SetSpill, unbounded sorters read in order only): once the rows
// held in memory (record bytes plus their entries) pass the budget, they
// are sorted and written as one run to a temporary file (sorter_spill.h).
// Sort() then merges the runs and the rows still in memory k ways; on ties
// the earlier run wins, so the order is the one the in-memory sort gives.
// When no temporary file can be opened, every row stays in memory.
//
// Invariants:
//   1. runs_ are in arrival order and each run is sorted; every row in
//      entries_ arrived after every row in runs_.
//   2. mem_ == the bytes of the records in entries_ + entries_.size() *
//      sizeof(Entry) (unbounded mode).
//   3. While merging (merge_ set), rows are read through Valid/Next/data/
//      size only; count() and data_at() are for sorters that never spilled.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/assert.h"
#include "common/big_alloc.h"
#include "common/status.h"
#include "exec/sorter_spill.h"
#include "record/record.h"

namespace basalt {

class Sorter {
 public:
  explicit Sorter(const KeyInfo* key_info);
  ~Sorter();
  Sorter(const Sorter&) = delete;
  Sorter& operator=(const Sorter&) = delete;
  // Spill to temporary files of vfs once more than budget bytes are held
  // (budget 0: never). Call before the first Add.
  void SetSpill(size_t budget, Vfs* vfs) {
    budget_ = budget;
    vfs_ = vfs;
  }
  // Keeps only the first k (> 0) rows of the sorted order; rows tied on the
  // key keep their arrival order, so the result is the first k rows the
  // unbounded sorter would give. Call before the first Add.
  void SetBound(uint64_t k) { bound_ = k; }
  Status Add(const uint8_t* rec, uint32_t n);
  // Bounded and full: whether a row with key fields key[0..n) would be
  // dropped on arrival (not smaller than the largest kept row), so the
  // caller need not build its record.
  bool WouldDrop(const Value* key, int n);
  Status Sort();
  // Frees every row, run and buffer (a window stage that copied its rows
  // elsewhere); the sorter is then empty: Valid() is false.
  void ReleaseAll();
  bool empty() const { return entries_.empty() && runs_.empty(); }
  bool spilled() const { return !runs_.empty(); }
  // Iteration after Sort() (which moves to the first row).
  bool Valid() const { return merge_ ? merge_row_ != nullptr : pos_ < entries_.size(); }
  Status Next() {
    if (merge_) return MergeNext();
    ++pos_;
    return Status();
  }
  const uint8_t* data() const { return merge_ ? merge_row_ : entries_[pos_].data; }
  uint32_t size() const { return merge_ ? merge_size_ : entries_[pos_].size; }
  // Random access to the sorted records (window frames).
  size_t count() const {
    BASALT_DCHECK(runs_.empty());  // invariant 3
    return entries_.size();
  }
  const uint8_t* data_at(size_t i) const { return entries_[i].data; }
  uint32_t size_at(size_t i) const { return entries_[i].size; }

 private:
  // The first key field is decoded once, when the record is added, so most
  // comparisons never parse a record.
  struct Entry {
    const uint8_t* data;
    uint32_t size;
    uint8_t type;  // Type of the first field
    bool has_i2;   // the second key field is the integer i2
    uint32_t len;  // text/blob length
    union {
      int64_t i;
      double r;
      const char* z;
    };
    int64_t i2;
    // Text/blob under BINARY: the first 8 bytes, big-endian, zero-padded
    // (different prefixes order the values; equal ones need the bytes).
    uint64_t pfx;
  };
  // A kept row of the bounded mode; seq is its arrival number.
  struct Ranked {
    Entry e;
    uint64_t seq;
  };
  int CompareEntries(const Entry& a, const Entry& b, Status* st) const;
  bool RankLess(const Ranked& a, const Ranked& b);
  // The entry of the record at data (its first key fields decoded).
  Entry MakeEntry(const uint8_t* data, uint32_t n) const;
  // Copies a record into the chunks; returns the copy.
  uint8_t* Store(const uint8_t* rec, uint32_t n);
  void AddBounded(const uint8_t* rec, uint32_t n);
  // Copies the kept rows into fresh chunks, dropping the evicted ones.
  void CompactBounded();
  // Stable sort of entries_.
  Status SortEntries();
  // Writes entries_, sorted, as a new run and empties memory (chunks are
  // kept for reuse).
  Status Spill();
  // Merges runs_[first, first + n) into one run that takes their place.
  Status MergeRuns(size_t first, size_t n);
  // Sets up merge_ over runs_ and entries_ and moves to the first row.
  Status StartMerge();
  Status MergeNext();

  struct Chunk {
    std::unique_ptr<uint8_t[]> p;
    size_t cap;
  };
  struct Merge;  // sorter_merge.cc
  const KeyInfo* key_info_;
  std::vector<Chunk> chunks_;
  size_t chunk_idx_ = 0;  // chunks_[chunk_idx_] is being filled
  size_t chunk_used_ = 0;
  std::vector<Entry, BigAllocator<Entry>> entries_;
  size_t pos_ = 0;
  // Bounded mode (bound_ > 0): heap_ is a max-heap under RankLess of at
  // most bound_ rows; entries_ stays empty until Sort() moves them there.
  uint64_t bound_ = 0;
  std::vector<Ranked> heap_;
  uint64_t seq_ = 0;
  size_t stored_bytes_ = 0;  // bytes copied into chunks_ (kept or evicted)
  size_t live_bytes_ = 0;    // bytes of the rows in heap_
  Status add_status_;        // a comparison's error while adding
  // Spilling.
  size_t budget_ = 0;
  Vfs* vfs_ = nullptr;
  size_t mem_ = 0;
  std::unique_ptr<VfsFile> file_;
  uint64_t file_end_ = 0;
  std::vector<SortRun> runs_;
  std::unique_ptr<Merge> merge_;
  const uint8_t* merge_row_ = nullptr;  // the current row while merging
  uint32_t merge_size_ = 0;
};

// Compares the first ki.n_fields fields of two records (collations and DESC
// from ki); 0 if equal on those.
int CompareRecordPrefix(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb,
                        const KeyInfo& ki, Status* status);

}  // namespace basalt
