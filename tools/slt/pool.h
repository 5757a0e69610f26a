// Runs jobs in forked worker processes, at most N at a time, so that an
// engine that crashes or hangs takes down only the job it was running.
//
// Each job gets a fresh child process, a pipe for its messages and a
// FileProgress slot in shared memory for its counters. The parent polls the
// pipes, enforces the per-job timeout (SIGKILL), reaps children and hands
// each finished job's counters, messages and fate to a callback.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "progress.h"

namespace basalt::slt {

// A copy of a job's counters once it is over.
struct Counts {
  int64_t records = 0, to_run = 0, passed = 0, failed = 0, skipped = 0;
  int current_line = 0;
  int64_t elapsed_ns = 0;
  bool finished = false;
};

struct JobReport {
  Counts counts;
  std::string messages;  // everything the child wrote to its pipe
  bool timed_out = false;
  int signal = 0;           // the signal that ended the child, or 0
  int exit_code = 0;        // when it exited
  double wall_seconds = 0;  // fork to reap, measured by the parent
};

class ProcessPool {
 public:
  // Runs in the child. Returns its exit code.
  using ChildMain = std::function<int(size_t job, FileProgress* progress, int message_fd)>;
  using OnDone = std::function<void(size_t job, JobReport report)>;
  // Called about every tick with the counters of the jobs still running.
  using OnTick = std::function<void(const std::vector<const FileProgress*>& running)>;

  ProcessPool(int workers, double timeout_seconds)
      : workers_(workers < 1 ? 1 : workers), timeout_seconds_(timeout_seconds) {}

  // Runs jobs 0..count-1 (started in that order). Returns when all are done.
  void Run(size_t count, const ChildMain& child, const OnDone& done, const OnTick& tick,
           double tick_seconds);

 private:
  int workers_;
  double timeout_seconds_;
};

// Writes all of data to fd, retrying after interrupts and short writes.
bool WriteAll(int fd, std::string_view data);

}  // namespace basalt::slt
