// I/O-error loop over the SQL battery (sql_battery.h): the connections
// under test use "faulty", a sqlite3_vfs registered through the C API
// that forwards to the default VFS and makes the n-th call among open,
// read, write, truncate, sync, file size, lock, unlock, reserved-lock
// check, delete, access, shm map and shm lock fail with that call's
// SQLITE_IOERR_* code (once, and in a second pass every call from the
// n-th on), for n = 1, 2, ... until the step runs without a failure. A
// failed step must answer an I/O error (SQLITE_IOERR_*, SQLITE_CANTOPEN or
// SQLITE_FULL), and afterwards -- on the same connection and on a new one
// -- integrity_check says "ok" and the rows are those before or after the
// step. (Syncs are counted but not passed on: the loop opens thousands of
// connections and a power loss is not what is tested here.)
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>

#include "sql_battery.h"

namespace basalt::faulttest {
namespace {

// The fault: calls counted since arming; call `fail_at` fails (and every
// later one when `persistent`).
struct FaultState {
  bool armed = false;
  bool persistent = false;
  bool fired = false;
  long calls = 0;
  long fail_at = 0;
};
FaultState g_fault;

// Whether this call (`what`: its SQLITE_IOERR_* name) fails. With
// BASALT_FAULT_TRACE set, every call is listed on stderr with the count
// and whether the fault is armed.
bool Fail(const char* what) {
  static const bool trace = std::getenv("BASALT_FAULT_TRACE") != nullptr;
  if (trace)
    std::fprintf(stderr, "call %ld %s%s\n", g_fault.calls, what, g_fault.armed ? " armed" : "");
  if (!g_fault.armed) return false;
  ++g_fault.calls;
  if (g_fault.calls < g_fault.fail_at) return false;
  if (g_fault.calls > g_fault.fail_at && !g_fault.persistent) return false;
  g_fault.fired = true;
  return true;
}

sqlite3_vfs* g_base = nullptr;

// A file of the shim: the base VFS's file follows the header.
struct ShimFile {
  sqlite3_file header;
  sqlite3_file* real;
};
sqlite3_file* Real(sqlite3_file* f) { return reinterpret_cast<ShimFile*>(f)->real; }

int Close(sqlite3_file* f) {
  int rc = Real(f)->pMethods != nullptr ? Real(f)->pMethods->xClose(Real(f)) : SQLITE_OK;
  sqlite3_free(Real(f));
  return rc;
}
int Read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  if (Fail("READ")) return SQLITE_IOERR_READ;
  return Real(f)->pMethods->xRead(Real(f), buf, n, off);
}
int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  if (Fail("WRITE")) return SQLITE_IOERR_WRITE;
  return Real(f)->pMethods->xWrite(Real(f), buf, n, off);
}
int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  if (Fail("TRUNCATE")) return SQLITE_IOERR_TRUNCATE;
  return Real(f)->pMethods->xTruncate(Real(f), size);
}
int Sync(sqlite3_file*, int) { return Fail("FSYNC") ? SQLITE_IOERR_FSYNC : SQLITE_OK; }
int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  if (Fail("FSTAT")) return SQLITE_IOERR_FSTAT;
  return Real(f)->pMethods->xFileSize(Real(f), size);
}
int Lock(sqlite3_file* f, int level) {
  if (Fail("LOCK")) return SQLITE_IOERR_LOCK;
  return Real(f)->pMethods->xLock(Real(f), level);
}
int Unlock(sqlite3_file* f, int level) {
  if (Fail("UNLOCK")) return SQLITE_IOERR_UNLOCK;
  return Real(f)->pMethods->xUnlock(Real(f), level);
}
int CheckReserved(sqlite3_file* f, int* out) {
  if (Fail("CHECKRESERVEDLOCK")) return SQLITE_IOERR_CHECKRESERVEDLOCK;
  return Real(f)->pMethods->xCheckReservedLock(Real(f), out);
}
int FileControl(sqlite3_file* f, int op, void* arg) {
  return Real(f)->pMethods->xFileControl(Real(f), op, arg);
}
int SectorSize(sqlite3_file* f) { return Real(f)->pMethods->xSectorSize(Real(f)); }
int Characteristics(sqlite3_file* f) { return Real(f)->pMethods->xDeviceCharacteristics(Real(f)); }
int ShmMap(sqlite3_file* f, int region, int size, int extend, void volatile** p) {
  if (Fail("SHMMAP")) return SQLITE_IOERR_SHMMAP;
  return Real(f)->pMethods->xShmMap(Real(f), region, size, extend, p);
}
int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  // Releasing a lock cannot fail in SQLite's unix VFS; acquiring can.
  if ((flags & SQLITE_SHM_LOCK) != 0 && Fail("SHMLOCK")) return SQLITE_IOERR_SHMLOCK;
  return Real(f)->pMethods->xShmLock(Real(f), offset, n, flags);
}
void ShmBarrier(sqlite3_file* f) { Real(f)->pMethods->xShmBarrier(Real(f)); }
int ShmUnmap(sqlite3_file* f, int del) { return Real(f)->pMethods->xShmUnmap(Real(f), del); }

