// The operator table (parser/operators.h, exec/operator_eval.h): the parser's
// grouping follows its precedence and associativity; every operator that
// folds computes what its VM instruction computes, on NULL, integers at the
// overflow edges, reals, text and blobs; and a whole statement gives the same
// value whether its operator is folded while compiling or run by the VM.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "exec/operator_eval.h"
#include "exec/vm.h"
#include "main/connection.h"
#include "main/statement.h"
#include "parser/parser.h"
#include "record/value_ops.h"

namespace basalt {
namespace {

using ast::Op;

// The binary operators of the table, in table order.
std::vector<Op> BinaryOps() {
  return {
#define BASALT_TEST_BINARY(name, spelling, prec, assoc, opcode, cls, eval) Op::k##name,
      BASALT_BINARY_OPERATORS(BASALT_TEST_BINARY)
#undef BASALT_TEST_BINARY
  };
}

std::vector<Op> UnaryOps() {
  return {
#define BASALT_TEST_UNARY(name, spelling, prec, opcode, cls, eval) Op::k##name,
      BASALT_UNARY_OPERATORS(BASALT_TEST_UNARY)
#undef BASALT_TEST_UNARY
  };
}

// ---- precedence ----------------------------------------------------------------

struct ParsedExpr {
  std::unique_ptr<Arena> arena = std::make_unique<Arena>();
  std::string sql;
  const ast::Expr* expr = nullptr;
};

ParsedExpr ParseExpr(const std::string& text) {
  ParsedExpr p;
  p.sql = "SELECT " + text;
  Parser parser(p.arena.get(), p.sql);
  auto r = parser.ParseStatement();
  if (r.ok()) p.expr = (*(*r)->As<ast::SelectStmt>()->select->columns)[0];
  return p;
}

bool IsOp(const ast::Expr* e, Op op) {
  return e != nullptr &&
         (e->kind == ast::ExprKind::kBinary || e->kind == ast::ExprKind::kLike ||
          e->kind == ast::ExprKind::kUnary) &&
         e->op == op;
}

TEST(OperatorTable, PrecedenceIsSQLitesOrder) {
  auto prec = [](Op op) { return OperatorOf(op).prec; };
  EXPECT_LT(prec(Op::kOr), prec(Op::kAnd));
  EXPECT_LT(prec(Op::kAnd), prec(Op::kNot));
  EXPECT_LT(prec(Op::kNot), prec(Op::kEq));
  EXPECT_EQ(prec(Op::kEq), prec(Op::kIs));
  EXPECT_EQ(prec(Op::kEq), prec(Op::kLike));
  EXPECT_LT(prec(Op::kEq), prec(Op::kLt));
  EXPECT_LT(prec(Op::kLt), prec(Op::kBitAnd));
  EXPECT_EQ(prec(Op::kBitAnd), prec(Op::kShr));
  EXPECT_LT(prec(Op::kShl), prec(Op::kAdd));
  EXPECT_LT(prec(Op::kSub), prec(Op::kMul));
  EXPECT_LT(prec(Op::kMod), prec(Op::kConcat));
  EXPECT_EQ(prec(Op::kConcat), prec(Op::kJsonArrow2));
  EXPECT_LT(prec(Op::kConcat), prec(Op::kNeg));
  EXPECT_EQ(OperatorOf(Op::kCurTime).spelling, nullptr);  // not an operator
}

// For every pair of binary operators, `a op1 b op2 c` groups as the table
// says: to the left when op1 binds at least as tightly (all are
// left-associative), else to the right.
TEST(OperatorTable, TheParserGroupsByTheTable) {
  for (Op op1 : BinaryOps()) {
    for (Op op2 : BinaryOps()) {
      const OperatorInfo& i1 = OperatorOf(op1);
      const OperatorInfo& i2 = OperatorOf(op2);
      std::string text = std::string("a ") + i1.spelling + " b " + i2.spelling + " c";
      ParsedExpr p = ParseExpr(text);
      ASSERT_NE(p.expr, nullptr) << text;
      bool left = i1.prec >= i2.prec;
      ASSERT_EQ(i1.assoc, OpAssoc::kLeft);
      if (left) {
        EXPECT_TRUE(IsOp(p.expr, op2) && IsOp(p.expr->left, op1)) << text;
      } else {
        EXPECT_TRUE(IsOp(p.expr, op1) && IsOp(p.expr->right, op2)) << text;
      }
    }
  }
}

// A prefix operator takes everything that binds at least as tightly as it.
TEST(OperatorTable, PrefixOperatorsTakeTighterOperators) {
  for (Op u : UnaryOps()) {
    for (Op op : BinaryOps()) {
      std::string text =
          std::string(OperatorOf(u).spelling) + " a " + OperatorOf(op).spelling + " b";
      ParsedExpr p = ParseExpr(text);
      ASSERT_NE(p.expr, nullptr) << text;
      if (OperatorOf(op).prec >= OperatorOf(u).prec) {
        EXPECT_TRUE(IsOp(p.expr, u) && IsOp(p.expr->left, op)) << text;
      } else {
        EXPECT_TRUE(IsOp(p.expr, op) && IsOp(p.expr->left, u)) << text;
      }
    }
  }
}

// ---- folding agrees with the VM ----------------------------------------------------

std::vector<Value> SampleValues() {
  std::vector<Value> v;
  v.emplace_back();  // NULL
  v.push_back(Value::Int(0));
  v.push_back(Value::Int(7));
  v.push_back(Value::Int(-3));
  v.push_back(Value::Int(INT64_MAX));
  v.push_back(Value::Int(INT64_MIN));
  v.push_back(Value::Int(-1));
  v.push_back(Value::Int(64));
  Value r;
  r.SetReal(2.5);
  v.push_back(r);
  r.SetReal(-0.0);
  v.push_back(r);
  r.SetReal(1e300);
  v.push_back(r);
  for (const char* t : {"12", "abc", "3.5x", " -9 ", "9223372036854775808"}) {
    Value s;
    s.SetText(t);
    v.push_back(s);
  }
  Value b;
  b.SetBlob("\x01\x02", 2);
  v.push_back(b);
  return v;
}

// Loads v into register `reg` with the instruction codegen would use.
void Load(Program* p, const Value& v, int reg) {
  switch (v.type()) {
    case Type::kNull:
      p->AddOp(Opcode::kNull, 0, reg);
      break;
    case Type::kInteger:
      p->SetP4Int64(p->AddOp(Opcode::kInt64, 0, reg), v.int_value());
      break;
    case Type::kReal:
      p->SetP4Real(p->AddOp(Opcode::kReal, 0, reg), v.real_value());
      break;
    case Type::kText:
      p->SetP4Text(p->AddOp(Opcode::kString, static_cast<int>(v.size()), reg), v.text());
      break;
    case Type::kBlob:
      p->SetP4Text(p->AddOp(Opcode::kBlob, static_cast<int>(v.size()), reg),
                   std::string_view(v.data(), v.size()));
      break;
  }
}

// Runs `prog` and returns the first column of its first row.
Value RunOne(const Program& prog) {
  VmEnv env;
  Vm vm(&prog, &env);
  EXPECT_EQ(vm.Step(), StepResult::kRow);
  Value out;
  out.CopyFrom(vm.row()[0]);
  return out;
}

void ExpectSame(const Value& folded, const Value& run, const std::string& what) {
  ASSERT_EQ(folded.type(), run.type()) << what;
  if (folded.is_null()) return;
  EXPECT_EQ(CompareValues(folded, run, nullptr), 0) << what;
}

std::string Show(const Value& v) {
  if (v.is_null()) return "NULL";
  if (v.is_int()) return std::to_string(v.int_value());
  if (v.is_real()) return std::to_string(v.real_value());
  std::string out(1, '\'');
  out.append(v.data(), v.size());
  out += '\'';
  return out;
}

TEST(OperatorTable, FoldingComputesWhatTheVmComputes) {
  std::vector<Value> values = SampleValues();
  int checked = 0;
  for (Op op : BinaryOps()) {
    BinaryEvalFn fn = BinaryEvalOf(op);
    if (fn == nullptr) continue;
    for (const Value& a : values) {
      for (const Value& b : values) {
        Program p;
        p.n_regs = 4;
        Load(&p, a, 1);
        Load(&p, b, 2);
        p.AddOp(OpcodeOf(op), 1, 2, 3);
        p.AddOp(Opcode::kResultRow, 3, 1);
        p.AddOp(Opcode::kHalt);
        Value folded;
        fn(a, b, &folded);
        ExpectSame(folded, RunOne(p), Show(a) + " " + OperatorOf(op).spelling + " " + Show(b));
        ++checked;
      }
    }
  }
  for (Op op : UnaryOps()) {
    UnaryEvalFn fn = UnaryEvalOf(op);
    ASSERT_NE(fn, nullptr);
    if (OpcodeOf(op) == Opcode::kNoop) continue;  // unary + compiles to nothing
    for (const Value& a : values) {
      Program p;
      p.n_regs = 3;
      Load(&p, a, 1);
      p.AddOp(OpcodeOf(op), 1, 2);
      p.AddOp(Opcode::kResultRow, 2, 1);
      p.AddOp(Opcode::kHalt);
      Value folded;
      fn(a, &folded);
      ExpectSame(folded, RunOne(p), std::string(OperatorOf(op).spelling) + " " + Show(a));
      ++checked;
    }
  }
  EXPECT_GT(checked, 12 * 17 * 17);
}

TEST(OperatorTable, OverflowAndNullFoldAsSQLiteComputes) {
  Value out;
  BinaryEvalOf(Op::kAdd)(Value::Int(INT64_MAX), Value::Int(1), &out);
  ASSERT_TRUE(out.is_real());  // integer overflow goes to real arithmetic
  EXPECT_EQ(out.real_value(), 9223372036854775808.0);
  BinaryEvalOf(Op::kDiv)(Value::Int(1), Value::Int(0), &out);
  EXPECT_TRUE(out.is_null());
  BinaryEvalOf(Op::kAnd)(Value(), Value::Int(0), &out);
  ASSERT_TRUE(out.is_int());  // NULL AND 0 is 0
  EXPECT_EQ(out.int_value(), 0);
  BinaryEvalOf(Op::kOr)(Value(), Value::Int(0), &out);
  EXPECT_TRUE(out.is_null());
  Value text;
  text.SetText("3");
  BinaryEvalOf(Op::kConcat)(Value::Int(1), text, &out);
  EXPECT_EQ(out.text(), "13");
  EXPECT_EQ(BinaryEvalOf(Op::kEq), nullptr);  // comparisons are not folded
}

// ---- whole statements: folded while compiling vs computed by the VM ----------------

std::unique_ptr<Connection> OpenMemory() {
  auto c = Connection::Open(":memory:", 0x2 | 0x4, nullptr);
  return c.ok() ? std::move(c).value() : nullptr;
}

// The single value `sql` returns.
Value QueryValue(Connection* c, const std::string& sql) {
  size_t tail = 0;
  auto st = c->Prepare(sql, &tail);
  EXPECT_TRUE(st.ok()) << sql;
  Value out;
  if (!st.ok() || !*st) return out;
  Statement* s = st->get();
  EXPECT_EQ(s->Step(), kRow) << sql;
  out.CopyFrom(*s->column(0));
  return out;
}

TEST(OperatorTable, FoldedAndRunTimeStatementsAgree) {
  std::unique_ptr<Connection> c = OpenMemory();
  ASSERT_NE(c, nullptr);
  const char* literals[] = {"NULL", "0",    "7",     "-3",     "9223372036854775807",
                            "2.5",  "'12'", "'abc'", "'3.5x'", "-9223372036854775808",
                            "64",   "x'01'"};
  for (Op op : BinaryOps()) {
    if (BinaryEvalOf(op) == nullptr) continue;
    std::string sp = OperatorOf(op).spelling;
    for (const char* a : literals) {
      for (const char* b : literals) {
        std::string folded = std::string("SELECT (") + a + ") " + sp + " (" + b + ")";
        // Columns of a table are not constants: the VM computes the value.
        std::string run = "SELECT x " + sp + " y FROM (SELECT (" + a + ") AS x, (" + b +
                          ") AS y UNION ALL SELECT 1, 1 LIMIT 1)";
        ExpectSame(QueryValue(c.get(), folded), QueryValue(c.get(), run), folded);
      }
    }
  }
}

}  // namespace
}  // namespace basalt
