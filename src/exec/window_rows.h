// The sorted rows of a window stage, by position (exec/vm_window.cc reads
// frames, partitions and peer groups through them).
//
// Two forms:
//   * over a sorter that never spilled: its records in memory, by index;
//   * over a sorter that spilled: its merged output is copied once into a
//     temporary file as blocks of about kBlockBytes, and blocks are read
//     back on demand into a small cache, so a stage over millions of rows
//     holds a bounded number of bytes.
//
// Block format (spilled form), at the block's file offset:
//   u32 n            rows in the block (native byte order: the file is
//                    private to this process)
//   u32 end[n]       end[k]: offset of the end of row k, from the start of
//                    the row data (row k starts at end[k-1], row 0 at 0)
//   row data         the records back to back
//
// Invariants:
//   W1. blocks_[b].first is the position of the first row of block b; the
//       firsts grow strictly, blocks_[0].first == 0, and the rows of block b
//       are [first(b), first(b + 1)) (the last block ends at count()).
//   W2. The cache holds at most cache_blocks_ (>= 4) blocks, dropping the
//       least recently used when a block is loaded. So a pointer from data()
//       stays valid while rows of at most two other blocks are read: enough
//       to compare two rows, not to keep one (callers copy what they keep).
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <vector>

#include "common/status.h"
#include "exec/sorter.h"
#include "os/vfs.h"

namespace basalt {

class WindowRows {
 public:
  WindowRows() = default;
  WindowRows(const WindowRows&) = delete;
  WindowRows& operator=(const WindowRows&) = delete;

  // Takes the rows of a sorted sorter. If it spilled, its merged rows are
  // read to the end and copied to a temporary file of vfs; cache_bytes
  // bounds the blocks kept in memory.
  Status Open(Sorter* sorter, Vfs* vfs, size_t cache_bytes);

  size_t count() const { return n_; }
  const uint8_t* data(size_t i) {
    if (mem_ != nullptr) return mem_->data_at(i);
    if (i != row_) Locate(i);
    return row_data_;
  }
  uint32_t size(size_t i) {
    if (mem_ != nullptr) return mem_->size_at(i);
    if (i != row_) Locate(i);
    return row_size_;
  }
  // The status of the last block read (data() of a block that failed to
  // load reads an empty record).
  const Status& status() const { return status_; }
  // True when rows are read from the file: pointers from data() last only
  // as W2 says.
  bool spilled() const { return mem_ == nullptr; }

 private:
  static constexpr size_t kBlockBytes = 64 * 1024;
  struct Block {
    size_t first = 0;     // W1
    uint64_t offset = 0;  // in the file
    uint32_t bytes = 0;
  };
  struct Cached {
    size_t block;
    std::unique_ptr<uint8_t[]> bytes;
  };
  using CacheList = std::list<Cached>;

  // Sets row_data_ / row_size_ for row i, loading its block if needed.
  void Locate(size_t i);
  Status Load(size_t b, CacheList::iterator* out);
  Status FlushBlock();

  const Sorter* mem_ = nullptr;
  size_t n_ = 0;
  // Spilled form.
  std::unique_ptr<VfsFile> file_;
  std::vector<Block> blocks_;
  CacheList cache_;                         // most recently used first
  std::vector<CacheList::iterator> where_;  // per block: its cache entry or cache_.end()
  size_t cache_blocks_ = 4;
  Status status_;
  // The block and row Locate() found last.
  size_t cur_block_ = SIZE_MAX;
  const uint8_t* cur_base_ = nullptr;  // that block's bytes
  size_t row_ = SIZE_MAX;
  const uint8_t* row_data_ = nullptr;
  uint32_t row_size_ = 0;
  // While copying: the block being filled.
  std::vector<uint32_t> fill_ends_;
  std::vector<uint8_t> fill_data_;
  uint64_t file_end_ = 0;
};

}  // namespace basalt
