// basalt::Vfs over a program's sqlite3_vfs (see vfs_adapter.h).
//
// Each VfsFile owns a block of the VFS's szOsFile bytes holding the
// sqlite3_file the program's xOpen fills in; every call forwards to its
// pMethods. The lock level is tracked here because sqlite3_io_methods has no
// way to ask for it. File names are passed in SQLite's sqlite3_filename
// layout (four NULs, the path, an empty parameter list, the journal and WAL
// names) so a VFS may call sqlite3_uri_parameter or
// sqlite3_filename_journal on the name of a main database.
#include "api/vfs_adapter.h"

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace basalt::api {
namespace {

Status FromCode(int rc) { return rc == SQLITE_OK ? Status() : Status(rc); }

// The names handed to a VFS for open main databases, for
// sqlite3_database_file_object: the database, journal and WAL name
// pointers of each map to the database's sqlite3_file. A journal or WAL
// opened later is given the pointer inside its database's layout, as
// SQLite does, so the lookup works from any of the three.
struct OpenMain {
  const char* db_name;
  const char* journal_name;
  const char* wal_name;
  sqlite3_file* file;
};
std::mutex& MainsMutex() {
  static std::mutex mu;
  return mu;
}
std::vector<OpenMain>& Mains() {
  static auto* mains = new std::vector<OpenMain>();
  return *mains;
}
void ForgetMain(sqlite3_file* f) {
  std::lock_guard<std::mutex> g(MainsMutex());
  auto& m = Mains();
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i].file == f) {
      m.erase(m.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
  }
}
// The journal or WAL name pointer of an open main database at `path`.
const char* CompanionName(const std::string& path) {
  std::lock_guard<std::mutex> g(MainsMutex());
  for (const OpenMain& m : Mains()) {
    if (path == m.journal_name) return m.journal_name;
    if (path == m.wal_name) return m.wal_name;
  }
  return nullptr;
}

// Invariant: `text` outlives every use of Name() by the VFS (the file keeps
// its own copy until xClose).
struct VfsName {
  std::string text;
  const char* Name() const { return text.empty() ? nullptr : text.c_str() + 4; }
};

VfsName MakeName(const std::string& path, int flags) {
  VfsName n;
  if (path.empty()) return n;  // a temporary file: the VFS picks a name
  n.text.assign(4, '\0');
  n.text += path;
  n.text.push_back('\0');
  n.text.push_back('\0');  // no URI parameters
  if ((flags & kOpenMainDb) != 0) {
    n.text += path + "-journal";
    n.text.push_back('\0');
    n.text += path + "-wal";
    n.text.push_back('\0');
  }
  n.text.append(3, '\0');
  return n;
}

class CShm final : public Shm {
 public:
  explicit CShm(sqlite3_file* f) : f_(f) {}
  ~CShm() override { (void)Close(false); }

  Status Map(int region, bool extend, uint8_t** out) override {
    void volatile* p = nullptr;
    int rc =
        f_->pMethods->xShmMap(f_, region, static_cast<int>(kShmRegionSize), extend ? 1 : 0, &p);
    *out = const_cast<uint8_t*>(static_cast<volatile uint8_t*>(p));
    if (rc == SQLITE_OK) mapped_ = true;
    return FromCode(rc);
  }
  Status Lock(int slot, int n, ShmLockOp op) override {
    int flags = 0;
    switch (op) {
      case ShmLockOp::kShared:
        flags = SQLITE_SHM_LOCK | SQLITE_SHM_SHARED;
        break;
      case ShmLockOp::kExclusive:
        flags = SQLITE_SHM_LOCK | SQLITE_SHM_EXCLUSIVE;
        break;
      case ShmLockOp::kUnlockShared:
        flags = SQLITE_SHM_UNLOCK | SQLITE_SHM_SHARED;
        break;
      case ShmLockOp::kUnlockExclusive:
        flags = SQLITE_SHM_UNLOCK | SQLITE_SHM_EXCLUSIVE;
        break;
    }
    return FromCode(f_->pMethods->xShmLock(f_, slot, n, flags));
  }
  void Barrier() override { f_->pMethods->xShmBarrier(f_); }
  Status Close(bool delete_file) override {
    if (!mapped_ && !delete_file) return Status();
    mapped_ = false;
    return FromCode(f_->pMethods->xShmUnmap(f_, delete_file ? 1 : 0));
  }

 private:
  sqlite3_file* f_;
  bool mapped_ = false;
};

class CFile final : public VfsFile {
 public:
  CFile(sqlite3_file* f, VfsName name, bool main_db) : f_(f), name_(std::move(name)) {
    if (main_db && !name_.text.empty()) {
      const char* db = name_.Name();
      const char* journal = db + std::strlen(db) + 2;  // past the empty parameter list
      const char* wal = journal + std::strlen(journal) + 1;
      std::lock_guard<std::mutex> g(MainsMutex());
      Mains().push_back(OpenMain{db, journal, wal, f_});
    }
  }
  ~CFile() override {
    ForgetMain(f_);
    if (f_->pMethods != nullptr) f_->pMethods->xClose(f_);
    std::free(f_);
  }

  Status Read(void* buf, size_t n, uint64_t offset) override {
    return FromCode(
        f_->pMethods->xRead(f_, buf, static_cast<int>(n), static_cast<sqlite3_int64>(offset)));
  }
  Status Write(const void* buf, size_t n, uint64_t offset) override {
    return FromCode(
        f_->pMethods->xWrite(f_, buf, static_cast<int>(n), static_cast<sqlite3_int64>(offset)));
  }
  Status Truncate(uint64_t size) override {
    return FromCode(f_->pMethods->xTruncate(f_, static_cast<sqlite3_int64>(size)));
  }
  Status Sync(int flags) override { return FromCode(f_->pMethods->xSync(f_, flags)); }
  Status FileSize(uint64_t* size) override {
    sqlite3_int64 n = 0;
    int rc = f_->pMethods->xFileSize(f_, &n);
    *size = n < 0 ? 0 : static_cast<uint64_t>(n);
    return FromCode(rc);
  }
  Status Lock(LockLevel level) override {
    int rc = f_->pMethods->xLock(f_, static_cast<int>(level));
    if (rc == SQLITE_OK) {
      level_ = level;
    } else if (level == LockLevel::kExclusive && (rc & 0xff) == SQLITE_BUSY &&
               level_ >= LockLevel::kShared) {
      level_ = LockLevel::kPending;  // as the contract in vfs.h: PENDING is kept
    }
    return FromCode(rc);
  }
  Status Unlock(LockLevel level) override {
    int rc = f_->pMethods->xUnlock(f_, static_cast<int>(level));
    if (rc == SQLITE_OK) level_ = level;
    return FromCode(rc);
  }
  Status CheckReservedLock(bool* held) override {
    int out = 0;
    int rc = f_->pMethods->xCheckReservedLock(f_, &out);
    *held = out != 0;
    return FromCode(rc);
  }
  LockLevel lock_level() const override { return level_; }
  int SectorSize() const override {
    return f_->pMethods->xSectorSize != nullptr ? f_->pMethods->xSectorSize(f_) : 4096;
  }
  int DeviceCharacteristics() const override {
    return f_->pMethods->xDeviceCharacteristics != nullptr
               ? f_->pMethods->xDeviceCharacteristics(f_)
               : 0;
  }
  void* ForeignFile() override { return f_; }
  int FileControl(int op, void* arg) override {
    if (f_->pMethods == nullptr || f_->pMethods->xFileControl == nullptr) return SQLITE_NOTFOUND;
    return f_->pMethods->xFileControl(f_, op, arg);
  }
  Status OpenShm(std::unique_ptr<Shm>* out) override {
    if (f_->pMethods->iVersion < 2 || f_->pMethods->xShmMap == nullptr) {
      return Status(SQLITE_IOERR, "the VFS has no shared memory");
    }
    *out = std::make_unique<CShm>(f_);
    return Status();
  }

 private:
  sqlite3_file* f_;  // owned: szOsFile bytes from malloc
  VfsName name_;     // the name the VFS was given, kept alive for it
  LockLevel level_ = LockLevel::kNone;
};

class CVfs final : public Vfs {
 public:
  explicit CVfs(sqlite3_vfs* vfs) : v_(vfs) {}

  Status Open(const std::string& path, int flags, std::unique_ptr<VfsFile>* out,
              int* out_flags) override {
    auto* f = static_cast<sqlite3_file*>(std::calloc(1, static_cast<size_t>(v_->szOsFile)));
    if (f == nullptr) return Status::NoMem();
    VfsName name = MakeName(path, flags);
    const char* zname = name.Name();
    if ((flags & (kOpenMainJournal | kOpenWal)) != 0) {
      if (const char* companion = CompanionName(path)) zname = companion;
    }
    int got = 0;
    int rc = v_->xOpen(v_, zname, f, flags, &got);
    if (rc != SQLITE_OK) {
      // SQLite's rule: a file whose pMethods is set must be closed even
      // when xOpen failed.
      if (f->pMethods != nullptr) f->pMethods->xClose(f);
      std::free(f);
      return FromCode(rc);
    }
    if (out_flags != nullptr) *out_flags = got;
    *out = std::make_unique<CFile>(f, std::move(name), (flags & kOpenMainDb) != 0);
    return Status();
  }
  Status Delete(const std::string& path, bool sync_dir) override {
    int rc = v_->xDelete(v_, path.c_str(), sync_dir ? 1 : 0);
    if (rc == SQLITE_IOERR_DELETE_NOENT) return Status(kIoErrDeleteNoEnt);
    return FromCode(rc);
  }
  Status Access(const std::string& path, AccessMode mode, bool* result) override {
    int flags = mode == AccessMode::kExists      ? SQLITE_ACCESS_EXISTS
                : mode == AccessMode::kReadWrite ? SQLITE_ACCESS_READWRITE
                                                 : SQLITE_ACCESS_READ;
    int r = 0;
    int rc = v_->xAccess(v_, path.c_str(), flags, &r);
    *result = r != 0;
    return FromCode(rc);
  }
  Status FullPathname(const std::string& path, std::string* out) override {
    std::string buf(static_cast<size_t>(v_->mxPathname) + 1, '\0');
    int rc = v_->xFullPathname(v_, path.c_str(), v_->mxPathname + 1, buf.data());
    if (rc != SQLITE_OK && rc != SQLITE_OK_SYMLINK) return FromCode(rc);
    buf.resize(std::strlen(buf.c_str()));
    *out = std::move(buf);
    return Status();
  }
  void Randomness(void* buf, size_t n) override {
    v_->xRandomness(v_, static_cast<int>(n), static_cast<char*>(buf));
  }
  void Sleep(int microseconds) override { v_->xSleep(v_, microseconds); }
  int64_t CurrentTimeJulianMs() override {
    if (v_->iVersion >= 2 && v_->xCurrentTimeInt64 != nullptr) {
      sqlite3_int64 ms = 0;
      v_->xCurrentTimeInt64(v_, &ms);
      return ms;
    }
    double days = 0;
    v_->xCurrentTime(v_, &days);
    return static_cast<int64_t>(days * 86400000.0);
  }

 private:
  sqlite3_vfs* v_;
};

}  // namespace

basalt::Vfs* AdaptVfs(sqlite3_vfs* vfs) {
  static std::mutex mu;
  static auto* adapters = new std::map<sqlite3_vfs*, std::unique_ptr<CVfs>>();
  std::lock_guard<std::mutex> g(mu);
  auto& slot = (*adapters)[vfs];
  if (slot == nullptr) slot = std::make_unique<CVfs>(vfs);
  return slot.get();
}

}  // namespace basalt::api

extern "C" sqlite3_file* sqlite3_database_file_object(const char* name) {
  std::lock_guard<std::mutex> g(basalt::api::MainsMutex());
  for (const basalt::api::OpenMain& m : basalt::api::Mains()) {
    if (name == m.db_name || name == m.journal_name || name == m.wal_name) return m.file;
  }
  return nullptr;
}
