// The spilling pager of ephemeral B-trees (see temp_pager.h).
//
// State machine (txn_), as MemPager's without rollback:
//   kNone  --BeginRead-->  kRead  --BeginWrite-->  kWrite
//   kNone  --BeginWrite--> kWrite
//   kRead/kWrite --Commit or Rollback--> kNone (changes are kept either way)
//
// Eviction is the clock algorithm over pool_: Get sets a frame's
// `referenced` bit, the hand clears it as it passes, and the first unpinned
// frame found with the bit clear is evicted. Pinned frames are never
// evicted; when every frame is pinned the pool grows past its budget.
#include "pager/temp_pager.h"

#include <cstring>
#include <new>

#include "common/assert.h"
#include "common/mem.h"

namespace basalt {

namespace {
// Frames kept whatever the budget: a balance pins a handful of pages and
// each open cursor its path from the root.
constexpr size_t kMinFrames = 32;

constexpr size_t kFrameHead = 64;  // bytes before a frame's page data
}  // namespace

Result<std::unique_ptr<TempPager>> TempPager::Create(uint32_t page_size, Vfs* vfs,
                                                     size_t max_frames) {
  if (!IsValidPageSize(page_size)) return Status(kMisuse, "invalid page size");
  if (vfs == nullptr) return Status(kMisuse, "a spilling pager needs a VFS");
  if (max_frames < kMinFrames) max_frames = kMinFrames;
  return std::unique_ptr<TempPager>(new TempPager(page_size, vfs, max_frames));
}

TempPager::~TempPager() { FreeFrames(); }

void TempPager::FreeFrames() {
  for (Frame* f : pool_) {
    f->~Frame();
    mem::Release(f, kFrameHead + page_size_ + kPageSlack, mem::Kind::kPageCache);
  }
  pool_.clear();
  frames_.clear();
  hand_ = 0;
}

TempPager::Frame* TempPager::NewFrame() {
  static_assert(sizeof(Frame) <= kFrameHead, "frame header too large");
  if (pool_.size() == pool_.capacity()) pool_.reserve(pool_.size() * 2 + 16);
  void* block = mem::AcquireOrThrow(kFrameHead + page_size_ + kPageSlack, mem::Kind::kPageCache);
  Frame* f = new (block) Frame();
  f->data = static_cast<uint8_t*>(block) + kFrameHead;
  std::memset(f->data + page_size_, 0, kPageSlack);
  f->pager = this;
  pool_.push_back(f);  // within capacity
  return f;
}

Status TempPager::Evict(Frame* f) {
  BASALT_DCHECK(f->pins == 0 && f->pgno != 0);
  if (f->dirty) {
    if (!file_) {
      constexpr int kFlags =
          kOpenReadWrite | kOpenCreate | kOpenExclusive | kOpenDeleteOnClose | kOpenTransientDb;
      TRY(vfs_->Open(std::string(), kFlags, &file_));
    }
    TRY(file_->Write(f->data, page_size_, uint64_t(f->pgno - 1) * page_size_));
    ++pages_spilled_;
    f->dirty = false;
  }
  frames_[f->pgno - 1] = nullptr;
  f->pgno = 0;
  return Status();
}

Status TempPager::TakeFrame(Pgno pgno, Frame** out) {
  Frame* f = nullptr;
  if (pool_.size() < max_frames_) {
    f = NewFrame();
  } else {
    // Two turns of the clock clear every referenced bit on the way.
    const size_t n = pool_.size();
    for (size_t step = 0; step < 2 * n && f == nullptr; ++step) {
      Frame* c = pool_[hand_];
      hand_ = hand_ + 1 == n ? 0 : hand_ + 1;
      if (c->pins != 0) continue;
      if (c->pgno == 0) {
        f = c;
      } else if (c->referenced) {
        c->referenced = false;
      } else {
        TRY(Evict(c));
        f = c;
      }
    }
    if (f == nullptr) f = NewFrame();  // every frame is pinned
  }
  f->pgno = pgno;
  f->dirty = false;
  f->referenced = true;
  f->write_stamp = 0;
  f->user_tag = 0;
  f->user_pgno = 0;
  f->user_value = 0;
  frames_[pgno - 1] = f;
  *out = f;
  return Status();
}

Status TempPager::SetPageSize(uint32_t page_size) {
  if (!IsValidPageSize(page_size)) return Status(kMisuse, "invalid page size");
  if (page_count_ != 0 || txn_ != PagerTxn::kNone) {
    return Status(kMisuse, "page size can change only while the database is empty");
  }
  FreeFrames();
  page_size_ = page_size;
  return Status();
}

Status TempPager::Get(Pgno pgno, PageRef* out) {
  if (txn_ == PagerTxn::kNone) return Status(kMisuse, "page read outside a transaction");
  if (pgno == 0 || pgno > page_count_) return CORRUPT();
  Frame* f = frames_[pgno - 1];
  if (f == nullptr) {
    if (!file_) return CORRUPT();  // T1: the page must be in the file
    TRY(TakeFrame(pgno, &f));
    Status st = file_->Read(f->data, page_size_, uint64_t(pgno - 1) * page_size_);
    if (!st.ok()) {
      frames_[pgno - 1] = nullptr;
      f->pgno = 0;
      return st;
    }
  }
  f->referenced = true;
  *out = PageRef(f);
  return Status();
}

Status TempPager::WriteSlow(PageFrame* pf) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  Frame* f = static_cast<Frame*>(pf);
  f->dirty = true;
  f->write_stamp = write_stamp_;
  changed_ = true;
  return Status();
}

