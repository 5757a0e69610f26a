// Limits with no database file behind them: analysis_limit and threads
// (the connection's), soft_heap_limit and hard_heap_limit (the process's,
// as in SQLite), and shrink_memory and optimize, which have nothing to do
// in Basalt: there is no cache to shrink beyond what the pagers keep and no
// ANALYZE statistics to refresh.
#include <atomic>
#include <mutex>

#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

// SQLite's MAX_WORKER_THREADS in the reference build.
constexpr int64_t kMaxWorkerThreads = 8;

// The process's heap limits (sqlite3_soft_heap_limit64 and
// sqlite3_hard_heap_limit64): recorded and read back; Basalt allocates
// without a limit. A soft limit is never above a hard limit.
struct HeapLimits {
  std::mutex mu;
  int64_t soft = 0;
  int64_t hard = 0;
};
HeapLimits& SharedHeapLimits() {
  static HeapLimits* limits = new HeapLimits();
  return *limits;
}

}  // namespace

// A value >= 0 (read as a 64-bit number, the whole text) sets it; the
// result is the limit in force.
Status RunAnalysisLimit(PragmaCall* call) {
  int& limit = call->conn->pragma_settings().analysis_limit;
  int64_t n = 0;
  if (call->set && PragmaInt64(call->arg, &n) && n >= 0) limit = static_cast<int>(n & 0x7fffffff);
  call->Row(Value::Int(limit));
  return Status();
}

Status RunThreads(PragmaCall* call) {
  int& threads = call->conn->pragma_settings().threads;
  int64_t n = 0;
  if (call->set && PragmaInt64(call->arg, &n) && n >= 0) {
    threads = static_cast<int>(std::min<int64_t>(n & 0x7fffffff, kMaxWorkerThreads));
  }
  call->Row(Value::Int(threads));
  return Status();
}

Status RunHeapLimit(PragmaCall* call) {
  HeapLimits& limits = SharedHeapLimits();
  std::lock_guard<std::mutex> lock(limits.mu);
  const bool hard = std::string_view(call->def->name) == "hard_heap_limit";
  int64_t n = 0;
  if (call->set && PragmaInt64(call->arg, &n)) {
    if (hard) {
      // Only lowers a limit in force (or sets the first one).
      if (n > 0 && (limits.hard == 0 || limits.hard > n)) {
        limits.hard = n;
        if (n < limits.soft || limits.soft == 0) limits.soft = n;
      }
    } else if (n >= 0) {
      if (limits.hard > 0 && (n > limits.hard || n == 0)) n = limits.hard;
      limits.soft = n;
    }
  }
  call->Row(Value::Int(hard ? limits.hard : limits.soft));
  return Status();
}

Status RunShrinkMemory(PragmaCall* call) {
  (void)call;
  return Status();
}

// Nothing to optimize (no sqlite_stat1 statistics are kept): no rows.
Status RunOptimize(PragmaCall* call) {
  (void)call;
  return Status();
}

}  // namespace basalt
