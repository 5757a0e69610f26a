// Expression nodes: allocation, SQLite's height bookkeeping, and the
// constructors for unary and binary nodes (with the folds SQLite's code
// generator would make: IS NULL, -9223372036854775808, negated hex literals).
#include <algorithm>
#include <cstring>
#include <new>
#include <type_traits>

#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;
using parser::Tk;

// ---- node helpers -------------------------------------------------------------

namespace {
// A node with every field at its default, copied into new nodes: a fixed-size
// memcpy compiles to a few vector stores, cheaper than value-initialising the
// large node field by field (or with `rep stos`).
const Expr kBlankExpr{};
}  // namespace

Expr* Parser::Impl::NewExpr(ExprKind kind, const char* start) {
  static_assert(std::is_trivially_copyable_v<Expr> && std::is_trivially_destructible_v<Expr>);
  void* mem = arena_->Allocate(sizeof(Expr), alignof(Expr));
  std::memcpy(mem, &kBlankExpr, sizeof(Expr));
  Expr* e = std::launder(static_cast<Expr*>(mem));
  e->kind = kind;
  e->span = std::string_view(start, 0);
  e->height = 1;
  return e;
}

namespace {

int HeightOf(const Expr* e) { return e ? e->height : 0; }

int ListHeight(const ExprList* l) {
  int h = 0;
  if (l) {
    for (const ast::ExprItem& it : l->items) {
      if (it.expr && it.expr->height > h) h = it.expr->height;
    }
  }
  return h;
}

}  // namespace

int Parser::Impl::SelectHeight(const ast::Select* s) const {
  int h = 0;
  for (; s; s = s->prior) {
    auto take = [&h](int v) {
      if (v > h) h = v;
    };
    take(HeightOf(s->where));
    take(HeightOf(s->having));
    if (s->limit) take(1 + std::max(HeightOf(s->limit), HeightOf(s->offset)));
    take(ListHeight(s->columns));
    take(ListHeight(s->group_by));
    take(ListHeight(s->order_by));
    for (const ExprList* row : s->values) take(ListHeight(row));
  }
  return h;
}

// Heights follow SQLite's bookkeeping, quirks included: a COLLATE or row
// value node counts 1, BETWEEN counts only its left operand, and the NOT of
// NOT IN / NOT LIKE / NOT BETWEEN adds a level.
bool Parser::Impl::SetHeight(Expr* e) {
  int h = 0;
  switch (e->kind) {
    case ExprKind::kCollate:
    case ExprKind::kVector:
      e->height = 1;
      return true;
    case ExprKind::kBetween:
      h = HeightOf(e->left);
      break;
    default:
      h = std::max(HeightOf(e->left), HeightOf(e->right));
      h = std::max(h, ListHeight(e->list));
      h = std::max(h, HeightOf(e->escape));
      if (e->select) h = std::max(h, SelectHeight(e->select));
      break;
  }
  h += 1;
  if (e->has(ast::kNot) &&
      (e->kind == ExprKind::kIn || e->kind == ExprKind::kLike || e->kind == ExprKind::kBetween)) {
    h += 1;
  }
  e->height = h;
  if (h > limits_.expr_depth) {
    Error("Expression tree is too large (maximum depth " + std::to_string(limits_.expr_depth) +
          ")");
    return false;
  }
  return true;
}

Expr* Parser::Impl::MakeBinary(Op op, Expr* l, Expr* r, const char* start) {
  ExprKind kind = ExprKind::kBinary;
  if (r->kind == ExprKind::kNull && (op == Op::kIs || op == Op::kIsNot)) {
    // `x IS NULL` / `x IS NOT NULL` become the unary tests.
    kind = op == Op::kIs ? ExprKind::kIsNull : ExprKind::kNotNull;
  }
  Expr* e = NewExpr(kind, start);
  e->left = l;
  if (kind == ExprKind::kBinary) {
    e->op = op;
    e->right = r;
  }
  SetHeight(e);
  Finish(e, start);
  return e;
}

Expr* Parser::Impl::MakeUnary(Op op, Expr* operand, const char* start) {
  if (op == Op::kNeg) {
    // -9223372036854775808 is the integer INT64_MIN, not minus a real.
    if (operand->kind == ExprKind::kReal &&
        operand->text.find_first_of(".eE") == std::string_view::npos) {
      int64_t v;
      if (parser::IntegerLiteral(operand->text, &v) == 3) {
        operand->kind = ExprKind::kInteger;
        operand->ival = v;
        operand->flags &= static_cast<uint16_t>(~ast::kParenthesized);
        Finish(operand, start);
        return operand;
      }
    }
    if (operand->kind == ExprKind::kInteger && operand->text.size() > 2 &&
        (operand->text[1] == 'x' || operand->text[1] == 'X')) {
      // A hex literal under a minus: SQLite reports -0x8000000000000000 and
      // oversized hex literals with the sign.
      if (bad_hex_ == operand) {
        bad_hex_negated_ = true;
      } else if (operand->ival == INT64_MIN && bad_hex_ == nullptr && !in_schema_ddl_) {
        bad_hex_ = operand;
        bad_hex_negated_ = true;
      }
    }
  }
  Expr* e = NewExpr(ExprKind::kUnary, start);
  e->op = op;
  e->left = operand;
  SetHeight(e);
  Finish(e, start);
  return e;
}

}  // namespace basalt
