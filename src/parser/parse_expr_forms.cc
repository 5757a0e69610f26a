// Expression forms with their own syntax: function calls, parentheses and
// row values, CASE, CAST, RAISE, and type names.
#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;
using parser::Tk;

Expr* Parser::Impl::ParseFunctionTail(Expr* f, std::string_view raw_name, int d) {
  const char* start = f->span.data();
  if (T() == Tk::kStar) {
    if (!CheckDepth(d + 3)) return nullptr;
    Advance();
    f->flags |= ast::kStarArg;
    if (!ExpectAt(Tk::kRp, d + 4)) return nullptr;
  } else {
    if (T() == Tk::kDistinct) {
      f->flags |= ast::kDistinct;
      Advance();
    } else if (T() == Tk::kAll) {
      Advance();
    }
    if (T() != Tk::kRp) {
      f->list = ParseNExprList(d + 3);
      if (!f->list) return nullptr;
    }
    if (!ExpectAt(Tk::kRp, d + 5)) return nullptr;
  }
  if (T() == Tk::kFilter || T() == Tk::kOver) {
    if (!ParseFilterOver(f, d)) return nullptr;
  }
  Finish(f, start);
  if (f->list && f->list->size() > static_cast<size_t>(limits_.function_arg)) {
    Error("too many arguments on function " + std::string(raw_name));
  } else {
    SetHeight(f);
  }
  if (f->over && f->has(ast::kDistinct)) {
    Error("DISTINCT is not supported for window functions");
  }
  return f;
}

ExprList* Parser::Impl::ParseNExprList(int d) {
  ExprList* list = arena_->New<ExprList>();
  int depth = d;
  for (;;) {
    Expr* e = ParseExpr(depth);
    if (!e) return nullptr;
    list->items.push_back(*arena_, Item(e));
    if (T() != Tk::kComma) break;
    Advance();
    depth = d + 2;
  }
  return list;
}

// '(' expr ')' | '(' expr, expr, ... ')' | '(' select ')'
Expr* Parser::Impl::ParseParenthesized(int d) {
  const char* start = cur_.z;
  Advance();  // (
  if (StartsSelect(T())) {
    Expr* e = NewExpr(ExprKind::kSubquery, start);
    e->select = ParseSelect(d + 1);
    if (!e->select || !ExpectAt(Tk::kRp, d + 3)) return nullptr;
    SetHeight(e);
    Finish(e, start);
    return e;
  }
  Expr* first = ParseExpr(d + 1);
  if (!first) return nullptr;
  if (T() == Tk::kComma) {
    Expr* v = NewExpr(ExprKind::kVector, start);
    v->list = arena_->New<ExprList>();
    v->list->items.push_back(*arena_, Item(first));
    while (T() == Tk::kComma) {
      if (!CheckDepth(d + 3)) return nullptr;
      Advance();
      Expr* e = ParseExpr(d + 3);
      if (!e) return nullptr;
      v->list->items.push_back(*arena_, Item(e));
    }
    if (!ExpectAt(Tk::kRp, d + 5)) return nullptr;
    SetHeight(v);
    Finish(v, start);
    return v;
  }
  if (!ExpectAt(Tk::kRp, d + 3)) return nullptr;
  first->flags |= ast::kParenthesized;
  Finish(first, start);
  return first;
}

// CASE [operand] WHEN e THEN e ... [ELSE e] END
Expr* Parser::Impl::ParseCase(int d) {
  const char* start = cur_.z;
  Advance();  // CASE
  Expr* e = NewExpr(ExprKind::kCase, start);
  if (T() != Tk::kWhen) {
    e->left = ParseExpr(d + 1);
    if (!e->left) return nullptr;
  }
  if (T() != Tk::kWhen) return SyntaxError();
  e->list = arena_->New<ExprList>();
  int base = d + 3;
  while (T() == Tk::kWhen) {
    Advance();
    Expr* w = ParseExpr(base);
    if (!w || !Expect(Tk::kThen)) return nullptr;
    Expr* t = ParseExpr(base + 2);
    if (!t) return nullptr;
    e->list->items.push_back(*arena_, Item(w));
    e->list->items.push_back(*arena_, Item(t));
    base = d + 4;
  }
  if (T() == Tk::kElse) {
    Advance();
    e->right = ParseExpr(d + 4);
    if (!e->right) return nullptr;
  }
  if (!ExpectAt(Tk::kEnd, d + 5)) return nullptr;
  SetHeight(e);
  Finish(e, start);
  return e;
}

