// The VM's side of foreign keys: the violation counters (FkCounter,
// FkIfZero) and the end-of-statement check of immediate keys.
//
// Counters (as foreignkeys.html describes them): a violation made by an
// immediate key counts against the statement (the top-level VM's
// fk_stmt_), one made by a deferred key against the transaction
// (VmEnv::fk). While PRAGMA defer_foreign_keys is on every violation counts
// against the transaction (FkCounters::deferred_imm).
#include "common/assert.h"
#include "exec/vm.h"

namespace basalt {

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

}  // namespace basalt
