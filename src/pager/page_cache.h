// PageCache: the frames of a file-backed pager, found by page number, with
// least-recently-used eviction of unpinned frames.
//
// Invariants:
//   C1. A frame is in the page table iff it holds a page of the database
//       (its pgno). Pinned frames are never evicted or removed.
//   C2. An unpinned frame is on exactly one LRU list: `clean_` if its bytes
//       equal what a fresh read would return, `dirty_` otherwise. Pinned
//       frames are on no list. Lists run from least to most recently used.
//   C3. Every dirty frame, pinned or not, is on the dirty set (dirty_count()
//       of them).
// The cache never writes anything itself: making room when every unpinned
// frame is dirty is the pager's job (it spills, then evicts).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "pager/pager.h"

namespace basalt {

struct CachedPage : PageFrame {
  CachedPage* prev = nullptr;  // LRU links (C2)
  CachedPage* next = nullptr;
  CachedPage* dprev = nullptr;  // links of the set of dirty frames (C3)
  CachedPage* dnext = nullptr;
  bool dirty = false;
  bool listed = false;
  uint32_t block_bytes = 0;  // the frame's allocation (header + data)
};

class PageCache {
 public:
  PageCache(Pager* owner, uint32_t page_size);
  ~PageCache();
  PageCache(const PageCache&) = delete;
  PageCache& operator=(const PageCache&) = delete;

  CachedPage* Lookup(Pgno pgno) const {
    size_t hi = pgno >> kChunkBits;
    if (hi >= table_.size() || !table_[hi]) return nullptr;
    return (*table_[hi])[pgno & kChunkMask];
  }
  // A new frame for pgno (not yet in the table), bytes zeroed, clean,
  // unpinned and on the clean list. Reuses the frame of an evicted page
  // when one is given.
  // With zero_page false only the slack after the page is zeroed: the
  // caller fills the page itself (a read zero-fills whatever it misses).
  CachedPage* Insert(Pgno pgno, CachedPage* reuse = nullptr, bool zero_page = true);
  // Takes an unpinned frame out of the table and its list; it may then be
  // passed to Insert() or Free().
  void Detach(CachedPage* f);
  void Free(CachedPage* f);

  // Pin bookkeeping: the first pin takes a frame off its list, the last
  // unpin puts it back (most recently used end).
  void Pinned(CachedPage* f) {
    if (f->listed) Unlist(f);
  }
  void Unpinned(CachedPage* f) { List(f); }

  void MarkDirty(CachedPage* f);
  void MarkClean(CachedPage* f);

  // Least recently used unpinned frames, or null.
  CachedPage* OldestClean() const { return clean_head_; }
  CachedPage* OldestDirty() const { return dirty_head_; }

  size_t size() const { return count_; }
  // Bytes one frame takes (its header, the page and the slack).
  size_t frame_bytes() const;
  size_t dirty_count() const { return dirty_count_; }
  uint32_t page_size() const { return page_size_; }
  // Only while the cache is empty.
  void SetPageSize(uint32_t page_size) { page_size_ = page_size; }

  // Every dirty frame, in page number order.
  std::vector<CachedPage*> DirtyPages() const;
  // Every frame (any order).
  std::vector<CachedPage*> AllPages() const;
  // The same without allocating (rollback paths must not run out of
  // memory): fn(frame) for every frame, any order; fn may Detach it.
  template <typename Fn>
  void ForEachPage(Fn&& fn) {
    for (auto& chunk : table_) {
      if (!chunk) continue;
      for (size_t i = 0; i < chunk->size(); ++i) {
        if (CachedPage* f = (*chunk)[i]) fn(f);
      }
    }
  }
  // Some dirty frame (no order), or null when none is dirty.
  CachedPage* AnyDirty() const { return dirty_set_; }

 private:
  static constexpr int kChunkBits = 8;  // 256 slots: cheap to create for scattered reads
  static constexpr Pgno kChunkMask = (Pgno{1} << kChunkBits) - 1;
  using Chunk = std::vector<CachedPage*>;

  void List(CachedPage* f);
  void Unlist(CachedPage* f);
  void RemoveDirty(CachedPage* f);
  CachedPage* Allocate();

  Pager* owner_;
  uint32_t page_size_;
  std::vector<std::unique_ptr<Chunk>> table_;
  size_t count_ = 0;
  size_t dirty_count_ = 0;
  CachedPage* dirty_set_ = nullptr;
  CachedPage* clean_head_ = nullptr;
  CachedPage* clean_tail_ = nullptr;
  CachedPage* dirty_head_ = nullptr;
  CachedPage* dirty_tail_ = nullptr;
};

}  // namespace basalt
