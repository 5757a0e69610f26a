/* A user VFS written only against sqlite3.h: a shim over the default VFS
 * that stores every byte of every file XORed with 0x5A and counts the
 * calls it forwards. Used by uvfs_main.c on both Basalt's library and the
 * system libsqlite3: the same program must behave the same on each. */
#include "xor_vfs.h"

#include <string.h>

#define XOR_KEY 0x5A

typedef struct XorFile {
  sqlite3_file base;  /* must be first: pMethods points at kXorMethods */
  sqlite3_file* real; /* the underlying VFS's file, allocated after this struct */
} XorFile;

static sqlite3_vfs* g_real; /* the VFS this shim forwards to */
static XorCounters g_count;

XorCounters* xor_counters(void) { return &g_count; }

static void xor_bytes(unsigned char* p, int n) {
  for (int i = 0; i < n; i++) p[i] ^= XOR_KEY;
}

static int xClose(sqlite3_file* f) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xClose(x->real);
}
static int xRead(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  XorFile* x = (XorFile*)f;
  g_count.reads++;
  int rc = x->real->pMethods->xRead(x->real, buf, n, off);
  if (rc == SQLITE_OK) {
    xor_bytes(buf, n);
  } else if (rc == SQLITE_IOERR_SHORT_READ) {
    /* the real VFS zero-filled the buffer past the end of the file: those
     * zeros stay zeros, only the bytes the file had are decoded */
    sqlite3_int64 size = 0;
    x->real->pMethods->xFileSize(x->real, &size);
    int have = size > off ? (int)(size - off) : 0;
    if (have > n) have = n;
    xor_bytes(buf, have);
  }
  return rc;
}
static int xWrite(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  XorFile* x = (XorFile*)f;
  unsigned char tmp[65536 + 512];
  g_count.writes++;
  if (n > (int)sizeof(tmp)) return SQLITE_IOERR_WRITE;
  memcpy(tmp, buf, (size_t)n);
  xor_bytes(tmp, n);
  return x->real->pMethods->xWrite(x->real, tmp, n, off);
}
static int xTruncate(sqlite3_file* f, sqlite3_int64 size) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xTruncate(x->real, size);
}
static int xSync(sqlite3_file* f, int flags) {
  XorFile* x = (XorFile*)f;
  g_count.syncs++;
  return x->real->pMethods->xSync(x->real, flags);
}
static int xFileSize(sqlite3_file* f, sqlite3_int64* size) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xFileSize(x->real, size);
}
static int xLock(sqlite3_file* f, int level) {
  XorFile* x = (XorFile*)f;
  g_count.locks++;
  return x->real->pMethods->xLock(x->real, level);
}
static int xUnlock(sqlite3_file* f, int level) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xUnlock(x->real, level);
}
static int xCheckReservedLock(sqlite3_file* f, int* out) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xCheckReservedLock(x->real, out);
}
static int xFileControl(sqlite3_file* f, int op, void* arg) {
  XorFile* x = (XorFile*)f;
  /* no memory-mapped reads: they would bypass the XOR */
  if (op == SQLITE_FCNTL_MMAP_SIZE) return SQLITE_NOTFOUND;
  return x->real->pMethods->xFileControl(x->real, op, arg);
}
static int xSectorSize(sqlite3_file* f) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xSectorSize(x->real);
}
static int xDeviceCharacteristics(sqlite3_file* f) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xDeviceCharacteristics(x->real);
}
static int xShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** pp) {
  XorFile* x = (XorFile*)f;
  g_count.shm_maps++;
  return x->real->pMethods->xShmMap(x->real, region, size, extend, pp);
}
static int xShmLock(sqlite3_file* f, int offset, int n, int flags) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xShmLock(x->real, offset, n, flags);
}
static void xShmBarrier(sqlite3_file* f) {
  XorFile* x = (XorFile*)f;
  x->real->pMethods->xShmBarrier(x->real);
}
static int xShmUnmap(sqlite3_file* f, int del) {
  XorFile* x = (XorFile*)f;
  return x->real->pMethods->xShmUnmap(x->real, del);
}

static const sqlite3_io_methods kXorMethods = {2,
                                               xClose,
                                               xRead,
                                               xWrite,
                                               xTruncate,
                                               xSync,
                                               xFileSize,
                                               xLock,
                                               xUnlock,
                                               xCheckReservedLock,
                                               xFileControl,
                                               xSectorSize,
                                               xDeviceCharacteristics,
                                               xShmMap,
                                               xShmLock,
                                               xShmBarrier,
                                               xShmUnmap,
                                               0,
                                               0};

static int xOpen(sqlite3_vfs* v, sqlite3_filename name, sqlite3_file* f, int flags, int* out) {
  XorFile* x = (XorFile*)f;
  (void)v;
  g_count.opens++;
  x->real = (sqlite3_file*)&x[1];
  x->base.pMethods = 0;
  /* A journal or WAL name leads back to its database's file. */
  if ((flags & (SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_WAL)) && name) {
    sqlite3_file* db = sqlite3_database_file_object(name);
    if (db && db->pMethods == &kXorMethods) g_count.companions++;
  }
  int rc = g_real->xOpen(g_real, name, x->real, flags, out);
  if (rc == SQLITE_OK) x->base.pMethods = &kXorMethods;
  return rc;
}
static int xDelete(sqlite3_vfs* v, const char* name, int sync_dir) {
  (void)v;
  return g_real->xDelete(g_real, name, sync_dir);
}
static int xAccess(sqlite3_vfs* v, const char* name, int flags, int* out) {
  (void)v;
  return g_real->xAccess(g_real, name, flags, out);
}
static int xFullPathname(sqlite3_vfs* v, const char* name, int n, char* out) {
  (void)v;
  return g_real->xFullPathname(g_real, name, n, out);
}
static int xRandomness(sqlite3_vfs* v, int n, char* out) {
  (void)v;
  return g_real->xRandomness(g_real, n, out);
}
static int xSleep(sqlite3_vfs* v, int us) {
  (void)v;
  return g_real->xSleep(g_real, us);
}
static int xCurrentTime(sqlite3_vfs* v, double* out) {
  (void)v;
  return g_real->xCurrentTime(g_real, out);
}
static int xGetLastError(sqlite3_vfs* v, int n, char* out) {
  (void)v;
  return g_real->xGetLastError ? g_real->xGetLastError(g_real, n, out) : 0;
}

static sqlite3_vfs g_xor = {
    1, 0, 0, 0, "xor",       0,      xOpen,        xDelete,       xAccess, xFullPathname,
    0, 0, 0, 0, xRandomness, xSleep, xCurrentTime, xGetLastError, 0,       0,
    0, 0};

int xor_vfs_register(int make_default) {
  g_real = sqlite3_vfs_find(0);
  if (g_real == 0) return SQLITE_ERROR;
  g_xor.szOsFile = (int)sizeof(XorFile) + g_real->szOsFile;
  g_xor.mxPathname = g_real->mxPathname;
  return sqlite3_vfs_register(&g_xor, make_default);
}
