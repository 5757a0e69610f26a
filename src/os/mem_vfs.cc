// The in-memory VFS.
//
// Lock state of one file (Node), with each handle as its own owner:
//   shared     handles at SHARED or above
//   reserved   the handle at RESERVED (or above, if it came through it)
//   pending    the handle at PENDING or EXCLUSIVE
//   exclusive  the handle at EXCLUSIVE
// Transitions of a handle h (MemFile::Lock / Unlock):
//   1. NONE -> SHARED       refused while `pending` is set (a writer waits).
//   2. SHARED -> RESERVED   refused while another handle is `reserved`.
//   3. -> PENDING -> EXCLUSIVE
//                           refused while another handle is `pending`; h then
//                           holds PENDING, and gets EXCLUSIVE once it is the
//                           only SHARED holder (else kBusy, staying PENDING).
//   4. -> SHARED / NONE     clears whatever h holds above the target.
#include "os/mem_vfs.h"

#include <cstring>

namespace basalt {

struct MemVfs::ShmNode {
  std::vector<std::unique_ptr<uint8_t[]>> regions;
  int shared[kShmLockCount] = {};
  const void* exclusive[kShmLockCount] = {};
  int refs = 0;
};

struct MemVfs::Node {
  std::string data;
  int shared = 0;
  const void* reserved = nullptr;
  const void* pending = nullptr;
  const void* exclusive = nullptr;
  ShmNode* shm = nullptr;
};

namespace {

class MemShm final : public Shm {
 public:
  MemShm(std::mutex* mu, std::shared_ptr<MemVfs::Node> node) : mu_(mu), node_(std::move(node)) {}
  ~MemShm() override { (void)Close(false); }

  Status Map(int region, bool extend, uint8_t** out) override {
    std::lock_guard<std::mutex> g(*mu_);
    if (!node_) return Status(kMisuse, "shm closed");
    auto& regions = node_->shm->regions;
    if (size_t(region) >= regions.size()) {
      if (!extend) {
        *out = nullptr;
        return Status();
      }
      while (regions.size() <= size_t(region)) {
        regions.emplace_back(new uint8_t[kShmRegionSize]());
      }
    }
    *out = regions[size_t(region)].get();
    return Status();
  }

  Status Lock(int slot, int count, ShmLockOp op) override {
    std::lock_guard<std::mutex> g(*mu_);
    if (!node_) return Status(kMisuse, "shm closed");
    if (slot < 0 || count < 1 || slot + count > kShmLockCount) return Status(kMisuse);
    MemVfs::ShmNode* n = node_->shm;
    uint8_t mask = uint8_t(((1u << count) - 1) << slot);
    switch (op) {
      case ShmLockOp::kUnlockShared:
      case ShmLockOp::kUnlockExclusive:
        Release(n, mask);
        return Status();
      case ShmLockOp::kShared:
        if (count != 1) return Status(kMisuse);
        if (shared_mask_ & mask) return Status();
        if (n->exclusive[slot] != nullptr) return Status(kBusy);
        ++n->shared[slot];
        shared_mask_ |= mask;
        return Status();
      case ShmLockOp::kExclusive:
        for (int s = slot; s < slot + count; ++s) {
          if (excl_mask_ & (1u << s)) continue;
          if (n->exclusive[s] != nullptr || n->shared[s] > 0) return Status(kBusy);
        }
        for (int s = slot; s < slot + count; ++s) n->exclusive[s] = this;
        excl_mask_ |= mask;
        return Status();
    }
    return Status(kMisuse);
  }

  void Barrier() override {
    __sync_synchronize();
    std::lock_guard<std::mutex> g(*mu_);
  }

  Status Close(bool) override {
    std::lock_guard<std::mutex> g(*mu_);
    if (!node_) return Status();
    MemVfs::ShmNode* n = node_->shm;
    Release(n, 0xff);
    if (--n->refs == 0) {
      delete n;
      node_->shm = nullptr;
    }
    node_.reset();
    return Status();
  }

 private:
  void Release(MemVfs::ShmNode* n, uint8_t mask) {
    for (int s = 0; s < kShmLockCount; ++s) {
      uint8_t bit = uint8_t(1u << s);
      if (!(mask & bit)) continue;
      if (excl_mask_ & bit) n->exclusive[s] = nullptr;
      if (shared_mask_ & bit) --n->shared[s];
    }
    shared_mask_ &= uint8_t(~mask);
    excl_mask_ &= uint8_t(~mask);
  }

