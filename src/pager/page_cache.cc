// The page cache of the file-backed pager (see page_cache.h).
#include "pager/page_cache.h"

#include <algorithm>
#include <cstring>
#include <new>

#include "common/mem.h"

namespace basalt {

namespace {
constexpr size_t kHeadBytes = (sizeof(CachedPage) + 15) & ~size_t{15};
}  // namespace

PageCache::PageCache(Pager* owner, uint32_t page_size) : owner_(owner), page_size_(page_size) {}

PageCache::~PageCache() {
  for (CachedPage* f : AllPages()) Free(f);
}

size_t PageCache::frame_bytes() const { return kHeadBytes + page_size_ + kPageSlack; }

CachedPage* PageCache::Allocate() {
  size_t bytes = frame_bytes();
  void* mem = mem::AcquireOrThrow(bytes, mem::Kind::kPageCache);
  CachedPage* f = new (mem) CachedPage();
  f->data = static_cast<uint8_t*>(mem) + kHeadBytes;
  f->pager = owner_;
  f->block_bytes = static_cast<uint32_t>(bytes);
  return f;
}

void PageCache::Free(CachedPage* f) {
  size_t bytes = f->block_bytes;
  f->~CachedPage();
  mem::Release(f, bytes, mem::Kind::kPageCache);
}

CachedPage* PageCache::Insert(Pgno pgno, CachedPage* reuse, bool zero_page) {
  // Room in the table first: growing it may run out of memory, and then
  // nothing has changed (a frame handed in for reuse, detached by the
  // caller already, is freed rather than lost).
  size_t hi = pgno >> kChunkBits;
  try {
    if (hi >= table_.size()) table_.resize(hi + 1);
    if (!table_[hi]) table_[hi] = std::make_unique<Chunk>(size_t{1} << kChunkBits, nullptr);
  } catch (...) {
    if (reuse != nullptr) Free(reuse);
    throw;
  }
  CachedPage* f = reuse;
  if (f == nullptr) {
    f = Allocate();
  } else {
    uint8_t* data = f->data;
    uint32_t bytes = f->block_bytes;
    f->~CachedPage();
    new (f) CachedPage();
    f->data = data;
    f->pager = owner_;
    f->block_bytes = bytes;
  }
  if (zero_page) {
    std::memset(f->data, 0, page_size_ + kPageSlack);
  } else {
    std::memset(f->data + page_size_, 0, kPageSlack);
  }
  f->pgno = pgno;
  (*table_[hi])[pgno & kChunkMask] = f;
  ++count_;
  List(f);
  return f;
}

void PageCache::Detach(CachedPage* f) {
  if (f->listed) Unlist(f);
  if (f->dirty) RemoveDirty(f);
  (*table_[f->pgno >> kChunkBits])[f->pgno & kChunkMask] = nullptr;
  --count_;
}

void PageCache::List(CachedPage* f) {
  CachedPage*& head = f->dirty ? dirty_head_ : clean_head_;
  CachedPage*& tail = f->dirty ? dirty_tail_ : clean_tail_;
  f->prev = tail;
  f->next = nullptr;
  if (tail) {
    tail->next = f;
  } else {
    head = f;
  }
  tail = f;
  f->listed = true;
}

void PageCache::Unlist(CachedPage* f) {
  CachedPage*& head = f->dirty ? dirty_head_ : clean_head_;
  CachedPage*& tail = f->dirty ? dirty_tail_ : clean_tail_;
  if (f->prev) {
    f->prev->next = f->next;
  } else {
    head = f->next;
  }
  if (f->next) {
    f->next->prev = f->prev;
  } else {
    tail = f->prev;
  }
  f->prev = f->next = nullptr;
  f->listed = false;
}

void PageCache::MarkDirty(CachedPage* f) {
  if (f->dirty) return;
  bool listed = f->listed;
  if (listed) Unlist(f);
  f->dirty = true;
  ++dirty_count_;
  f->dprev = nullptr;
  f->dnext = dirty_set_;
  if (dirty_set_) dirty_set_->dprev = f;
  dirty_set_ = f;
  if (listed) List(f);
}

void PageCache::MarkClean(CachedPage* f) {
  if (!f->dirty) return;
  bool listed = f->listed;
  if (listed) Unlist(f);
  RemoveDirty(f);
  if (listed) List(f);
}

void PageCache::RemoveDirty(CachedPage* f) {
  if (f->dprev) {
    f->dprev->dnext = f->dnext;
  } else {
    dirty_set_ = f->dnext;
  }
  if (f->dnext) f->dnext->dprev = f->dprev;
  f->dprev = f->dnext = nullptr;
  f->dirty = false;
  --dirty_count_;
}

std::vector<CachedPage*> PageCache::DirtyPages() const {
  std::vector<CachedPage*> out;
  out.reserve(dirty_count_);
  for (CachedPage* f = dirty_set_; f != nullptr; f = f->dnext) out.push_back(f);
  std::sort(out.begin(), out.end(),
            [](const CachedPage* a, const CachedPage* b) { return a->pgno < b->pgno; });
  return out;
}

std::vector<CachedPage*> PageCache::AllPages() const {
  std::vector<CachedPage*> out;
  out.reserve(count_);
  for (const auto& chunk : table_) {
    if (!chunk) continue;
    for (CachedPage* f : *chunk) {
      if (f != nullptr) out.push_back(f);
    }
  }
  return out;
}

}  // namespace basalt
