#include "fail_alloc.h"

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

}  // namespace

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

bool MallocCanFail() { return !BASALT_FAIL_ALLOC_NEW_ONLY; }

}  // namespace basalt::apitest

using basalt::apitest::ShouldFailAllocation;

#if BASALT_FAIL_ALLOC_NEW_ONLY

// operator new and delete over the sanitizer's malloc.
namespace {
void* NewOrThrow(std::size_t n) {
  if (ShouldFailAllocation()) throw std::bad_alloc();
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* NewOrNull(std::size_t n) noexcept {
  if (ShouldFailAllocation()) return nullptr;
  return std::malloc(n == 0 ? 1 : n);
}
}  // namespace

void* operator new(std::size_t n) { return NewOrThrow(n); }
void* operator new[](std::size_t n) { return NewOrThrow(n); }
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return NewOrNull(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return NewOrNull(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }

#else

// The C library's own entry points, which the replacements forward to.
extern "C" {
void* __libc_malloc(std::size_t n);
void* __libc_calloc(std::size_t n, std::size_t size);
void* __libc_realloc(void* p, std::size_t n);
void __libc_free(void* p);

void* malloc(std::size_t n) {
  if (ShouldFailAllocation()) return nullptr;
  return __libc_malloc(n);
}
void* calloc(std::size_t n, std::size_t size) {
  if (ShouldFailAllocation()) return nullptr;
  return __libc_calloc(n, size);
}
void* realloc(void* p, std::size_t n) {
  if (n != 0 && ShouldFailAllocation()) return nullptr;
  return __libc_realloc(p, n);
}
void free(void* p) { __libc_free(p); }
}  // extern "C"

#endif
