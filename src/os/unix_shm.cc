// The unix wal-index: the "-shm" file beside a database, mapped with mmap in
// 32 KiB regions, with the 8 WAL lock slots as POSIX locks on bytes 120..127
// and the "dead man switch" at byte 128 (vfs.h).
//
// One ShmNode per database inode and process, shared by that process's
// connections (each has a UnixShm handle). Protocol:
//
//   1. Open (first connection of the process): if no other process holds
//      any lock on the DMS byte, this process is the first user since the
//      last one went away, so the file's contents are stale: write-lock the
//      DMS byte and truncate the file (every region reads as zero until
//      written again). A write lock held by another process means it is
//      doing exactly that: kBusy. Then hold a read lock on DMS until the
//      node closes.
//   2. Map(i): grow the file (one byte at the end of every 4 KiB page, so a
//      full disk shows up as an error here instead of a SIGBUS later) and
//      mmap region i.
//   3. Lock(slot, op): within the process the node counts shared holders and
//      remembers an exclusive holder per slot; the fcntl lock on the slot
//      byte is taken on the first shared holder / the exclusive holder and
//      released with the last one. Any conflict, here or with another
//      process, is kBusy.
//   4. Close: the last handle of the process unmaps, closes the descriptor
//      (dropping every lock of the process on the file) and, when asked,
//      deletes the file.
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "os/unix_internal.h"

namespace basalt::unix_vfs {

struct ShmNode {
  InodeInfo* inode = nullptr;
  std::string path;
  int fd = -1;
  std::vector<uint8_t*> regions;  // mapped regions 0..n-1
  int refs = 0;
  int shared[kShmLockCount] = {};
  const void* exclusive[kShmLockCount] = {};  // the UnixShm holding it, or null
};

namespace {

class UnixShm final : public Shm {
 public:
  explicit UnixShm(ShmNode* node) : node_(node) {}
  ~UnixShm() override { (void)Close(false); }
  Status Map(int region, bool extend, uint8_t** out) override;
  Status Lock(int slot, int n, ShmLockOp op) override;
  void Barrier() override;
  Status Close(bool delete_file) override;

 private:
  ShmNode* node_;
  uint8_t shared_mask_ = 0;
  uint8_t excl_mask_ = 0;
};

Status UnixShm::Map(int region, bool extend, uint8_t** out) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  if (node_ == nullptr) return Status(kMisuse, "shm closed");
  ShmNode* n = node_;
  if (size_t(region) < n->regions.size()) {
    *out = n->regions[size_t(region)];
    return Status();
  }
  struct stat st;
  if (fstat(n->fd, &st) != 0) return Status(kIoErrShmSize, strerror(errno));
  uint64_t need = uint64_t(region + 1) * kShmRegionSize;
  if (uint64_t(st.st_size) < need) {
    if (!extend) {
      *out = nullptr;
      return Status();
    }
    const uint64_t kPage = 4096;
    for (uint64_t pg = uint64_t(st.st_size) / kPage; pg < need / kPage; ++pg) {
      char zero = 0;
      ssize_t w;
      do {
        w = pwrite(n->fd, &zero, 1, off_t(pg * kPage + kPage - 1));
      } while (w < 0 && errno == EINTR);
      if (w != 1) return Status(kIoErrShmSize, strerror(errno));
    }
  }
  while (n->regions.size() <= size_t(region)) {
    off_t off = off_t(n->regions.size() * kShmRegionSize);
    void* p = mmap(nullptr, kShmRegionSize, PROT_READ | PROT_WRITE, MAP_SHARED, n->fd, off);
    if (p == MAP_FAILED) return Status(kIoErrShmMap, strerror(errno));
    n->regions.push_back(static_cast<uint8_t*>(p));
  }
  *out = n->regions[size_t(region)];
  return Status();
}

Status UnixShm::Lock(int slot, int count, ShmLockOp op) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  if (node_ == nullptr) return Status(kMisuse, "shm closed");
  if (slot < 0 || count < 1 || slot + count > kShmLockCount) return Status(kMisuse);
  ShmNode* n = node_;
  uint8_t mask = uint8_t(((1u << count) - 1) << slot);
  switch (op) {
    case ShmLockOp::kUnlockShared:
    case ShmLockOp::kUnlockExclusive: {
      for (int s = slot; s < slot + count; ++s) {
        uint8_t bit = uint8_t(1u << s);
        bool release = false;
        if (excl_mask_ & bit) {
          n->exclusive[s] = nullptr;
          release = true;
        } else if (shared_mask_ & bit) {
          release = --n->shared[s] == 0;
        }
        if (release) {
          int err = SetLock(n->fd, F_UNLCK, kShmLockOffset + uint64_t(s), 1);
          if (err != 0) return Status(kIoErrShmLock, strerror(err));
        }
      }
      shared_mask_ &= uint8_t(~mask);
      excl_mask_ &= uint8_t(~mask);
      return Status();
    }
    case ShmLockOp::kShared: {
      if (count != 1) return Status(kMisuse);
      if (shared_mask_ & mask) return Status();
      if (n->exclusive[slot] != nullptr) return Status(kBusy);
      if (n->shared[slot] == 0) {
        int err = SetLock(n->fd, F_RDLCK, kShmLockOffset + uint64_t(slot), 1);
        if (err != 0) return LockErrno(err, kIoErrShmLock);
      }
      ++n->shared[slot];
      shared_mask_ |= mask;
      return Status();
    }
    case ShmLockOp::kExclusive: {
      for (int s = slot; s < slot + count; ++s) {
        uint8_t bit = uint8_t(1u << s);
        if (excl_mask_ & bit) continue;
        if (n->exclusive[s] != nullptr || n->shared[s] > 0) return Status(kBusy);
      }
      if ((excl_mask_ & mask) == mask) return Status();
      int err = SetLock(n->fd, F_WRLCK, kShmLockOffset + uint64_t(slot), uint64_t(count));
      if (err != 0) return LockErrno(err, kIoErrShmLock);
      for (int s = slot; s < slot + count; ++s) n->exclusive[s] = this;
      excl_mask_ |= mask;
      return Status();
    }
  }
  return Status(kMisuse);
}

