// The WAL: opening and closing, read snapshots, the writer and frames (the
// protocol is described in wal.h; checkpoints and recovery live in
// wal_checkpoint.cc and wal_recover.cc).
#include "pager/wal.h"

#include <cstring>

#include "common/coding.h"
#include "pager/wal_format.h"

namespace basalt {

using namespace walidx;

Wal::Wal(Vfs* vfs, VfsFile* db, std::string wal_path, std::unique_ptr<VfsFile> wal,
         std::unique_ptr<Shm> shm, bool read_only)
    : vfs_(vfs),
      db_(db),
      wal_path_(std::move(wal_path)),
      wal_(std::move(wal)),
      shm_(std::move(shm)),
      index_(shm_.get()),
      read_only_(read_only) {}

Wal::~Wal() {
  EndWrite();
  EndRead();
}

Status Wal::Open(Vfs* vfs, VfsFile* db, const std::string& db_path, bool read_only,
                 std::unique_ptr<Wal>* out) {
  std::string path = db_path + "-wal";
  int flags = kOpenWal | (read_only ? kOpenReadOnly : (kOpenReadWrite | kOpenCreate));
  std::unique_ptr<VfsFile> wal;
  TRY(vfs->Open(path, flags, &wal));
  std::unique_ptr<Shm> shm;
  TRY(db->OpenShm(&shm));
  out->reset(new Wal(vfs, db, path, std::move(wal), std::move(shm), read_only));
  return Status();
}

Status Wal::Close(bool cleanup, bool sync, uint32_t page_size, bool keep) {
  EndWrite();
  EndRead();
  bool remove = false;
  if (cleanup && !read_only_) {
    CheckpointArgs args;
    args.mode = CheckpointMode::kPassive;
    args.sync = sync;
    args.page_size = page_size;
    int log = 0, done = 0;
    Status st = Checkpoint(args, &log, &done);
    remove = st.ok() && log == done && !keep;
  }
  Status st = shm_ ? shm_->Close(remove) : Status();
  shm_.reset();
  wal_.reset();
  if (remove) {
    Status del = vfs_->Delete(wal_path_, false);
    if (!del.ok() && del.code() != kIoErrDeleteNoEnt && st.ok()) st = del;
  }
  return st;
}

// ---- Locks -----------------------------------------------------------------

Status Wal::LockShared(int slot) { return shm_->Lock(slot, 1, ShmLockOp::kShared); }
Status Wal::LockExclusive(int slot, int n) { return shm_->Lock(slot, n, ShmLockOp::kExclusive); }
void Wal::UnlockShared(int slot) { (void)shm_->Lock(slot, 1, ShmLockOp::kUnlockShared); }
void Wal::UnlockExclusive(int slot, int n) {
  (void)shm_->Lock(slot, n, ShmLockOp::kUnlockExclusive);
}

Status Wal::BusyLockExclusive(const std::function<bool(int)>& busy, int slot, int n) {
  for (int attempt = 0;; ++attempt) {
    Status st = LockExclusive(slot, n);
    if (st.code() != kBusy || !busy || !busy(attempt)) return st;
  }
}

// ---- Readers ---------------------------------------------------------------

Status Wal::ReadIndexHeader(bool* changed) {
  uint8_t* region0;
  TRY(index_.Region(0, !read_only_, &region0));
  if (region0 == nullptr) return Status(kReadOnlyCantInit);
  WalIndexHdr h;
  bool good = index_.TryReadHeader(&h);
  if (!good) {
    if (read_only_) return Status(kReadOnlyRecovery);
    bool had_write = write_lock_;
    if (!had_write) TRY(LockExclusive(kWriteLock, 1));
    good = index_.TryReadHeader(&h);
    Status st;
    if (!good) {
      st = Recover();
      *changed = true;
    }
    if (!had_write) UnlockExclusive(kWriteLock, 1);
    TRY(st);
  }
  if (good && std::memcmp(&h, &hdr_, sizeof h) != 0) {
    *changed = true;
    hdr_ = h;
  }
  if (hdr_.version != kVersion) return Status(kCantOpen, "unsupported wal-index version");
  return Status();
}

Status Wal::TryBeginRead(bool* changed, int attempt) {
  if (attempt > 5) {
    if (attempt > 100) return Status(kProtocol, "wal-index locking protocol failed");
    int delay = attempt >= 10 ? (attempt - 9) * (attempt - 9) * 39 : 1;
    vfs_->Sleep(delay);
  }
  Status st = ReadIndexHeader(changed);
  if (st.code() == kBusy) {
    // Someone else is recovering (or just writing the header): wait for it.
    if (LockShared(kRecoverLock).ok()) {
      UnlockShared(kRecoverLock);
      return Status(kRetry);
    }
    return Status(kBusyRecovery);
  }
  TRY(st);
  if (hdr_.max_frame == index_.backfill()) {
    // Everything is in the database file: read it, ignore the WAL.
    Status l = LockShared(ReadLock(0));
    index_.Barrier();
    if (l.ok()) {
      if (!index_.HeaderIs(hdr_)) {
        UnlockShared(ReadLock(0));
        return Status(kRetry);
      }
      read_lock_ = 0;
      min_frame_ = hdr_.max_frame + 1;
      return Status();
    }
    if (l.code() != kBusy) return l;
  }
  return PickReadMark();
}

Status Wal::PickReadMark() {
  uint32_t mx_frame = hdr_.max_frame;
  uint32_t mx_mark = 0;
  int mx_i = 0;
  for (int i = 1; i < kReaders; ++i) {
    uint32_t m = index_.read_mark(i);
    if (mx_mark <= m && m <= mx_frame) {
      mx_mark = m;
      mx_i = i;
    }
  }
  if (!read_only_ && (mx_mark < mx_frame || mx_i == 0)) {
    for (int i = 1; i < kReaders; ++i) {
      Status l = LockExclusive(ReadLock(i), 1);
      if (l.ok()) {
        index_.set_read_mark(i, mx_frame);
        mx_mark = mx_frame;
        mx_i = i;
        UnlockExclusive(ReadLock(i), 1);
        break;
      }
      if (l.code() != kBusy) return l;
    }
  }
  if (mx_i == 0) return Status(kRetry);
  Status l = LockShared(ReadLock(mx_i));
  if (l.code() == kBusy) return Status(kRetry);
  TRY(l);
  min_frame_ = index_.backfill() + 1;
  index_.Barrier();
  if (index_.read_mark(mx_i) != mx_mark || !index_.HeaderIs(hdr_)) {
    UnlockShared(ReadLock(mx_i));
    return Status(kRetry);
  }
  read_lock_ = mx_i;
  return Status();
}

Status Wal::BeginRead(bool* changed) {
  *changed = false;
  EndRead();
  for (int attempt = 0;; ++attempt) {
    Status st = TryBeginRead(changed, attempt);
    if (st.code() != kRetry) return st;
  }
}

void Wal::EndRead() {
  if (read_lock_ >= 0) {
    UnlockShared(ReadLock(read_lock_));
    read_lock_ = -1;
  }
}

Status Wal::FindFrame(Pgno pgno, uint32_t* frame) {
  *frame = 0;
  if (read_lock_ == 0 || hdr_.max_frame == 0) return Status();
  return index_.Find(pgno, min_frame_, hdr_.max_frame, frame);
}

Status Wal::ReadFrame(uint32_t frame, uint8_t* page, uint32_t page_size) {
  return wal_->Read(page, page_size,
                    walfmt::FrameOffset(frame, page_size) + walfmt::kFrameHeaderSize);
}

// ---- The writer --------------------------------------------------------------

Status Wal::BeginWrite() {
  if (read_only_) return Status(kReadOnly);
  if (read_lock_ < 0) return Status(kMisuse, "WAL write outside a read transaction");
  if (write_lock_) return Status();
  TRY(LockExclusive(kWriteLock, 1));
  write_lock_ = true;
  if (!index_.HeaderIs(hdr_)) {
    EndWrite();
    return Status(kBusySnapshot);
  }
  return Status();
}

void Wal::EndWrite() {
  if (write_lock_) {
    UnlockExclusive(kWriteLock, 1);
    write_lock_ = false;
  }
}

void Wal::RestartHeader(uint32_t salt2) {
  ++ckpt_seq_;
  hdr_.max_frame = 0;
  uint8_t* s1 = reinterpret_cast<uint8_t*>(&hdr_.salt[0]);
  Put32(s1, Get32(s1) + 1);
  std::memcpy(&hdr_.salt[1], &salt2, 4);
  index_.WriteHeader(&hdr_);
  index_.Store(kBackfill, 0);
  index_.Store(kBackfillAttempted, 0);
  index_.set_read_mark(1, 0);
  for (int i = 2; i < kReaders; ++i) index_.set_read_mark(i, kReadMarkUnused);
}

Status Wal::RestartLogIfPossible() {
  if (read_lock_ != 0) return Status();
  if (index_.backfill() > 0) {
    uint32_t salt2;
    vfs_->Randomness(&salt2, sizeof salt2);
    Status l = LockExclusive(ReadLock(1), kReaders - 1);
    if (l.ok()) {
      RestartHeader(salt2);
      UnlockExclusive(ReadLock(1), kReaders - 1);
    } else if (l.code() != kBusy) {
      return l;
    }
  }
  // Hold a real read mark from now on (the log is about to get frames).
  UnlockShared(ReadLock(0));
  read_lock_ = -1;
  for (int attempt = 0;; ++attempt) {
    if (attempt > 100) return Status(kProtocol, "wal-index locking protocol failed");
    Status st = PickReadMark();
    if (st.code() != kRetry) return st;
  }
}

Status Wal::WriteFrames(const std::vector<FramePage>& pages, uint32_t page_size, Pgno commit_size,
                        bool sync_commit, bool sync_header) {
  if (!write_lock_) return Status(kMisuse, "WAL frames without the write lock");
  TRY(RestartLogIfPossible());
  if (hdr_.max_frame == 0) {
    // A fresh log: write its header.
    uint8_t h[walfmt::kHeaderSize];
    bool big = walfmt::HostIsBigEndian();
    Put32(h + walfmt::kHdrMagic, walfmt::kMagic | (big ? 1 : 0));
    Put32(h + walfmt::kHdrVersion, walfmt::kVersion);
    Put32(h + walfmt::kHdrPageSize, page_size);
    Put32(h + walfmt::kHdrCkptSeq, ckpt_seq_);
    if (ckpt_seq_ == 0) vfs_->Randomness(hdr_.salt, sizeof hdr_.salt);
    std::memcpy(h + walfmt::kHdrSalt1, hdr_.salt, 8);
    uint32_t sum[2] = {0, 0};
    walfmt::Checksum(big, h, 24, sum);
    Put32(h + walfmt::kHdrCksum1, sum[0]);
    Put32(h + walfmt::kHdrCksum2, sum[1]);
    hdr_.big_end_cksum = big ? 1 : 0;
    hdr_.page_size = EncodePageSize(page_size);
    hdr_.frame_cksum[0] = sum[0];
    hdr_.frame_cksum[1] = sum[1];
    TRY(wal_->Write(h, sizeof h, 0));
    if (sync_header) TRY(wal_->Sync(kSyncNormal));
  }
  if (PageSizeOf(hdr_) != page_size) return CORRUPT();
  bool big = hdr_.big_end_cksum != 0;
  uint32_t sum[2] = {hdr_.frame_cksum[0], hdr_.frame_cksum[1]};
  uint32_t frame = hdr_.max_frame;
  frame_buf_.resize(walfmt::kFrameHeaderSize + page_size);
  uint8_t* buf = frame_buf_.data();
  if (commit_size != 0) {
    unpublished_commit_ = true;
    unpublished_page_size_ = page_size;
  }
  for (size_t i = 0; i < pages.size(); ++i) {
    ++frame;
    bool last = i + 1 == pages.size();
    Put32(buf + walfmt::kFrPgno, pages[i].pgno);
    Put32(buf + walfmt::kFrCommitSize, last ? commit_size : 0);
    std::memcpy(buf + walfmt::kFrSalt1, hdr_.salt, 8);
    std::memcpy(buf + walfmt::kFrameHeaderSize, pages[i].data, page_size);
    walfmt::Checksum(big, buf, 8, sum);
    walfmt::Checksum(big, buf + walfmt::kFrameHeaderSize, page_size, sum);
    Put32(buf + walfmt::kFrCksum1, sum[0]);
    Put32(buf + walfmt::kFrCksum2, sum[1]);
    TRY(wal_->Write(buf, frame_buf_.size(), walfmt::FrameOffset(frame, page_size)));
  }
  if (commit_size != 0 && sync_commit) TRY(wal_->Sync(kSyncNormal));
  unpublished_commit_ = false;
  uint32_t first = hdr_.max_frame + 1;
  for (size_t i = 0; i < pages.size(); ++i) TRY(index_.Append(first + uint32_t(i), pages[i].pgno));
  hdr_.max_frame = frame;
  hdr_.frame_cksum[0] = sum[0];
  hdr_.frame_cksum[1] = sum[1];
  if (commit_size != 0) {
    ++hdr_.change;
    hdr_.n_page = commit_size;
    index_.WriteHeader(&hdr_);
  }
  return Status();
}

Status Wal::Undo() {
  if (!write_lock_) return Status();
  index_.ReadHeaderCopy1(&hdr_);
  Status st = index_.Forget(hdr_.max_frame);
  if (unpublished_commit_) {
    // Break the checksum chain right after the last published commit.
    unpublished_commit_ = false;
    uint8_t zero[walfmt::kFrameHeaderSize] = {};
    uint64_t off = walfmt::FrameOffset(hdr_.max_frame + 1, unpublished_page_size_);
    Status w = wal_->Write(zero, sizeof zero, off);
    if (w.ok()) w = wal_->Sync(kSyncNormal);
    if (st.ok()) st = w;
  }
  return st;
}

}  // namespace basalt
