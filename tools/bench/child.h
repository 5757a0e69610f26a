// Running one engine's part of a workload in a forked child, so that the
// child's peak resident set (wait4's ru_maxrss) is that engine's alone.
#pragma once

#include <functional>

namespace basalt::bench {

// One run: its seconds (what `run` returned) and the child's peak resident
// set in KiB.
struct RunResult {
  double seconds = 0;
  long max_rss_kb = 0;
};

// Forks; the child calls run() and passes its result back through a pipe.
// Exits the benchmark when the child fails.
RunResult RunInChild(const std::function<double()>& run);

// This process's file-backed resident KiB (RssFile: mapped code and data).
long ResidentFileKb();

}  // namespace basalt::bench
