// The fault-injecting VFS wrapper (see fault_vfs.h).
#include "os/fault_vfs.h"

#include <algorithm>
#include <random>

namespace basalt {

namespace {

constexpr uint64_t kSector = 512;

bool IsWritePoint(int op) {
  return op == kFaultWrite || op == kFaultSync || op == kFaultTruncate || op == kFaultDelete;
}

int IoCodeFor(int op) {
  switch (op) {
    case kFaultRead:
      return kIoErrRead;
    case kFaultWrite:
      return kIoErrWrite;
    case kFaultSync:
      return kIoErrFsync;
    case kFaultTruncate:
      return kIoErrTruncate;
    case kFaultDelete:
      return kIoErrDelete;
    default:
      return kCantOpen;
  }
}

void ApplyWrite(std::string* image, uint64_t offset, const char* p, size_t n) {
  if (image->size() < offset + n) image->resize(size_t(offset + n), '\0');
  std::copy(p, p + n, image->begin() + std::ptrdiff_t(offset));
}

class FaultFile final : public VfsFile {
 public:
  FaultFile(FaultVfs* vfs, std::unique_ptr<VfsFile> base, std::string path)
      : vfs_(vfs), base_(std::move(base)), path_(std::move(path)) {}

  Status Read(void* buf, size_t n, uint64_t offset) override {
    bool short_write;
    TRY(vfs_->Before(kFaultRead, &short_write));
    return base_->Read(buf, n, offset);
  }
  Status Write(const void* buf, size_t n, uint64_t offset) override {
    bool short_write = false;
    Status st = vfs_->Before(kFaultWrite, &short_write);
    if (short_write) {
      size_t half = n / 2;
      if (half > 0 && base_->Write(buf, half, offset).ok()) {
        vfs_->RecordWrite(path_, buf, half, offset);
      }
      return Status(kFull);
    }
    TRY(st);
    TRY(base_->Write(buf, n, offset));
    vfs_->RecordWrite(path_, buf, n, offset);
    return Status();
  }
  Status Truncate(uint64_t size) override {
    bool short_write;
    TRY(vfs_->Before(kFaultTruncate, &short_write));
    TRY(base_->Truncate(size));
    vfs_->RecordTruncate(path_, size);
    return Status();
  }
  Status Sync(int flags) override {
    bool short_write;
    TRY(vfs_->Before(kFaultSync, &short_write));
    TRY(base_->Sync(flags));
    vfs_->RecordSync(path_);
    return Status();
  }
  Status FileSize(uint64_t* size) override { return base_->FileSize(size); }
  Status Lock(LockLevel level) override {
    if (vfs_->crashed()) return Status(kIoErrLock);
    return base_->Lock(level);
  }
  Status Unlock(LockLevel level) override { return base_->Unlock(level); }
  Status CheckReservedLock(bool* held) override { return base_->CheckReservedLock(held); }
  LockLevel lock_level() const override { return base_->lock_level(); }
  int SectorSize() const override { return base_->SectorSize(); }
  int DeviceCharacteristics() const override { return base_->DeviceCharacteristics(); }
  Status OpenShm(std::unique_ptr<Shm>* out) override {
    if (vfs_->crashed()) return Status(kIoErrShmOpen);
    return base_->OpenShm(out);
  }

