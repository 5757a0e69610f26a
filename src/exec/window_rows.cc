// The rows of a window stage by position (see window_rows.h).
#include "exec/window_rows.h"

#include <algorithm>
#include <cstring>

#include "common/assert.h"
#include "exec/sorter_spill.h"

namespace basalt {

namespace {
// What data() reads when a block could not be loaded: a record with an
// empty header (every field reads as NULL).
constexpr uint8_t kEmptyRecord[2] = {1, 0};
}  // namespace

Status WindowRows::Open(Sorter* sorter, Vfs* vfs, size_t cache_bytes) {
  if (!sorter->spilled()) {
    mem_ = sorter;
    n_ = sorter->count();
    return Status();
  }
  BASALT_DCHECK(vfs != nullptr);  // a sorter spills only through a VFS
  // A quarter of the budget: the rows are mostly read near the current one.
  cache_blocks_ = std::max<size_t>(4, cache_bytes / 4 / kBlockBytes);
  TRY(OpenSorterTempFile(vfs, &file_));
  for (; sorter->Valid();) {
    const uint8_t* rec = sorter->data();
    uint32_t n = sorter->size();
    size_t need = fill_data_.size() + n + 4 * (fill_ends_.size() + 2);
    if (!fill_ends_.empty() && need > kBlockBytes) TRY(FlushBlock());
    fill_data_.insert(fill_data_.end(), rec, rec + n);
    fill_ends_.push_back(static_cast<uint32_t>(fill_data_.size()));
    ++n_;
    TRY(sorter->Next());
  }
  if (!fill_ends_.empty()) TRY(FlushBlock());
  sorter->ReleaseAll();  // every row is in the file now
  fill_data_ = std::vector<uint8_t>();
  fill_ends_ = std::vector<uint32_t>();
  where_.assign(blocks_.size(), cache_.end());
  return Status();
}

Status WindowRows::FlushBlock() {
  const uint32_t rows = static_cast<uint32_t>(fill_ends_.size());
  const size_t head = 4 * (size_t{rows} + 1);
  std::vector<uint8_t> buf(head + fill_data_.size());
  std::memcpy(buf.data(), &rows, 4);
  std::memcpy(buf.data() + 4, fill_ends_.data(), 4 * size_t{rows});
  std::memcpy(buf.data() + head, fill_data_.data(), fill_data_.size());
  TRY(file_->Write(buf.data(), buf.size(), file_end_));
  Block b;
  b.first = n_ - rows;
  b.offset = file_end_;
  b.bytes = static_cast<uint32_t>(buf.size());
  blocks_.push_back(b);
  file_end_ += buf.size();
  fill_ends_.clear();
  fill_data_.clear();
  return Status();
}

Status WindowRows::Load(size_t b, CacheList::iterator* out) {
  const Block& blk = blocks_[b];
  // The slack lets record decoders read a varint near the end.
  std::unique_ptr<uint8_t[]> bytes(new uint8_t[blk.bytes + 16]());
  TRY(file_->Read(bytes.get(), blk.bytes, blk.offset));
  while (cache_.size() >= cache_blocks_) {  // W2
    size_t old = cache_.back().block;
    where_[old] = cache_.end();
    if (old == cur_block_) {
      cur_block_ = SIZE_MAX;
      row_ = SIZE_MAX;
    }
    cache_.pop_back();
  }
  cache_.push_front(Cached{b, std::move(bytes)});
  where_[b] = cache_.begin();
  *out = cache_.begin();
  return Status();
}

void WindowRows::Locate(size_t i) {
  if (i == row_) return;
  BASALT_DCHECK(i < n_);
  size_t b = cur_block_;
  const bool here = b != SIZE_MAX && blocks_[b].first <= i &&
                    (b + 1 == blocks_.size() || i < blocks_[b + 1].first);
  if (!here) {
    // The last block whose first row is at or before i (W1).
    auto it = std::upper_bound(blocks_.begin(), blocks_.end(), i,
                               [](size_t v, const Block& blk) { return v < blk.first; });
    b = static_cast<size_t>(it - blocks_.begin()) - 1;
    CacheList::iterator e = where_[b];
    if (e == cache_.end()) {
      Status st = Load(b, &e);
      if (!st.ok()) {
        status_ = st;
        row_ = SIZE_MAX;
        row_data_ = kEmptyRecord;
        row_size_ = 1;
        return;
      }
    } else if (e != cache_.begin()) {
      cache_.splice(cache_.begin(), cache_, e);  // most recently used
    }
    cur_block_ = b;
    cur_base_ = e->bytes.get();
  }
  const size_t k = i - blocks_[b].first;
  uint32_t rows, end, start = 0;
  std::memcpy(&rows, cur_base_, 4);
  std::memcpy(&end, cur_base_ + 4 + 4 * k, 4);
  if (k > 0) std::memcpy(&start, cur_base_ + 4 * k, 4);
  row_ = i;
  row_data_ = cur_base_ + 4 * (size_t{rows} + 1) + start;
  row_size_ = end - start;
}

}  // namespace basalt
