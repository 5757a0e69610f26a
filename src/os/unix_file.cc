// A file of the unix VFS: positioned I/O, sync, and the database lock
// levels mapped onto POSIX advisory locks.
//
// Lock state machine of one connection (UnixFile::level_), with the fcntl
// locks the process holds at each level (see vfs.h for the byte layout):
//
//   1. NONE -> SHARED      Lock(): read-lock PENDING (refused while a writer
//                          holds it), read-lock the SHARED range, release
//                          PENDING. Another connection of this process at
//                          SHARED or RESERVED: just count (InodeInfo::shared).
//   2. SHARED -> RESERVED  Lock(): write-lock RESERVED.
//   3. SHARED/RESERVED -> PENDING -> EXCLUSIVE
//                          Lock(): write-lock PENDING (level PENDING), then
//                          write-lock the SHARED range. kBusy at the second
//                          step leaves the connection at PENDING.
//   4. any -> SHARED       Unlock(): downgrade the SHARED range to a read
//                          lock, release PENDING and RESERVED.
//   5. any -> NONE         Unlock(): the last connection of the process at
//                          SHARED releases every lock byte.
// Connections of one process are checked against each other first (I4 of
// unix_internal.h): a request above SHARED, or any request while another
// connection of the process is at PENDING or above, is refused unless this
// connection already holds the inode's level.
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "os/unix_internal.h"

namespace basalt::unix_vfs {

namespace {

class UnixFile final : public VfsFile {
 public:
  UnixFile(int fd, std::string path, int flags, InodeInfo* inode)
      : fd_(fd), path_(std::move(path)), flags_(flags), inode_(inode) {
    bool created_journal =
        (flags & kOpenCreate) && (flags & (kOpenMainJournal | kOpenWal | kOpenSuperJournal)) != 0;
    dir_sync_pending_ = created_journal;
  }
  ~UnixFile() override;

  Status Read(void* buf, size_t n, uint64_t offset) override;
  Status Write(const void* buf, size_t n, uint64_t offset) override;
  Status Truncate(uint64_t size) override;
  Status Sync(int flags) override;
  Status FileSize(uint64_t* size) override;
  Status Lock(LockLevel level) override;
  Status Unlock(LockLevel level) override;
  Status CheckReservedLock(bool* held) override;
  LockLevel lock_level() const override { return level_; }
  Status OpenShm(std::unique_ptr<Shm>* out) override;

 private:
  Status LockLocked(LockLevel level);
  Status UnlockLocked(LockLevel level);

  int fd_;
  std::string path_;
  int flags_;
  InodeInfo* inode_;
  LockLevel level_ = LockLevel::kNone;
  bool dir_sync_pending_ = false;
};

UnixFile::~UnixFile() {
  std::lock_guard<std::mutex> g(GlobalMutex());
  (void)UnlockLocked(LockLevel::kNone);
  // Closing a descriptor would drop the locks other connections of this
  // process hold on the inode (I3): park it instead.
  if (inode_->locks > 0) {
    inode_->unused_fds.push_back(fd_);
  } else {
    CloseFd(fd_);
  }
  ReleaseInode(inode_);
}

Status UnixFile::Read(void* buf, size_t n, uint64_t offset) {
  uint8_t* p = static_cast<uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    ssize_t got = pread(fd_, p + done, n - done, off_t(offset + done));
    if (got < 0) {
      if (errno == EINTR) continue;
      return Status(kIoErrRead, strerror(errno));
    }
    if (got == 0) break;
    done += size_t(got);
  }
  if (done < n) {
    std::memset(p + done, 0, n - done);
    return Status(kIoErrShortRead);
  }
  return Status();
}

Status UnixFile::Write(const void* buf, size_t n, uint64_t offset) {
  const uint8_t* p = static_cast<const uint8_t*>(buf);
  size_t done = 0;
  while (done < n) {
    ssize_t put = pwrite(fd_, p + done, n - done, off_t(offset + done));
    if (put < 0) {
      if (errno == EINTR) continue;
      if (errno == ENOSPC || errno == EDQUOT) return Status(kFull);
      return Status(kIoErrWrite, strerror(errno));
    }
    if (put == 0) return Status(kFull);
    done += size_t(put);
  }
  return Status();
}

Status UnixFile::Truncate(uint64_t size) {
  int rc;
  do {
    rc = ftruncate(fd_, off_t(size));
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) return Status(kIoErrTruncate, strerror(errno));
  return Status();
}

Status UnixFile::Sync(int flags) {
  // fdatasync also flushes the file size (what is needed to read the data
  // back), which is all SQLite's unix VFS asks of Linux for every sync.
  (void)flags;
  int rc;
  do {
    rc = fdatasync(fd_);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) return Status(kIoErrFsync, strerror(errno));
  // A newly created journal is only durable once its directory entry is.
  if (dir_sync_pending_) {
    SyncDirectory(path_);
    dir_sync_pending_ = false;
  }
  return Status();
}

Status UnixFile::FileSize(uint64_t* size) {
  struct stat st;
  if (fstat(fd_, &st) != 0) return Status(kIoErrFstat, strerror(errno));
  *size = uint64_t(st.st_size);
  // As the reference's unix VFS: a one-byte file reports size 0 (SQLite
  // once wrote such a byte into new files; layers above, apndvfs among
  // them, rely on seeing it as empty).
  if (*size == 1) *size = 0;
  return Status();
}

Status UnixFile::Lock(LockLevel level) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  return LockLocked(level);
}

