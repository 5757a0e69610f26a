// FilePager transactions in the rollback-journal modes (DELETE, TRUNCATE,
// PERSIST, MEMORY, OFF), and the dispatch to WAL mode (file_pager_wal.cc).
//
// State machine (state_, with txn_ and the database lock):
//   1. kOpen          no transaction; lock NONE (exclusive locking mode:
//                     whatever was last held).
//      BeginRead  -> 2: SHARED; a hot journal is rolled back first
//                     (RollbackHotJournal, under EXCLUSIVE); a changed file
//                     (header bytes 24..39) empties the cache; a WAL header
//                     or -wal file switches to WAL mode (OpenWal).
//   2. kReader        SHARED. Commit/Rollback -> 1 (EndTransaction).
//      BeginWrite -> 3: RESERVED (no busy handler: see file_pager.h).
//   3. kWriterLocked  RESERVED. The first Write/Truncate opens the journal
//                     (OpenJournal) -> 4. Commit/Rollback -> 1.
//   4. kWriterCacheMod  changes live in the cache; each page's original is
//                     in the journal before its first change. A cache spill
//                     seals the journal, takes EXCLUSIVE and writes the
//                     page -> 5. Rollback: drop the dirty pages, finish the
//                     journal -> 1.
//   5. kWriterDbMod   EXCLUSIVE; the file may hold changes. Rollback: play
//                     the journal back into the file, empty the cache ->
//                     1. If that fails the journal stays behind, hot, for
//                     the next reader.
//   Commit from 4 or 5 (CommitRollbackMode), the sync points at
//   synchronous = OFF / NORMAL / FULL / EXTRA (atomiccommit section 3):
//     a. seal the journal: [FULL, EXTRA: sync], write count + magic, sync
//        (OFF and MEMORY journals are written sealed and never synced)
//     b. EXCLUSIVE (waits through the busy handler; kBusy keeps the
//        transaction open, holding PENDING, for a retry)
//     c. write the dirty pages; truncate the file to page_count()
//     d. sync the database (not at OFF)
//     e. finish the journal, the commit point: DELETE unlinks it (EXTRA:
//        and syncs the directory), TRUNCATE truncates it (FULL, EXTRA:
//        sync), PERSIST zeroes its header (sync unless OFF)
//     f. -> 1
//   An I/O error after (a) is sticky (error_): everything but Rollback()
//   returns it.
#include <cstring>
#include <new>

#include "os/mem_vfs.h"
#include "pager/db_header.h"
#include "pager/file_pager.h"
#include "pager/wal.h"