// CAST ( expr AS [type] )
Expr* Parser::Impl::ParseCast(int d) {
  const char* start = cur_.z;
  Advance();  // CAST
  if (!CheckDepth(d + 2) || !Expect(Tk::kLp)) return nullptr;
  Expr* e = NewExpr(ExprKind::kCast, start);
  e->left = ParseExpr(d + 2);
  if (!e->left || !ExpectAt(Tk::kAs, d + 4)) return nullptr;
  std::string_view type;
  if (!ParseTypeToken(&type, d + 4)) return nullptr;
  e->text = parser::DequoteSpan(arena_, type);
  if (!ExpectAt(Tk::kRp, d + 6)) return nullptr;
  e->height = e->left->height + 1;  // computed, not checked, as in SQLite
  Finish(e, start);
  return e;
}

// RAISE ( IGNORE ) | RAISE ( ROLLBACK|ABORT|FAIL , message )
Expr* Parser::Impl::ParseRaise(int d) {
  const char* start = cur_.z;
  Advance();  // RAISE
  if (!ExpectAt(Tk::kLp, d + 2)) return nullptr;
  Expr* e = NewExpr(ExprKind::kRaise, start);
  switch (T()) {
    case Tk::kIgnore:
      e->op = Op::kRaiseIgnore;
      if (!CheckDepth(d + 3)) return nullptr;
      Advance();
      if (!ExpectAt(Tk::kRp, d + 4)) return nullptr;
      Finish(e, start);
      return e;
    case Tk::kRollback:
      e->op = Op::kRaiseRollback;
      break;
    case Tk::kAbort:
      e->op = Op::kRaiseAbort;
      break;
    case Tk::kFail:
      e->op = Op::kRaiseFail;
      break;
    default:
      return SyntaxError();
  }
  if (!CheckDepth(d + 3)) return nullptr;
  Advance();
  if (!ExpectAt(Tk::kComma, d + 4)) return nullptr;
  if (IsNmToken(T()) && !CheckDepth(d + 5)) return nullptr;
  if (!ParseNm(&e->text)) return nullptr;
  if (!ExpectAt(Tk::kRp, d + 6)) return nullptr;
  Finish(e, start);
  return e;
}

// typetoken: [ids... [( signed [, signed] )]]; returns the raw text.
bool Parser::Impl::ParseTypeToken(std::string_view* out, int d) {
  *out = {};
  if (!IsIdsToken(T())) return true;
  const char* start = cur_.z;
  if (!CheckDepth(d + 1)) return false;
  Advance();
  while (IsIdsToken(T())) {
    if (!CheckDepth(d + 2)) return false;
    Advance();
  }
  if (T() == Tk::kLp) {
    if (!CheckDepth(d + 2)) return false;
    Advance();
    if (!ParseSignedNumber()) return false;
    if (T() == Tk::kComma) {
      if (!CheckDepth(d + 4)) return false;
      Advance();
      if (!ParseSignedNumber()) return false;
      if (!ExpectAt(Tk::kRp, d + 6)) return false;
    } else if (!ExpectAt(Tk::kRp, d + 4)) {
      return false;
    }
  }
  *out = SpanFrom(start);
  return true;
}

// signed: [+|-] INTEGER|FLOAT
Expr* Parser::Impl::ParseSignedNumber() {
  const char* start = cur_.z;
  bool neg = false;
  if (T() == Tk::kPlus || T() == Tk::kMinus) {
    neg = T() == Tk::kMinus;
    Advance();
  }
  if (T() != Tk::kInteger && T() != Tk::kFloat) return SyntaxError();
  bool saved = in_schema_ddl_;
  in_schema_ddl_ = true;  // a type's size is never evaluated
  Expr* e = ParseNumber(cur_.z);
  in_schema_ddl_ = saved;
  if (neg) return MakeUnary(Op::kNeg, e, start);
  return e;
}

}  // namespace basalt