Status UnixFile::LockLocked(LockLevel level) {
  if (level_ >= level) return Status();
  InodeInfo* in = inode_;
  // I4: another connection of this process holds a conflicting level.
  if (level_ != in->level && (in->level >= LockLevel::kPending || level > LockLevel::kShared)) {
    return Status(kBusy);
  }
  // Another connection here already holds SHARED or RESERVED: share it.
  if (level == LockLevel::kShared &&
      (in->level == LockLevel::kShared || in->level == LockLevel::kReserved)) {
    level_ = LockLevel::kShared;
    ++in->shared;
    ++in->locks;
    return Status();
  }
  // Step 1 of SHARED and of EXCLUSIVE: the PENDING byte.
  if (level == LockLevel::kShared ||
      (level == LockLevel::kExclusive && level_ < LockLevel::kPending)) {
    short type = level == LockLevel::kShared ? F_RDLCK : F_WRLCK;
    int err = SetLock(fd_, type, kPendingByte, 1);
    if (err != 0) return LockErrno(err, kIoErrLock);
  }
  if (level == LockLevel::kShared) {
    int err = SetLock(fd_, F_RDLCK, kSharedFirst, kSharedSize);
    int err2 = SetLock(fd_, F_UNLCK, kPendingByte, 1);
    if (err != 0) return LockErrno(err, kIoErrLock);
    if (err2 != 0) return Status(kIoErrUnlock, strerror(err2));
    level_ = LockLevel::kShared;
    in->level = LockLevel::kShared;
    ++in->shared;
    ++in->locks;
    return Status();
  }
  if (level == LockLevel::kExclusive && in->shared > 1) {
    // Other readers of this process: wait at PENDING.
    level_ = LockLevel::kPending;
    in->level = LockLevel::kPending;
    return Status(kBusy);
  }
  int err = level == LockLevel::kReserved ? SetLock(fd_, F_WRLCK, kReservedByte, 1)
                                          : SetLock(fd_, F_WRLCK, kSharedFirst, kSharedSize);
  if (err != 0) {
    if (level == LockLevel::kExclusive) {
      level_ = LockLevel::kPending;
      in->level = LockLevel::kPending;
    }
    return LockErrno(err, kIoErrLock);
  }
  level_ = level;
  in->level = level;
  return Status();
}

Status UnixFile::Unlock(LockLevel level) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  return UnlockLocked(level);
}

Status UnixFile::UnlockLocked(LockLevel level) {
  if (level_ <= level) return Status();
  InodeInfo* in = inode_;
  Status st;
  if (level_ > LockLevel::kShared) {
    if (level == LockLevel::kShared) {
      int err = SetLock(fd_, F_RDLCK, kSharedFirst, kSharedSize);
      if (err != 0) st = Status(kIoErrRdLock, strerror(err));
    }
    int err = SetLock(fd_, F_UNLCK, kPendingByte, 2);
    if (err != 0 && st.ok()) st = Status(kIoErrUnlock, strerror(err));
    in->level = LockLevel::kShared;
  }
  if (level == LockLevel::kNone) {
    if (--in->shared == 0) {
      int err = SetLock(fd_, F_UNLCK, 0, 0);
      if (err != 0 && st.ok()) st = Status(kIoErrUnlock, strerror(err));
      in->level = LockLevel::kNone;
    }
    if (--in->locks == 0) {
      for (int fd : in->unused_fds) CloseFd(fd);
      in->unused_fds.clear();
    }
  }
  level_ = level;
  return st;
}

Status UnixFile::CheckReservedLock(bool* held) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  if (inode_->level > LockLevel::kShared) {
    *held = true;
    return Status();
  }
  short conflict = F_UNLCK;
  int err = TestLock(fd_, F_WRLCK, kReservedByte, 1, &conflict);
  if (err != 0) return Status(kIoErrCheckReservedLock, strerror(err));
  *held = conflict != F_UNLCK;
  return Status();
}

Status UnixFile::OpenShm(std::unique_ptr<Shm>* out) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  return OpenShmNode(inode_, path_, fd_, out);
}

}  // namespace

Status NewUnixFile(int fd, const std::string& path, int flags, std::unique_ptr<VfsFile>* out) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  InodeInfo* inode = nullptr;
  try {
    Status st = AcquireInode(fd, &inode);
    if (!st.ok()) {
      CloseFd(fd);
      return st;
    }
    *out = std::make_unique<UnixFile>(fd, path, flags, inode);
  } catch (...) {
    // Out of memory: the descriptor and the inode reference go back.
    if (inode != nullptr) ReleaseInode(inode);
    CloseFd(fd);
    throw;
  }
  return Status();
}

}  // namespace basalt::unix_vfs
