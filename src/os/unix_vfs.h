// The unix VFS: real files, POSIX advisory locks laid out as SQLite lays
// them out, and the -shm file mapped with mmap. One instance serves the
// whole process (DefaultVfs()); see unix_internal.h for the per-inode lock
// sharing between connections of one process.
#pragma once

#include <string>

#include "os/vfs.h"

namespace basalt {

class UnixVfs final : public Vfs {
 public:
  Status Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
              int* out_flags = nullptr) override;
  Status Delete(const std::string& path, bool sync_dir) override;
  Status Access(const std::string& path, AccessMode mode, bool* result) override;
  Status FullPathname(const std::string& path, std::string* out) override;
  void Randomness(void* buf, size_t n) override;
  void Sleep(int microseconds) override;
  int64_t CurrentTimeJulianMs() override;
};

// The directory the unix VFS puts temporary files in (as SQLite's picks
// it: $SQLITE_TMPDIR, $TMPDIR, /var/tmp, /usr/tmp, /tmp, then ".").
std::string UnixTempDirectory();

}  // namespace basalt
