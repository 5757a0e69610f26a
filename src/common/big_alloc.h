// An allocator for large, growing buffers (the sorter's entry array),
// counted in the library heap (common/mem.h): up to kSmall bytes from it; beyond, anonymous memory
// the kernel is asked to back with huge pages (MADV_HUGEPAGE), so that filling tens of megabytes
// takes a few dozen page faults instead of tens of thousands.
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <new>

#include "common/mem.h"

namespace basalt {

template <typename T>
struct BigAllocator {
  using value_type = T;
  static constexpr size_t kSmall = size_t{1} << 21;  // 2 MiB, one huge page
  BigAllocator() = default;
  template <typename U>
  BigAllocator(const BigAllocator<U>&) {}  // NOLINT: rebinding is implicit

  static size_t Rounded(size_t bytes) { return (bytes + kSmall - 1) & ~(kSmall - 1); }

  T* allocate(size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < kSmall) return static_cast<T*>(mem::AcquireOrThrow(bytes));
    if (!mem::Reserve(Rounded(bytes))) throw std::bad_alloc();
    void* p =
        ::mmap(nullptr, Rounded(bytes), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
      mem::Unreserve(Rounded(bytes));
      throw std::bad_alloc();
    }
    ::madvise(p, Rounded(bytes), MADV_HUGEPAGE);  // advice only: failure is harmless
    return static_cast<T*>(p);
  }
  void deallocate(T* p, size_t n) {
    size_t bytes = n * sizeof(T);
    if (bytes < kSmall) {
      mem::Release(p, bytes);
    } else {
      ::munmap(p, Rounded(bytes));
      mem::Unreserve(Rounded(bytes));
    }
  }
  template <typename U>
  bool operator==(const BigAllocator<U>&) const {
    return true;
  }
};

}  // namespace basalt
