#include "common/stack.h"

#include <pthread.h>

#include <cstdint>

namespace basalt {

namespace {

// The lowest address of this thread's stack (stacks grow down on every
// platform Basalt builds for), found once per thread; 0 if unknown.
uintptr_t StackLow() {
  thread_local uintptr_t low = [] {
    uintptr_t found = 0;
#if defined(__GLIBC__)
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* addr = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &addr, &size) == 0) {
        found = reinterpret_cast<uintptr_t>(addr);
      }
      pthread_attr_destroy(&attr);
    }
#endif
    return found;
  }();
  return low;
}

}  // namespace

size_t StackRemaining() {
  uintptr_t low = StackLow();
  if (low == 0) return SIZE_MAX;
  char here;
  uintptr_t pos = reinterpret_cast<uintptr_t>(&here);
  return pos > low ? pos - low : 0;
}

}  // namespace basalt
