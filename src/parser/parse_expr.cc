// Expressions: precedence climbing over the operator table (operators.h).
//
// Binding (loosest first; all binary operators are left-associative):
//   OR | AND | NOT (prefix) | = == != <> IS [NOT] IN LIKE GLOB MATCH REGEXP
//   BETWEEN ISNULL NOTNULL [NOT] NULL | < <= > >= | ESCAPE | & | << >> |
//   + - | * / % | || -> ->> | COLLATE (postfix) | - + ~ (prefix)
//
// Notes that follow from SQLite's LALR grammar:
//  - the operand of prefix NOT extends over everything binding tighter than
//    NOT, so `NOT a = b` is NOT (a = b); the operand of - + ~ is a single
//    primary (with nested prefixes), so `-a COLLATE x` is (-a) COLLATE x;
//  - the middle operand of BETWEEN may hold any operator except a top-level
//    AND (`a BETWEEN b OR c AND d ...` lets OR take `c AND d`);
//  - the right operand of a LIKE-family operator and of ESCAPE bind tighter
//    than the equality level.
#include <algorithm>

#include "common/assert.h"

#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;
using parser::Tk;

// ---- binary operators ---------------------------------------------------------

namespace {

// The operator a token stands for after an operand: a binary operator of
// operators.h (the LIKE family and IS included; `->` for both arrows), or
// kNone.
constexpr Op BinaryOpOfToken(Tk t) {
  switch (t) {
    case Tk::kOr:
      return Op::kOr;
    case Tk::kAnd:
      return Op::kAnd;
    case Tk::kEq:
      return Op::kEq;
    case Tk::kNe:
      return Op::kNe;
    case Tk::kIs:
      return Op::kIs;
    case Tk::kLike:
      return Op::kLike;
    case Tk::kGlob:
      return Op::kGlob;
    case Tk::kRegexp:
      return Op::kRegexp;
    case Tk::kMatch:
      return Op::kMatch;
    case Tk::kLt:
      return Op::kLt;
    case Tk::kLe:
      return Op::kLe;
    case Tk::kGt:
      return Op::kGt;
    case Tk::kGe:
      return Op::kGe;
    case Tk::kBitAnd:
      return Op::kBitAnd;
    case Tk::kBitOr:
      return Op::kBitOr;
    case Tk::kLshift:
      return Op::kShl;
    case Tk::kRshift:
      return Op::kShr;
    case Tk::kPlus:
      return Op::kAdd;
    case Tk::kMinus:
      return Op::kSub;
    case Tk::kStar:
      return Op::kMul;
    case Tk::kSlash:
      return Op::kDiv;
    case Tk::kRem:
      return Op::kMod;
    case Tk::kConcat:
      return Op::kConcat;
    case Tk::kPtr:
      return Op::kJsonArrow;
    default:
      return Op::kNone;
  }
}

// Precedence of the tokens after an operand that start a shape of their own
// (not `left op right`), kPrecNone if the token ends the expression.
constexpr int ShapePrec(Tk t) {
  switch (t) {
    case Tk::kIn:
    case Tk::kBetween:
    case Tk::kIsnull:
    case Tk::kNotnull:
    case Tk::kNot:
      return parser::kPrecEquality;
    case Tk::kCollate:
      return parser::kPrecCollate;
    default:
      return parser::kPrecNone;
  }
}

// What a token after an operand does, looked up once per token type.
struct TokenOperator {
  Op op = Op::kNone;  // kNone: a shape of its own, or the end of the expression
  int8_t prec = parser::kPrecNone;
};
constexpr std::array<TokenOperator, static_cast<size_t>(Tk::kCount)> kTokenOperators = [] {
  std::array<TokenOperator, static_cast<size_t>(Tk::kCount)> t{};
  for (size_t i = 0; i < t.size(); ++i) {
    Tk tk = static_cast<Tk>(i);
    Op op = BinaryOpOfToken(tk);
    t[i].op = op;
    t[i].prec = static_cast<int8_t>(op != Op::kNone ? OperatorOf(op).prec : ShapePrec(tk));
  }
  return t;
}();

}  // namespace