void UnixShm::Barrier() {
  __sync_synchronize();
  std::lock_guard<std::mutex> g(GlobalMutex());
}

Status UnixShm::Close(bool delete_file) {
  std::lock_guard<std::mutex> g(GlobalMutex());
  ShmNode* n = node_;
  if (n == nullptr) return Status();
  node_ = nullptr;
  for (int s = 0; s < kShmLockCount; ++s) {
    uint8_t bit = uint8_t(1u << s);
    bool release = false;
    if (excl_mask_ & bit) {
      n->exclusive[s] = nullptr;
      release = true;
    } else if (shared_mask_ & bit) {
      release = --n->shared[s] == 0;
    }
    if (release) (void)SetLock(n->fd, F_UNLCK, kShmLockOffset + uint64_t(s), 1);
  }
  if (--n->refs > 0) return Status();
  for (uint8_t* p : n->regions) munmap(p, kShmRegionSize);
  Status st;
  if (delete_file && unlink(n->path.c_str()) != 0 && errno != ENOENT) {
    st = Status(kIoErrDelete, strerror(errno));
  }
  CloseFd(n->fd);
  n->inode->shm = nullptr;
  ReleaseInode(n->inode);
  delete n;
  return st;
}

}  // namespace

Status OpenShmNode(InodeInfo* inode, const std::string& db_path, int db_fd,
                   std::unique_ptr<Shm>* out) {
  ShmNode* n = inode->shm;
  if (n == nullptr) {
    auto node = std::make_unique<ShmNode>();
    node->inode = inode;
    node->path = db_path + "-shm";
    struct stat st;
    int mode = fstat(db_fd, &st) == 0 ? int(st.st_mode & 0777) : 0644;
    node->fd = OpenRetry(node->path.c_str(), O_RDWR | O_CREAT, mode);
    if (node->fd < 0) return Status(kCantOpen, StrFormat("cannot open %s", node->path.c_str()));
    // Step 1: the dead man switch.
    short conflict = F_UNLCK;
    int err = TestLock(node->fd, F_WRLCK, kShmDmsByte, 1, &conflict);
    Status st2;
    if (err != 0) {
      st2 = Status(kIoErrLock, strerror(err));
    } else if (conflict == F_UNLCK) {
      err = SetLock(node->fd, F_WRLCK, kShmDmsByte, 1);
      if (err != 0) {
        st2 = LockErrno(err, kIoErrLock);
      } else if (ftruncate(node->fd, 3) != 0) {
        st2 = Status(kIoErrShmOpen, strerror(errno));
      }
    } else if (conflict == F_WRLCK) {
      st2 = Status(kBusy);
    }
    if (st2.ok()) {
      err = SetLock(node->fd, F_RDLCK, kShmDmsByte, 1);
      if (err != 0) st2 = LockErrno(err, kIoErrLock);
    }
    if (!st2.ok()) {
      CloseFd(node->fd);
      return st2;
    }
    n = node.release();
    inode->shm = n;
    ++inode->refs;  // the node outlives the database file handle if need be
  }
  ++n->refs;
  *out = std::make_unique<UnixShm>(n);
  return Status();
}

}  // namespace basalt::unix_vfs