 private:
  FaultVfs* vfs_;
  std::unique_ptr<VfsFile> base_;
  std::string path_;
};

}  // namespace

FaultVfs::FaultVfs(Vfs* base) : base_(base) {}
FaultVfs::~FaultVfs() = default;

void FaultVfs::InjectFault(FaultKind kind, int64_t nth, int op_mask, bool persistent) {
  std::lock_guard<std::mutex> g(mu_);
  kind_ = kind;
  nth_ = nth;
  op_mask_ = op_mask;
  persistent_ = persistent;
  ops_ = 0;
  fired_ = false;
}

void FaultVfs::ClearFault() { InjectFault(FaultKind::kNone, 0, kFaultAll, false); }

int64_t FaultVfs::op_count() const {
  std::lock_guard<std::mutex> g(mu_);
  return ops_;
}

bool FaultVfs::fault_fired() const {
  std::lock_guard<std::mutex> g(mu_);
  return fired_;
}

int64_t FaultVfs::write_points() const {
  std::lock_guard<std::mutex> g(mu_);
  return write_points_;
}

void FaultVfs::CrashAt(int64_t n) {
  std::lock_guard<std::mutex> g(mu_);
  crash_at_ = n > 0 ? write_points_ + n : 0;
}

bool FaultVfs::crashed() const {
  std::lock_guard<std::mutex> g(mu_);
  return crashed_;
}

Status FaultVfs::Before(int op, bool* short_write) {
  std::lock_guard<std::mutex> g(mu_);
  *short_write = false;
  if (crashed_) return Status(IoCodeFor(op) == kCantOpen ? kIoErr : IoCodeFor(op));
  if (IsWritePoint(op)) {
    ++write_points_;
    if (crash_at_ != 0 && write_points_ >= crash_at_) {
      crashed_ = true;
      return Status(IoCodeFor(op));
    }
  }
  if ((op & op_mask_) == 0) return Status();
  ++ops_;
  if (kind_ == FaultKind::kNone) return Status();
  if (!(ops_ == nth_ || (persistent_ && ops_ > nth_))) return Status();
  fired_ = true;
  if (op == kFaultWrite && kind_ == FaultKind::kShortWrite) {
    *short_write = true;
    return Status(kFull);
  }
  if (op == kFaultWrite && kind_ != FaultKind::kIoError) return Status(kFull);
  return Status(IoCodeFor(op));
}

void FaultVfs::RecordWrite(const std::string& path, const void* buf, size_t n, uint64_t offset) {
  std::lock_guard<std::mutex> g(mu_);
  Track& t = tracks_[path];
  t.exists = true;
  Pending p;
  p.offset = offset;
  p.data.assign(static_cast<const char*>(buf), n);
  t.pending.push_back(std::move(p));
}

void FaultVfs::RecordTruncate(const std::string& path, uint64_t size) {
  std::lock_guard<std::mutex> g(mu_);
  Track& t = tracks_[path];
  t.exists = true;
  Pending p;
  p.truncate = true;
  p.offset = size;
  t.pending.push_back(std::move(p));
}

void FaultVfs::RecordSync(const std::string& path) {
  std::lock_guard<std::mutex> g(mu_);
  Track& t = tracks_[path];
  for (const Pending& p : t.pending) {
    if (p.truncate) {
      t.durable.resize(size_t(p.offset), '\0');
    } else {
      ApplyWrite(&t.durable, p.offset, p.data.data(), p.data.size());
    }
  }
  t.pending.clear();
}

std::map<std::string, std::string> FaultVfs::SurvivingFiles(uint64_t seed, Survival mode) const {
  std::lock_guard<std::mutex> g(mu_);
  std::mt19937_64 rng(seed);
  auto keep = [&]() {
    if (mode == Survival::kAll) return true;
    if (mode == Survival::kNone) return false;
    return (rng() & 1) != 0;
  };
  std::map<std::string, std::string> out;
  for (const auto& [path, t] : tracks_) {
    if (!t.exists) continue;
    std::string image = t.durable;
    for (const Pending& p : t.pending) {
      if (p.truncate) {
        if (keep()) image.resize(size_t(p.offset), '\0');
        continue;
      }
      uint64_t end = p.offset + p.data.size();
      for (uint64_t s = p.offset; s < end;) {
        uint64_t next = std::min(end, (s / kSector + 1) * kSector);
        if (keep()) ApplyWrite(&image, s, p.data.data() + (s - p.offset), size_t(next - s));
        s = next;
      }
    }
    out.emplace(path, std::move(image));
  }
  return out;
}

void FaultVfs::TrackExisting(const std::string& path, VfsFile* file) {
  {
    std::lock_guard<std::mutex> g(mu_);
    auto it = tracks_.find(path);
    if (it != tracks_.end() && it->second.exists) return;
  }
  uint64_t size = 0;
  std::string bytes;
  if (file->FileSize(&size).ok() && size > 0) {
    bytes.resize(size_t(size));
    if (!file->Read(bytes.data(), bytes.size(), 0).ok()) bytes.clear();
  }
  std::lock_guard<std::mutex> g(mu_);
  Track& t = tracks_[path];
  t.exists = true;
  t.durable = std::move(bytes);
  t.pending.clear();
}

Status FaultVfs::Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
                      int* out_flags) {
  bool short_write;
  TRY(Before(kFaultOpen, &short_write));
  std::unique_ptr<VfsFile> file;
  if (path.empty()) {
    // An anonymous temporary file: faults apply to it, but it is not
    // tracked as existing, so it never survives a simulated crash.
    TRY(base_->Open(path, flags, &file, out_flags));
    *out = std::make_unique<FaultFile>(this, std::move(file), std::string());
    return Status();
  }
  std::string full;
  TRY(base_->FullPathname(path, &full));
  TRY(base_->Open(full, flags, &file, out_flags));
  TrackExisting(full, file.get());
  *out = std::make_unique<FaultFile>(this, std::move(file), full);
  return Status();
}

Status FaultVfs::Delete(const std::string& path, bool sync_dir) {
  bool short_write;
  TRY(Before(kFaultDelete, &short_write));
  std::string full;
  TRY(base_->FullPathname(path, &full));
  TRY(base_->Delete(full, sync_dir));
  std::lock_guard<std::mutex> g(mu_);
  tracks_.erase(full);
  return Status();
}

Status FaultVfs::Access(const std::string& path, AccessMode mode, bool* result) {
  if (crashed()) return Status(kIoErrAccess);
  return base_->Access(path, mode, result);
}

Status FaultVfs::FullPathname(const std::string& path, std::string* out) {
  return base_->FullPathname(path, out);
}

void FaultVfs::Randomness(void* buf, size_t n) { base_->Randomness(buf, n); }
void FaultVfs::Sleep(int microseconds) { base_->Sleep(microseconds); }
int64_t FaultVfs::CurrentTimeJulianMs() { return base_->CurrentTimeJulianMs(); }

}  // namespace basalt
