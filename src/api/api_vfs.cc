// sqlite3_vfs_find / register / unregister.
//
// Basalt's own file layer is os/vfs.h. Through this API it appears as a
// sqlite3_vfs named "unix" (the default) whose methods call the process's
// unix Vfs: an application can find it, open files through it, and wrap it
// in a VFS of its own (a shim that forwards to it). Registered VFS objects
// are kept in SQLite's list order (the default first) and found by name.
// Basalt's connections still do their own I/O through the unix Vfs: a
// registered VFS is not used to open databases (sqlite3_open_v2's zVfs
// names only the unix VFS variants).
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "api/guard.h"
#include "api/handles.h"
#include "os/vfs.h"

namespace {

// A sqlite3_file whose first member is the sqlite3_file header.
struct AdaptedFile {
  sqlite3_file base;
  basalt::VfsFile* file;
};

basalt::VfsFile* FileOf(sqlite3_file* f) { return reinterpret_cast<AdaptedFile*>(f)->file; }

int Code(const basalt::Status& st) { return st.ok() ? SQLITE_OK : st.code(); }

int Close(sqlite3_file* f) {
  delete FileOf(f);
  reinterpret_cast<AdaptedFile*>(f)->file = nullptr;
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
int FileControl(sqlite3_file*, int, void*) { return SQLITE_NOTFOUND; }
int SectorSize(sqlite3_file* f) { return FileOf(f)->SectorSize(); }
int DeviceCharacteristics(sqlite3_file* f) { return FileOf(f)->DeviceCharacteristics(); }

const sqlite3_io_methods kIoMethods = {1,
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
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       nullptr,
                                       nullptr};

int OpenImpl(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  auto* af = reinterpret_cast<AdaptedFile*>(f);
  af->base.pMethods = nullptr;
  af->file = nullptr;
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
