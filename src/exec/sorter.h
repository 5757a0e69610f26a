// The sorter behind ORDER BY and GROUP BY: collects records in memory and
// sorts them stably by their first KeyInfo::n_fields fields. With a bound k
// (ORDER BY ... LIMIT) it keeps only the first k rows of that stable order
// in a max-heap, dropping every row that cannot be among them on arrival.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "common/big_alloc.h"
#include "common/status.h"
#include "record/record.h"

namespace basalt {

class Sorter {
 public:
  explicit Sorter(const KeyInfo* key_info) : key_info_(key_info) {}
  // Keeps only the first k (> 0) rows of the sorted order; rows tied on the
  // key keep their arrival order, so the result is the first k rows the
  // unbounded sorter would give. Call before the first Add.
  void SetBound(uint64_t k) { bound_ = k; }
  void Add(const uint8_t* rec, uint32_t n);
  // Bounded and full: whether a row with key fields key[0..n) would be
  // dropped on arrival (not smaller than the largest kept row), so the
  // caller need not build its record.
  bool WouldDrop(const Value* key, int n);
  Status Sort();
  bool empty() const { return entries_.empty(); }
  // Iteration after Sort().
  bool Valid() const { return pos_ < entries_.size(); }
  void Next() { ++pos_; }
  void Rewind() { pos_ = 0; }
  const uint8_t* data() const { return entries_[pos_].data; }
  uint32_t size() const { return entries_[pos_].size; }
  // Random access to the sorted records (window frames).
  size_t count() const { return entries_.size(); }
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
  const KeyInfo* key_info_;
  std::vector<std::unique_ptr<uint8_t[]>> chunks_;
  size_t chunk_used_ = 0;
  size_t chunk_cap_ = 0;
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
};

// Compares the first ki.n_fields fields of two records (collations and DESC
// from ki); 0 if equal on those.
int CompareRecordPrefix(const uint8_t* a, uint32_t na, const uint8_t* b, uint32_t nb,
                        const KeyInfo& ki, Status* status);

}  // namespace basalt
