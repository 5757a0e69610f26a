// Limits with no database file behind them: analysis_limit and threads
// (the connection's), soft_heap_limit and hard_heap_limit (the process's,
// as in SQLite), and shrink_memory and optimize, which have nothing to do
// in Basalt: there is no cache to shrink beyond what the pagers keep and no
// ANALYZE statistics to refresh.
#include "common/mem.h"
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

// SQLite's MAX_WORKER_THREADS in the reference build.
constexpr int64_t kMaxWorkerThreads = 8;

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

// The process's heap limits, shared with sqlite3_soft_heap_limit64 and
// sqlite3_hard_heap_limit64 (common/mem.h). A value >= 0 sets the soft
// limit; the hard one is only ever lowered by the pragma (or set the first
// time). The result is the limit in force.
Status RunHeapLimit(PragmaCall* call) {
  const bool hard = std::string_view(call->def->name) == "hard_heap_limit";
  int64_t n = 0;
  if (call->set && PragmaInt64(call->arg, &n)) {
    if (hard) {
      int64_t now = mem::SetHardLimit(-1);
      if (n > 0 && (now == 0 || now > n)) mem::SetHardLimit(n);
    } else if (n >= 0) {
      mem::SetSoftLimit(n);
    }
  }
  call->Row(Value::Int(hard ? mem::SetHardLimit(-1) : mem::SetSoftLimit(-1)));
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
