// The program verifier (program_verify.h) and the checked P4 accessors: a
// well-formed program passes; hand-built programs with a register, cursor,
// jump, range, unused operand or P4 of the wrong kind are rejected, and in
// debug builds the VM refuses to run them.
#include "exec/program_verify.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "common/assert.h"
#include "exec/vm.h"

namespace basalt {
namespace {

// r1 = 1; r2 = 2; r3 = r1 + r2; output r3; halt.
void MakeGood(Program* p) {
  p->n_regs = 4;
  p->AddOp(Opcode::kInteger, 1, 1);
  p->AddOp(Opcode::kInteger, 2, 2);
  p->AddOp(Opcode::kAdd, 1, 2, 3);
  p->AddOp(Opcode::kResultRow, 3, 1);
  p->AddOp(Opcode::kHalt);
}

// The error of a rejected program, "" if it verifies.
std::string Problem(const Program& p) {
  Status st = VerifyProgram(p);
  return st.ok() ? "" : st.message();
}

TEST(VerifyProgram, AcceptsAWellFormedProgram) {
  Program p;
  MakeGood(&p);
  EXPECT_EQ(Problem(p), "");
}

TEST(VerifyProgram, RejectsARegisterOutOfRange) {
  Program p;
  MakeGood(&p);
  p.at(2).p3 = 4;  // n_regs is 4: registers 0..3
  EXPECT_EQ(Problem(p), "addr 2 (Add): P3 register out of range");
  p.at(2).p3 = -1;
  EXPECT_EQ(Problem(p), "addr 2 (Add): P3 register out of range");
}

TEST(VerifyProgram, RejectsARegisterRangeThatRunsPastTheEnd) {
  Program p;
  MakeGood(&p);
  p.at(3).p2 = 2;  // ResultRow r[3..4]
  EXPECT_EQ(Problem(p), "addr 3 (ResultRow): P1 register range out of range");
  // Copy's P3 counts one less than the registers it copies.
  Program q;
  MakeGood(&q);
  q.AddOp(Opcode::kCopy, 1, 2, 1);  // r[2..3] = r[1..2]: fine
  q.AddOp(Opcode::kHalt);
  EXPECT_EQ(Problem(q), "");
  q.at(5).p3 = 2;  // r[2..4]
  EXPECT_EQ(Problem(q), "addr 5 (Copy): P2 register range out of range");
}

TEST(VerifyProgram, RejectsACursorOutOfRange) {
  Program p;
  p.n_regs = 2;
  p.n_cursors = 1;
  p.AddOp(Opcode::kOpenEphemeral, 0, 1);
  p.AddOp(Opcode::kRewind, 1, 3);  // cursor 1 does not exist
  p.AddOp(Opcode::kClose, 0);
  p.AddOp(Opcode::kHalt);
  EXPECT_EQ(Problem(p), "addr 1 (Rewind): P1 cursor out of range");
}

TEST(VerifyProgram, RejectsAJumpOutsideTheProgramOrAnUnresolvedLabel) {
  Program p;
  MakeGood(&p);
  p.AddOp(Opcode::kGoto, 0, 6);  // 6 instructions: addresses 0..5
  EXPECT_EQ(Problem(p), "addr 5 (Goto): P2 jump target out of range");
  p.at(5).p2 = -1;  // a label FixLabels never resolved
  EXPECT_EQ(Problem(p), "addr 5 (Goto): P2 jump target out of range");
  p.at(5).p2 = 0;
  EXPECT_EQ(Problem(p), "");
}

TEST(VerifyProgram, ChecksAComparisonsP2AsJumpOrResultRegister) {
  Program p;
  MakeGood(&p);
  int a = p.AddOp(Opcode::kLt, 1, 3, 2);  // jump to 3
  EXPECT_EQ(Problem(p), "");
  p.at(a).p2 = 40;
  EXPECT_EQ(Problem(p), "addr 5 (Lt): P2 jump target out of range");
  p.at(a).p5 = kCmpStoreResult;  // now P2 is a register: 40 is out of range
  EXPECT_EQ(Problem(p), "addr 5 (Lt): P2 result register out of range");
  p.at(a).p2 = 3;
  EXPECT_EQ(Problem(p), "");
}

TEST(VerifyProgram, RejectsAnUnusedOperandThatIsNotZero) {
  Program p;
  MakeGood(&p);
  p.at(4).p3 = 7;  // Halt has no P3
  EXPECT_EQ(Problem(p), "addr 4 (Halt): P3 is unused but not 0");
}

TEST(VerifyProgram, ChecksAccumulatorsAndParameters) {
  Program p;
  p.n_regs = 2;
  p.n_aggs = 1;
  p.n_params = 1;
  p.AddOp(Opcode::kVariable, 1, 1);
  p.AddOp(Opcode::kAggReset, 0, 1);
  p.AddOp(Opcode::kHalt);
  EXPECT_EQ(Problem(p), "");
  p.at(0).p1 = 2;
  EXPECT_EQ(Problem(p), "addr 0 (Variable): P1 parameter out of range");
  p.at(0).p1 = 1;
  p.at(1).p2 = 2;
  EXPECT_EQ(Problem(p), "addr 1 (AggReset): P1 accumulator range out of range");
}

TEST(VerifyProgram, ChecksTheKindOfP4) {
  Program p;
  MakeGood(&p);
  int a = p.AddOp(Opcode::kInt64, 0, 1);
  EXPECT_EQ(Problem(p), "addr 5 (Int64): P4 of the wrong kind");  // P4 missing
  p.SetP4Int64(a, int64_t{1} << 40);
  EXPECT_EQ(Problem(p), "");
  // Optional P4s may be absent.
  p.AddOp(Opcode::kEq, 1, 0, 2);
  EXPECT_EQ(Problem(p), "");
#if !BASALT_DCHECK_ENABLED
  // Release builds do not check in the setter, so the verifier must.
  p.SetP4Int(2, 5);
  EXPECT_EQ(Problem(p), "addr 2 (Add): P4 of the wrong kind");
#endif
}

TEST(OpcodeTable, EveryOpcodeHasADistinctNameAndP4Kind) {
  std::set<std::string> names;
  for (size_t i = 0; i < static_cast<size_t>(Opcode::kNumOpcodes); ++i) {
    const OpcodeInfo& info = kOpcodeInfo[i];
    ASSERT_NE(info.name, nullptr);
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_STREQ(OpcodeName(static_cast<Opcode>(i)), info.name);
  }
  EXPECT_EQ(InfoOf(Opcode::kColumn).p3, OperandKind::kReg);
  EXPECT_EQ(InfoOf(Opcode::kColumn).p4.type, P4Type::kValue);
  EXPECT_TRUE(InfoOf(Opcode::kColumn).p4.optional);
  EXPECT_EQ(InfoOf(Opcode::kOpenRead).p3, OperandKind::kDb);
}

#if BASALT_DCHECK_ENABLED
TEST(VerifyProgramDeathTest, TheVmRefusesABadProgram) {
  Program p;
  MakeGood(&p);
  p.at(2).p3 = 9;
  EXPECT_DEATH(
      {
        VmEnv env;
        Vm vm(&p, &env);
      },
      "invalid program: addr 2 \\(Add\\): P3 register out of range");
}

TEST(VerifyProgramDeathTest, SettersAndAccessorsCheckTheP4Kind) {
  Program p;
  MakeGood(&p);
  EXPECT_DEATH(p.SetP4Int(2, 5), "invariant failed");  // Add takes no P4
  int a = p.AddOp(Opcode::kString, 1, 1);
  p.SetP4Str(a, "x");
  EXPECT_DEATH((void)p.at(a).p4_int(), "invariant failed");
  EXPECT_STREQ(p.at(a).p4_str(), "x");
}
#endif

}  // namespace
}  // namespace basalt
