// How much of the calling thread's stack is left: recursion that the
// program cannot bound otherwise (nested trigger sub-programs) checks it
// and fails with an error instead of overflowing.
#pragma once

#include <cstddef>

namespace basalt {

// Bytes between the current stack position and the end of the thread's
// stack; SIZE_MAX when the platform cannot tell.
size_t StackRemaining();

}  // namespace basalt