// An integer literal 0 (also written 00 or 0x0, or in parentheses); not a
// hexadecimal literal too large for 64 bits, which is an error later.
bool Parser::Impl::IsZeroLiteral(const Expr* e) const {
  return e->kind == ExprKind::kInteger && e->ival == 0 && e != bad_hex_ && !e->text.empty() &&
         e->text[0] != '-';
}

// The literal 0 a constant-false AND becomes, spanning the whole AND.
Expr* Parser::Impl::ZeroLiteral(const char* start) {
  Expr* e = NewExpr(ExprKind::kInteger, start);
  e->ival = 0;
  e->text = "0";
  SetHeight(e);
  Finish(e, start);
  return e;
}

Expr* Parser::Impl::ParseBinary(int min_prec, int d, bool stop_at_and) {
  const char* start = cur_.z;
  Expr* left = ParseUnary(d);
  if (!left) return nullptr;
  if (left->kind == ExprKind::kStar) return left;  // `t.*` result column: nothing follows
  for (;;) {
    if (T() == Tk::kAnd && stop_at_and) return left;
    const TokenOperator& to = kTokenOperators[static_cast<size_t>(T())];
    Op op = to.op;
    int prec = to.prec;
    if (prec == parser::kPrecNone || prec < min_prec) return left;
    if (op == Op::kJsonArrow && cur_.n == 3) op = Op::kJsonArrow2;
    if (!CheckDepth(d + 2)) return nullptr;

    // IS and the LIKE family have shapes of their own (IS NOT, ESCAPE).
    bool shaped = op == Op::kIs || op == Op::kLike || op == Op::kGlob || op == Op::kRegexp ||
                  op == Op::kMatch;
    if (op != Op::kNone && !shaped) {
      Advance();
      Expr* right = ParseBinary(RightOperandPrec(OperatorOf(op)), d + 2, false);
      if (!right) return nullptr;
      if (op == Op::kAnd && !rename_mode_ && (IsZeroLiteral(left) || IsZeroLiteral(right))) {
        // The dropped operands are never compiled: an oversized hex literal
        // in them is no error (the first one is the only one noted).
        if (bad_hex_ != nullptr && bad_hex_->span.data() >= start) bad_hex_ = nullptr;
        left = ZeroLiteral(start);
        continue;
      }
      left = MakeBinary(op, left, right, start);
      continue;
    }

    // Operators with their own shapes.
    Tk t = T();
    bool negated = false;
    if (t == Tk::kNot) {
      Tk next = Peek(1).type;
      if (next == Tk::kNull) {
        Advance();
        if (!CheckDepth(d + 3)) return nullptr;
        Advance();
        Expr* e = NewExpr(ExprKind::kNotNull, start);
        e->left = left;
        SetHeight(e);
        Finish(e, start);
        left = e;
        continue;
      }
      if (next != Tk::kLike && next != Tk::kGlob && next != Tk::kRegexp && next != Tk::kMatch &&
          next != Tk::kBetween && next != Tk::kIn) {
        Advance();  // NOT is valid here; what follows it is not
        return SyntaxError();
      }
      Advance();
      negated = true;
      t = T();
    }
    switch (t) {
      case Tk::kIsnull:
      case Tk::kNotnull: {
        Advance();
        Expr* e = NewExpr(t == Tk::kIsnull ? ExprKind::kIsNull : ExprKind::kNotNull, start);
        e->left = left;
        SetHeight(e);
        Finish(e, start);
        left = e;
        break;
      }
      case Tk::kCollate: {
        Advance();
        if (!IsIdsToken(T())) return SyntaxError();
        if (!CheckDepth(d + 3)) return nullptr;
        Expr* e = NewExpr(ExprKind::kCollate, start);
        e->left = left;
        e->text = NameOf(cur_);
        Advance();
        SetHeight(e);
        Finish(e, start);
        left = e;
        break;
      }
      case Tk::kIs:
        left = ParseIs(left, start, d);
        break;
      case Tk::kIn:
        left = ParseIn(left, negated, start, d);
        break;
      case Tk::kBetween:
        left = ParseBetween(left, negated, start, d);
        break;
      default:
        left = ParseLike(left, negated, start, d);
        break;
    }
    if (!left) return nullptr;
  }
}

