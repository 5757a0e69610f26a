// The virtual machine on hand-assembled programs: control flow, arithmetic,
// comparisons with affinity, temporary tables, the sorter and halting errors.
#include "exec/vm.h"

#include <gtest/gtest.h>

#include <vector>

#include "exec/program.h"

namespace basalt {
namespace {

// Runs `prog` and collects the first column of every result row.
std::vector<Value> RunAll(Program* prog, Status* status = nullptr) {
  VmEnv env;
  Vm vm(prog, &env);
  std::vector<Value> out;
  for (;;) {
    StepResult r = vm.Step();
    if (r == StepResult::kRow) {
      out.push_back(vm.row()[0]);
      continue;
    }
    if (status) *status = vm.status();
    break;
  }
  return out;
}

int AddInt(Program* p, int64_t v, int reg) {
  return p->AddOp(Opcode::kInteger, static_cast<int>(v), reg);
}

TEST(Vm, ArithmeticAndResultRow) {
  Program p;
  p.n_regs = 4;
  AddInt(&p, 2, 1);
  AddInt(&p, 40, 2);
  p.AddOp(Opcode::kAdd, 1, 2, 3);
  p.AddOp(Opcode::kResultRow, 3, 1);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 1u);
  ASSERT_TRUE(rows[0].is_int());
  EXPECT_EQ(rows[0].int_value(), 42);
}

TEST(Vm, IntegerOverflowBecomesReal) {
  Program p;
  p.n_regs = 4;
  int a = p.AddOp(Opcode::kInt64, 0, 1);
  p.SetP4Int64(a, INT64_MAX);
  AddInt(&p, 1, 2);
  p.AddOp(Opcode::kAdd, 1, 2, 3);
  p.AddOp(Opcode::kResultRow, 3, 1);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].is_real());
  EXPECT_DOUBLE_EQ(rows[0].real_value(), 9223372036854775808.0);
}

TEST(Vm, LoopWithCounter) {
  // r1 = 5; do { output r1; } while (--r1 != 0)
  Program p;
  p.n_regs = 2;
  AddInt(&p, 5, 1);
  int top = p.AddOp(Opcode::kResultRow, 1, 1);
  int dec = p.AddOp(Opcode::kDecrJumpZero, 1, 0);
  p.AddOp(Opcode::kGoto, 0, top);
  p.JumpHere(dec);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].int_value(), 5);
  EXPECT_EQ(rows[4].int_value(), 1);
}

TEST(Vm, ComparisonAppliesNumericAffinity) {
  // '10' = 10 under NUMERIC affinity, not under none.
  Program p;
  p.n_regs = 4;
  int s = p.AddOp(Opcode::kString, 2, 1);
  p.SetP4Str(s, "10");
  AddInt(&p, 10, 2);
  int eq1 = p.AddOp(Opcode::kEq, 1, 3, 2);
  p.at(eq1).p5 = static_cast<uint8_t>('C') | kCmpStoreResult;
  p.AddOp(Opcode::kResultRow, 3, 1);
  int eq2 = p.AddOp(Opcode::kEq, 1, 3, 2);
  p.at(eq2).p5 = kCmpStoreResult;
  p.AddOp(Opcode::kResultRow, 3, 1);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(rows[0].int_value(), 1);
  EXPECT_EQ(rows[1].int_value(), 0);
}

TEST(Vm, TemporaryTableRoundTrip) {
  // Insert 1..3 as one-column records, then scan them back.
  Program p;
  p.n_regs = 6;
  p.n_cursors = 1;
  p.AddOp(Opcode::kOpenEphemeral, 0, 1);
  for (int v = 1; v <= 3; ++v) {
    AddInt(&p, v * 100, 1);
    p.AddOp(Opcode::kMakeRecord, 1, 1, 2);
    p.AddOp(Opcode::kNewRowid, 0, 3);
    p.AddOp(Opcode::kInsert, 0, 2, 3);
  }
  int rewind = p.AddOp(Opcode::kRewind, 0, 0);
  int top = p.AddOp(Opcode::kColumn, 0, 0, 4);
  p.AddOp(Opcode::kResultRow, 4, 1);
  p.AddOp(Opcode::kNext, 0, top);
  p.JumpHere(rewind);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].int_value(), 100);
  EXPECT_EQ(rows[2].int_value(), 300);
}

TEST(Vm, SorterOrdersRecordsStably) {
  // Records (key, seq): keys 3,1,3,2 → sorted 1,2,3,3 with the 3s in
  // insertion order.
  Program p;
  p.n_regs = 8;
  p.n_cursors = 1;
  KeyInfo ki;
  ki.n_fields = 1;
  int a = p.AddOp(Opcode::kSorterOpen, 0, 2);
  p.SetP4(a, &ki);
  const int keys[] = {3, 1, 3, 2};
  for (int i = 0; i < 4; ++i) {
    AddInt(&p, keys[i], 1);
    AddInt(&p, i, 2);
    p.AddOp(Opcode::kMakeRecord, 1, 2, 3);
    p.AddOp(Opcode::kSorterInsert, 0, 3);
  }
  int sort = p.AddOp(Opcode::kSorterSort, 0, 0);
  int top = p.AddOp(Opcode::kColumn, 0, 1, 4);
  p.AddOp(Opcode::kResultRow, 4, 1);
  p.AddOp(Opcode::kSorterNext, 0, top);
  p.JumpHere(sort);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].int_value(), 1);  // key 1
  EXPECT_EQ(rows[1].int_value(), 3);  // key 2
  EXPECT_EQ(rows[2].int_value(), 0);  // first key 3
  EXPECT_EQ(rows[3].int_value(), 2);  // second key 3
}

TEST(Vm, HaltWithConstraintError) {
  Program p;
  p.n_regs = 2;
  int h = p.AddOp(Opcode::kHalt, kConstraintUnique, 2);
  p.SetP4Str(h, "UNIQUE constraint failed: t.a");
  Status st;
  std::vector<Value> rows = RunAll(&p, &st);
  EXPECT_TRUE(rows.empty());
  EXPECT_EQ(st.code(), kConstraintUnique);
  EXPECT_EQ(st.message(), "UNIQUE constraint failed: t.a");
}

TEST(Vm, DivisionByZeroIsNull) {
  Program p;
  p.n_regs = 4;
  AddInt(&p, 7, 1);
  AddInt(&p, 0, 2);
  p.AddOp(Opcode::kDivide, 1, 2, 3);
  p.AddOp(Opcode::kResultRow, 3, 1);
  p.AddOp(Opcode::kHalt);
  std::vector<Value> rows = RunAll(&p);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_TRUE(rows[0].is_null());
}

}  // namespace
}  // namespace basalt