namespace basalt {

Status FilePager::WithBusy(const std::function<Status()>& attempt) {
  for (int n = 0;; ++n) {
    Status st = attempt();
    if (st.primary() != kBusy || !busy_ || !busy_(n)) return st;
  }
}

Status FilePager::BeginRead() {
  if (txn_ != PagerTxn::kNone) return Status();
  return WithBusy([this] { return TryBeginRead(); });
}

Status FilePager::BeginWrite() {
  if (read_only_) return Status(kReadOnly);
  if (txn_ == PagerTxn::kWrite) return Status();
  if (txn_ == PagerTxn::kRead) return TryBeginWrite(false);
  return WithBusy([this] {
    Status st = TryBeginRead();
    if (st.ok()) {
      st = TryBeginWrite(false);
      if (!st.ok()) EndTransaction();
    }
    return st;
  });
}

Status FilePager::BeginWriteExclusive() {
  if (read_only_) return Status(kReadOnly);
  if (txn_ == PagerTxn::kWrite) {
    // Already writing (e.g. the B-tree's BeginTransaction created page 1):
    // just make the lock EXCLUSIVE.
    if (wal_ || db_->lock_level() == LockLevel::kExclusive) return Status();
    return WithBusy([this] { return db_->Lock(LockLevel::kExclusive); });
  }
  if (txn_ != PagerTxn::kNone) return Status(kMisuse, "BEGIN EXCLUSIVE inside a transaction");
  return WithBusy([this] {
    Status st = TryBeginRead();
    if (st.ok()) {
      st = TryBeginWrite(true);
      if (!st.ok()) EndTransaction();
    }
    return st;
  });
}

Status FilePager::ReadFileHeader(uint8_t* hdr, uint64_t* file_size) {
  TRY(db_->FileSize(file_size));
  std::memset(hdr, 0, dbhdr::kSize);
  if (*file_size == 0) return Status();
  Status st = db_->Read(hdr, dbhdr::kSize, 0);
  if (st.code() == kIoErrShortRead) return Status();
  return st;
}

bool FilePager::UnchangedSinceLastRead(uint8_t* hdr) {
  if (!size_known_ || !version_known_ || leaving_wal_) return false;
  if (!db_->Read(hdr, dbhdr::kSize, 0).ok()) return false;
  return dbhdr::HasMagic(hdr) && dbhdr::PageSize(hdr) == page_size_ &&
         hdr[dbhdr::kReadVersion] == 1 && hdr[dbhdr::kWriteVersion] == 1 &&
         std::memcmp(hdr + dbhdr::kFileVersion, file_version_, dbhdr::kFileVersionSize) == 0;
}

Status FilePager::CheckHotJournal(bool* hot) {
  *hot = false;
  bool exists = false;
  TRY(vfs_->Access(journal_path_, AccessMode::kExists, &exists));
  if (!exists) return Status();
  bool reserved = false;
  TRY(db_->CheckReservedLock(&reserved));
  if (reserved && !lock_unknown_) return Status();  // its writer is alive
  uint64_t size = 0;
  TRY(db_->FileSize(&size));
  if (size == 0) {
    // Nothing to restore into an empty database: just remove the journal.
    if (!read_only_ && db_->Lock(LockLevel::kReserved).ok()) {
      (void)vfs_->Delete(journal_path_, false);
      (void)db_->Unlock(LockLevel::kShared);
    }
    return Status();
  }
  std::unique_ptr<VfsFile> j;
  Status st = vfs_->Open(journal_path_, kOpenReadOnly | kOpenMainJournal, &j);
  if (st.primary() == kCantOpen) return Status();  // gone meanwhile
  TRY(st);
  uint8_t first = 0;
  st = j->Read(&first, 1, 0);
  if (!st.ok() && st.code() != kIoErrShortRead) return st;
  *hot = first != 0;
  return Status();
}

Status FilePager::RollbackHotJournal() {
  if (read_only_) return Status(kReadOnlyRollback);
  TRY(db_->Lock(LockLevel::kExclusive));
  std::unique_ptr<VfsFile> j;
  Status st = vfs_->Open(journal_path_, kOpenReadWrite | kOpenMainJournal, &j);
  if (st.primary() == kCantOpen) {
    // Another connection finished the rollback between our check and lock.
    return db_->Unlock(LockLevel::kShared);
  }
  TRY(st);
  uint8_t first = 0;
  st = j->Read(&first, 1, 0);
  if (!st.ok() && st.code() != kIoErrShortRead) return st;
  if (first != 0) {
    PlaybackOptions opt;
    opt.sync = sync_ != Synchronous::kOff;
    opt.vfs = vfs_;
    PlaybackResult res;
    TRY(PlaybackJournal(j.get(), db_.get(), opt, &res));
    switch (RollbackMode()) {
      case JournalMode::kTruncate:
        TRY(j->Truncate(0));
        if (sync_ >= Synchronous::kFull) TRY(j->Sync(kSyncNormal));
        j.reset();
        break;
      case JournalMode::kPersist: {
        uint8_t zero[jrnl::kHdrFields] = {};
        TRY(j->Write(zero, sizeof zero, 0));
        if (sync_ != Synchronous::kOff) TRY(j->Sync(kSyncNormal));
        j.reset();
        break;
      }
      default:
        j.reset();
        st = vfs_->Delete(journal_path_, sync_ == Synchronous::kExtra);
        if (!st.ok() && st.code() != kIoErrDeleteNoEnt) return st;
        break;
    }
    ++stats_.hot_rollbacks;
  }
  ResetCache();
  version_known_ = false;
  size_known_ = false;
  Status unlocked = db_->Unlock(LockLevel::kShared);
  if (unlocked.ok()) lock_unknown_ = false;
  return unlocked;
}

Status FilePager::SetPageCount(Pgno physical, const uint8_t* hdr) {
  Pgno count = physical;
  if (hdr != nullptr && physical > 0 && dbhdr::HasMagic(hdr)) {
    uint32_t in_header = dbhdr::ValidDatabaseSize(hdr);
    if (in_header != 0) {
      if (in_header > physical) return CORRUPT();
      count = in_header;
    }
  }
  page_count_ = count;
  return Status();
}

Status FilePager::TryBeginRead() {
  Status st = TryBeginReadUnfixed();
  // Once a transaction has read the header under a lock, the page size is
  // the database's for good (a later change means "reopen").
  if (st.ok()) page_size_fixed_ = true;
  return st;
}

Status FilePager::TryBeginReadUnfixed() {
  if (wal_) return WalBeginRead();
  TRY(db_->Lock(LockLevel::kShared));
  bool opened_wal = false;
  Status st = [&]() -> Status {
    bool hot = false;
    TRY(CheckHotJournal(&hot));
    if (hot) TRY(RollbackHotJournal());
    uint8_t hdr[dbhdr::kSize];
    uint64_t size = 0;
    if (!hot && UnchangedSinceLastRead(hdr)) {
      // Nobody has committed since: same size, same cache, still no WAL.
      size = known_size_;
      return SetPageCount(Pgno((size + page_size_ - 1) / page_size_), hdr);
    }
    size_known_ = false;
    TRY(ReadFileHeader(hdr, &size));
    if (!leaving_wal_) {
      bool wal_file = false;
      if (size == 0) {
        // A WAL beside an empty database is left over: SQLite removes it.
        if (!read_only_) (void)vfs_->Delete(wal_path_, false);
      } else {
        TRY(vfs_->Access(wal_path_, AccessMode::kExists, &wal_file));
      }
      bool header_says_wal = size >= dbhdr::kSize && dbhdr::HasMagic(hdr) &&
                             (hdr[dbhdr::kReadVersion] == 2 || hdr[dbhdr::kWriteVersion] == 2);
      if (wal_file || header_says_wal) {
        if (dbhdr::HasMagic(hdr) && dbhdr::PageSize(hdr) != page_size_) {
          TRY(AdoptPageSize(dbhdr::PageSize(hdr)));
        }
        TRY(OpenWal());
        opened_wal = true;
        return Status();
      }
    }
    // A file cut inside its header still says its page size (the rest
    // reads as zeros), as SQLite takes it: then page 1 is damaged, not
    // "not a database".
    if (dbhdr::HasMagic(hdr) && dbhdr::PageSize(hdr) != page_size_) {
      TRY(AdoptPageSize(dbhdr::PageSize(hdr)));
    }
    bool counted = false;
    if (!version_known_ ||
        std::memcmp(hdr + dbhdr::kFileVersion, file_version_, dbhdr::kFileVersionSize) != 0) {
      counted = version_known_;
      if (version_known_) ++data_version_;
      ResetCache();
      std::memcpy(file_version_, hdr + dbhdr::kFileVersion, dbhdr::kFileVersionSize);
      version_known_ = true;
    }
    // A count SQLite makes at this read (see SetJournalMode): once.
    if (count_deferred_ && !opening_) {
      if (!counted) ++data_version_;
      count_deferred_ = false;
    }
    Pgno physical = Pgno((size + page_size_ - 1) / page_size_);
    TRY(SetPageCount(physical, size >= dbhdr::kSize ? hdr : nullptr));
    known_size_ = size;
    size_known_ = size >= dbhdr::kSize && dbhdr::HasMagic(hdr) && !leaving_wal_;
    return Status();
  }();
  if (!st.ok()) {
    if (!exclusive_locking_) UnlockAll();
    return st;
  }
  // In WAL mode the SHARED lock stays for as long as the WAL is open.
  if (opened_wal) return WalBeginRead();
  state_ = State::kReader;
  txn_ = PagerTxn::kRead;
  return Status();
}

Status FilePager::TryBeginWrite(bool exclusive) {
  if (wal_) {
    TRY(wal_->BeginWrite());
  } else {
    TRY(db_->Lock(LockLevel::kReserved));
    if (exclusive || exclusive_locking_) {
      Status st = db_->Lock(LockLevel::kExclusive);
      if (!st.ok()) {
        (void)db_->Unlock(LockLevel::kShared);
        return st;
      }
    }
  }
  state_ = State::kWriterLocked;
  txn_ = PagerTxn::kWrite;
  orig_size_ = page_count_;
  changed_ = false;
  spilled_ = false;
  error_ = Status();
  PushLevel();
  return Status();
}

Status FilePager::OpenJournal() {
  JournalMode mode = RollbackMode();
  in_journal_.assign(size_t(orig_size_) + 1, kNotJournaled);
  unsealed_.clear();
  if (mode == JournalMode::kOff) return Status();
  if (mode == JournalMode::kMemory) {
    jfd_ = NewMemoryFile();
  } else {
    TRY(vfs_->Open(journal_path_, kOpenReadWrite | kOpenCreate | kOpenMainJournal, &jfd_));
  }
  uint32_t nonce = 0;
  vfs_->Randomness(&nonce, sizeof nonce);
  bool synced = sync_ != Synchronous::kOff && mode != JournalMode::kMemory;
  Status st = journal_.Begin(jfd_.get(), nonce, orig_size_, page_size_, synced);
  if (!st.ok()) {
    jfd_.reset();
    if (mode == JournalMode::kDelete) (void)vfs_->Delete(journal_path_, false);
    return st;
  }
  journal_open_ = true;
  return Status();
}

Status FilePager::FinalizeJournal() {
  if (!journal_open_) return Status();
  journal_open_ = false;
  Status st;
  switch (RollbackMode()) {
    case JournalMode::kMemory:
    case JournalMode::kOff:
      break;
    case JournalMode::kTruncate:
      st = jfd_->Truncate(0);
      if (st.ok() && sync_ >= Synchronous::kFull) st = jfd_->Sync(kSyncNormal);
      break;
    case JournalMode::kPersist: {
      uint8_t zero[jrnl::kHdrFields] = {};
      st = jfd_->Write(zero, sizeof zero, 0);
      if (st.ok() && sync_ != Synchronous::kOff) st = jfd_->Sync(kSyncNormal);
      break;
    }
    default:
      jfd_.reset();
      st = vfs_->Delete(journal_path_, sync_ == Synchronous::kExtra);
      if (st.code() == kIoErrDeleteNoEnt) st = Status();
      break;
  }
  jfd_.reset();
  return st;
}

void FilePager::EndTransaction() {
  phase_one_done_ = false;
  DropLevels();
  resized_from_ = 0;
  write_stamp_ = kNoWriteStamp;
  changed_ = false;
  spilled_ = false;
  in_journal_.clear();
  unsealed_.clear();
  txn_ = PagerTxn::kNone;
  state_ = State::kOpen;
  if (wal_) {
    wal_->EndWrite();
    wal_->EndRead();
  } else if (!exclusive_locking_) {
    UnlockAll();
  }
}

void FilePager::UnlockAll() { lock_unknown_ = !db_->Unlock(LockLevel::kNone).ok(); }

Status FilePager::Commit() {
  if (txn_ == PagerTxn::kNone) return Status();
  if (txn_ == PagerTxn::kRead) {
    EndTransaction();
    return Status();
  }
  Status st = wal_ ? CommitWal() : CommitRollbackMode();
  if (st.ok()) ++commits_;
  return st;
}

Status FilePager::CommitPhaseOne(std::string_view super_journal) {
  if (txn_ != PagerTxn::kWrite || wal_ || phase_one_done_) return Status();
  if (state_ == State::kWriterLocked) return Status();
  return WriteCommitPages(super_journal);
}

Status FilePager::CommitPhaseTwo() {
  if (txn_ != PagerTxn::kWrite || wal_) return Commit();
  Status st = CommitRollbackMode();
  if (st.ok()) ++commits_;
  return st;
}

Status FilePager::CommitRollbackMode() {
  if (state_ == State::kWriterLocked) {
    EndTransaction();
    return Status();
  }
  if (!phase_one_done_) TRY(WriteCommitPages({}));
  // e.
  Status st = FinalizeJournal();
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  // f.
  if (CachedPage* p1 = cache_.Lookup(1)) {
    std::memcpy(file_version_, p1->data + dbhdr::kFileVersion, dbhdr::kFileVersionSize);
    version_known_ = true;
  } else {
    version_known_ = false;
  }
  // The next read transaction finds the file as this commit left it (unless
  // another connection commits first, which changes the header).
  known_size_ = committed_size_;
  size_known_ = version_known_ && !leaving_wal_;
  EndTransaction();
  return Status();
}

// Steps a. - d.: the changes reach the database file, the journal stays.
Status FilePager::WriteCommitPages(std::string_view super_journal) {
  if (!error_.ok()) return error_;
  // WAL was asked for while the database was empty: page 1 says so as it
  // is first written (the next read transaction then opens the WAL).
  // (Page 1 is new, so there is nothing to journal; it may have been
  // spilled already, hence the fetch.)
  if (journal_mode_ == JournalMode::kWal && orig_size_ == 0 && page_count_ > 0) {
    CachedPage* p1;
    Status st = Fetch(1, &p1);
    if (!st.ok()) {
      error_ = st;
      return st;
    }
    if (dbhdr::HasMagic(p1->data) && p1->data[dbhdr::kReadVersion] != 2) {
      p1->data[dbhdr::kWriteVersion] = 2;
      p1->data[dbhdr::kReadVersion] = 2;
      changed_ = true;
      cache_.MarkDirty(p1);
    }
  }
  // a. (naming the super-journal first, for a multi-database commit)
  if (journal_open_) {
    Status st;
    if (!super_journal.empty()) st = journal_.WriteSuperJournalName(super_journal);
    if (st.ok()) st = journal_.Seal(sync_ >= Synchronous::kFull, false);
    if (!st.ok()) {
      error_ = st;
      return st;
    }
  }
  // b.
  TRY(WithBusy([this] { return db_->Lock(LockLevel::kExclusive); }));
  state_ = State::kWriterDbMod;
  // c. - e.
  std::vector<CachedPage*> dirty = cache_.DirtyPages();
  uint64_t final_size = 0;
  Status st = [&]() -> Status {
    for (CachedPage* f : dirty) TRY(WritePageToDb(f));
    uint64_t size = 0, want = uint64_t(page_count_) * page_size_;
    TRY(db_->FileSize(&size));
    if (size > want) TRY(db_->Truncate(want));
    final_size = size > want ? want : size;
    if (sync_ != Synchronous::kOff) TRY(db_->Sync(kSyncNormal));
    return Status();
  }();
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  // The file holds every change now; a rollback plays the journal back.
  for (CachedPage* f : dirty) cache_.MarkClean(f);
  committed_size_ = final_size;
  phase_one_done_ = true;
  return Status();
}

Status FilePager::Rollback() {
  if (txn_ == PagerTxn::kNone) return Status();
  if (txn_ == PagerTxn::kRead) {
    EndTransaction();
    return Status();
  }
  try {
    return wal_ ? RollbackWal() : RollbackRollbackMode();
  } catch (const std::bad_alloc&) {
    AbandonWrite();
    return Status(kNoMem);
  }
}

void FilePager::AbandonWrite() {
  page_count_ = orig_size_;
  ResetCache();
  if (resized_from_ != 0) {
    page_size_ = resized_from_;
    cache_.SetPageSize(page_size_);
    resized_from_ = 0;
  }
  version_known_ = false;
  size_known_ = false;
  if (journal_open_) {
    jfd_.reset();
    journal_open_ = false;
  }
  error_ = Status();
  EndTransaction();
  if (!wal_) UnlockAll();
}

Status FilePager::RollbackRollbackMode() {
  Status st;
  if (resized_from_ != 0) {
    // RewriteWithPageSize: the journal restores pages of the old size.
    ResetCache();
    page_size_ = resized_from_;
    cache_.SetPageSize(page_size_);
    SetCacheSize(cache_size_);
    resized_from_ = 0;
  }
  page_count_ = orig_size_;
  switch (state_) {
    case State::kWriterCacheMod:
      DiscardDirty();
      st = FinalizeJournal();
      break;
    case State::kWriterDbMod:
      if (journal_open_) {
        PlaybackOptions opt;
        opt.sync = sync_ != Synchronous::kOff;
        PlaybackResult res;
        st = PlaybackJournal(jfd_.get(), db_.get(), opt, &res);
        if (st.ok()) {
          st = FinalizeJournal();
        } else {
          // Leave the journal: the next reader finds it hot.
          jfd_.reset();
          journal_open_ = false;
        }
      }
      ResetCache();
      version_known_ = false;
      size_known_ = false;
      break;
    default:
      break;
  }
  error_ = Status();
  bool failed = !st.ok();
  EndTransaction();
  if (failed) UnlockAll();
  return st;
}

Status FilePager::WriteHeaderVersion(uint8_t version) {
  TRY(BeginWrite());
  PageRef p1;
  Status st = Get(1, &p1);
  if (st.ok()) st = Write(p1);
  if (st.ok()) {
    uint8_t* h = p1.data();
    h[dbhdr::kWriteVersion] = version;
    h[dbhdr::kReadVersion] = version;
    // Other connections notice changes by the counter.
    uint32_t counter = Get32(h + dbhdr::kChangeCounter) + 1;
    Put32(h + dbhdr::kChangeCounter, counter);
    Put32(h + dbhdr::kVersionValidFor, counter);
    Put32(h + dbhdr::kDatabaseSize, page_count_);
  }
  p1.Reset();
  if (st.ok()) st = Commit();
  if (!st.ok()) (void)Rollback();
  return st;
}

}  // namespace basalt