Expr* Parser::Impl::ParseIs(Expr* left, const char* start, int d) {
  Advance();  // IS
  Op op = Op::kIs;
  int rd = d + 2;
  if (T() == Tk::kNot) {
    Advance();
    op = Op::kIsNot;
    rd = d + 3;
    if (T() == Tk::kDistinct) {  // IS NOT DISTINCT FROM: same as IS
      Advance();
      if (!Expect(Tk::kFrom)) return nullptr;
      op = Op::kIs;
      rd = d + 5;
    }
  } else if (T() == Tk::kDistinct) {  // IS DISTINCT FROM: same as IS NOT
    Advance();
    if (!Expect(Tk::kFrom)) return nullptr;
    op = Op::kIsNot;
    rd = d + 4;
  }
  Expr* right = ParseBinary(RightOperandPrec(OperatorOf(op)), rd, false);
  if (!right) return nullptr;
  return MakeBinary(op, left, right, start);
}

Expr* Parser::Impl::ParseIn(Expr* left, bool negated, const char* start, int d) {
  Advance();  // IN
  Expr* e = NewExpr(ExprKind::kIn, start);
  e->left = left;
  if (negated) e->flags |= ast::kNot;
  if (T() == Tk::kLp) {
    if (!CheckDepth(d + 3)) return nullptr;
    Advance();
    if (StartsSelect(T())) {
      e->select = ParseSelect(d + 3);
      if (!e->select) return nullptr;
    } else if (T() == Tk::kRp) {
      if (!CheckDepth(d + 4)) return nullptr;  // the empty exprlist
      e->list = arena_->New<ExprList>();
    } else {
      e->list = ParseNExprList(d + 3);
      if (!e->list) return nullptr;
    }
    if (!ExpectAt(Tk::kRp, d + 5)) return nullptr;
    if (left->kind == ExprKind::kVector && e->list && e->list->size() > 0) {
      // A row value on the left needs row values of the same size on the right.
      size_t want = left->list->size();
      for (const ast::ExprItem& it : e->list->items) {
        size_t got = it.expr->kind == ExprKind::kVector ? it.expr->list->size() : 1;
        if (got != want) {
          Error("IN(...) element has " + std::to_string(got) + (got > 1 ? " terms" : " term") +
                " - expected " + std::to_string(want));
          break;
        }
      }
    }
  } else if (IsNmToken(T())) {
    if (!ParseFullName(&e->schema, &e->text)) return nullptr;
    if (T() == Tk::kLp) {  // table-valued function
      Advance();
      if (T() == Tk::kRp) {
        e->list = arena_->New<ExprList>();
      } else {
        e->list = ParseNExprList(d + 5);
        if (!e->list) return nullptr;
      }
      if (!ExpectAt(Tk::kRp, d + 7)) return nullptr;
    }
  } else {
    return SyntaxError();
  }
  if (!e->text.empty()) {
    // SQLite counts `x IN t(args)` as x IN (SELECT * FROM t(args)): the
    // arguments do not add to the height.
    ExprList* args = e->list;
    e->list = nullptr;
    SetHeight(e);
    e->list = args;
  } else {
    SetHeight(e);
  }
  Finish(e, start);
  return e;
}

Expr* Parser::Impl::ParseBetween(Expr* left, bool negated, const char* start, int d) {
  Advance();  // BETWEEN
  Expr* low = ParseBinary(parser::kPrecOr, d + 2, true);
  if (!low) return nullptr;
  if (!Expect(Tk::kAnd)) return nullptr;
  Expr* high = ParseBinary(parser::kPrecEquality + 1, d + 4, false);
  if (!high) return nullptr;
  Expr* e = NewExpr(ExprKind::kBetween, start);
  e->left = left;
  if (negated) e->flags |= ast::kNot;
  e->list = arena_->New<ExprList>();
  e->list->items.push_back(*arena_, Item(low));
  e->list->items.push_back(*arena_, Item(high));
  SetHeight(e);
  Finish(e, start);
  return e;
}

