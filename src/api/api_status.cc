// Run-time status: sqlite3_status / status64 (process), sqlite3_db_status
// (connection), sqlite3_stmt_status (statement), sqlite3_memory_used /
// memory_highwater, and the heap-limit and release-memory calls.
//
// Basalt allocates with the C library's malloc and keeps no allocator of
// its own: the memory figures (when SQLITE_CONFIG_MEMSTATUS is on) are the
// C library's count of heap bytes in use (mallinfo2), for the whole
// process. Figures of structures
// Basalt does not have (lookaside, page-cache buffers, the parser stack)
// are 0, which is what SQLite reports when those are not configured.
#include <malloc.h>

#include <atomic>
#include <mutex>

#include "api/config.h"
#include "api/guard.h"
#include "api/handles.h"

using basalt::api::Guard;
using basalt::api::HasConnection;

namespace {

std::mutex& StatusMutex() {
  static std::mutex mu;
  return mu;
}
sqlite3_int64 memory_highwater = 0;
std::atomic<sqlite3_int64> soft_limit{0};
std::atomic<sqlite3_int64> hard_limit{0};

sqlite3_int64 HeapInUse() {
  struct mallinfo2 mi = mallinfo2();
  return static_cast<sqlite3_int64>(mi.uordblks + mi.hblkhd);
}

// The current heap use, raising the high-water mark (under StatusMutex);
// 0 while SQLITE_CONFIG_MEMSTATUS is off.
sqlite3_int64 SampleMemory() {
  if (!basalt::api::MemStatusOn()) return 0;
  sqlite3_int64 now = HeapInUse();
  if (now > memory_highwater) memory_highwater = now;
  return now;
}

}  // namespace

extern "C" {

int sqlite3_status64(int op, sqlite3_int64* current, sqlite3_int64* highwater, int reset) {
  if (op < 0 || op > SQLITE_STATUS_MALLOC_COUNT || current == nullptr || highwater == nullptr) {
    return SQLITE_MISUSE;
  }
  std::lock_guard<std::mutex> g(StatusMutex());
  *current = 0;
  *highwater = 0;
  if (op == SQLITE_STATUS_MEMORY_USED) {
    *current = SampleMemory();
    *highwater = memory_highwater;
    if (reset) memory_highwater = *current;
  }
  return SQLITE_OK;
}

int sqlite3_status(int op, int* current, int* highwater, int reset) {
  if (current == nullptr || highwater == nullptr) return SQLITE_MISUSE;
  sqlite3_int64 c = 0, h = 0;
  int rc = sqlite3_status64(op, &c, &h, reset);
  if (rc == SQLITE_OK) {
    *current = static_cast<int>(c);
    *highwater = static_cast<int>(h);
  }
  return rc;
}

sqlite3_int64 sqlite3_memory_used(void) {
  std::lock_guard<std::mutex> g(StatusMutex());
  return SampleMemory();
}

sqlite3_int64 sqlite3_memory_highwater(int reset) {
  std::lock_guard<std::mutex> g(StatusMutex());
  SampleMemory();
  sqlite3_int64 h = memory_highwater;
  if (reset) memory_highwater = basalt::api::MemStatusOn() ? HeapInUse() : 0;
  return h;
}

// Basalt frees page caches only when connections close: nothing to release.
int sqlite3_release_memory(int) { return 0; }

// The limits are recorded and reported; Basalt's allocations do not
// consult them.
sqlite3_int64 sqlite3_soft_heap_limit64(sqlite3_int64 n) {
  sqlite3_int64 old = soft_limit.load();
  if (n >= 0) {
    sqlite3_int64 hard = hard_limit.load();
    if (hard > 0 && (n > hard || n == 0)) n = hard;
    soft_limit.store(n);
  }
  return old;
}

void sqlite3_soft_heap_limit(int n) { sqlite3_soft_heap_limit64(n < 0 ? 0 : n); }

sqlite3_int64 sqlite3_hard_heap_limit64(sqlite3_int64 n) {
  sqlite3_int64 old = hard_limit.load();
  if (n >= 0) {
    hard_limit.store(n);
    sqlite3_int64 soft = soft_limit.load();
    if (n > 0 && (soft == 0 || soft > n)) soft_limit.store(n);
  }
  return old;
}

int sqlite3_db_status(sqlite3* db, int op, int* current, int* highwater, int reset) {
  if (!HasConnection(db) || current == nullptr || highwater == nullptr) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    (void)reset;
    *current = 0;
    *highwater = 0;
    switch (op) {
      case SQLITE_DBSTATUS_DEFERRED_FKS:
        *current = db->conn->env()->fk.total() > 0 ? 1 : 0;
        return SQLITE_OK;
      case SQLITE_DBSTATUS_STMT_USED: {
        int64_t n = 0;
        for (sqlite3_stmt* s = db->stmts; s != nullptr; s = s->older) n += s->stmt->MemoryUsed();
        *current = static_cast<int>(n);
        return SQLITE_OK;
      }
      case SQLITE_DBSTATUS_LOOKASIDE_USED:
      case SQLITE_DBSTATUS_CACHE_USED:
      case SQLITE_DBSTATUS_SCHEMA_USED:
      case SQLITE_DBSTATUS_LOOKASIDE_HIT:
      case SQLITE_DBSTATUS_LOOKASIDE_MISS_SIZE:
      case SQLITE_DBSTATUS_LOOKASIDE_MISS_FULL:
      case SQLITE_DBSTATUS_CACHE_HIT:
      case SQLITE_DBSTATUS_CACHE_MISS:
      case SQLITE_DBSTATUS_CACHE_WRITE:
      case SQLITE_DBSTATUS_CACHE_USED_SHARED:
      case SQLITE_DBSTATUS_CACHE_SPILL:
        return SQLITE_OK;  // not measured by Basalt's pagers (see top)
      default:
        return basalt::api::SetError(db, SQLITE_ERROR, "unknown operation");
    }
  });
}

int sqlite3_stmt_status(sqlite3_stmt* s, int op, int reset) {
  if (s == nullptr) return 0;
  return Guard(s->db, 0, [&]() -> int {
    int64_t* counter = nullptr;
    int64_t value = 0;
    basalt::VmStats* vm = s->stmt->vm_stats();
    switch (op) {
      case SQLITE_STMTSTATUS_VM_STEP:
        counter = vm != nullptr ? &vm->vm_steps : nullptr;
        break;
      case SQLITE_STMTSTATUS_FULLSCAN_STEP:
        counter = vm != nullptr ? &vm->fullscan_steps : nullptr;
        break;
      case SQLITE_STMTSTATUS_SORT:
        counter = vm != nullptr ? &vm->sorts : nullptr;
        break;
      case SQLITE_STMTSTATUS_RUN:
        counter = &s->runs;
        break;
      case SQLITE_STMTSTATUS_REPREPARE:
        counter = &s->stmt->reprepares();
        break;
      case SQLITE_STMTSTATUS_MEMUSED:
        return static_cast<int>(s->stmt->MemoryUsed());
      default:
        // AUTOINDEX, FILTER_HIT / MISS: Basalt's plans build no automatic
        // indexes and no Bloom filters, so these stay 0.
        return 0;
    }
    if (counter != nullptr) value = *counter;
    if (reset && counter != nullptr) *counter = 0;
    return static_cast<int>(value);
  });
}

}  // extern "C"
