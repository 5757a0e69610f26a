// The VFS: everything the pager needs from the operating system, behind one
// small interface so that tests can substitute an in-memory file system or a
// fault-injecting wrapper (mem_vfs.h, fault_vfs.h; unix_vfs.h is the real one).
//
// Files. A VfsFile is one open file. Reads past the end of the file fill the
// rest of the buffer with zeros and return kIoErrShortRead. Writes extend the
// file. Sync() makes earlier writes durable (a write barrier for crash
// safety); nothing written since the last Sync() is guaranteed to survive a
// power loss.
//
// Database locks (lockingv3). Every database file carries one of five lock
// levels per connection:
//
//   level       holder may           coexists with other connections at
//   NONE        nothing              anything
//   SHARED      read                 SHARED, RESERVED, PENDING (already held)
//   RESERVED    read, plan a write   SHARED (at most one RESERVED)
//   PENDING     read; no new SHARED  SHARED held before PENDING was taken
//   EXCLUSIVE   write the file       nothing
//
// Lock() only moves up and Unlock() only moves down (to SHARED or NONE).
// Lock(kExclusive) from SHARED or RESERVED passes through PENDING; if it
// fails with kBusy the connection is left holding PENDING, which keeps new
// readers out while the old ones finish. On unix the levels are POSIX
// advisory locks on the bytes SQLite uses (see kPendingByte below), so
// Basalt and sqlite3 processes lock each other.
//
// Shared memory (walformat). A WAL database also has a "-shm" wal-index:
// 32 KiB regions mapped into every connection, and 8 lock slots (offset 120
// of the -shm file on unix) locked shared or exclusive. OpenShm() returns the
// connection's handle; destroying it unmaps without deleting.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace basalt {

// ---- Lock bytes (lockingv3 section 5; the same offsets as SQLite's unix VFS).
//   byte 0x40000000        PENDING   write-locked by a connection going EXCLUSIVE;
//                                    read-locked briefly by one acquiring SHARED
//   byte 0x40000001        RESERVED  write-locked by the one RESERVED holder
//   bytes 0x40000002..+510 SHARED    read-locked by readers, write-locked by EXCLUSIVE
inline constexpr uint64_t kPendingByte = 0x40000000;
inline constexpr uint64_t kReservedByte = kPendingByte + 1;
inline constexpr uint64_t kSharedFirst = kPendingByte + 2;
inline constexpr uint64_t kSharedSize = 510;

enum class LockLevel : uint8_t {
  kNone = 0,
  kShared = 1,
  kReserved = 2,
  kPending = 3,
  kExclusive = 4
};

// ---- Shared-memory wal-index (walformat "WAL-Index Format").
inline constexpr size_t kShmRegionSize = 32768;  // one hash table per region
inline constexpr int kShmLockCount = 8;          // lock slots 0..7
inline constexpr uint64_t kShmLockOffset = 120;  // slot i is byte 120 + i of the -shm file
inline constexpr uint64_t kShmDmsByte = 128;     // "dead man switch": read-locked while mapped

// Open flags: SQLite's SQLITE_OPEN_* values, so they can pass through a C VFS.
enum OpenFlag : int {
  kOpenReadOnly = 0x00000001,
  kOpenReadWrite = 0x00000002,
  kOpenCreate = 0x00000004,
  kOpenDeleteOnClose = 0x00000008,
  kOpenExclusive = 0x00000010,
  kOpenMainDb = 0x00000100,
  kOpenTempDb = 0x00000200,
  kOpenTransientDb = 0x00000400,
  kOpenMainJournal = 0x00000800,
  kOpenTempJournal = 0x00001000,
  kOpenSubJournal = 0x00002000,
  kOpenSuperJournal = 0x00004000,
  kOpenWal = 0x00080000,
};

// Sync flags (SQLITE_SYNC_*).
enum SyncFlag : int { kSyncNormal = 0x02, kSyncFull = 0x03, kSyncDataOnly = 0x10 };

// Device characteristics the pager cares about (SQLITE_IOCAP_*).
enum IoCap : int {
  kIoCapAtomic = 0x00000001,
  kIoCapSafeAppend = 0x00000200,
  kIoCapSequential = 0x00000400,
  kIoCapPowersafeOverwrite = 0x00001000,
};

enum class AccessMode : uint8_t { kExists, kReadWrite, kRead };

// xShmLock operations.
enum class ShmLockOp : uint8_t { kShared, kExclusive, kUnlockShared, kUnlockExclusive };

