// The VM's side of foreign keys: the violation counters (FkCounter,
// FkIfZero), the end-of-statement check of immediate keys, and the
// sub-programs that run foreign key actions (Program).
//
// Counters (as foreignkeys.html describes them): a violation made by an
// immediate key counts against the statement (the top-level VM's
// fk_stmt_), one made by a deferred key against the transaction
// (VmEnv::fk). While PRAGMA defer_foreign_keys is on every violation counts
// against the transaction (FkCounters::deferred_imm).
#include "common/assert.h"
#include "exec/vm.h"

namespace basalt {

namespace {
// SQLite's SQLITE_MAX_TRIGGER_DEPTH: nested action programs allowed.
constexpr int kMaxSubprogramDepth = 1000;
}  // namespace

void Vm::FkCount(const Instr& in) {
  if (env_->defer_fks != nullptr && *env_->defer_fks) {
    env_->fk.deferred_imm += in.p3;
  } else if (in.p1 != 0) {
    env_->fk.deferred += in.p3;
  } else {
    root_->fk_stmt_ += in.p3;
  }
}

bool Vm::FkIsZero(const Instr& in) const {
  if (in.p1 != 0) return env_->fk.total() == 0;
  return root_->fk_stmt_ == 0 && env_->fk.deferred_imm == 0;
}

bool Vm::FkStatementFailed() {
  if (root_ != this || fk_stmt_ <= 0) return false;
  halt_action_ = 2;  // abort: the statement is undone
  status_ = Status(kConstraintForeignKey, "FOREIGN KEY constraint failed");
  return true;
}

// Runs sub-program P4 to its end with arguments r[P1..P1+P2-1] in its
// r[1..P2]. Its changes count towards total_changes() only; its error is
// this program's.
bool Vm::RunSubprogram(const Instr& in) {
  const Program* sub = in.p4_program();
  if (depth_ + 1 > kMaxSubprogramDepth) {
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
    made->depth_ = depth_ + 1;
    vm = made.get();
    subvms_.emplace_back(sub, std::move(made));
  }
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
  return true;
}

}  // namespace basalt
