// sqlite3_vfs_find / register / unregister.
//
// Basalt's own file layer is os/vfs.h. Through this API it appears as a
// sqlite3_vfs named "unix" (the default) whose methods call the process's
// unix Vfs: an application can find it, open files through it, and wrap it
// in a VFS of its own (a shim that forwards to it). Registered VFS objects
// are kept in SQLite's list order (the default first) and found by name.
// Connections opened through "unix" (or one of SQLite's unix variant
// names) use Basalt's unix Vfs directly; a VFS the program registered is
// used through vfs_adapter.h for all of a connection's file I/O, locking
// and shared memory. The resolver installed in os/vfs.h (FindVfs) maps
// names to either.
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/guard.h"
#include "api/handles.h"
#include "api/vfs_adapter.h"
#include "os/unix_vfs.h"
#include "os/vfs.h"

namespace {

// A sqlite3_file whose first member is the sqlite3_file header.
struct AdaptedFile {
  sqlite3_file base;
  basalt::VfsFile* file;
  basalt::Shm* shm;  // the file's wal-index, once xShmMap asked for it
  bool owned;        // xClose deletes `file` (false: a NativeFileView)
  bool persist_wal;  // SQLITE_FCNTL_PERSIST_WAL / POWERSAFE_OVERWRITE as set
  bool psow;
};

basalt::VfsFile* FileOf(sqlite3_file* f) { return reinterpret_cast<AdaptedFile*>(f)->file; }

int Code(const basalt::Status& st) { return st.ok() ? SQLITE_OK : st.code(); }

int Close(sqlite3_file* f) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  delete af->shm;
  af->shm = nullptr;
  if (af->owned) delete af->file;
  af->file = nullptr;
  return SQLITE_OK;
}
int Read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  return Code(FileOf(f)->Read(buf, static_cast<size_t>(n), static_cast<uint64_t>(off)));
}
int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  return Code(FileOf(f)->Write(buf, static_cast<size_t>(n), static_cast<uint64_t>(off)));
}
int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  return Code(FileOf(f)->Truncate(static_cast<uint64_t>(size)));
}
int Sync(sqlite3_file* f, int flags) { return Code(FileOf(f)->Sync(flags)); }
int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  uint64_t n = 0;
  basalt::Status st = FileOf(f)->FileSize(&n);
  *size = static_cast<sqlite3_int64>(n);
  return Code(st);
}
int Lock(sqlite3_file* f, int level) {
  return Code(FileOf(f)->Lock(static_cast<basalt::LockLevel>(level)));
}
int Unlock(sqlite3_file* f, int level) {
  return Code(FileOf(f)->Unlock(static_cast<basalt::LockLevel>(level)));
}
int CheckReserved(sqlite3_file* f, int* out) {
  bool held = false;
  basalt::Status st = FileOf(f)->CheckReservedLock(&held);
  *out = held ? 1 : 0;
  return Code(st);
}
int FileControl(sqlite3_file* f, int op, void* arg) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  return basalt::api::Guard(nullptr, SQLITE_NOMEM, [&] {
    return basalt::api::UnixFileControl(af->file, op, arg, &af->persist_wal, &af->psow);
  });
}
int SectorSize(sqlite3_file* f) { return FileOf(f)->SectorSize(); }
int DeviceCharacteristics(sqlite3_file* f) { return FileOf(f)->DeviceCharacteristics(); }

int ShmMapImpl(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  *out = nullptr;
  if (size != static_cast<int>(basalt::kShmRegionSize)) return SQLITE_IOERR_SHMMAP;
  if (af->shm == nullptr) {
    std::unique_ptr<basalt::Shm> shm;
    basalt::Status st = af->file->OpenShm(&shm);
    if (!st.ok()) return Code(st);
    af->shm = shm.release();
  }
  uint8_t* p = nullptr;
  basalt::Status st = af->shm->Map(region, extend != 0, &p);
  *out = p;
  return Code(st);
}
int ShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** out) {
  return basalt::api::Guard(nullptr, SQLITE_NOMEM,
                            [&] { return ShmMapImpl(f, region, size, extend, out); });
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  if (af->shm == nullptr) return SQLITE_IOERR_SHMLOCK;
  bool shared = (flags & SQLITE_SHM_SHARED) != 0;
  basalt::ShmLockOp op =
      (flags & SQLITE_SHM_UNLOCK) != 0
          ? (shared ? basalt::ShmLockOp::kUnlockShared : basalt::ShmLockOp::kUnlockExclusive)
          : (shared ? basalt::ShmLockOp::kShared : basalt::ShmLockOp::kExclusive);
  return Code(af->shm->Lock(offset, n, op));
}
void ShmBarrier(sqlite3_file* f) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  if (af->shm != nullptr) af->shm->Barrier();
}
int ShmUnmap(sqlite3_file* f, int delete_flag) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  if (af->shm == nullptr) return SQLITE_OK;
  basalt::Status st = af->shm->Close(delete_flag != 0);
  delete af->shm;
  af->shm = nullptr;
  return Code(st);
}
// No memory-mapped I/O: the caller reads through xRead.
int Fetch(sqlite3_file*, sqlite3_int64, int, void** out) {
  *out = nullptr;
  return SQLITE_OK;
}
int Unfetch(sqlite3_file*, sqlite3_int64, void*) { return SQLITE_OK; }

