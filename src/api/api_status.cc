// Run-time status: sqlite3_status / status64 (process), sqlite3_db_status
// (connection), sqlite3_stmt_status (statement), sqlite3_memory_used /
// memory_highwater, and the heap-limit and release-memory calls.
//
// The process figures are the library heap's (common/mem.h): sqlite3_malloc
// blocks and the engine's large blocks (page-cache frames, in-memory
// database pages, statement arenas, sorter arrays, big values). Figures of
// structures Basalt does not have (lookaside, the page-cache buffer of
// SQLITE_CONFIG_PAGECACHE, scratch memory, the parser stack) are 0, as
// SQLite reports them when those are not configured.
#include "api/guard.h"
#include "api/handles.h"
#include "common/mem.h"

using basalt::api::Guard;
using basalt::api::HasConnection;
namespace mem = basalt::mem;

namespace {

// fn(pager) summed over the connection's open databases.
template <typename Fn>
int64_t SumPagers(sqlite3* db, Fn fn) {
  int64_t n = 0;
  for (int i = 0; i < db->conn->dbs().size(); ++i) {
    basalt::Database* d = db->conn->dbs().at(i);
    if (d->bt != nullptr) n += fn(d->bt->pager());
  }
  return n;
}

}  // namespace

extern "C" {

int sqlite3_status64(int op, sqlite3_int64* current, sqlite3_int64* highwater, int reset) {
  if (op < 0 || op > SQLITE_STATUS_MALLOC_COUNT || current == nullptr || highwater == nullptr) {
    return SQLITE_MISUSE;
  }
  *current = 0;
  *highwater = 0;
  mem::Stat stat;
  switch (op) {
    case SQLITE_STATUS_MEMORY_USED:
      stat = mem::Stat::kMemoryUsed;
      break;
    case SQLITE_STATUS_MALLOC_COUNT:
      stat = mem::Stat::kMallocCount;
      break;
    case SQLITE_STATUS_MALLOC_SIZE:
      stat = mem::Stat::kMallocSize;
      break;
    case SQLITE_STATUS_PAGECACHE_OVERFLOW:
      stat = mem::Stat::kPageCacheOverflow;
      break;
    case SQLITE_STATUS_PAGECACHE_SIZE:
      stat = mem::Stat::kPageCacheSize;
      break;
    default:
      return SQLITE_OK;
  }
  mem::Figure f = mem::Read(stat, reset != 0);
  *current = f.current;
  *highwater = f.highwater;
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

sqlite3_int64 sqlite3_memory_used(void) { return mem::Read(mem::Stat::kMemoryUsed, false).current; }

sqlite3_int64 sqlite3_memory_highwater(int reset) {
  return mem::Read(mem::Stat::kMemoryUsed, reset != 0).highwater;
}

// As in the reference build (no SQLITE_ENABLE_MEMORY_MANAGEMENT): nothing
// is released process-wide; sqlite3_db_release_memory frees a connection's
// unused cache pages.
int sqlite3_release_memory(int) { return 0; }

sqlite3_int64 sqlite3_soft_heap_limit64(sqlite3_int64 n) {
  if (sqlite3_initialize() != SQLITE_OK) return -1;
  return mem::SetSoftLimit(n);
}

void sqlite3_soft_heap_limit(int n) { sqlite3_soft_heap_limit64(n < 0 ? 0 : n); }

sqlite3_int64 sqlite3_hard_heap_limit64(sqlite3_int64 n) {
  if (sqlite3_initialize() != SQLITE_OK) return -1;
  return mem::SetHardLimit(n);
}

int sqlite3_db_status(sqlite3* db, int op, int* current, int* highwater, int reset) {
  if (!HasConnection(db) || current == nullptr || highwater == nullptr) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
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
      case SQLITE_DBSTATUS_CACHE_USED:
      case SQLITE_DBSTATUS_CACHE_USED_SHARED:  // no shared cache: the same
        *current = static_cast<int>(
            SumPagers(db, [](basalt::Pager* p) -> int64_t { return p->cache_bytes(); }));
        return SQLITE_OK;
      case SQLITE_DBSTATUS_SCHEMA_USED: {
        int64_t n = 0;
        for (int i = 0; i < db->conn->dbs().size(); ++i) {
          n += static_cast<int64_t>(db->conn->dbs().at(i)->schema.HeapBytes());
        }
        *current = static_cast<int>(n);
        return SQLITE_OK;
      }
      case SQLITE_DBSTATUS_CACHE_HIT:
      case SQLITE_DBSTATUS_CACHE_MISS:
      case SQLITE_DBSTATUS_CACHE_WRITE:
      case SQLITE_DBSTATUS_CACHE_SPILL: {
        // The counter of each pager, summed; reset zeroes them.
        uint64_t basalt::Pager::CacheCounters::*field =
            op == SQLITE_DBSTATUS_CACHE_HIT     ? &basalt::Pager::CacheCounters::hits
            : op == SQLITE_DBSTATUS_CACHE_MISS  ? &basalt::Pager::CacheCounters::misses
            : op == SQLITE_DBSTATUS_CACHE_WRITE ? &basalt::Pager::CacheCounters::writes
                                                : &basalt::Pager::CacheCounters::spills;
        *current = static_cast<int>(SumPagers(db, [&](basalt::Pager* p) -> int64_t {
          uint64_t v = p->cache_counters().*field;
          if (reset) p->cache_counters().*field = 0;
          return static_cast<int64_t>(v);
        }));
        return SQLITE_OK;
      }
      case SQLITE_DBSTATUS_LOOKASIDE_USED:
      case SQLITE_DBSTATUS_LOOKASIDE_HIT:
      case SQLITE_DBSTATUS_LOOKASIDE_MISS_SIZE:
      case SQLITE_DBSTATUS_LOOKASIDE_MISS_FULL:
        return SQLITE_OK;  // no lookaside memory (see top)
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