// Version 2: no memory-mapped I/O (xFetch), every page goes through xRead.
const sqlite3_io_methods kMethods = {
    2,        Close,         Read,        Write,      Truncate,        Sync,   FileSize, Lock,
    Unlock,   CheckReserved, FileControl, SectorSize, Characteristics, ShmMap, ShmLock,  ShmBarrier,
    ShmUnmap, nullptr,       nullptr,
};

int Open(sqlite3_vfs*, sqlite3_filename name, sqlite3_file* f, int flags, int* out_flags) {
  auto* shim = reinterpret_cast<ShimFile*>(f);
  shim->header.pMethods = nullptr;
  if (Fail("OPEN")) return SQLITE_CANTOPEN;
  shim->real = static_cast<sqlite3_file*>(sqlite3_malloc(g_base->szOsFile));
  if (shim->real == nullptr) return SQLITE_NOMEM;
  std::memset(shim->real, 0, static_cast<size_t>(g_base->szOsFile));
  int rc = g_base->xOpen(g_base, name, shim->real, flags, out_flags);
  if (rc != SQLITE_OK) {
    if (shim->real->pMethods != nullptr) shim->real->pMethods->xClose(shim->real);
    sqlite3_free(shim->real);
    return rc;
  }
  shim->header.pMethods = &kMethods;
  return SQLITE_OK;
}
int Delete(sqlite3_vfs*, const char* name, int sync_dir) {
  if (Fail("DELETE")) return SQLITE_IOERR_DELETE;
  return g_base->xDelete(g_base, name, sync_dir);
}
int Access(sqlite3_vfs*, const char* name, int flags, int* out) {
  if (Fail("ACCESS")) return SQLITE_IOERR_ACCESS;
  return g_base->xAccess(g_base, name, flags, out);
}
int FullPathname(sqlite3_vfs*, const char* name, int n, char* out) {
  return g_base->xFullPathname(g_base, name, n, out);
}
int Randomness(sqlite3_vfs*, int n, char* out) { return g_base->xRandomness(g_base, n, out); }
int SleepFor(sqlite3_vfs*, int us) { return g_base->xSleep(g_base, us); }
int CurrentTime(sqlite3_vfs*, double* t) { return g_base->xCurrentTime(g_base, t); }
int LastError(sqlite3_vfs*, int n, char* out) { return g_base->xGetLastError(g_base, n, out); }
int CurrentTimeInt64(sqlite3_vfs*, sqlite3_int64* t) {
  return g_base->xCurrentTimeInt64(g_base, t);
}

sqlite3_vfs g_shim;

void RegisterShim() {
  if (g_base != nullptr) return;
  g_base = sqlite3_vfs_find(nullptr);
  ASSERT_NE(g_base, nullptr);
  g_shim = sqlite3_vfs{};
  g_shim.iVersion = 2;
  g_shim.szOsFile = static_cast<int>(sizeof(ShimFile));
  g_shim.mxPathname = g_base->mxPathname;
  g_shim.zName = "faulty";
  g_shim.xOpen = Open;
  g_shim.xDelete = Delete;
  g_shim.xAccess = Access;
  g_shim.xFullPathname = FullPathname;
  g_shim.xRandomness = Randomness;
  g_shim.xSleep = SleepFor;
  g_shim.xCurrentTime = CurrentTime;
  g_shim.xGetLastError = LastError;
  g_shim.xCurrentTimeInt64 = CurrentTimeInt64;
  ASSERT_EQ(sqlite3_vfs_register(&g_shim, 0), SQLITE_OK);
}

void RunIo(bool persistent) {
  RegisterShim();
  static std::set<int> codes;  // the error codes seen, for the report
  FaultHooks hooks;
  hooks.arm = [](long n, bool p) { g_fault = FaultState{true, p, false, 0, n}; };
  hooks.disarm = [] {
    g_fault.armed = false;
    return g_fault.fired;
  };
  hooks.acceptable_error = [](int rc) {
    codes.insert(rc);
    int primary = rc & 0xff;
    return primary == SQLITE_IOERR || primary == SQLITE_CANTOPEN || primary == SQLITE_FULL;
  };
  hooks.vfs = "faulty";
  std::string dir = "/tmp/basalt-io-battery-" + std::to_string(getpid());
  auto start = std::chrono::steady_clock::now();
  LoopResult r = RunFaultLoop(dir, hooks, persistent);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("io %s: %zu steps, %ld runs, %ld failure points, %ld rows checked, %.1f s\n",
              persistent ? "persistent" : "once", Battery().size(), r.runs, r.fault_points,
              r.rows_checked, seconds);
  std::printf("codes answered:");
  for (int c : codes) std::printf(" %d", c);
  std::printf("\n");
  for (const std::string& p : r.problems) ADD_FAILURE() << p;
  EXPECT_GT(r.fault_points, 500);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(IoBattery, FailOnce) { RunIo(false); }
TEST(IoBattery, FailFromNOn) { RunIo(true); }

}  // namespace
}  // namespace basalt::faulttest
