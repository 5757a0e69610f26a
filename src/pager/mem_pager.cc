// The in-memory pager.
//
// State machine (txn_):
//   1. kNone  - no transaction. Get() is refused (SQLITE_MISUSE).
//               BeginRead() -> kRead; BeginWrite() -> kWrite.
//   2. kRead  - pages may be pinned and read.
//               BeginWrite() -> kWrite; Commit() or Rollback() -> kNone.
//   3. kWrite - level 0 is open (levels_.size() >= 1); Write(), Append(),
//               Truncate() and savepoints are allowed.
//               Commit() -> kNone, discarding the saved images (DiscardLevels).
//               Rollback() -> kNone, restoring them first (UndoTo(0)).
//               OpenSavepoints(n) pushes levels; ReleaseSavepoint(i) merges
//               levels i+1.. into level i; RollbackToSavepoint(i) restores
//               levels i+1.. and reopens level i+1 empty (UndoTo).
//
// Levels: level 0 is the transaction, level j >= 1 is savepoint j-1. Each
// level records the page count when it opened and, for each page first
// written while it was the innermost level, the page's image at that moment
// (if the page existed when the level opened).
//
// Invariants:
//   I1. levels_ is non-empty iff txn_ == kWrite; write_stamp_ is the stamp
//       of levels_.back() then, kNoWriteStamp otherwise.
//   I2. A frame whose write_stamp equals write_stamp_ either has its image
//       from when the innermost level opened saved in that level, or its
//       page did not exist then (pgno > orig_count).
//   I3. For j < kMaskLevels, bit j of a frame's saved_mask is set iff
//       levels_[j].saved holds an entry for it. Deeper levels may hold
//       duplicates; they are undone newest first, so the oldest image wins.
//       Truncate() saves the pages it drops at the current level, so a page
//       dropped and later re-appended by a newer level is still restorable.
//   I4. Undoing levels top..k in that order restores every page to its image
//       when level k opened: a page changed since then was saved in the
//       lowest level >= k in which it was written, with the image it had
//       when that level opened, which equals its image when k opened.
//   I5. With JournalMode::kOff nothing is saved; Rollback() keeps changes.
//
// Rollback and savepoint operations cost O(pages saved), not O(database).
//
// Out of memory (std::bad_alloc from TakeImage, NewFrame or a vector) may
// interrupt any operation that allocates; each allocates before it changes
// anything, so the state after the exception is the state before the call.
// Commit, Rollback and UndoTo never allocate (the image pool's capacity is
// reserved up front).
#include "pager/mem_pager.h"

#include <cstdlib>
#include <cstring>
#include <new>

#include "common/mem.h"

namespace basalt {

namespace {
// Free image buffers kept for reuse after a transaction ends.
constexpr size_t kMaxPooledImages = 256;
}  // namespace

Result<std::unique_ptr<MemPager>> MemPager::Create(uint32_t page_size, JournalMode mode) {
  if (!IsValidPageSize(page_size)) return Status(kMisuse, "invalid page size");
  if (mode != JournalMode::kMemory && mode != JournalMode::kOff) {
    return Status(kMisuse, "in-memory pager supports journal modes MEMORY and OFF only");
  }
  std::unique_ptr<MemPager> pager(new MemPager(page_size, mode));
  pager->image_pool_.reserve(kMaxPooledImages);  // GiveImage never allocates
  return pager;
}

Result<std::unique_ptr<MemPager>> MemPager::FromImage(std::string_view bytes, uint32_t page_size,
                                                      JournalMode mode) {
  ASSIGN_OR_RETURN(auto pager, Create(page_size, mode));
  size_t n = (bytes.size() + page_size - 1) / page_size;
  if (n > 0xfffffffeu) return Status(kTooBig);
  pager->frames_.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Frame* f = pager->NewFrame(Pgno(i + 1));
    size_t off = i * page_size;
    size_t len = std::min<size_t>(page_size, bytes.size() - off);
    std::memcpy(f->data, bytes.data() + off, len);
  }
  pager->page_count_ = Pgno(n);
  return pager;
}

MemPager::~MemPager() {
  for (Level& l : levels_) {
    for (Saved& s : l.saved) mem::Release(s.image, page_size_);
  }
  for (uint8_t* p : image_pool_) mem::Release(p, page_size_);
  for (Frame* f : frames_) {
    FreeFrame(f);
  }
}

void MemPager::FreeFrame(Frame* f) {
  f->~Frame();
  mem::Release(f, FrameBytes(), mem::Kind::kPageCache);
}

