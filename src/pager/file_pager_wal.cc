// FilePager in WAL mode, switching journal modes, and checkpoints.
//
// WAL mode (walformat "How the various locks are used"):
//   * The database SHARED lock is held from OpenWal until CloseWal, so no
//     connection can take EXCLUSIVE (to leave WAL mode or delete the WAL)
//     while another uses the WAL.
//   * BeginRead takes a snapshot (Wal::BeginRead); a changed snapshot
//     empties the cache. The page count is the snapshot's (the last commit
//     frame's size) or the file's when the WAL is empty.
//   * BeginWrite takes the WAL write lock; kBusySnapshot if another writer
//     committed since the snapshot (the caller ends the read and retries).
//   * Commit appends the dirty pages as frames, the last a commit frame
//     (sync at FULL / EXTRA), publishes the new index header, then runs a
//     PASSIVE checkpoint once the log reaches wal_autocheckpoint frames.
//   * A cache spill appends frames without a commit mark; Rollback forgets
//     them (Wal::Undo) and empties the cache.
//   * Close: a connection that gets EXCLUSIVE is the last one; it
//     checkpoints and deletes the -wal and -shm files.
// Switching: into WAL is a rollback-mode write of page 1's version bytes
// (18, 19 := 2); out of WAL needs EXCLUSIVE (so no other connection is
// attached), a checkpoint, deleting the WAL, and the bytes back to 1.
#include <cstring>

#include "pager/db_header.h"
#include "pager/file_pager.h"
#include "pager/wal.h"

