// The program verifier: checks a compiled Program against the operand kinds
// that opcodes.h declares, before the VM runs it. Debug and sanitizer builds
// run it on every program (Vm's constructor); a failure is a code generator
// bug, never a user error.
//
// What is checked, for each instruction:
//   1. registers (Reg, Regs with their range, Last, Dest as a result register)
//      lie within 0..n_regs-1;
//   2. cursors lie within 0..n_cursors-1, accumulators within 0..n_aggs-1,
//      parameters within 1..n_params;
//   3. jump targets (Jmp, Dest as a jump) lie within the program, and no
//      unresolved label (a negative P2) is left;
//   4. unused operands are 0, counts are not negative, root pages are > 0;
//   5. the P4 tag is one the opcode accepts.
#pragma once

#include "common/status.h"
#include "exec/program.h"

namespace basalt {

// OK, or kInternal with "addr N (Opcode): what is wrong".
Status VerifyProgram(const Program& prog);

}  // namespace basalt
