// Expressions: precedence climbing over SQLite's operator table.
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
#include <cstring>
#include <new>
#include <type_traits>

#include "parser/parser_impl.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Op;
using parser::Prec;
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
  if (h > parser::kMaxExprHeight) {
    Error("Expression tree is too large (maximum depth " + std::to_string(parser::kMaxExprHeight) +
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

// ---- binary operators ---------------------------------------------------------

Expr* Parser::Impl::ParseBinary(int min_prec, int d, bool stop_at_and) {
  const char* start = cur_.z;
  Expr* left = ParseUnary(d);
  if (!left) return nullptr;
  if (left->kind == ExprKind::kStar) return left;  // `t.*` result column: nothing follows
  for (;;) {
    Op op = Op::kNone;
    int prec;
    switch (T()) {
      case Tk::kOr:
        prec = parser::kPrecOr;
        op = Op::kOr;
        break;
      case Tk::kAnd:
        if (stop_at_and) return left;
        prec = parser::kPrecAnd;
        op = Op::kAnd;
        break;
      case Tk::kEq:
        prec = parser::kPrecEquality;
        op = Op::kEq;
        break;
      case Tk::kNe:
        prec = parser::kPrecEquality;
        op = Op::kNe;
        break;
      case Tk::kIs:
      case Tk::kIn:
      case Tk::kLike:
      case Tk::kGlob:
      case Tk::kRegexp:
      case Tk::kMatch:
      case Tk::kBetween:
      case Tk::kIsnull:
      case Tk::kNotnull:
      case Tk::kNot:
        prec = parser::kPrecEquality;
        break;
      case Tk::kLt:
        prec = parser::kPrecCompare;
        op = Op::kLt;
        break;
      case Tk::kLe:
        prec = parser::kPrecCompare;
        op = Op::kLe;
        break;
      case Tk::kGt:
        prec = parser::kPrecCompare;
        op = Op::kGt;
        break;
      case Tk::kGe:
        prec = parser::kPrecCompare;
        op = Op::kGe;
        break;
      case Tk::kBitAnd:
        prec = parser::kPrecBitwise;
        op = Op::kBitAnd;
        break;
      case Tk::kBitOr:
        prec = parser::kPrecBitwise;
        op = Op::kBitOr;
        break;
      case Tk::kLshift:
        prec = parser::kPrecBitwise;
        op = Op::kShl;
        break;
      case Tk::kRshift:
        prec = parser::kPrecBitwise;
        op = Op::kShr;
        break;
      case Tk::kPlus:
        prec = parser::kPrecAdd;
        op = Op::kAdd;
        break;
      case Tk::kMinus:
        prec = parser::kPrecAdd;
        op = Op::kSub;
        break;
      case Tk::kStar:
        prec = parser::kPrecMul;
        op = Op::kMul;
        break;
      case Tk::kSlash:
        prec = parser::kPrecMul;
        op = Op::kDiv;
        break;
      case Tk::kRem:
        prec = parser::kPrecMul;
        op = Op::kMod;
        break;
      case Tk::kConcat:
        prec = parser::kPrecConcat;
        op = Op::kConcat;
        break;
      case Tk::kPtr:
        prec = parser::kPrecConcat;
        op = cur_.n == 2 ? Op::kJsonArrow : Op::kJsonArrow2;
        break;
      case Tk::kCollate:
        prec = parser::kPrecCollate;
        break;
      default:
        return left;
    }
    if (prec < min_prec) return left;
    if (!CheckDepth(d + 2)) return nullptr;

    if (op != Op::kNone) {
      Advance();
      Expr* right = ParseBinary(prec + 1, d + 2, false);
      if (!right) return nullptr;
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
  Expr* right = ParseBinary(parser::kPrecEquality + 1, rd, false);
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
  Op op;
  switch (T()) {
    case Tk::kLike:
      op = Op::kLike;
      break;
    case Tk::kGlob:
      op = Op::kGlob;
      break;
    case Tk::kRegexp:
      op = Op::kRegexp;
      break;
    default:
      op = Op::kMatch;
      break;
  }
  Advance();
  Expr* right = ParseBinary(parser::kPrecEquality + 1, d + 2, false);
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
  int prec;
  switch (T()) {
    case Tk::kNot:
      op = Op::kNot;
      prec = parser::kPrecNot;
      break;
    case Tk::kMinus:
      op = Op::kNeg;
      prec = parser::kPrecUnary;
      break;
    case Tk::kPlus:
      op = Op::kPlus;
      prec = parser::kPrecUnary;
      break;
    case Tk::kBitNot:
      op = Op::kBitNot;
      prec = parser::kPrecUnary;
      break;
    default:
      return ParsePrimary(d);
  }
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
  if (f->list && f->list->size() > static_cast<size_t>(parser::kMaxFunctionArgs)) {
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