const sqlite3_io_methods kIoMethods = {3,
                                       Close,
                                       Read,
                                       Write,
                                       Truncate,
                                       Sync,
                                       FileSize,
                                       Lock,
                                       Unlock,
                                       CheckReserved,
                                       FileControl,
                                       SectorSize,
                                       DeviceCharacteristics,
                                       ShmMap,
                                       ShmLock,
                                       ShmBarrier,
                                       ShmUnmap,
                                       Fetch,
                                       Unfetch};

int OpenImpl(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  af->base.pMethods = nullptr;
  af->file = nullptr;
  af->shm = nullptr;
  af->owned = true;
  af->persist_wal = false;
  af->psow = true;
  std::unique_ptr<basalt::VfsFile> file;
  int got = flags;
  std::string path = name != nullptr ? name : "";
  basalt::Status st = basalt::DefaultVfs()->Open(path, flags, &file, &got);
  if (!st.ok()) return Code(st);
  af->file = file.release();
  af->base.pMethods = &kIoMethods;
  if (out_flags != nullptr) *out_flags = got;
  return SQLITE_OK;
}
// The VFS methods are C entry points too: nothing may throw out of them.
int Open(sqlite3_vfs* v, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  return basalt::api::Guard(nullptr, SQLITE_NOMEM,
                            [&] { return OpenImpl(v, name, f, flags, out_flags); });
}
int Delete(sqlite3_vfs*, const char* name, int sync_dir) {
  return basalt::api::Guard(nullptr, SQLITE_NOMEM, [&] {
    return Code(basalt::DefaultVfs()->Delete(name, sync_dir != 0));
  });
}
int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  bool r = false;
  basalt::AccessMode m = flags == SQLITE_ACCESS_EXISTS      ? basalt::AccessMode::kExists
                         : flags == SQLITE_ACCESS_READWRITE ? basalt::AccessMode::kReadWrite
                                                            : basalt::AccessMode::kRead;
  return basalt::api::Guard(nullptr, SQLITE_NOMEM, [&] {
    basalt::Status st = basalt::DefaultVfs()->Access(name, m, &r);
    *out = r ? 1 : 0;
    return Code(st);
  });
}
int FullPathnameImpl(sqlite3_vfs*, const char* name, int n, char* out) {
  std::string full;
  basalt::Status st = basalt::DefaultVfs()->FullPathname(name, &full);
  if (!st.ok()) return Code(st);
  if (static_cast<int>(full.size()) >= n) return SQLITE_CANTOPEN;
  std::memcpy(out, full.c_str(), full.size() + 1);
  return SQLITE_OK;
}
int FullPathname(sqlite3_vfs* v, const char* name, int n, char* out) {
  return basalt::api::Guard(nullptr, SQLITE_NOMEM,
                            [&] { return FullPathnameImpl(v, name, n, out); });
}
int Randomness(sqlite3_vfs*, int n, char* out) {
  basalt::DefaultVfs()->Randomness(out, static_cast<size_t>(n));
  return n;
}
int Sleep(sqlite3_vfs*, int us) {
  basalt::DefaultVfs()->Sleep(us);
  return us;
}
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* out) {
  *out = basalt::DefaultVfs()->CurrentTimeJulianMs();
  return SQLITE_OK;
}
int CurrentTime(sqlite3_vfs* v, double* out) {
  sqlite3_int64 ms = 0;
  CurrentTimeInt64(v, &ms);
  *out = static_cast<double>(ms) / 86400000.0;
  return SQLITE_OK;
}
int GetLastError(sqlite3_vfs*, int, char*) { return 0; }

sqlite3_vfs* UnixVfs() {
  static sqlite3_vfs vfs = {2,
                            static_cast<int>(sizeof(AdaptedFile)),
                            512,
                            nullptr,
                            "unix",
                            nullptr,
                            Open,
                            Delete,
                            Access,
                            FullPathname,
                            nullptr,
                            nullptr,
                            nullptr,
                            nullptr,
                            Randomness,
                            Sleep,
                            CurrentTime,
                            GetLastError,
                            CurrentTimeInt64,
                            nullptr,
                            nullptr,
                            nullptr};
  return &vfs;
}

std::mutex& ListMutex() {
  static std::mutex mu;
  return mu;
}
// Invariant V1: the default VFS is first; every entry is distinct.
std::vector<sqlite3_vfs*>& List() {
  static auto* list = new std::vector<sqlite3_vfs*>{UnixVfs()};
  return *list;
}