  std::mutex* mu_;
  std::shared_ptr<MemVfs::Node> node_;
  uint8_t shared_mask_ = 0;
  uint8_t excl_mask_ = 0;
};

class MemFile final : public VfsFile {
 public:
  MemFile(std::mutex* mu, std::shared_ptr<MemVfs::Node> node, bool read_only)
      : mu_(mu), node_(std::move(node)), read_only_(read_only) {}
  ~MemFile() override { (void)Unlock(LockLevel::kNone); }

  Status Read(void* buf, size_t n, uint64_t offset) override {
    std::lock_guard<std::mutex> g(*mu_);
    const std::string& d = node_->data;
    size_t have = offset >= d.size() ? 0 : std::min<size_t>(n, d.size() - size_t(offset));
    if (have > 0) std::memcpy(buf, d.data() + offset, have);
    if (have < n) {
      std::memset(static_cast<uint8_t*>(buf) + have, 0, n - have);
      return Status(kIoErrShortRead);
    }
    return Status();
  }

  Status Write(const void* buf, size_t n, uint64_t offset) override {
    std::lock_guard<std::mutex> g(*mu_);
    if (read_only_) return Status(kReadOnly);
    std::string& d = node_->data;
    if (d.size() < offset + n) d.resize(size_t(offset + n), '\0');
    std::memcpy(d.data() + offset, buf, n);
    return Status();
  }

  Status Truncate(uint64_t size) override {
    std::lock_guard<std::mutex> g(*mu_);
    if (read_only_) return Status(kReadOnly);
    node_->data.resize(size_t(size), '\0');
    return Status();
  }

  Status Sync(int) override { return Status(); }

  Status FileSize(uint64_t* size) override {
    std::lock_guard<std::mutex> g(*mu_);
    *size = node_->data.size();
    return Status();
  }

  Status Lock(LockLevel level) override {
    std::lock_guard<std::mutex> g(*mu_);
    MemVfs::Node* n = node_.get();
    if (level_ >= level) return Status();
    if (level == LockLevel::kShared) {
      if (n->pending != nullptr) return Status(kBusy);
      ++n->shared;
      level_ = LockLevel::kShared;
      return Status();
    }
    if (level == LockLevel::kReserved) {
      if (n->reserved != nullptr && n->reserved != this) return Status(kBusy);
      n->reserved = this;
      level_ = LockLevel::kReserved;
      return Status();
    }
    // PENDING, then EXCLUSIVE.
    if (n->pending != nullptr && n->pending != this) return Status(kBusy);
    n->pending = this;
    level_ = LockLevel::kPending;
    if (level == LockLevel::kPending) return Status();
    if (n->shared > 1) return Status(kBusy);
    n->exclusive = this;
    level_ = LockLevel::kExclusive;
    return Status();
  }

  Status Unlock(LockLevel level) override {
    std::lock_guard<std::mutex> g(*mu_);
    MemVfs::Node* n = node_.get();
    if (level_ <= level) return Status();
    if (n->reserved == this) n->reserved = nullptr;
    if (n->pending == this) n->pending = nullptr;
    if (n->exclusive == this) n->exclusive = nullptr;
    if (level == LockLevel::kNone && level_ >= LockLevel::kShared) --n->shared;
    level_ = level;
    return Status();
  }

  Status CheckReservedLock(bool* held) override {
    std::lock_guard<std::mutex> g(*mu_);
    MemVfs::Node* n = node_.get();
    *held = n->reserved != nullptr || n->pending != nullptr;
    return Status();
  }

  LockLevel lock_level() const override { return level_; }

  Status OpenShm(std::unique_ptr<Shm>* out) override {
    std::lock_guard<std::mutex> g(*mu_);
    if (node_->shm == nullptr) node_->shm = new MemVfs::ShmNode();
    ++node_->shm->refs;
    *out = std::make_unique<MemShm>(mu_, node_);
    return Status();
  }