namespace basalt {

Status FilePager::OpenWal() {
  std::unique_ptr<Wal> w;
  TRY(Wal::Open(vfs_, db_.get(), path_, read_only_, &w));
  wal_ = std::move(w);
  journal_mode_ = JournalMode::kWal;
  version_known_ = false;
  size_known_ = false;
  return Status();
}

Status FilePager::CloseWal(bool cleanup) {
  if (!wal_) return Status();
  bool last = cleanup && !read_only_;
  if (last && db_->lock_level() < LockLevel::kExclusive) {
    last = db_->Lock(LockLevel::kExclusive).ok();
  }
  Status st = wal_->Close(last, sync_ != Synchronous::kOff, page_size_, persist_wal_);
  wal_.reset();
  ResetCache();
  return st;
}

Status FilePager::WalBeginRead() {
  bool changed = false;
  TRY(wal_->BeginRead(&changed));
  Status st = [&]() -> Status {
    if (changed) ResetCache();
    // SQLite counts a read that finds the WAL changed -- the first one
    // always (it starts from no header at all) -- unless that was counted
    // already when WAL mode was set on an empty database (SetJournalMode).
    if (wal_open_counted_) {
      wal_open_counted_ = false;
    } else if (opening_) {
      count_deferred_ = count_deferred_ || changed;
    } else if (changed || count_deferred_) {
      ++data_version_;
      count_deferred_ = false;
    }
    if (wal_->max_frame() > 0 && wal_->page_size() != page_size_) {
      TRY(AdoptPageSize(wal_->page_size()));
    }
    Pgno physical = wal_->db_size();
    if (physical == 0) {
      uint64_t size = 0;
      TRY(db_->FileSize(&size));
      physical = Pgno((size + page_size_ - 1) / page_size_);
    }
    if (physical == 0) {
      page_count_ = 0;
      return Status();
    }
    CachedPage* p1;
    TRY(Fetch(1, &p1));
    return SetPageCount(physical, p1->data);
  }();
  if (!st.ok()) {
    wal_->EndRead();
    return st;
  }
  state_ = State::kReader;
  txn_ = PagerTxn::kRead;
  return Status();
}

Status FilePager::CommitWal() {
  if (state_ == State::kWriterLocked) {
    EndTransaction();
    return Status();
  }
  if (!error_.ok()) return error_;
  std::vector<CachedPage*> dirty = cache_.DirtyPages();
  std::vector<Wal::FramePage> frames;
  frames.reserve(dirty.size() + 1);
  for (CachedPage* f : dirty) frames.push_back({f->pgno, f->data});
  if (frames.empty()) {
    // A commit needs one frame to carry the commit mark.
    CachedPage* p1;
    TRY(Fetch(1, &p1));
    frames.push_back({1, p1->data});
  }
  Status st = wal_->WriteFrames(frames, page_size_, page_count_, sync_ >= Synchronous::kFull,
                                sync_ != Synchronous::kOff);
  if (!st.ok()) {
    error_ = st;
    return st;
  }
  counters_.writes += frames.size();
  for (CachedPage* f : dirty) cache_.MarkClean(f);
  EndTransaction();
  if (autocheckpoint_ > 0 && wal_->max_frame() >= uint32_t(autocheckpoint_)) {
    CheckpointResult res;
    (void)Checkpoint(CheckpointMode::kPassive, &res);
  }
  return Status();
}

Status FilePager::RollbackWal() {
  // Forget any frames written (a spill, or a commit that failed part way).
  Status st = wal_->Undo();
  page_count_ = orig_size_;
  if (spilled_) {
    ResetCache();
  } else {
    DiscardDirty();
  }
  error_ = Status();
  EndTransaction();
  return st;
}

Status FilePager::LeaveWal(JournalMode mode) {
  Status lock = db_->Lock(LockLevel::kExclusive);
  if (!lock.ok()) {
    (void)db_->Unlock(LockLevel::kShared);  // not left at PENDING
    return lock;
  }
  leaving_wal_ = true;
  Status st = CloseWal(true);
  if (st.ok()) {
    journal_mode_ = mode;
    // Page 1 says "rollback journal" again (written under the EXCLUSIVE
    // lock still held, through a journal of the new mode).
    st = WriteHeaderVersion(1);
  }
  leaving_wal_ = false;
  (void)db_->Unlock(LockLevel::kNone);
  return st;
}

Status FilePager::SetJournalMode(JournalMode mode, JournalMode* result) {
  *result = journal_mode_;
  if (mode == journal_mode_) return Status();
  bool wal_change = mode == JournalMode::kWal || journal_mode_ == JournalMode::kWal;
  if (wal_change && txn_ != PagerTxn::kNone) {
    return Status(kError, "cannot change into or out of WAL mode from within a transaction");
  }
  if (txn_ == PagerTxn::kWrite) return Status();
  if (wal_change && read_only_) return Status();
  if (journal_mode_ == JournalMode::kWal && wal_) {
    TRY(LeaveWal(mode));
    *result = journal_mode_;
    return Status();
  }
  if (mode == JournalMode::kWal) {
    // Look at the file as it is now (it may already be in WAL mode).
    TRY(BeginRead());
    Pgno pages = page_count_;
    TRY(Commit());
    if (!wal_) {
      JournalMode old = journal_mode_;
      journal_mode_ = JournalMode::kWal;
      if (pages > 0) {
        Status st = WriteHeaderVersion(2);
        if (!st.ok()) {
          journal_mode_ = old;
          return st;
        }
      } else {
        // SQLite writes page 1 (saying WAL) now, in a transaction of its
        // own, and opens the WAL at the next read; Basalt writes page 1
        // with the first commit. The data-version counters go as SQLite's:
        // one commit now, one reset at the next read, none when the WAL
        // opens after the first commit.
        ++commits_;
        count_deferred_ = true;
        wal_open_counted_ = true;
      }
    }
    *result = JournalMode::kWal;
    return Status();
  }
  journal_mode_ = mode;
  *result = mode;
  return Status();
}

Status FilePager::Checkpoint(CheckpointMode mode, CheckpointResult* out) {
  *out = CheckpointResult();
  if (!wal_ && journal_mode_ == JournalMode::kWal && txn_ == PagerTxn::kNone) {
    // A WAL database not read yet: a read transaction opens its WAL. One
    // still without pages has an empty WAL to come.
    TRY(BeginRead());
    (void)Commit();
    if (!wal_) {
      out->log_frames = out->checkpointed_frames = 0;
      return Status();
    }
  }
  if (!wal_) {
    out->log_frames = out->checkpointed_frames = -1;
    return Status();
  }
  if (txn_ != PagerTxn::kNone) return Status(kLocked, "database table is locked");
  Wal::CheckpointArgs args;
  args.mode = mode;
  args.busy = busy_;
  args.sync = sync_ != Synchronous::kOff;
  args.page_size = page_size_;
  int log = -1, done = -1;
  Status st = wal_->Checkpoint(args, &log, &done);
  out->log_frames = log;
  out->checkpointed_frames = done;
  if (st.primary() == kBusy) {
    out->busy = 1;
    return Status();
  }
  return st;
}

}  // namespace basalt
