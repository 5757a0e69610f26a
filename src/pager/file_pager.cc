// FilePager: opening and closing, pages, the cache and cache spills.
#include "pager/file_pager.h"

#include <algorithm>
#include <cstring>

#include "common/mem.h"
#include "os/mem_vfs.h"
#include "pager/db_header.h"
#include "pager/wal.h"

namespace basalt {

FilePager::FilePager(Vfs* vfs, std::string path, std::unique_ptr<VfsFile> db,
                     const PagerOptions& opt, uint32_t page_size, bool read_only)
    : Pager(page_size,
            opt.journal_mode == JournalMode::kWal ? JournalMode::kDelete : opt.journal_mode),
      vfs_(vfs),
      path_(std::move(path)),
      journal_path_(path_ + "-journal"),
      wal_path_(path_ + "-wal"),
      db_(std::move(db)),
      read_only_(read_only),
      exclusive_locking_(opt.exclusive_locking),
      sync_(opt.synchronous),
      autocheckpoint_(opt.wal_autocheckpoint),
      busy_(opt.busy_handler),
      cache_(this, page_size) {
  SetCacheSize(opt.cache_size);
}

Result<std::unique_ptr<FilePager>> FilePager::Open(Vfs* vfs, const std::string& path,
                                                   const PagerOptions& opt) {
  std::string full;
  TRY(vfs->FullPathname(path, &full));
  int flags = kOpenMainDb;
  if (opt.read_only) {
    flags |= kOpenReadOnly;
  } else {
    flags |= kOpenReadWrite | (opt.create ? kOpenCreate : 0);
  }
  std::unique_ptr<VfsFile> db;
  int got = flags;
  TRY(vfs->Open(full, flags, &db, &got));
  bool read_only = (got & kOpenReadOnly) != 0;
  // The page size of an existing database comes from its header (read
  // without a lock, as SQLite does; the first transaction checks it again).
  uint32_t page_size = IsValidPageSize(opt.page_size) ? opt.page_size : kDefaultPageSize;
  uint64_t size = 0;
  TRY(db->FileSize(&size));
  if (size >= dbhdr::kSize) {
    uint8_t h[dbhdr::kSize];
    TRY(db->Read(h, sizeof h, 0));
    if (dbhdr::HasMagic(h) && IsValidPageSize(dbhdr::PageSize(h))) page_size = dbhdr::PageSize(h);
  }
  std::unique_ptr<FilePager> p(new FilePager(vfs, full, std::move(db), opt, page_size, read_only));
  // No transaction here: the first one (at the first statement) rolls back
  // a hot journal and learns the page count, as in SQLite.
  if (opt.journal_mode == JournalMode::kWal && !read_only) {
    TRY(p->BeginRead());
    TRY(p->Commit());
    JournalMode got_mode;
    TRY(p->SetJournalMode(JournalMode::kWal, &got_mode));
  }
  return p;
}

Result<std::unique_ptr<Pager>> OpenFilePager(Vfs* vfs, const std::string& path,
                                             const PagerOptions& options) {
  ASSIGN_OR_RETURN(auto p, FilePager::Open(vfs, path, options));
  return std::unique_ptr<Pager>(std::move(p));
}

FilePager::~FilePager() {
  if (txn_ != PagerTxn::kNone) (void)Rollback();
  (void)CloseWal(true);
  (void)db_->Unlock(LockLevel::kNone);
}

LockLevel FilePager::lock_level() const { return db_->lock_level(); }

uint32_t FilePager::wal_frames() const { return wal_ ? wal_->max_frame() : 0; }

JournalMode FilePager::RollbackMode() const {
  return journal_mode_ == JournalMode::kWal ? JournalMode::kDelete : journal_mode_;
}

void FilePager::SetCacheSize(int n) {
  cache_size_ = n;
  int64_t pages = n;
  if (n < 0) pages = (-int64_t(n) * 1024) / (int64_t(page_size_) + 128);
  cache_limit_ = size_t(std::max<int64_t>(pages, 10));
}

Status FilePager::SetPageSize(uint32_t page_size) {
  if (!IsValidPageSize(page_size)) return Status(kMisuse, "invalid page size");
  if (page_size == page_size_) return Status();
  if (page_count_ != 0 || txn_ != PagerTxn::kNone) {
    return Status(kMisuse, "page size can change only while the database is empty");
  }
  for (CachedPage* f : cache_.AllPages()) {
    if (f->pins != 0) return Status(kMisuse, "pages are pinned");
  }
  ResetCache();
  ++data_version_;  // as SQLite's pager reset
  page_size_ = page_size;
  cache_.SetPageSize(page_size);
  return Status();
}

Status FilePager::AdoptPageSize(uint32_t page_size) {
  // A header with the magic but an impossible page size: not a database.
  if (!IsValidPageSize(page_size)) return Status(kNotADb);
  // A new page size after the first read is another connection's VACUUM:
  // followed at the start of a transaction, when no page is in use.
  if (page_size_fixed_ && txn_ != PagerTxn::kNone) {
    return Status(kSchema, "database page size changed; reopen the database");
  }
  for (CachedPage* f : cache_.AllPages()) {
    if (f->pins != 0) return Status(kSchema, "database page size changed; reopen the database");
  }
  ResetCache();
  page_size_ = page_size;
  cache_.SetPageSize(page_size);
  SetCacheSize(cache_size_);
  return Status();
}

// ---- Reading pages ----------------------------------------------------------

Status FilePager::ReadPage(Pgno pgno, uint8_t* buf) {
  ++stats_.pages_read;
  if (wal_) {
    uint32_t frame = 0;
    TRY(wal_->FindFrame(pgno, &frame));
    if (frame != 0) return wal_->ReadFrame(frame, buf, page_size_);
  }
  Status st = db_->Read(buf, page_size_, uint64_t(pgno - 1) * page_size_);
  if (st.code() == kIoErrShortRead) return Status();  // past the end: zeros
  return st;
}

Status FilePager::Fetch(Pgno pgno, CachedPage** out) {
  CachedPage* f = cache_.Lookup(pgno);
  if (f == nullptr) {
    CachedPage* reuse = nullptr;
    TRY(MakeRoom(&reuse));
    ++counters_.misses;
    f = cache_.Insert(pgno, reuse, /*zero_page=*/false);
    Status st = ReadPage(pgno, f->data);
    if (!st.ok()) {
      cache_.Detach(f);
      cache_.Free(f);
      return st;
    }
  }
  *out = f;
  return Status();
}

Status FilePager::Get(Pgno pgno, PageRef* out) {
  if (txn_ == PagerTxn::kNone) return Status(kMisuse, "page read outside a transaction");
  if (pgno == 0 || pgno > page_count_) return CORRUPT();
  CachedPage* f = cache_.Lookup(pgno);
  if (f == nullptr) {
    TRY(Fetch(pgno, &f));
  } else {
    ++counters_.hits;
  }
  if (f->pins == 0) cache_.Pinned(f);
  *out = PageRef(f);
  return Status();
}

// ---- The cache --------------------------------------------------------------

namespace {
constexpr int kSpillSearch = 64;  // dirty frames MakeRoom looks at past the oldest
}  // namespace

Status FilePager::MakeRoom(CachedPage** reuse) {
  *reuse = nullptr;
  if (cache_.size() < cache_limit_) {
    // Over the soft heap limit the cache reuses its oldest clean page
    // instead of growing, as SQLite's does (dirty pages are not written
    // for it).
    if (!mem::NearlyFull()) return Status();
    if (CachedPage* f = cache_.OldestClean()) {
      cache_.Detach(f);
      *reuse = f;
    }
    return Status();
  }
  if (CachedPage* f = cache_.OldestClean()) {
    cache_.Detach(f);
    *reuse = f;
    return Status();
  }
  if (txn_ != PagerTxn::kWrite || !error_.ok()) return Status();
  CachedPage* f = cache_.OldestDirty();
  if (f == nullptr) return Status();  // everything is pinned: grow
  // As SQLite's cache does: a less recently used dirty page whose journal
  // record is already durable goes first (looking a bounded way down the
  // list), so that spills seal (sync) the journal seldom.
  if (!wal_ && SpillNeedsSeal(f)) {
    int budget = kSpillSearch;
    for (CachedPage* g = f->next; g != nullptr && budget-- > 0; g = g->next) {
      if (!SpillNeedsSeal(g)) {
        f = g;
        break;
      }
    }
  }
  Status st = Spill(f);
  if (st.primary() == kBusy) return Status();  // cannot write now: grow
  TRY(st);
  if (!f->dirty && f->pins == 0) {
    cache_.Detach(f);
    *reuse = f;
  }
  return Status();
}

Status FilePager::WritePageToDb(CachedPage* f) {
  ++stats_.pages_written;
  ++counters_.writes;
  return db_->Write(f->data, page_size_, uint64_t(f->pgno - 1) * page_size_);
}

bool FilePager::SpillNeedsSeal(const CachedPage* f) const {
  bool unsealed = f->pgno <= orig_size_ && in_journal_[f->pgno] == kUnsealed;
  return journal_open_ && (unsealed || !journal_.sealed_once());
}

Status FilePager::Spill(CachedPage* f) {
  if (wal_) {
    std::vector<Wal::FramePage> one{{f->pgno, f->data}};
    Status st = wal_->WriteFrames(one, page_size_, 0, false, sync_ != Synchronous::kOff);
    if (!st.ok()) {
      if (st.primary() != kBusy) error_ = st;
      return st;
    }
    spilled_ = true;
    ++stats_.spills;
    ++counters_.spills;
    ++counters_.writes;
    cache_.MarkClean(f);
    return Status();
  }
  // The journal must be durable before the page it protects is overwritten
  // (and its first header before the file grows); sealing it covers every
  // record so far.
  if (SpillNeedsSeal(f)) {
    Status st = journal_.Seal(sync_ >= Synchronous::kFull, true);
    if (!st.ok()) {
      error_ = st;
      return st;
    }
    for (Pgno p : unsealed_) in_journal_[p] = kSealed;
    unsealed_.clear();
  }
  TRY(db_->Lock(LockLevel::kExclusive));
  state_ = State::kWriterDbMod;
  Status st = WritePageToDb(f);
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  ++stats_.spills;
  ++counters_.spills;
  cache_.MarkClean(f);
  return Status();
}

void FilePager::DropFrame(CachedPage* f) {
  if (f->pins == 0) {
    cache_.Detach(f);
    cache_.Free(f);
    return;
  }
  // A pinned page stays at its address: reload what the file now says.
  if (!ReadPage(f->pgno, f->data).ok()) std::memset(f->data, 0, page_size_);
  cache_.MarkClean(f);
  f->write_stamp = 0;
}

// Both run on rollback paths, so neither allocates.
void FilePager::ResetCache() {
  ++cache_epoch_;
  cache_.ForEachPage([this](CachedPage* f) { DropFrame(f); });
}

void FilePager::DiscardDirty() {
  // DropFrame takes each frame out of the dirty set.
  while (CachedPage* f = cache_.AnyDirty()) DropFrame(f);
}

// ---- Writing pages ----------------------------------------------------------

Status FilePager::JournalPage(Pgno pgno, const uint8_t* data) {
  Status st = journal_.Append(pgno, data);
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  if (journal_.synced()) {
    in_journal_[pgno] = kUnsealed;
    unsealed_.push_back(pgno);
  } else {
    in_journal_[pgno] = kSealed;  // never synced: nothing to wait for
  }
  return Status();
}

Status FilePager::WriteSlow(PageFrame* pf) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (!error_.ok()) return error_;
  auto* f = static_cast<CachedPage*>(pf);
  if (state_ == State::kWriterLocked) {
    if (!wal_) TRY(OpenJournal());
    state_ = State::kWriterCacheMod;
  }
  if (levels_.size() > 1) TRY(SaveImage(f));
  if (journal_open_ && f->pgno <= orig_size_ && in_journal_[f->pgno] == kNotJournaled) {
    TRY(JournalPage(f->pgno, f->data));
  }
  changed_ = true;
  cache_.MarkDirty(f);
  f->write_stamp = write_stamp_;
  return Status();
}

