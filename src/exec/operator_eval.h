// The operator table (parser/operators.h) as the code generator and the VM
// use it: each operator's opcode and the Value function that evaluates it.
// Constant folding calls the function through these tables; the VM's case
// for the opcode calls the same function directly, so a folded constant is
// always what the instruction would have computed.
#pragma once

#include <cstddef>

#include "exec/opcodes.h"
#include "parser/operators.h"
#include "record/value_ops.h"

namespace basalt {

using BinaryEvalFn = void (*)(const Value& a, const Value& b, Value* out);
using UnaryEvalFn = void (*)(const Value& a, Value* out);

// The Eval column's "not folded".
inline constexpr std::nullptr_t NoEval = nullptr;

// The VM instruction of operator `op`: kNoop for operators compiled some
// other way (unary +, ->, ->>) and for ast::Op values that are no operator;
// kFunction for the LIKE family.
constexpr Opcode OpcodeOf(ast::Op op) {
  switch (op) {
#define BASALT_OP_BINARY_OPCODE(name, spelling, prec, assoc, opcode, cls, eval) \
  case ast::Op::k##name:                                                        \
    return Opcode::k##opcode;
#define BASALT_OP_UNARY_OPCODE(name, spelling, prec, opcode, cls, eval) \
  case ast::Op::k##name:                                                \
    return Opcode::k##opcode;
    BASALT_BINARY_OPERATORS(BASALT_OP_BINARY_OPCODE)
    BASALT_UNARY_OPERATORS(BASALT_OP_UNARY_OPCODE)
#undef BASALT_OP_BINARY_OPCODE
#undef BASALT_OP_UNARY_OPCODE
    default:  // the ast::Op values that name no operator
      return Opcode::kNoop;
  }
}

// The function that computes binary operator `op`, null if it is not folded.
inline BinaryEvalFn BinaryEvalOf(ast::Op op) {
  switch (op) {
#define BASALT_OP_BINARY_EVAL(name, spelling, prec, assoc, opcode, cls, eval) \
  case ast::Op::k##name:                                                      \
    return eval;
    BASALT_BINARY_OPERATORS(BASALT_OP_BINARY_EVAL)
#undef BASALT_OP_BINARY_EVAL
    default:  // unary operators and the ast::Op values that name no operator
      return nullptr;
  }
}

// The function that computes prefix operator `op`, null if it is not folded.
inline UnaryEvalFn UnaryEvalOf(ast::Op op) {
  switch (op) {
#define BASALT_OP_UNARY_EVAL(name, spelling, prec, opcode, cls, eval) \
  case ast::Op::k##name:                                              \
    return eval;
    BASALT_UNARY_OPERATORS(BASALT_OP_UNARY_EVAL)
#undef BASALT_OP_UNARY_EVAL
    default:  // binary operators and the ast::Op values that name no operator
      return nullptr;
  }
}

// The comparison opcode that holds exactly when `op` (Eq..Ge) does not, for
// non-NULL operands.
constexpr Opcode NegatedCompare(Opcode op) {
  constexpr Opcode kNegated[] = {Opcode::kNe, Opcode::kEq, Opcode::kGe,
                                 Opcode::kGt, Opcode::kLe, Opcode::kLt};
  return kNegated[static_cast<int>(op) - static_cast<int>(Opcode::kEq)];
}
static_assert(NegatedCompare(Opcode::kLe) == Opcode::kGt);
static_assert(NegatedCompare(Opcode::kGe) == Opcode::kLt);

inline bool IsComparison(ast::Op op) { return OperatorOf(op).cls == OpClass::kCompare; }

}  // namespace basalt
