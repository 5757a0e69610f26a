// The library's heap: one allocator behind sqlite3_malloc and the engine's
// large blocks (page-cache frames, in-memory database pages, statement
// arenas, sorter arrays, big text/blob buffers), with the process-wide
// figures sqlite3_status / sqlite3_memory_used report and the soft and hard
// heap limits.
//
// Two kinds of block:
//   Malloc/Free/Realloc/Size  blocks that know their own size (the C API's
//                             sqlite3_malloc family): the methods' xSize
//                             answers it; counted at that size.
//   Acquire/Release           blocks whose size the caller keeps (a page
//                             frame knows its page size, an arena block its
//                             length): no header, counted at the size given.
// Both go through the installed Methods (SQLITE_CONFIG_MALLOC) and both are
// refused, as SQLite refuses, once the hard heap limit would be passed.
// Small, short-lived C++ objects (schema objects, containers) use operator
// new directly and are not part of the figures.
//
// Counting is on unless SQLITE_CONFIG_MEMSTATUS turned it off before the
// library was initialized; it never changes while blocks are outstanding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>

namespace basalt::mem {

// The shape of sqlite3_mem_methods (same members, same order).
struct Methods {
  void* (*xMalloc)(int);
  void (*xFree)(void*);
  void* (*xRealloc)(void*, int);
  int (*xSize)(void*);
  int (*xRoundup)(int);
  int (*xInit)(void*);
  void (*xShutdown)(void*);
  void* pAppData;
};

// The methods in use: the built-in ones (C library malloc with an 8-byte
// size prefix, requests rounded up to 8) until Install replaces them.
const Methods& Current();
// Replaces the methods; only while no block is outstanding (the API allows
// it only before sqlite3_initialize). nullptr restores the built-in ones.
void Install(const Methods* m);

// Whether blocks are counted and limits applied (SQLITE_CONFIG_MEMSTATUS).
void SetCounting(bool on);
bool Counting();

// ---- self-sized blocks (sqlite3_malloc and friends) ----
void* Malloc(uint64_t n);  // nullptr for 0 bytes, too large or refused
void Free(void* p);        // p may be nullptr
void* Realloc(void* p, uint64_t n);
uint64_t Size(const void* p);  // 0 for nullptr

// ---- caller-sized blocks ----
enum class Kind : uint8_t { kGeneral, kPageCache };
// nullptr when refused or the allocator fails.
void* Acquire(size_t n, Kind kind = Kind::kGeneral);
// p from Acquire with the same n and kind (p may be nullptr).
void Release(void* p, size_t n, Kind kind = Kind::kGeneral);
// Grows or shrinks a block from Acquire(old_n); nullptr (the old block
// still valid) when refused.
void* Reacquire(void* p, size_t old_n, size_t new_n);
// Counts n bytes the caller maps itself (anonymous mmap) as outstanding;
// false, counting nothing, when refused. Unreserve(n) undoes it.
bool Reserve(size_t n);
void Unreserve(size_t n);
// As Acquire, but out of memory throws std::bad_alloc (the engine's way of
// carrying SQLITE_NOMEM to the API boundary).
inline void* AcquireOrThrow(size_t n, Kind kind = Kind::kGeneral) {
  void* p = Acquire(n, kind);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}

// ---- figures (sqlite3_status) ----
struct Figure {
  int64_t current;
  int64_t highwater;
};
enum class Stat : uint8_t {
  kMemoryUsed,         // bytes outstanding
  kMallocCount,        // blocks outstanding
  kMallocSize,         // largest request (high-water only)
  kPageCacheOverflow,  // bytes of page-cache frames outstanding
  kPageCacheSize,      // largest page-cache request (high-water only)
};
// The figure; with reset, the high-water mark restarts at the current value.
Figure Read(Stat s, bool reset);

// ---- heap limits (sqlite3_soft_heap_limit64 / hard_heap_limit64) ----
// Each returns the limit before the call; a negative n only reads.
int64_t SetSoftLimit(int64_t n);
int64_t SetHardLimit(int64_t n);
// True while a soft limit is set and the bytes outstanding reach it: caches
// should reuse their memory instead of growing.
bool NearlyFull();

}  // namespace basalt::mem