Status FilePager::Append(PageRef* out) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (!error_.ok()) return error_;
  if (page_count_ >= max_page_count_) return Status(kFull);
  Pgno pgno = page_count_ + 1;
  CachedPage* f = cache_.Lookup(pgno);
  if (f == nullptr) {
    CachedPage* reuse = nullptr;
    TRY(MakeRoom(&reuse));
    f = cache_.Insert(pgno, reuse);
  }
  if (f->pins == 0) cache_.Pinned(f);
  PageRef ref(f);
  page_count_ = pgno;
  f->write_stamp = 0;
  Status st = Write(ref);
  if (!st.ok()) {
    page_count_ = pgno - 1;
    return st;
  }
  std::memset(f->data, 0, page_size_);
  *out = std::move(ref);
  return Status();
}

Status FilePager::Truncate(Pgno n) {
  if (txn_ != PagerTxn::kWrite) return Status(kMisuse, "page write outside a write transaction");
  if (!error_.ok()) return error_;
  if (n >= page_count_) return Status();
  for (Pgno p = n + 1; p <= page_count_; ++p) {
    CachedPage* f = cache_.Lookup(p);
    if (f != nullptr && f->pins != 0) return Status(kMisuse, "truncating a pinned page");
  }
  if (state_ == State::kWriterLocked) {
    if (!wal_) TRY(OpenJournal());
    state_ = State::kWriterCacheMod;
  }
  // Pages that existed when the transaction (or the innermost savepoint)
  // began are saved before they go: the commit shortens the file.
  for (Pgno p = n + 1; p <= page_count_; ++p) {
    bool need_journal = journal_open_ && p <= orig_size_ && in_journal_[p] == kNotJournaled;
    bool need_image = levels_.size() > 1 && p <= levels_.back().orig_count &&
                      levels_.back().saved_set.count(p) == 0;
    if (need_journal || need_image) {
      CachedPage* f;
      TRY(Fetch(p, &f));
      if (need_image) TRY(SaveImage(f));
      if (need_journal) TRY(JournalPage(p, f->data));
    }
    if (CachedPage* f = cache_.Lookup(p)) DropFrame(f);
  }
  page_count_ = n;
  changed_ = true;
  return Status();
}

VfsFile* FilePager::journal_file() const { return wal_ != nullptr ? wal_->file() : jfd_.get(); }

}  // namespace basalt
