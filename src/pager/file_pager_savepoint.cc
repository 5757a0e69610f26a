// FilePager savepoints.
//
// Level 0 is the write transaction itself; savepoint i is level i + 1. A
// level records the page count when it opened and, for each page first
// written (or truncated away) while it was the innermost level, the page's
// image at that moment, if the page existed when the level opened. Level 0
// keeps no images: the journal (or, in WAL mode, discarding the cache)
// undoes the whole transaction.
//
// Invariants (as in mem_pager.cc, with sets in place of per-frame masks
// because frames come and go with the cache):
//   S1. levels_ is non-empty iff txn_ == kWrite; write_stamp_ is the stamp
//       of levels_.back(). A frame with that stamp needs no image saved.
//   S2. Undoing levels newest first restores every page to its image when
//       level k opened: it was saved at the lowest level >= k where it was
//       written, with its image from when that level opened.
// Restored pages stay dirty (the journal already holds their originals).
#include <cstring>

#include "pager/file_pager.h"

namespace basalt {

void FilePager::PushLevel() {
  Level l;
  l.stamp = next_stamp_++;
  l.orig_count = page_count_;
  levels_.push_back(std::move(l));
  write_stamp_ = levels_.back().stamp;
}

void FilePager::DropLevels() { levels_.clear(); }

Status FilePager::SaveImage(CachedPage* f) {
  Level& top = levels_.back();
  if (f->pgno > top.orig_count || top.saved_set.count(f->pgno) != 0) return Status();
  // Allocate first (may throw): the page counts as saved only once its
  // image is in the level.
  auto image = std::make_unique_for_overwrite<uint8_t[]>(page_size_);  // copied over next
  std::memcpy(image.get(), f->data, page_size_);
  top.saved.emplace_back(f->pgno, std::move(image));
  try {
    top.saved_set.insert(f->pgno);
  } catch (...) {
    top.saved.pop_back();
    throw;
  }
  return Status();
}

Status FilePager::OpenSavepoints(int n) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "savepoint outside a write transaction");
  while (savepoint_count() < n) PushLevel();
  return Status();
}

Status FilePager::ReleaseSavepoint(int i) {
  if (txn_ != PagerTxn::kWrite || i < 0) return Status(kMisuse, "no such savepoint");
  size_t keep = size_t(i) + 1;
  while (levels_.size() > keep) {
    Level from = std::move(levels_.back());
    levels_.pop_back();
    Level& into = levels_.back();
    if (levels_.size() == 1) continue;  // level 0 keeps no images
    for (auto& [pgno, image] : from.saved) {
      if (pgno <= into.orig_count && into.saved_set.insert(pgno).second) {
        into.saved.emplace_back(pgno, std::move(image));
      }
    }
  }
  write_stamp_ = levels_.back().stamp;
  return Status();
}

Status FilePager::RollbackToSavepoint(int i) {
  if (txn_ != PagerTxn::kWrite || i < 0 || i >= savepoint_count()) {
    return Status(kMisuse, "no such savepoint");
  }
  if (!error_.ok()) return error_;
  size_t k = size_t(i) + 1;
  Pgno target = levels_[k].orig_count;
  for (size_t j = levels_.size(); j-- > k;) {
    auto& saved = levels_[j].saved;
    for (size_t e = saved.size(); e-- > 0;) {
      Pgno pgno = saved[e].first;
      if (pgno > target) continue;
      CachedPage* f;
      TRY(Fetch(pgno, &f));
      std::memcpy(f->data, saved[e].second.get(), page_size_);
      cache_.MarkDirty(f);
      f->write_stamp = 0;
    }
  }
  for (Pgno p = target + 1; p <= page_count_; ++p) {
    if (CachedPage* f = cache_.Lookup(p)) DropFrame(f);
  }
  page_count_ = target;
  levels_.resize(k + 1);
  levels_[k].saved.clear();
  levels_[k].saved_set.clear();
  levels_[k].stamp = next_stamp_++;
  write_stamp_ = levels_[k].stamp;
  return Status();
}

}  // namespace basalt
