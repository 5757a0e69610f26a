#include "fail_alloc.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BASALT_FAIL_ALLOC_NEW_ONLY 1
#else
#define BASALT_FAIL_ALLOC_NEW_ONLY 0
#endif

namespace basalt::apitest {
namespace {

// Per thread, so that no other thread's allocations count (initial-exec
// TLS in the executable: reading it never allocates).
thread_local bool t_armed = false;
thread_local bool t_persistent = false;
thread_local bool t_failed = false;
thread_local long t_countdown = 0;
thread_local long t_seen = 0;

// Live blocks (process-wide).
std::atomic<long> g_live{0};

}  // namespace

void CountBlock(long delta) { g_live.fetch_add(delta, std::memory_order_relaxed); }

// Called for every failed allocation: a place for a debugger breakpoint
// (gdb -ex 'break basalt_allocation_failed').
extern "C" __attribute__((noinline)) void basalt_allocation_failed() { asm volatile(""); }

// True when this allocation must fail.
bool ShouldFailAllocation() {
  if (!t_armed) return false;
  ++t_seen;
  if (t_countdown > 1) {
    --t_countdown;
    return false;
  }
  t_failed = true;
  if (!t_persistent) t_armed = false;
  basalt_allocation_failed();
  return true;
}

void ArmAllocFailure(long n, bool persistent) {
  t_seen = 0;
  t_failed = false;
  t_countdown = n;
  t_persistent = persistent;
  t_armed = true;
}

bool DisarmAllocFailure() {
  t_armed = false;
  return t_failed;
}

long AllocationsSinceArmed() { return t_seen; }

long LiveAllocations() { return g_live.load(std::memory_order_relaxed); }

bool MallocCanFail() { return !BASALT_FAIL_ALLOC_NEW_ONLY; }

}  // namespace basalt::apitest

using basalt::apitest::CountBlock;
using basalt::apitest::ShouldFailAllocation;

#if BASALT_FAIL_ALLOC_NEW_ONLY

// operator new and delete over the sanitizer's malloc.
namespace {
void* NewOrThrow(std::size_t n) {
  if (ShouldFailAllocation()) throw std::bad_alloc();
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  CountBlock(1);
  return p;
}
void* NewOrNull(std::size_t n) noexcept {
  if (ShouldFailAllocation()) return nullptr;
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p != nullptr) CountBlock(1);
  return p;
}
void DeleteBlock(void* p) noexcept {
  if (p != nullptr) CountBlock(-1);
  std::free(p);
}
}  // namespace

void* operator new(std::size_t n) { return NewOrThrow(n); }
void* operator new[](std::size_t n) { return NewOrThrow(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return NewOrNull(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return NewOrNull(n); }
void operator delete(void* p) noexcept { DeleteBlock(p); }
void operator delete[](void* p) noexcept { DeleteBlock(p); }
void operator delete(void* p, std::size_t) noexcept { DeleteBlock(p); }
void operator delete[](void* p, std::size_t) noexcept { DeleteBlock(p); }

#else

// The C library's own entry points, which the replacements forward to.
extern "C" {
void* __libc_malloc(std::size_t n);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t n);
void __libc_free(void* p);

void* malloc(std::size_t n) {
  if (ShouldFailAllocation()) return nullptr;
  void* p = __libc_malloc(n);
  if (p != nullptr) CountBlock(1);
  return p;
}
void* calloc(std::size_t n, std::size_t size) {
  if (ShouldFailAllocation()) return nullptr;
  void* p = __libc_calloc(n, size);
  if (p != nullptr) CountBlock(1);
  return p;
}
// realloc(NULL, n) allocates a block, realloc(p, 0) frees p (glibc).
void* realloc(void* p, std::size_t n) {
  if (n != 0 && ShouldFailAllocation()) return nullptr;
  void* q = __libc_realloc(p, n);
  if (p == nullptr && q != nullptr) CountBlock(1);
  if (p != nullptr && n == 0) CountBlock(-1);
  return q;
}
void free(void* p) {
  if (p != nullptr) CountBlock(-1);
  __libc_free(p);
}
}  // extern "C"

#endif