Expr* Parser::Impl::ParseLike(Expr* left, bool negated, const char* start, int d) {
  Op op = BinaryOpOfToken(T());
  BASALT_DCHECK(op == Op::kLike || op == Op::kGlob || op == Op::kRegexp || op == Op::kMatch);
  Advance();
  Expr* right = ParseBinary(RightOperandPrec(OperatorOf(op)), d + 2, false);
  if (!right) return nullptr;
  Expr* e = NewExpr(ExprKind::kLike, start);
  e->op = op;
  e->left = left;
  e->right = right;
  if (negated) e->flags |= ast::kNot;
  if (T() == Tk::kEscape) {
    if (!CheckDepth(d + 4)) return nullptr;
    Advance();
    e->escape = ParseBinary(parser::kPrecEquality + 1, d + 4, false);
    if (!e->escape) return nullptr;
  }
  SetHeight(e);
  Finish(e, start);
  return e;
}

// ---- prefix operators and primaries -------------------------------------------------

Expr* Parser::Impl::ParseUnary(int d) {
  const char* start = cur_.z;
  Op op;
  switch (T()) {
    case Tk::kNot:
      op = Op::kNot;
      break;
    case Tk::kMinus:
      op = Op::kNeg;
      break;
    case Tk::kPlus:
      op = Op::kPlus;
      break;
    case Tk::kBitNot:
      op = Op::kBitNot;
      break;
    default:
      return ParsePrimary(d);
  }
  int prec = OperatorOf(op).prec;
  if (!CheckDepth(d + 1)) return nullptr;
  Advance();
  Expr* operand = ParseBinary(prec, d + 1, false);
  if (!operand) return nullptr;
  return MakeUnary(op, operand, start);
}

Expr* Parser::Impl::ParseNumber(const char* start) {
  Expr* e;
  std::string_view text = cur_.text();
  if (T() == Tk::kFloat) {
    e = NewExpr(ExprKind::kReal, start);
    e->rval = parser::RealLiteral(text);
  } else {
    int64_t v = 0;
    int rc = parser::IntegerLiteral(text, &v);
    if (rc == 0) {
      e = NewExpr(ExprKind::kInteger, start);
      e->ival = v;
    } else if (rc == 2) {
      e = NewExpr(ExprKind::kInteger, start);
      e->ival = 0;
      if (bad_hex_ == nullptr && !in_schema_ddl_) bad_hex_ = e;
    } else {
      e = NewExpr(ExprKind::kReal, start);
      e->rval = parser::RealLiteral(text);
    }
  }
  e->text = text;
  Advance();
  Finish(e, start);
  return e;
}

Expr* Parser::Impl::ParseParam() {
  const char* start = cur_.z;
  Expr* e = NewExpr(ExprKind::kParam, start);
  e->text = cur_.text();
  Advance();
  Finish(e, start);
  if (e->text[0] == '#' && e->text.size() > 1 && e->text[1] >= '0' && e->text[1] <= '9') {
    // #N names a register in SQLite's nested parses; not allowed in SQL text.
    Error("near \"" + std::string(e->text) + "\": syntax error");
    return e;
  }
  AssignParam(e);
  return e;
}

