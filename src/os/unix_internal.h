// Internals of the unix VFS shared by unix_vfs.cc, unix_file.cc and
// unix_shm.cc.
//
// POSIX advisory locks belong to a process and an inode, not to a file
// descriptor: two connections of one process on the same file would share
// (and silently release) each other's fcntl locks, and closing any
// descriptor of the inode drops every lock the process holds on it. So,
// like SQLite's unix VFS, this VFS keeps one InodeInfo per (device, inode)
// for the whole process:
//
//   I1. InodeInfo::level is the strongest level any connection of this
//       process holds; the fcntl locks on the lock bytes match that level.
//   I2. InodeInfo::shared counts connections at SHARED or above; the SHARED
//       byte range stays read-locked (or write-locked at EXCLUSIVE) while it
//       is non-zero.
//   I3. InodeInfo::locks counts connections holding any lock. A descriptor
//       closed while it is non-zero is parked in unused_fds and closed when
//       it drops to zero.
//   I4. Connections of this process conflict with each other exactly as
//       separate processes would (the checks in UnixFile::Lock).
//
// All of it is guarded by one process-wide mutex (GlobalMutex()).
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.h"
#include "os/vfs.h"

namespace basalt::unix_vfs {

struct ShmNode;

struct InodeInfo {
  dev_t dev = 0;
  ino_t ino = 0;
  int refs = 0;    // UnixFiles open on this inode
  int shared = 0;  // connections at SHARED or above (I2)
  int locks = 0;   // connections holding any lock (I3)
  LockLevel level = LockLevel::kNone;
  std::vector<int> unused_fds;
  ShmNode* shm = nullptr;  // the -shm node, while any connection has it open
};

std::mutex& GlobalMutex();

// Finds or creates the InodeInfo of fd's inode and takes a reference.
// Requires GlobalMutex().
Status AcquireInode(int fd, InodeInfo** out);
// Drops a reference; the last one closes parked descriptors and frees it.
// Requires GlobalMutex().
void ReleaseInode(InodeInfo* inode);

// fcntl(F_SETLK) on [start, start + len) (len 0: to the end of the file).
// type is F_RDLCK, F_WRLCK or F_UNLCK. Returns 0 or errno.
int SetLock(int fd, short type, uint64_t start, uint64_t len);
// F_GETLK for a lock of `type`: the type of a conflicting lock another
// process holds, or F_UNLCK. Returns 0 or errno.
int TestLock(int fd, short type, uint64_t start, uint64_t len, short* conflict);

// Maps an errno from a lock call: contention -> kBusy, else io_code.
Status LockErrno(int err, int io_code);

// The -shm node of one database inode (unix_shm.cc).
Status OpenShmNode(InodeInfo* inode, const std::string& db_path, int db_fd,
                   std::unique_ptr<Shm>* out);

// Retries on EINTR.
int OpenRetry(const char* path, int flags, int mode);
void CloseFd(int fd);
// Permissions for a new file: those of the database for its -journal,
// -wal and -shm files, 0644 otherwise.
int CreateMode(const std::string& path, int open_flags);
// fsync()s the directory holding `path` (errors ignored, as SQLite does).
void SyncDirectory(const std::string& path);

// The unix VfsFile (unix_file.cc).
Status NewUnixFile(int fd, const std::string& path, int flags, std::unique_ptr<VfsFile>* out);

}  // namespace basalt::unix_vfs
