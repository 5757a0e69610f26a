// SQL's operators, one X-macro table. Every layer that needs to know an
// operator reads this table: the parser (precedence and associativity), the
// code generator (the VM opcode, how operands get their affinity) and
// constant folding (the function that evaluates the operator, the same one
// the VM calls at run time, so that folding can never disagree with it).
//
//   X(Op, "spelling", Prec, Assoc, Opcode, Class, Eval)
//     Op       the ast::Op (ast::Op::k<Op>)
//     spelling as written in SQL (the canonical one where there are several)
//     Prec     binding strength, parser::kPrec<Prec> (loosest first)
//     Assoc    Left (a op b op c is (a op b) op c) or Right
//     Opcode   the VM instruction, Opcode::k<Opcode> (exec expands it; the parser
//              ignores it); Noop where codegen compiles the operator another way
//     Class    what the operands undergo: Compare (comparison affinity and
//              collation), Arith (numeric conversion), Logic (truth values),
//              Other (none: text, function calls)
//     Eval     the Value function (record/value_ops.h) that computes the
//              operator for constant folding and in the VM, or NoEval where the
//              operator is not folded (comparisons depend on the operands'
//              affinity and collation, which literals do not carry alone)
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "parser/ast.h"

// clang-format off
#define BASALT_BINARY_OPERATORS(X)                                                     \
  X(Or,         "OR",      Or,       Left, Or,         Logic,   LogicalOr)              \
  X(And,        "AND",     And,      Left, And,        Logic,   LogicalAnd)             \
  X(Eq,         "=",       Equality, Left, Eq,         Compare, NoEval)                 \
  X(Ne,         "!=",      Equality, Left, Ne,         Compare, NoEval)                 \
  X(Is,         "IS",      Equality, Left, Eq,         Compare, NoEval)                 \
  X(IsNot,      "IS NOT",  Equality, Left, Ne,         Compare, NoEval)                 \
  X(Like,       "LIKE",    Equality, Left, Function,   Other,   NoEval)                 \
  X(Glob,       "GLOB",    Equality, Left, Function,   Other,   NoEval)                 \
  X(Regexp,     "REGEXP",  Equality, Left, Function,   Other,   NoEval)                 \
  X(Match,      "MATCH",   Equality, Left, Function,   Other,   NoEval)                 \
  X(Lt,         "<",       Compare,  Left, Lt,         Compare, NoEval)                 \
  X(Le,         "<=",      Compare,  Left, Le,         Compare, NoEval)                 \
  X(Gt,         ">",       Compare,  Left, Gt,         Compare, NoEval)                 \
  X(Ge,         ">=",      Compare,  Left, Ge,         Compare, NoEval)                 \
  X(BitAnd,     "&",       Bitwise,  Left, BitAnd,     Arith,   BitAnd)                 \
  X(BitOr,      "|",       Bitwise,  Left, BitOr,      Arith,   BitOr)                  \
  X(Shl,        "<<",      Bitwise,  Left, ShiftLeft,  Arith,   ShiftLeft)              \
  X(Shr,        ">>",      Bitwise,  Left, ShiftRight, Arith,   ShiftRight)             \
  X(Add,        "+",       Add,      Left, Add,        Arith,   Add)                    \
  X(Sub,        "-",       Add,      Left, Subtract,   Arith,   Subtract)               \
  X(Mul,        "*",       Mul,      Left, Multiply,   Arith,   Multiply)               \
  X(Div,        "/",       Mul,      Left, Divide,     Arith,   Divide)                 \
  X(Mod,        "%",       Mul,      Left, Remainder,  Arith,   Remainder)              \
  X(Concat,     "||",      Concat,   Left, Concat,     Other,   Concat)                 \
  X(JsonArrow,  "->",      Concat,   Left, Noop,       Other,   NoEval)                 \
  X(JsonArrow2, "->>",     Concat,   Left, Noop,       Other,   NoEval)

// Prefix operators: X(Op, "spelling", Prec, Opcode, Class, Eval); the operand
// extends over everything that binds at least as tightly as Prec.
#define BASALT_UNARY_OPERATORS(X)                                                      \
  X(Neg,        "-",       Unary,    Negative,   Arith,   Negate)                       \
  X(Plus,       "+",       Unary,    Noop,       Other,   UnaryPlus)                    \
  X(BitNot,     "~",       Unary,    BitNot,     Arith,   BitNot)                       \
  X(Not,        "NOT",     Not,      Not,        Logic,   LogicalNot)
// clang-format on

namespace basalt {

namespace parser {

// Binding strength, loosest (1) to tightest, as in lang_expr "Operators".
enum Prec : int {
  kPrecNone = 0,
  kPrecOr = 1,
  kPrecAnd = 2,
  kPrecNot = 3,
  kPrecEquality = 4,  // = == != <> IS IN LIKE GLOB MATCH REGEXP BETWEEN ISNULL NOTNULL
  kPrecCompare = 5,   // < <= > >=
  kPrecEscape = 6,
  kPrecBitwise = 7,  // & | << >>
  kPrecAdd = 8,
  kPrecMul = 9,
  kPrecConcat = 10,  // || -> ->>
  kPrecCollate = 11,
  kPrecUnary = 12,  // - + ~
};

}  // namespace parser

enum class OpAssoc : uint8_t { kLeft, kRight };
enum class OpClass : uint8_t { kCompare, kArith, kLogic, kOther };

// One row of the tables above, as the parser and the code generator see it.
struct OperatorInfo {
  const char* spelling = nullptr;  // null: not an operator of the tables
  int prec = parser::kPrecNone;
  OpAssoc assoc = OpAssoc::kLeft;
  OpClass cls = OpClass::kOther;
  bool unary = false;
};

namespace operators_internal {
constexpr OperatorInfo Row(ast::Op op) {
  switch (op) {
#define BASALT_OP_BINARY_INFO(name, spelling, prec, assoc, opcode, cls, eval) \
  case ast::Op::k##name:                                                      \
    return OperatorInfo{spelling, parser::kPrec##prec, OpAssoc::k##assoc, OpClass::k##cls, false};
#define BASALT_OP_UNARY_INFO(name, spelling, prec, opcode, cls, eval) \
  case ast::Op::k##name:                                              \
    return OperatorInfo{spelling, parser::kPrec##prec, OpAssoc::kRight, OpClass::k##cls, true};
    BASALT_BINARY_OPERATORS(BASALT_OP_BINARY_INFO)
    BASALT_UNARY_OPERATORS(BASALT_OP_UNARY_INFO)
#undef BASALT_OP_BINARY_INFO
#undef BASALT_OP_UNARY_INFO
    default:  // the ast::Op values that name no operator
      return OperatorInfo{};
  }
}
// Indexed by the ast::Op value (a uint8_t).
inline constexpr std::array<OperatorInfo, 256> kTable = [] {
  std::array<OperatorInfo, 256> t{};
  for (size_t i = 0; i < t.size(); ++i) t[i] = Row(static_cast<ast::Op>(i));
  return t;
}();
}  // namespace operators_internal

// The table row of `op`; a default OperatorInfo (no spelling) for the
// ast::Op values that are not operators (LIKE's kinds, CURRENT_TIME, RAISE).
constexpr const OperatorInfo& OperatorOf(ast::Op op) {
  return operators_internal::kTable[static_cast<uint8_t>(op)];
}

// The precedence an operator's right operand must at least have: one more
// than the operator's own for left-associative operators.
constexpr int RightOperandPrec(const OperatorInfo& info) {
  return info.assoc == OpAssoc::kLeft ? info.prec + 1 : info.prec;
}

}  // namespace basalt