 private:
  std::mutex* mu_;
  std::shared_ptr<MemVfs::Node> node_;
  bool read_only_;
  LockLevel level_ = LockLevel::kNone;
};

}  // namespace

std::unique_ptr<VfsFile> NewMemoryFile() {
  // A node of its own, guarded by a mutex of its own.
  struct Owned final : VfsFile {
    std::mutex mu;
    MemFile file{&mu, std::make_shared<MemVfs::Node>(), false};
    Status Read(void* b, size_t n, uint64_t o) override { return file.Read(b, n, o); }
    Status Write(const void* b, size_t n, uint64_t o) override { return file.Write(b, n, o); }
    Status Truncate(uint64_t s) override { return file.Truncate(s); }
    Status Sync(int f) override { return file.Sync(f); }
    Status FileSize(uint64_t* s) override { return file.FileSize(s); }
    Status Lock(LockLevel) override { return Status(); }
    Status Unlock(LockLevel) override { return Status(); }
    Status CheckReservedLock(bool* held) override {
      *held = false;
      return Status();
    }
    LockLevel lock_level() const override { return LockLevel::kNone; }
    Status OpenShm(std::unique_ptr<Shm>*) override { return Status(kIoErrShmOpen); }
  };
  return std::make_unique<Owned>();
}

MemVfs::MemVfs(uint64_t seed) : rng_(seed) {}

MemVfs::~MemVfs() = default;

Status MemVfs::Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
                    int* out_flags) {
  if (path.empty()) {
    // An anonymous temporary file (no name given, as for a spilling
    // temporary B-tree): no other handle can reach it, and it goes away
    // with this one.
    if (out_flags) *out_flags = flags;
    *out = std::make_unique<MemFile>(&mu_, std::make_shared<Node>(), false);
    return Status();
  }
  std::string full;
  TRY(FullPathname(path, &full));
  std::lock_guard<std::mutex> g(mu_);
  auto it = files_.find(full);
  std::shared_ptr<Node> node;
  if (it == files_.end()) {
    if (!(flags & kOpenCreate)) return Status(kCantOpen, "unable to open " + full);
    node = std::make_shared<Node>();
    files_.emplace(full, node);
  } else {
    if ((flags & kOpenExclusive) && (flags & kOpenCreate)) return Status(kCantOpen, "exists");
    node = it->second;
  }
  if (flags & kOpenDeleteOnClose) files_.erase(full);
  if (out_flags) *out_flags = flags;
  *out = std::make_unique<MemFile>(&mu_, node, (flags & kOpenReadWrite) == 0);
  return Status();
}

Status MemVfs::Delete(const std::string& path, bool) {
  std::string full;
  TRY(FullPathname(path, &full));
  std::lock_guard<std::mutex> g(mu_);
  if (files_.erase(full) == 0) return Status(kIoErrDeleteNoEnt);
  return Status();
}

Status MemVfs::Access(const std::string& path, AccessMode mode, bool* result) {
  std::string full;
  TRY(FullPathname(path, &full));
  std::lock_guard<std::mutex> g(mu_);
  auto it = files_.find(full);
  if (mode == AccessMode::kExists) {
    *result = it != files_.end() && !it->second->data.empty();
  } else {
    *result = it != files_.end();
  }
  return Status();
}

Status MemVfs::FullPathname(const std::string& path, std::string* out) {
  if (path.empty()) return Status(kCantOpenFullPath);
  std::vector<std::string> parts;
  size_t i = 0;
  while (i <= path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
    } else if (!part.empty() && part != ".") {
      parts.push_back(part);
    }
    i = j + 1;
  }
  out->clear();
  for (const std::string& p : parts) *out += "/" + p;
  if (out->empty()) out->push_back('/');
  return Status();
}

void MemVfs::Randomness(void* buf, size_t n) {
  std::lock_guard<std::mutex> g(mu_);
  uint8_t* p = static_cast<uint8_t*>(buf);
  for (size_t i = 0; i < n; ++i) p[i] = uint8_t(rng_() >> 56);
}

void MemVfs::Sleep(int microseconds) {
  std::lock_guard<std::mutex> g(mu_);
  clock_ms_ += microseconds / 1000 + 1;
}

int64_t MemVfs::CurrentTimeJulianMs() {
  std::lock_guard<std::mutex> g(mu_);
  // A fixed start (2024-01-01) moved only by Sleep(): runs are repeatable.
  return kUnixEpochJulianMs + 1704067200000LL + clock_ms_;
}

bool MemVfs::GetFile(const std::string& path, std::string* bytes) const {
  std::string full;
  if (!const_cast<MemVfs*>(this)->FullPathname(path, &full).ok()) return false;
  std::lock_guard<std::mutex> g(mu_);
  auto it = files_.find(full);
  if (it == files_.end()) return false;
  *bytes = it->second->data;
  return true;
}

void MemVfs::PutFile(const std::string& path, std::string bytes) {
  std::string full;
  if (!FullPathname(path, &full).ok()) return;
  std::lock_guard<std::mutex> g(mu_);
  auto& node = files_[full];
  if (!node) node = std::make_shared<Node>();
  node->data = std::move(bytes);
}

std::vector<std::string> MemVfs::ListFiles() const {
  std::lock_guard<std::mutex> g(mu_);
  std::vector<std::string> out;
  for (const auto& [name, node] : files_) out.push_back(name);
  return out;
}

}  // namespace basalt
