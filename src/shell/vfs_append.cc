// "apndvfs": a database stored at the end of another file, the VFS sqlite3
// 3.40.1's shell registers (for -append, .open --append, .archive -a).
//
// File layout of an appended database:
//   [host bytes][zero padding to a 4096-byte boundary][database pages]
//   [25-byte mark: "Start-Of-SQLite3-" + start offset, 8 bytes big-endian]
// Opening a main database file:
//   - starting with "SQLite format 3": an ordinary database, passed through;
//   - ending with a mark: the database is at the mark's offset;
//   - empty, missing or one byte long: a database at offset 0, with a mark
//     once written;
//   - anything else: a database appended at the next 4096-byte boundary.
// Other files (journals, WAL) pass through to the default VFS untouched.
// Invariant of an appended file: `mark` is the database size and the mark
// sits at start + mark (mark < 0: nothing written yet, no mark).
#include <cstring>
#include <new>

#include "shell/shell_ext.h"

namespace shell {
namespace {

constexpr char kMarkPrefix[] = "Start-Of-SQLite3-";
constexpr int kMarkPrefixLen = 17;
constexpr int kMarkLen = 25;
constexpr sqlite3_int64 kRoundUp = 4096;

struct ApndFile {
  sqlite3_file base;
  bool appended = false;  // false: an ordinary file, passed through
  sqlite3_int64 start = 0;
  sqlite3_int64 mark = -1;
  // The default VFS's file follows this header.
  sqlite3_file* Inner() { return reinterpret_cast<sqlite3_file*>(this + 1); }
};

ApndFile* Of(sqlite3_file* f) { return reinterpret_cast<ApndFile*>(f); }
sqlite3_vfs* Root(sqlite3_vfs* v) { return static_cast<sqlite3_vfs*>(v->pAppData); }

int WriteMark(ApndFile* p, sqlite3_int64 size) {
  unsigned char buf[kMarkLen];
  std::memcpy(buf, kMarkPrefix, kMarkPrefixLen);
  for (int i = 0; i < 8; ++i) {
    buf[kMarkPrefixLen + i] = static_cast<unsigned char>(p->start >> (8 * (7 - i)));
  }
  const int rc = p->Inner()->pMethods->xWrite(p->Inner(), buf, kMarkLen, p->start + size);
  if (rc == SQLITE_OK) p->mark = size;
  return rc;
}

int Close(sqlite3_file* f) { return Of(f)->Inner()->pMethods->xClose(Of(f)->Inner()); }

int Read(sqlite3_file* f, void* buf, int amt, sqlite3_int64 off) {
  ApndFile* p = Of(f);
  sqlite3_file* in = p->Inner();
  if (!p->appended) return in->pMethods->xRead(in, buf, amt, off);
  const sqlite3_int64 have = p->mark < 0 ? 0 : p->mark;
  if (off + amt <= have) return in->pMethods->xRead(in, buf, amt, p->start + off);
  const int n = off >= have ? 0 : static_cast<int>(have - off);
  if (n > 0) {
    const int rc = in->pMethods->xRead(in, buf, n, p->start + off);
    if (rc != SQLITE_OK && rc != SQLITE_IOERR_SHORT_READ) return rc;
  }
  std::memset(static_cast<char*>(buf) + n, 0, static_cast<size_t>(amt - n));
  return SQLITE_IOERR_SHORT_READ;
}

int Write(sqlite3_file* f, const void* buf, int amt, sqlite3_int64 off) {
  ApndFile* p = Of(f);
  sqlite3_file* in = p->Inner();
  if (!p->appended) return in->pMethods->xWrite(in, buf, amt, off);
  const int rc = in->pMethods->xWrite(in, buf, amt, p->start + off);
  if (rc != SQLITE_OK || off + amt <= p->mark) return rc;
  return WriteMark(p, off + amt);
}

int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  ApndFile* p = Of(f);
  sqlite3_file* in = p->Inner();
  if (!p->appended) return in->pMethods->xTruncate(in, size);
  const int rc = WriteMark(p, size);
  if (rc != SQLITE_OK) return rc;
  return in->pMethods->xTruncate(in, p->start + size + kMarkLen);
}

int FileSize(sqlite3_file* f, sqlite3_int64* out) {
  ApndFile* p = Of(f);
  if (!p->appended) return p->Inner()->pMethods->xFileSize(p->Inner(), out);
  *out = p->mark < 0 ? 0 : p->mark;
  return SQLITE_OK;
}

// Everything else goes to the inner file as it is.
int Sync(sqlite3_file* f, int flags) {
  return Of(f)->Inner()->pMethods->xSync(Of(f)->Inner(), flags);
}
int Lock(sqlite3_file* f, int l) { return Of(f)->Inner()->pMethods->xLock(Of(f)->Inner(), l); }
int Unlock(sqlite3_file* f, int l) { return Of(f)->Inner()->pMethods->xUnlock(Of(f)->Inner(), l); }
int CheckReserved(sqlite3_file* f, int* out) {
  return Of(f)->Inner()->pMethods->xCheckReservedLock(Of(f)->Inner(), out);
}
int FileControl(sqlite3_file* f, int op, void* arg) {
  ApndFile* p = Of(f);
  if (op == SQLITE_FCNTL_SIZE_HINT && p->appended) return SQLITE_OK;
  const int rc = p->Inner()->pMethods->xFileControl(p->Inner(), op, arg);
  if (rc == SQLITE_OK && op == SQLITE_FCNTL_VFSNAME && p->appended) {
    // "apnd(START)/" before the inner VFS's name.
    char** name = static_cast<char**>(arg);
    *name = sqlite3_mprintf("apnd(%lld)/%z", p->start, *name);
  }
  return rc;
}
int SectorSize(sqlite3_file* f) { return Of(f)->Inner()->pMethods->xSectorSize(Of(f)->Inner()); }
int DeviceChars(sqlite3_file* f) {
  return Of(f)->Inner()->pMethods->xDeviceCharacteristics(Of(f)->Inner());
}
int ShmMap(sqlite3_file* f, int pg, int sz, int extend, void volatile** out) {
  sqlite3_file* in = Of(f)->Inner();
  if (in->pMethods->iVersion < 2 || in->pMethods->xShmMap == nullptr) return SQLITE_IOERR;
  return in->pMethods->xShmMap(in, pg, sz, extend, out);
}
int ShmLock(sqlite3_file* f, int off, int n, int flags) {
  sqlite3_file* in = Of(f)->Inner();
  return in->pMethods->xShmLock(in, off, n, flags);
}
void ShmBarrier(sqlite3_file* f) {
  sqlite3_file* in = Of(f)->Inner();
  if (in->pMethods->xShmBarrier != nullptr) in->pMethods->xShmBarrier(in);
}
int ShmUnmap(sqlite3_file* f, int del) {
  sqlite3_file* in = Of(f)->Inner();
  if (in->pMethods->iVersion < 2 || in->pMethods->xShmUnmap == nullptr) return SQLITE_OK;
  return in->pMethods->xShmUnmap(in, del);
}

sqlite3_io_methods MakeMethods() {
  sqlite3_io_methods m{};
  m.iVersion = 2;
  m.xClose = Close;
  m.xRead = Read;
  m.xWrite = Write;
  m.xTruncate = Truncate;
  m.xSync = Sync;
  m.xFileSize = FileSize;
  m.xLock = Lock;
  m.xUnlock = Unlock;
  m.xCheckReservedLock = CheckReserved;
  m.xFileControl = FileControl;
  m.xSectorSize = SectorSize;
  m.xDeviceCharacteristics = DeviceChars;
  m.xShmMap = ShmMap;
  m.xShmLock = ShmLock;
  m.xShmBarrier = ShmBarrier;
  m.xShmUnmap = ShmUnmap;
  return m;
}

// Where the database of a just-opened main file lives (see the top).
int Place(ApndFile* p) {
  sqlite3_file* in = p->Inner();
  sqlite3_int64 size = 0;
  int rc = in->pMethods->xFileSize(in, &size);
  if (rc != SQLITE_OK) return rc;
  unsigned char head[16];
  if (size >= 16 && in->pMethods->xRead(in, head, 16, 0) == SQLITE_OK &&
      std::memcmp(head, "SQLite format 3", 16) == 0) {
    return SQLITE_OK;  // an ordinary database
  }
  p->appended = true;
  unsigned char tail[kMarkLen];
  if (size >= kMarkLen && in->pMethods->xRead(in, tail, kMarkLen, size - kMarkLen) == SQLITE_OK &&
      std::memcmp(tail, kMarkPrefix, kMarkPrefixLen) == 0) {
    sqlite3_int64 start = 0;
    for (int i = 0; i < 8; ++i) start = (start << 8) | tail[kMarkPrefixLen + i];
    if (start >= 0 && start <= size - kMarkLen) {
      p->start = start;
      p->mark = size - kMarkLen - start;
      return SQLITE_OK;
    }
  }
  // (A one-byte file is overwritten from offset 0, as the reference does.)
  p->start = size <= 1 ? 0 : (size + kRoundUp - 1) / kRoundUp * kRoundUp;
  p->mark = -1;
  return SQLITE_OK;
}

int Open(sqlite3_vfs* vfs, const char* name, sqlite3_file* f, int flags, int* out_flags) {
  static const sqlite3_io_methods kMethods = MakeMethods();
  sqlite3_vfs* root = Root(vfs);
  auto* p = new (f) ApndFile();
  int rc = root->xOpen(root, name, p->Inner(), flags, out_flags);
  if (rc != SQLITE_OK) return rc;
  p->base.pMethods = &kMethods;
  if (flags & SQLITE_OPEN_MAIN_DB) rc = Place(p);
  if (rc != SQLITE_OK) {
    p->Inner()->pMethods->xClose(p->Inner());
    p->base.pMethods = nullptr;
  }
  return rc;
}

int Delete(sqlite3_vfs* v, const char* n, int sync) { return Root(v)->xDelete(Root(v), n, sync); }
int Access(sqlite3_vfs* v, const char* n, int flags, int* out) {
  return Root(v)->xAccess(Root(v), n, flags, out);
}
int FullPath(sqlite3_vfs* v, const char* n, int len, char* out) {
  return Root(v)->xFullPathname(Root(v), n, len, out);
}
void* DlOpen(sqlite3_vfs* v, const char* n) { return Root(v)->xDlOpen(Root(v), n); }
void DlError(sqlite3_vfs* v, int n, char* out) { Root(v)->xDlError(Root(v), n, out); }
void (*DlSym(sqlite3_vfs* v, void* h, const char* s))(void) {
  return Root(v)->xDlSym(Root(v), h, s);
}
void DlClose(sqlite3_vfs* v, void* h) { Root(v)->xDlClose(Root(v), h); }
int Randomness(sqlite3_vfs* v, int n, char* out) { return Root(v)->xRandomness(Root(v), n, out); }
int Sleep(sqlite3_vfs* v, int us) { return Root(v)->xSleep(Root(v), us); }
int CurrentTime(sqlite3_vfs* v, double* out) { return Root(v)->xCurrentTime(Root(v), out); }
int LastError(sqlite3_vfs* v, int n, char* out) {
  return Root(v)->xGetLastError ? Root(v)->xGetLastError(Root(v), n, out) : 0;
}
int CurrentTime64(sqlite3_vfs* v, sqlite3_int64* out) {
  sqlite3_vfs* r = Root(v);
  if (r->iVersion >= 2 && r->xCurrentTimeInt64 != nullptr) return r->xCurrentTimeInt64(r, out);
  double d = 0;
  const int rc = r->xCurrentTime(r, &d);
  *out = static_cast<sqlite3_int64>(d * 86400000.0);
  return rc;
}

}  // namespace

void RegisterAppendVfs() {
  static sqlite3_vfs vfs{};
  if (vfs.zName != nullptr) return;
  sqlite3_vfs* root = sqlite3_vfs_find(nullptr);
  if (root == nullptr) return;
  vfs.iVersion = 2;
  vfs.szOsFile = static_cast<int>(sizeof(ApndFile)) + root->szOsFile;
  vfs.mxPathname = root->mxPathname;
  vfs.zName = "apndvfs";
  vfs.pAppData = root;
  vfs.xOpen = Open;
  vfs.xDelete = Delete;
  vfs.xAccess = Access;
  vfs.xFullPathname = FullPath;
  vfs.xDlOpen = DlOpen;
  vfs.xDlError = DlError;
  vfs.xDlSym = DlSym;
  vfs.xDlClose = DlClose;
  vfs.xRandomness = Randomness;
  vfs.xSleep = Sleep;
  vfs.xCurrentTime = CurrentTime;
  vfs.xGetLastError = LastError;
  vfs.xCurrentTimeInt64 = CurrentTime64;
  sqlite3_vfs_register(&vfs, 0);
}

}  // namespace shell
