// The Program instruction: a sub-program (a foreign key action, a trigger
// that fires itself under PRAGMA recursive_triggers) run to its end by a
// nested Vm with its own registers and cursors. Each Vm keeps the Vms it ran
// sub-programs in, so a row-by-row action does not build one per row; a
// recursion nests one Vm per level.
#include "catalog/schema.h"
#include "common/assert.h"
#include "common/result_code.h"
#include "common/stack.h"
#include "exec/vm.h"

namespace basalt {

namespace {

// SQLite's default SQLITE_MAX_TRIGGER_DEPTH: nested sub-programs allowed.
constexpr int kMaxSubprogramDepth = 1000;
// Each level runs a Vm on the C++ stack: a thread with a small stack stops
// early, with the same error, rather than overflow it.
constexpr size_t kStackReserve = 128 * 1024;

}  // namespace

// Runs sub-program P4 with arguments r[P1..P1+P2-1] in its r[1..P2]. Its
// changes count towards total_changes() only; its error is this program's.
bool Vm::RunSubprogram(const Instr& in, bool* ignored) {
  const Program* sub = in.p4_program();
  // SQLITE_LIMIT_TRIGGER_DEPTH (10), within Basalt's own stack bound.
  int max_depth = env_->hooks != nullptr ? env_->hooks->Limit(10) : -1;
  if (max_depth < 0 || max_depth > kMaxSubprogramDepth) max_depth = kMaxSubprogramDepth;
  // Frames as SQLite counts them: this Vm's, the triggers inlined around the
  // call (P5), and the sub-program's own.
  int depth = depth_ + in.p5 + 1;
  if (depth > max_depth || StackRemaining() < kStackReserve) {
    return SetError(Status(kError, "too many levels of trigger recursion"));
  }
  Vm* vm = nullptr;
  for (auto& [p, v] : subvms_) {
    if (p == sub) vm = v.get();
  }
  if (vm == nullptr) {
    auto made = std::make_unique<Vm>(sub, env_);
    made->root_ = root_;
    made->gen_ = gen_;
    vm = made.get();
    subvms_.emplace_back(sub, std::move(made));
  }
  vm->depth_ = depth;
  vm->Reset();
  BASALT_DCHECK(in.p2 < static_cast<int>(vm->regs_.size()));
  for (int i = 0; i < in.p2; ++i) {
    vm->regs_[static_cast<size_t>(1 + i)].CopyFrom(regs_[static_cast<size_t>(in.p1 + i)]);
  }
  StepResult r;
  do {
    r = vm->Step();
  } while (r == StepResult::kRow);
  n_total_change_ += vm->n_total_change_;
  if (r == StepResult::kError) {
    halt_action_ = vm->halt_action_;
    return SetError(vm->status_);
  }
  *ignored = vm->halt_action_ == static_cast<int>(OnConflict::kIgnore);
  return true;
}

}  // namespace basalt