MemPager::Frame* MemPager::NewFrame(Pgno pgno) {
  if (frames_.size() == frames_.capacity()) frames_.reserve(frames_.size() * 2 + 16);
  void* mem = mem::AcquireOrThrow(FrameBytes(), mem::Kind::kPageCache);
  Frame* f = new (mem) Frame();
  f->data = static_cast<uint8_t*>(mem) + kFrameHead;
  std::memset(f->data, 0, page_size_ + kPageSlack);
  f->pgno = pgno;
  f->pager = this;
  frames_.push_back(f);  // within capacity
  return f;
}

uint8_t* MemPager::TakeImage() {
  if (!image_pool_.empty()) {
    uint8_t* p = image_pool_.back();
    image_pool_.pop_back();
    return p;
  }
  return static_cast<uint8_t*>(mem::AcquireOrThrow(page_size_));
}

void MemPager::GiveImage(uint8_t* image) {
  if (image_pool_.size() < kMaxPooledImages && image_pool_.size() < image_pool_.capacity()) {
    image_pool_.push_back(image);
  } else {
    mem::Release(image, page_size_);
  }
}

int64_t MemPager::cache_bytes() const {
  return static_cast<int64_t>(frames_.size() * FrameBytes());
}

size_t MemPager::saved_image_count() const {
  size_t n = 0;
  for (const Level& l : levels_) n += l.saved.size();
  return n;
}

void MemPager::CopyImage(std::string* out) const {
  out->reserve(out->size() + size_t(page_count_) * page_size_);
  for (Pgno i = 0; i < page_count_; ++i) {
    out->append(reinterpret_cast<const char*>(frames_[i]->data), page_size_);
  }
}

Status MemPager::SetJournalMode(JournalMode mode, JournalMode* result) {
  if ((mode == JournalMode::kMemory || mode == JournalMode::kOff) && txn_ != PagerTxn::kWrite) {
    journal_mode_ = mode;
  }
  *result = journal_mode_;
  return Status();
}

Status MemPager::SetPageSize(uint32_t page_size) {
  if (!IsValidPageSize(page_size)) return Status(kMisuse, "invalid page size");
  if (page_count_ != 0 || txn_ != PagerTxn::kNone) {
    return Status(kMisuse, "page size can change only while the database is empty");
  }
  for (Frame* f : frames_) {
    FreeFrame(f);
  }
  frames_.clear();
  for (uint8_t* p : image_pool_) mem::Release(p, page_size_);
  image_pool_.clear();
  if (page_size != page_size_) ++data_version_;  // as SQLite's pager reset
  page_size_ = page_size;
  return Status();
}

Status MemPager::Get(Pgno pgno, PageRef* out) {
  if (txn_ == PagerTxn::kNone) return Status(kMisuse, "page read outside a transaction");
  if (pgno == 0 || pgno > page_count_) return CORRUPT();
  ++counters_.hits;
  *out = PageRef(frames_[pgno - 1]);
  return Status();
}

Status MemPager::WriteSlow(PageFrame* pf) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  Frame* f = static_cast<Frame*>(pf);
  size_t d = levels_.size() - 1;
  Level& top = levels_[d];
  bool save = journal_mode_ != JournalMode::kOff && f->pgno <= top.orig_count;
  uint64_t bit = d < kMaskLevels ? uint64_t{1} << d : 0;
  if (save && (f->saved_mask & bit) != 0) save = false;
  if (save) {
    // Allocate first (may throw): the frame is marked only once its image
    // is safely in the level.
    if (top.saved.size() == top.saved.capacity()) top.saved.reserve(top.saved.size() * 2 + 16);
    uint8_t* image = TakeImage();
    std::memcpy(image, f->data, page_size_);
    top.saved.push_back(Saved{f, image});  // within capacity
    f->saved_mask |= bit;
  }
  changed_ = true;
  f->write_stamp = top.stamp;
  return Status();
}

Status MemPager::Append(PageRef* out) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (page_count_ >= max_page_count_) return Status(kFull);
  Pgno pgno = page_count_ + 1;
  Frame* f = pgno <= frames_.size() ? frames_[pgno - 1] : NewFrame(pgno);
  page_count_ = pgno;
  PageRef ref(f);
  // A spare frame may hold the image of a page that existed when some level
  // opened (truncated since); Write() saves it before it is zeroed.
  TRY(Write(ref));
  std::memset(f->data, 0, page_size_);
  *out = std::move(ref);
  return Status();
}

Status MemPager::Truncate(Pgno n) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (n >= page_count_) return Status();
  for (Pgno p = n + 1; p <= page_count_; ++p) {
    if (frames_[p - 1]->pins != 0) return Status(kMisuse, "truncating a pinned page");
  }
  // The frames stay as spares. Their images are saved now, at the level
  // doing the truncation, because a later Append() at a newer level would
  // see them as pages that did not exist when that level opened.
  for (Pgno p = n + 1; p <= page_count_; ++p) {
    Frame* f = frames_[p - 1];
    if (f->write_stamp != write_stamp_) TRY(WriteSlow(f));
  }
  page_count_ = n;
  changed_ = true;
  return Status();
}

