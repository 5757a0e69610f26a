// The live counters of one script run. A worker process updates them as it
// goes; they sit in memory shared with the parent, which reads them for the
// progress line and, when the worker dies, to account for what it left.
#pragma once

#include <atomic>
#include <cstdint>

namespace basalt::slt {

struct FileProgress {
  std::atomic<int64_t> records{0};  // test records in the file
  std::atomic<int64_t> to_run{0};   // of which apply to this engine
  std::atomic<int64_t> passed{0};
  std::atomic<int64_t> failed{0};
  std::atomic<int64_t> skipped{0};
  std::atomic<int32_t> current_line{0};  // line of the record being run
  std::atomic<int64_t> elapsed_ns{0};    // run time, set at the end
  std::atomic<int32_t> finished{0};      // 1 once the run completed

  void Reset() {
    records = 0;
    to_run = 0;
    passed = 0;
    failed = 0;
    skipped = 0;
    current_line = 0;
    elapsed_ns = 0;
    finished = 0;
  }
};

static_assert(std::atomic<int64_t>::is_always_lock_free, "shared counters must be lock-free");

}  // namespace basalt::slt