// The resolver behind basalt::FindVfs: a registered VFS by name (the
// default for an empty name); Basalt's own unix Vfs for "unix" and the
// unix variant names.
basalt::Vfs* Resolve(std::string_view name) {
  sqlite3_vfs* found = nullptr;
  {
    std::lock_guard<std::mutex> g(ListMutex());
    auto& list = List();
    if (name.empty()) {
      found = list.empty() ? nullptr : list.front();
    } else {
      for (sqlite3_vfs* v : list) {
        if (v->zName != nullptr && name == v->zName) {
          found = v;
          break;
        }
      }
    }
  }
  if (found == nullptr) return basalt::IsUnixVfsName(name) ? basalt::DefaultVfs() : nullptr;
  if (found == UnixVfs()) return basalt::DefaultVfs();
  return basalt::api::AdaptVfs(found);
}

// Installed before main() runs, so URIs opened through any path see it.
const bool kResolverInstalled = (basalt::SetVfsResolver(&Resolve), true);

}  // namespace

extern "C" {

sqlite3_vfs* sqlite3_vfs_find(const char* name) {
  if (sqlite3_initialize() != SQLITE_OK) return nullptr;
  std::lock_guard<std::mutex> g(ListMutex());
  auto& list = List();
  if (name == nullptr) return list.empty() ? nullptr : list.front();
  for (sqlite3_vfs* v : list) {
    if (v->zName != nullptr && std::strcmp(v->zName, name) == 0) return v;
  }
  return nullptr;
}

int sqlite3_vfs_register(sqlite3_vfs* vfs, int make_default) {
  if (vfs == nullptr) return SQLITE_MISUSE;
  if (sqlite3_initialize() != SQLITE_OK) return SQLITE_ERROR;
  std::lock_guard<std::mutex> g(ListMutex());
  return basalt::api::Guard(nullptr, SQLITE_NOMEM, [&] {
    auto& list = List();
    for (size_t i = 0; i < list.size(); ++i) {
      if (list[i] == vfs) {
        list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
        break;
      }
    }
    if (make_default || list.empty()) {
      list.insert(list.begin(), vfs);
    } else {
      list.insert(list.begin() + 1, vfs);
    }
    return SQLITE_OK;
  });
}

int sqlite3_vfs_unregister(sqlite3_vfs* vfs) {
  std::lock_guard<std::mutex> g(ListMutex());
  auto& list = List();
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i] == vfs) {
      list.erase(list.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  return SQLITE_OK;
}

}  // extern "C"

namespace basalt::api {

int UnixFileControl(basalt::VfsFile* f, int op, void* arg, bool* persist_wal, bool* psow) {
  switch (op) {
    case SQLITE_FCNTL_LOCKSTATE:
      *static_cast<int*>(arg) = f != nullptr ? static_cast<int>(f->lock_level()) : 0;
      return SQLITE_OK;
    case SQLITE_FCNTL_LAST_ERRNO:
    case SQLITE_FCNTL_HAS_MOVED:
    case SQLITE_FCNTL_EXTERNAL_READER:
      *static_cast<int*>(arg) = 0;
      return SQLITE_OK;
    case SQLITE_FCNTL_SIZE_HINT:
    case SQLITE_FCNTL_CHUNK_SIZE:
      return SQLITE_OK;  // hints Basalt's files do not need
    case SQLITE_FCNTL_PERSIST_WAL:
    case SQLITE_FCNTL_POWERSAFE_OVERWRITE: {
      // -1 asks; 0 / 1 sets.
      int* v = static_cast<int*>(arg);
      bool* flag = op == SQLITE_FCNTL_PERSIST_WAL ? persist_wal : psow;
      if (*v >= 0) *flag = *v != 0;
      *v = *flag ? 1 : 0;
      return SQLITE_OK;
    }
    case SQLITE_FCNTL_VFSNAME:
      *static_cast<char**>(arg) = sqlite3_mprintf("%s", "unix");
      return SQLITE_OK;
    case SQLITE_FCNTL_TEMPFILENAME: {
      sqlite3_uint64 r;
      sqlite3_randomness(sizeof r, &r);
      *static_cast<char**>(arg) =
          sqlite3_mprintf("%s/etilqs_%llx", basalt::UnixTempDirectory().c_str(), r);
      return SQLITE_OK;
    }
    case SQLITE_FCNTL_MMAP_SIZE:
      // Basalt maps nothing: the limit stays 0 (the default of this build).
      *static_cast<sqlite3_int64*>(arg) = 0;
      return SQLITE_OK;
    default:
      return SQLITE_NOTFOUND;
  }
}

sqlite3_file* NativeFileView(basalt::VfsFile* f) {
  static std::mutex mu;
  static auto* views = new std::unordered_map<basalt::VfsFile*, std::unique_ptr<AdaptedFile>>();
  std::lock_guard<std::mutex> g(mu);
  std::unique_ptr<AdaptedFile>& v = (*views)[f];
  if (v == nullptr) {
    v = std::make_unique<AdaptedFile>();
    v->base.pMethods = &kIoMethods;
    v->file = f;
    v->shm = nullptr;
    v->owned = false;
    v->persist_wal = false;
    v->psow = true;
  }
  return &v->base;
}

}  // namespace basalt::api
