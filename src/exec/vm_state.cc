// A Vm's life outside the dispatch loop: construction (with the debug-build
// program check), reset for another run, and the end of a run (cursors
// closed or kept for reuse, accumulators freed).
#include <algorithm>
#include <cstdio>

#include "btree/btree.h"
#include "common/assert.h"
#include "exec/program_verify.h"
#include "exec/vm.h"
#include "exec/vm_cursor.h"
#include "exec/vm_window.h"

namespace basalt {

Vm::Vm(const Program* program, VmEnv* env) : prog_(program), env_(env) {
#if BASALT_DCHECK_ENABLED
  // Every program is checked against the opcode declarations before it runs.
  Status verified = VerifyProgram(*program);
  if (!verified.ok()) {
    std::fprintf(stderr, "invalid program: %s\n", verified.message().c_str());
    BASALT_DCHECK(verified.ok());
  }
#endif
  regs_.resize(static_cast<size_t>(program->n_regs) + 1);
  cursors_.resize(static_cast<size_t>(program->n_cursors));
  aggs_.resize(static_cast<size_t>(program->n_aggs));
  once_.assign(program->ops.size(), 0);
  params_.resize(static_cast<size_t>(program->n_params) + 1);
}

Vm::~Vm() {
  FinishAggregates();
  CloseCursors();
}

// Runs in the destructor too, so nothing may escape: out of memory, a
// cursor that cannot be kept as a spare is just freed.
void Vm::CloseCursors() {
  for (auto& c : cursors_) {
    if (!c) continue;
    std::unique_ptr<VmCursor> kept = VmCursor::Recycle(std::move(c));
    if (!kept) continue;
    try {
      spare_.push_back(std::move(kept));
    } catch (...) {
    }
  }
}

void Vm::FinishAggregates() {
  // Accumulators that were stepped but never finalised still own state that
  // only their final function knows how to free. (Runs in the destructor:
  // a final that runs out of memory computing the discarded result must
  // not escape.)
  wins_.clear();  // their accumulators too
  Value discard;
  for (FuncContext& a : aggs_) {
    if (a.agg_mem != nullptr && a.def != nullptr && a.def->final != nullptr) {
      a.result = &discard;
      try {
        a.def->final(&a);
      } catch (...) {
      }
    }
    FreeAggregateContext(&a);
    a = FuncContext();
  }
}

void Vm::Reset() {
  // A statement reset at its end (Halt) and again by sqlite3_reset: the
  // second finds nothing to undo.
  if (reset_clean_) return;
  if (!aux_.empty()) aux_.Clear();
  FinishAggregates();
  CloseCursors();
  std::fill(once_.begin(), once_.end(), 0);
  for (Value& r : regs_) r.SetNull();
  pc_ = 0;
  row_ = nullptr;
  row_size_ = 0;
  halt_action_ = 0;
  n_change_ = 0;
  n_total_change_ = 0;
  fk_stmt_ = 0;
  status_ = Status();
  done_ = false;
  reset_clean_ = true;
}

bool Vm::ProgressSaysStop(int ops) {
  ProgressHook& p = env_->progress;
  p.count += ops;
  if (p.count < p.period) return false;
  p.count = 0;
  return p.fn(p.arg) != 0;
}

StepResult Vm::Step() {
  if (done_) return status_.ok() ? StepResult::kDone : StepResult::kError;
  reset_clean_ = false;
  if (env_->hooks != nullptr) {
    int limit = env_->hooks->Limit(0);
    if (limit >= 0) max_length_ = limit;
  }
  // Every step looks at the interrupt flag first, as SQLite's does.
  if (MustStop(0, 0)) {
    return Fail(Status(kInterrupt));
  }
  return Run();
}

StepResult Vm::Fail(Status s) {
  status_ = std::move(s);
  done_ = true;
  FinishAggregates();
  CloseCursors();
  return StepResult::kError;
}

StepResult Vm::FailWithStatus() {
  BASALT_DCHECK(!status_.ok());
  done_ = true;
  FinishAggregates();
  CloseCursors();
  return StepResult::kError;
}

size_t SorterBudget(const VmEnv& env) {
  if (env.temp_vfs == nullptr || env.cache_size == nullptr) return 0;
  if (env.temp_store != nullptr && *env.temp_store == 2) return 0;
  const int64_t page = env.dbs.empty() || env.dbs[0] == nullptr ? 4096 : env.dbs[0]->page_size();
  const int64_t pages = *env.cache_size;
  int64_t bytes = pages < 0 ? -pages * 1024 : pages * page;
  bytes = std::min<int64_t>(bytes, int64_t{1} << 29);
  bytes = std::max<int64_t>(bytes, 250 * page);
  return static_cast<size_t>(bytes);
}

size_t EphemeralCachePages(const VmEnv& env) {
  if (env.temp_vfs == nullptr || env.cache_size == nullptr) return 0;
  if (env.temp_store != nullptr && *env.temp_store == 2) return 0;
  const int64_t pages = *env.cache_size;
  int64_t n = pages < 0 ? -pages * 1024 / kDefaultPageSize : pages;
  return static_cast<size_t>(std::max<int64_t>(n, 1));
}

}  // namespace basalt