Status MemPager::BeginRead() {
  if (txn_ == PagerTxn::kNone) txn_ = PagerTxn::kRead;
  return Status();
}

void MemPager::PushLevel() {
  levels_.push_back(Level{next_stamp_++, page_count_, {}});
  write_stamp_ = levels_.back().stamp;
}

Status MemPager::BeginWrite() {
  if (txn_ == PagerTxn::kWrite) return Status();
  PushLevel();  // may throw: still no write transaction then
  txn_ = PagerTxn::kWrite;
  changed_ = false;
  return Status();
}

void MemPager::DiscardLevels() {
  for (Level& l : levels_) {
    for (Saved& s : l.saved) {
      s.frame->saved_mask = 0;
      GiveImage(s.image);
    }
  }
  levels_.clear();
  write_stamp_ = kNoWriteStamp;
}

Status MemPager::Commit() {
  if (txn_ == PagerTxn::kWrite) ++commits_;
  DiscardLevels();
  // Spare frames past the end are kept for reuse, but not without bound.
  while (frames_.size() > size_t(page_count_) + 64) {
    Frame* f = frames_.back();
    frames_.pop_back();
    FreeFrame(f);
  }
  txn_ = PagerTxn::kNone;
  changed_ = false;
  return Status();
}

void MemPager::UndoTo(size_t k) {
  for (size_t j = levels_.size(); j-- > k;) {
    Level& l = levels_[j];
    for (size_t e = l.saved.size(); e-- > 0;) {
      Saved& s = l.saved[e];
      std::memcpy(s.frame->data, s.image, page_size_);
      if (j < kMaskLevels) s.frame->saved_mask &= ~(uint64_t{1} << j);
      s.frame->write_stamp = 0;
      GiveImage(s.image);
    }
    l.saved.clear();
  }
  page_count_ = levels_[k].orig_count;
  levels_.resize(k + 1);
  // A fresh stamp makes every page non-writable at level k again, so the
  // next write saves the (restored) image once more.
  levels_[k].stamp = next_stamp_++;
  write_stamp_ = levels_[k].stamp;
}

Status MemPager::Rollback() {
  if (txn_ == PagerTxn::kWrite && journal_mode_ != JournalMode::kOff) UndoTo(0);
  DiscardLevels();
  txn_ = PagerTxn::kNone;
  changed_ = false;
  return Status();
}

Status MemPager::OpenSavepoints(int n) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "savepoint outside a write transaction");
  while (savepoint_count() < n) PushLevel();
  return Status();
}

Status MemPager::ReleaseSavepoint(int i) {
  if (txn_ != PagerTxn::kWrite || i < 0) return Status(kMisuse, "no such savepoint");
  size_t keep = size_t(i) + 1;  // levels 0..i survive
  // Room in every level the merge passes through for all the images that
  // may move into it (may throw; nothing has changed yet), so the merge
  // below cannot fail half done.
  size_t moving = 0;
  for (size_t j = levels_.size(); j-- > keep;) {
    moving += levels_[j].saved.size();
    levels_[j - 1].saved.reserve(levels_[j - 1].saved.size() + moving);
  }
  while (levels_.size() > keep) {
    size_t j = levels_.size() - 1;
    Level& from = levels_[j];
    Level& into = levels_[j - 1];
    for (Saved& s : from.saved) {
      Frame* f = s.frame;
      if (j < kMaskLevels) f->saved_mask &= ~(uint64_t{1} << j);
      bool needed = f->pgno <= into.orig_count;
      if (needed && j - 1 < kMaskLevels) {
        uint64_t bit = uint64_t{1} << (j - 1);
        needed = (f->saved_mask & bit) == 0;
        if (needed) f->saved_mask |= bit;
      }
      if (needed) {
        into.saved.push_back(s);  // within the capacity reserved above
      } else {
        GiveImage(s.image);
      }
      // Pages written at the released level stay writable at the outer one.
      if (f->write_stamp == from.stamp) f->write_stamp = into.stamp;
    }
    levels_.pop_back();
  }
  write_stamp_ = levels_.back().stamp;
  return Status();
}

Status MemPager::RollbackToSavepoint(int i) {
  if (txn_ != PagerTxn::kWrite || i < 0 || i >= savepoint_count()) {
    return Status(kMisuse, "no such savepoint");
  }
  if (journal_mode_ == JournalMode::kOff) {
    // Nothing was saved; just drop the newer savepoints.
    levels_.resize(size_t(i) + 2);
    write_stamp_ = levels_.back().stamp;
    return Status();
  }
  UndoTo(size_t(i) + 1);
  return Status();
}

}  // namespace basalt
