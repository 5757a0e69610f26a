// Invariant checks. BASALT_DCHECK(cond) states an invariant the code relies
// on; it is checked in debug builds (no NDEBUG) and in builds configured with
// BASALT_DCHECK_ON (the sanitizer builds), and compiles to nothing otherwise.
// A failed check prints the condition and its place and aborts: it marks a
// bug in Basalt, never a condition a user or a damaged file can cause (those
// are Status values).
#pragma once

#include <cstdio>
#include <cstdlib>

#if !defined(NDEBUG) || defined(BASALT_DCHECK_ON)
#define BASALT_DCHECK_ENABLED 1
#else
#define BASALT_DCHECK_ENABLED 0
#endif

namespace basalt::internal {
[[noreturn]] inline void DcheckFailed(const char* cond, const char* file, int line) {
  std::fprintf(stderr, "%s:%d: invariant failed: %s\n", file, line, cond);
  std::abort();
}
}  // namespace basalt::internal

#if BASALT_DCHECK_ENABLED
#define BASALT_DCHECK(cond) \
  ((cond) ? static_cast<void>(0) : ::basalt::internal::DcheckFailed(#cond, __FILE__, __LINE__))
#else
#define BASALT_DCHECK(cond) static_cast<void>(sizeof(static_cast<bool>(cond)))
#endif
