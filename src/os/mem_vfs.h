// MemVfs: a file system in memory, for tests and for crash simulation.
//
// It behaves like one machine: every file handle opened through one MemVfs
// instance is its own lock owner, so connections lock each other exactly as
// separate processes do on unix (the same five levels and the same
// conflicts; see vfs.h). A file's wal-index lives while any handle has it
// open and starts zeroed when the first one opens it (as the unix -shm is
// truncated by its first user). Deleting an open file unlinks the name; the
// open handles keep the contents.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <vector>

#include "os/vfs.h"

namespace basalt {

class MemVfs final : public Vfs {
 public:
  explicit MemVfs(uint64_t seed = 0x5eed);
  ~MemVfs() override;

  Status Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
              int* out_flags = nullptr) override;
  Status Delete(const std::string& path, bool sync_dir) override;
  Status Access(const std::string& path, AccessMode mode, bool* result) override;
  Status FullPathname(const std::string& path, std::string* out) override;
  void Randomness(void* buf, size_t n) override;
  void Sleep(int microseconds) override;
  int64_t CurrentTimeJulianMs() override;

  // Test helpers: whole-file access by (full) path.
  bool GetFile(const std::string& path, std::string* bytes) const;
  void PutFile(const std::string& path, std::string bytes);
  std::vector<std::string> ListFiles() const;

  struct Node;
  struct ShmNode;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::shared_ptr<Node>> files_;
  std::mt19937_64 rng_;
  int64_t clock_ms_ = 0;  // advanced by Sleep()
};

// A private in-memory file (no name, no locks): MEMORY-mode journals.
std::unique_ptr<VfsFile> NewMemoryFile();

}  // namespace basalt