// One connection's view of a file's wal-index shared memory.
class Shm {
 public:
  virtual ~Shm() = default;
  // Maps region i (kShmRegionSize bytes). With extend == false a region the
  // file does not yet have yields *out = nullptr and OK. Mapped regions stay
  // at the same address until the Shm is destroyed.
  virtual Status Map(int region, bool extend, uint8_t** out) = 0;
  // Locks or unlocks slots [slot, slot + n). Shared locks are one slot at a
  // time. kBusy when another connection (in this process or another) holds a
  // conflicting lock; never waits.
  virtual Status Lock(int slot, int n, ShmLockOp op) = 0;
  // A full memory barrier between this connection and all others.
  virtual void Barrier() = 0;
  // Unmaps; when this was the last user in the process and delete_file is
  // set, removes the -shm file as well. The destructor does Close(false).
  virtual Status Close(bool delete_file) = 0;
};

class VfsFile {
 public:
  virtual ~VfsFile() = default;
  VfsFile() = default;
  VfsFile(const VfsFile&) = delete;
  VfsFile& operator=(const VfsFile&) = delete;

  virtual Status Read(void* buf, size_t n, uint64_t offset) = 0;
  virtual Status Write(const void* buf, size_t n, uint64_t offset) = 0;
  virtual Status Truncate(uint64_t size) = 0;
  virtual Status Sync(int flags) = 0;
  virtual Status FileSize(uint64_t* size) = 0;

  virtual Status Lock(LockLevel level) = 0;
  virtual Status Unlock(LockLevel level) = 0;
  // True when some connection (this process or another) holds RESERVED or
  // higher on the file.
  virtual Status CheckReservedLock(bool* held) = 0;
  virtual LockLevel lock_level() const = 0;

  virtual int SectorSize() const { return 4096; }
  virtual int DeviceCharacteristics() const { return kIoCapPowersafeOverwrite; }

  // The wal-index of this (database) file.
  virtual Status OpenShm(std::unique_ptr<Shm>* out) = 0;

  // A file of a VFS the program registered (api/vfs_adapter.cc): its
  // sqlite3_file object, and sqlite3_file_control operations passed to its
  // xFileControl (the SQLite result code). Basalt's own files have neither:
  // null, and 12 (SQLITE_NOTFOUND).
  virtual void* ForeignFile() { return nullptr; }
  virtual int FileControl(int op, void* arg) {
    (void)op;
    (void)arg;
    return 12;
  }
};

class Vfs {
 public:
  virtual ~Vfs() = default;
  // flags: OpenFlag bits. *out_flags (optional) receives the flags the file
  // was actually opened with (kOpenReadOnly when read-write was refused).
  // An empty path asks for a new temporary file that the VFS names and
  // deletes when it is closed (xOpen with a null name; the unix VFS
  // supports it, others may refuse).
  virtual Status Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
                      int* out_flags = nullptr) = 0;
  // Removes a file; kIoErrDeleteNoEnt when it does not exist. With sync_dir
  // the directory entry removal is made durable too.
  virtual Status Delete(const std::string& path, bool sync_dir) = 0;
  virtual Status Access(const std::string& path, AccessMode mode, bool* result) = 0;
  virtual Status FullPathname(const std::string& path, std::string* out) = 0;
  virtual void Randomness(void* buf, size_t n) = 0;
  virtual void Sleep(int microseconds) = 0;
  // Milliseconds since the Julian epoch (SQLite's xCurrentTimeInt64).
  virtual int64_t CurrentTimeJulianMs() = 0;
};

// The process-wide unix VFS (unix_vfs.cc).
Vfs* DefaultVfs();

// The VFS a name selects (sqlite3_open_v2's zVfs, a "file:" URI's vfs=):
// null when no VFS has that name. Without a resolver only the names of
// SQLite's unix variants ("unix", "unix-none", "unix-dotfile",
// "unix-excl") are known, all meaning DefaultVfs(). The C API installs a
// resolver that also finds the sqlite3_vfs objects a program registered
// (api/vfs_adapter.h); an empty name then means the current default VFS.
// The resolver must be safe to call from any thread.
using VfsResolver = Vfs* (*)(std::string_view name);
bool IsUnixVfsName(std::string_view name);
void SetVfsResolver(VfsResolver resolver);
Vfs* FindVfs(std::string_view name);

// SQLite's Julian-day offset of the Unix epoch, in milliseconds.
inline constexpr int64_t kUnixEpochJulianMs = 210866760000000LL;

}  // namespace basalt
