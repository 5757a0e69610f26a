// The Program instruction: a trigger sub-program run by a nested Vm with its
// own registers and cursors (recursive triggers; see Program::subprograms).
#include "catalog/schema.h"
#include "common/result_code.h"
#include "common/stack.h"
#include "exec/vm.h"

namespace basalt {

namespace {

// SQLite's default SQLITE_MAX_TRIGGER_DEPTH.
constexpr int kMaxTriggerDepth = 1000;
// Each level of nesting runs a Vm on the C++ stack: a thread with a small
// stack stops early, with the same error, rather than overflow it.
constexpr size_t kStackReserve = 128 * 1024;

}  // namespace

bool Vm::RunSubprogram(const Instr& in, bool* ignored) {
  size_t index = static_cast<size_t>(in.p4_int());
  BASALT_DCHECK(index < root_->subprograms.size());
  const Program* sub = root_->subprograms[index].get();
  if (depth_ + 1 >= kMaxTriggerDepth || StackRemaining() < kStackReserve) {
    return SetError(Status(kError, "too many levels of trigger recursion"));
  }
  auto child = std::make_unique<Vm>(sub, env_, root_, depth_ + 1);
  const Value* r = regs_.data();
  int n = sub->sub_columns + 1;  // rowid and columns
  for (int i = 0; i < n; ++i) {
    if (in.p1) child->regs_[static_cast<size_t>(1 + i)].CopyFrom(r[in.p1 + i]);
    if (in.p3) child->regs_[static_cast<size_t>(1 + n + i)].CopyFrom(r[in.p3 + i]);
  }
  StepResult res;
  do {
    res = child->Step();
  } while (res == StepResult::kRow);  // a trigger program returns no rows
  ++write_gen_;                       // the sub-program may have written through other cursors
  n_change_ += child->n_change_;
  n_total_change_ += child->n_total_change_;
  if (res == StepResult::kError) {
    halt_action_ = child->halt_action_;
    return SetError(child->status_);
  }
  *ignored = child->halt_action_ == static_cast<int>(OnConflict::kIgnore);
  return true;
}

}  // namespace basalt
