// FilePager::RewriteWithPageSize: the part of VACUUM that gives a database
// file a new page size (after `PRAGMA page_size=N`), in rollback-journal
// modes only (WAL keeps its page size, as in SQLite).
//
// Inside the current write transaction (no savepoint, nothing pinned):
//   1. every page of the file as it was when the transaction began goes
//      into the journal (pages already there stay as they are); the
//      journal's header records the old page size and old page count;
//   2. the journal is sealed (synced at FULL/EXTRA, as before a spill) and
//      EXCLUSIVE is taken: from here on the file may hold changes (state
//      kWriterDbMod);
//   3. the cache is dropped, the pager switches to the new page size and
//      the new pages are written straight into the file, which is cut to
//      its new length;
//   4. Commit finishes as usual (dirty pages, sync, the journal finished:
//      the commit point). Rollback plays the journal back, which restores
//      the old page size's bytes and length, and the pager returns to the
//      old page size; a crash leaves a hot journal that does the same for
//      the next reader (Basalt or sqlite3).
#include <cstring>

#include "pager/file_pager.h"

namespace basalt {

Status FilePager::RewriteWithPageSize(uint32_t new_size, Pgno count,
                                      const std::function<Status(Pgno, uint8_t*)>& fill) {
  if (txn_ != PagerTxn::kWrite || wal_ || savepoint_count() != 0 || !IsValidPageSize(new_size) ||
      count == 0) {
    return Status(kMisuse, "the page size cannot change here");
  }
  if (!error_.ok()) return error_;
  for (CachedPage* f : cache_.AllPages()) {
    if (f->pins != 0) return Status(kMisuse, "pages are pinned");
  }
  // 1.
  if (state_ == State::kWriterLocked) {
    TRY(OpenJournal());
    state_ = State::kWriterCacheMod;
  }
  if (journal_open_) {
    std::vector<uint8_t> buf(page_size_ + kPageSlack);
    for (Pgno pgno = 1; pgno <= orig_size_; ++pgno) {
      if (in_journal_[pgno] != kNotJournaled) continue;
      const uint8_t* data = buf.data();
      if (CachedPage* f = cache_.Lookup(pgno)) {
        data = f->data;  // clean (a changed page would be journaled)
      } else {
        Status st = ReadPage(pgno, buf.data());
        if (!st.ok()) {
          error_ = st;
          return st;
        }
      }
      TRY(JournalPage(pgno, data));
    }
    // 2.
    Status st = journal_.Seal(sync_ >= Synchronous::kFull, true);
    if (!st.ok()) {
      error_ = st;
      return st;
    }
    for (Pgno p : unsealed_) in_journal_[p] = kSealed;
    unsealed_.clear();
  }
  TRY(WithBusy([this] { return db_->Lock(LockLevel::kExclusive); }));
  state_ = State::kWriterDbMod;
  // 3. Whatever is cached is of the old size (and already journaled).
  ResetCache();
  if (resized_from_ == 0) resized_from_ = page_size_;
  page_size_ = new_size;
  cache_.SetPageSize(new_size);
  SetCacheSize(cache_size_);
  changed_ = true;
  Status st = [&]() -> Status {
    std::vector<uint8_t> page(new_size + kPageSlack);
    for (Pgno pgno = 1; pgno <= count; ++pgno) {
      std::memset(page.data(), 0, page.size());
      TRY(fill(pgno, page.data()));
      ++stats_.pages_written;
      TRY(db_->Write(page.data(), new_size, uint64_t(pgno - 1) * new_size));
    }
    return db_->Truncate(uint64_t(count) * new_size);
  }();
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  page_count_ = count;
  return Status();
}

}  // namespace basalt