Status TempPager::Append(PageRef* out) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (page_count_ >= max_page_count_) return Status(kFull);
  const Pgno pgno = page_count_ + 1;
  if (frames_.size() < pgno) frames_.resize(pgno, nullptr);
  Frame* f;
  TRY(TakeFrame(pgno, &f));
  std::memset(f->data, 0, page_size_);
  f->dirty = true;
  f->write_stamp = write_stamp_;
  page_count_ = pgno;
  changed_ = true;
  *out = PageRef(f);
  return Status();
}

Status TempPager::Truncate(Pgno n) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (n >= page_count_) return Status();
  for (Pgno p = n + 1; p <= page_count_; ++p) {
    Frame* f = frames_[p - 1];
    if (f != nullptr && f->pins != 0) return Status(kMisuse, "truncating a pinned page");
  }
  // The dropped pages' frames become spares; their bytes in the file, if
  // any, are dead (an Append of the same number starts from zeros).
  for (Pgno p = n + 1; p <= page_count_; ++p) {
    if (Frame* f = frames_[p - 1]) {
      f->pgno = 0;
      f->dirty = false;
    }
  }
  frames_.resize(n);
  page_count_ = n;
  changed_ = true;
  return Status();
}

Status TempPager::BeginRead() {
  if (txn_ == PagerTxn::kNone) txn_ = PagerTxn::kRead;
  return Status();
}

Status TempPager::BeginWrite() {
  if (txn_ == PagerTxn::kWrite) return Status();
  txn_ = PagerTxn::kWrite;
  write_stamp_ = next_stamp_++;  // T4
  changed_ = false;
  return Status();
}

Status TempPager::Commit() {
  if (txn_ == PagerTxn::kWrite) ++commits_;
  txn_ = PagerTxn::kNone;
  write_stamp_ = kNoWriteStamp;
  savepoints_ = 0;
  changed_ = false;
  return Status();
}

Status TempPager::Rollback() { return Commit(); }  // nothing can be undone

Status TempPager::OpenSavepoints(int n) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "savepoint outside a write transaction");
  if (savepoints_ < n) savepoints_ = n;
  return Status();
}

Status TempPager::ReleaseSavepoint(int i) {
  if (txn_ != PagerTxn::kWrite || i < 0) return Status(kMisuse, "no such savepoint");
  if (i < savepoints_) savepoints_ = i;
  return Status();
}

Status TempPager::RollbackToSavepoint(int i) {
  if (txn_ != PagerTxn::kWrite || i < 0 || i >= savepoints_) {
    return Status(kMisuse, "no such savepoint");
  }
  savepoints_ = i + 1;
  return Status();
}

}  // namespace basalt
