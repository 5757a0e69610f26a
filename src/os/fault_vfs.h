// FaultVfs: wraps another VFS (normally a MemVfs) and injects failures.
//
// I/O errors. InjectFault(kind, n, ops) makes the n-th operation among
// `ops` (counted from the call) fail: kIoError with the matching extended
// I/O code (EIO), kDiskFull with SQLITE_FULL (ENOSPC), kShortWrite writes the
// first half of the buffer and then reports SQLITE_FULL. With `persistent`
// every later such operation fails too.
//
// Power loss. Every file written through the wrapper is tracked as its
// durable contents (as of its last Sync()) plus the writes and truncations
// issued since. CrashAt(n) cuts the power just before the n-th "write
// point" (a write, truncate, sync or delete): that operation and every later
// one fail with SQLITE_IOERR and change nothing. SurvivingFiles() then says
// what a reboot would find: each file's durable contents, with each
// unsynced write kept or dropped independently per 512-byte sector (so
// multi-sector writes can be torn) and each unsynced truncation applied or
// not. Bytes outside what was written are never damaged (the "powersafe
// overwrite" property SQLite assumes on unix). Creating and deleting files
// are durable at once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "os/vfs.h"

namespace basalt {

enum class FaultKind : uint8_t { kNone, kIoError, kDiskFull, kShortWrite };

enum FaultOp : int {
  kFaultRead = 1,
  kFaultWrite = 2,
  kFaultSync = 4,
  kFaultTruncate = 8,
  kFaultOpen = 16,
  kFaultDelete = 32,
  kFaultAll = 63,
};

class FaultVfs final : public Vfs {
 public:
  explicit FaultVfs(Vfs* base);
  ~FaultVfs() override;

  // ---- I/O errors
  void InjectFault(FaultKind kind, int64_t nth, int op_mask = kFaultAll, bool persistent = false);
  void ClearFault();
  // Operations counted since the last InjectFault / ClearFault (all kinds
  // when no fault is armed).
  int64_t op_count() const;
  bool fault_fired() const;

  // ---- Power loss
  // Write points seen so far (writes, truncates, syncs, deletes).
  int64_t write_points() const;
  // The n-th write point from now never happens (n >= 1); 0 disarms.
  void CrashAt(int64_t n);
  bool crashed() const;
  enum class Survival : uint8_t { kRandom, kAll, kNone };
  // Files (full path -> contents) as found after the power comes back.
  std::map<std::string, std::string> SurvivingFiles(uint64_t seed, Survival mode) const;

  // ---- Vfs
  Status Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
              int* out_flags = nullptr) override;
  Status Delete(const std::string& path, bool sync_dir) override;
  Status Access(const std::string& path, AccessMode mode, bool* result) override;
  Status FullPathname(const std::string& path, std::string* out) override;
  void Randomness(void* buf, size_t n) override;
  void Sleep(int microseconds) override;
  int64_t CurrentTimeJulianMs() override;

  // Used by the wrapped files (fault_vfs.cc).
  struct Pending {
    bool truncate = false;
    uint64_t offset = 0;  // write offset, or the new size of a truncation
    std::string data;
  };
  struct Track {
    bool exists = false;
    std::string durable;
    std::vector<Pending> pending;
  };
  // Checks the armed fault and the crash point before an operation of kind
  // `op`; a non-OK result is what the operation must return. *short_write
  // is set when the operation is a write that must be cut short.
  Status Before(int op, bool* short_write);
  void RecordWrite(const std::string& path, const void* buf, size_t n, uint64_t offset);
  void RecordTruncate(const std::string& path, uint64_t size);
  void RecordSync(const std::string& path);

 private:
  void TrackExisting(const std::string& path, VfsFile* file);

  Vfs* base_;
  mutable std::mutex mu_;
  std::map<std::string, Track> tracks_;
  FaultKind kind_ = FaultKind::kNone;
  int op_mask_ = kFaultAll;
  int64_t nth_ = 0;
  bool persistent_ = false;
  int64_t ops_ = 0;
  bool fired_ = false;
  int64_t write_points_ = 0;
  int64_t crash_at_ = 0;  // absolute write point number, 0: none
  bool crashed_ = false;
};

}  // namespace basalt
