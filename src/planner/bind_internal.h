// Helpers shared by the binder's files (internal to src/planner).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "parser/ast.h"
#include "parser/parser.h"

namespace basalt::bind {

using ast::Expr;
using ast::ExprKind;

// Expr::pflags bit: the node was resolved (or made resolved by the binder).
inline constexpr uint8_t kResolvedFlag = 0x01;
// Expr::pflags bit of a COLLATE node: no collation has that name. SQLite
// reports it only where the collation is asked for (a comparison, a sort).
inline constexpr uint8_t kUnknownCollation = 0x40;

inline bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

inline const char* CompoundName(ast::CompoundOp op) {
  switch (op) {
    case ast::CompoundOp::kUnion:
      return "UNION";
    case ast::CompoundOp::kUnionAll:
      return "UNION ALL";
    case ast::CompoundOp::kIntersect:
      return "INTERSECT";
    case ast::CompoundOp::kExcept:
      return "EXCEPT";
    default:
      return "SELECT";
  }
}

inline std::string Ordinal(int n) {
  const char* suffix = "th";
  int m = n % 100;
  if (m < 11 || m > 13) {
    if (n % 10 == 1)
      suffix = "st";
    else if (n % 10 == 2)
      suffix = "nd";
    else if (n % 10 == 3)
      suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

// If e is an integer literal (possibly with unary +/-), sets *v.
inline bool IntegerLiteral(const Expr* e, int64_t* v) {
  if (e->kind == ExprKind::kInteger) {
    *v = e->ival;
    return true;
  }
  if (e->kind == ExprKind::kUnary && e->left != nullptr) {
    int64_t x;
    if (e->op == ast::Op::kNeg && IntegerLiteral(e->left, &x)) {
      *v = -x;
      return true;
    }
    if (e->op == ast::Op::kPlus && IntegerLiteral(e->left, &x)) {
      *v = x;
      return true;
    }
  }
  return false;
}

// Whether a FROM list has a RIGHT or FULL JOIN, also inside parentheses
// (bind_outer_join.cc).
bool FromHasRightJoin(const ast::FromList* from);

}  // namespace basalt::bind