Expr* Parser::Impl::ParsePrimary(int d) {
  const char* start = cur_.z;
  switch (T()) {
    case Tk::kInteger:
    case Tk::kFloat:
    case Tk::kString:
    case Tk::kBlob:
    case Tk::kNull:
    case Tk::kVariable:
    case Tk::kLp:
    case Tk::kCast:
    case Tk::kCase:
    case Tk::kRaise:
    case Tk::kExists:
    case Tk::kCurrentTime:
    case Tk::kCurrentDate:
    case Tk::kCurrentTimestamp:
      break;
    default:
      if (!IsIdOrIndexed(T()) && !IsJoinKw(T())) return SyntaxError();
      break;
  }
  if (!CheckDepth(d + 1)) return nullptr;
  switch (T()) {
    case Tk::kInteger:
    case Tk::kFloat:
      return ParseNumber(start);
    case Tk::kString:
      return ParseIdentifierExpr(d);
    case Tk::kBlob: {
      Expr* e = NewExpr(ExprKind::kBlob, start);
      e->text = parser::DecodeBlob(arena_, cur_.text());
      Advance();
      Finish(e, start);
      return e;
    }
    case Tk::kNull: {
      Expr* e = NewExpr(ExprKind::kNull, start);
      Advance();
      Finish(e, start);
      return e;
    }
    case Tk::kVariable:
      return ParseParam();
    case Tk::kLp:
      return ParseParenthesized(d);
    case Tk::kCast:
      return ParseCast(d);
    case Tk::kCase:
      return ParseCase(d);
    case Tk::kRaise:
      return ParseRaise(d);
    case Tk::kExists: {
      Advance();
      if (!CheckDepth(d + 2) || !Expect(Tk::kLp)) return nullptr;
      Expr* e = NewExpr(ExprKind::kExists, start);
      e->select = ParseSelect(d + 2);
      if (!e->select || !ExpectAt(Tk::kRp, d + 4)) return nullptr;
      SetHeight(e);
      Finish(e, start);
      return e;
    }
    case Tk::kCurrentTime:
    case Tk::kCurrentDate:
    case Tk::kCurrentTimestamp: {
      Expr* e = NewExpr(ExprKind::kCurrentTime, start);
      e->op = T() == Tk::kCurrentTime   ? Op::kCurTime
              : T() == Tk::kCurrentDate ? Op::kCurDate
                                        : Op::kCurTimestamp;
      Advance();
      Finish(e, start);
      return e;
    }
    default:
      return ParseIdentifierExpr(d);
  }
}

// id | JOIN_KW | 'string' | nm.nm | nm.nm.nm | id(args...), and `nm.*` when it
// starts a result column (star_start_). The current token is the first word.
Expr* Parser::Impl::ParseIdentifierExpr(int d) {
  const char* start = cur_.z;
  Token first = cur_;
  Advance();
  if (T() == Tk::kLp && IsIdOrIndexed(first.type)) {
    if (!CheckDepth(d + 2)) return nullptr;
    Advance();
    Expr* f = NewExpr(ExprKind::kFunction, start);
    f->text = NameOf(first);
    return ParseFunctionTail(f, first.text(), d);
  }
  if (T() == Tk::kDot) {
    if (!CheckDepth(d + 2)) return nullptr;
    Advance();
    if (T() == Tk::kStar && start == star_start_) {
      if (!CheckDepth(d + 3)) return nullptr;
      Advance();
      Expr* e = NewExpr(ExprKind::kStar, start);
      e->table = NameOf(first);
      Finish(e, start);
      return e;
    }
    if (!IsNmToken(T())) return SyntaxError();
    if (!CheckDepth(d + 3)) return nullptr;
    Expr* e = NewExpr(ExprKind::kColumn, start);
    std::string_view a = NameOf(first);
    std::string_view b = NameOf(cur_);
    Advance();
    if (T() == Tk::kDot) {
      if (!CheckDepth(d + 4)) return nullptr;
      Advance();
      if (!IsNmToken(T())) return SyntaxError();
      if (!CheckDepth(d + 5)) return nullptr;
      e->schema = a;
      e->table = b;
      e->text = NameOf(cur_);
      Advance();
    } else {
      e->table = a;
      e->text = b;
    }
    Finish(e, start);
    return e;
  }
  Expr* e;
  if (first.type == Tk::kString) {
    e = NewExpr(ExprKind::kString, start);
  } else {
    e = NewExpr(ExprKind::kColumn, start);
    if (first.z[0] == '"') e->flags |= ast::kDoubleQuoted;
  }
  e->text = NameOf(first);
  Finish(e, start);
  return e;
}

// After `name(`: [DISTINCT|ALL] args | * , then ')' and FILTER / OVER.
}  // namespace basalt
