// Window functions: FILTER, OVER, window definitions and frames.
//
//   filter_over: [FILTER ( WHERE expr )] [OVER ( window ) | OVER name]
//   window:      [base] [PARTITION BY exprs] [ORDER BY sortlist] [frame]
//   frame:       RANGE|ROWS|GROUPS bound | ... BETWEEN bound AND bound,
//                then [EXCLUDE NO OTHERS | CURRENT ROW | GROUP | TIES]
//   bound:       UNBOUNDED PRECEDING|FOLLOWING | CURRENT ROW | expr PRECEDING|FOLLOWING
//
// Window names are kept as written (SQLite compares them without dequoting).
#include "parser/parser_impl.h"

namespace basalt {

using ast::FrameBound;
using ast::FrameUnit;
using ast::Window;
using parser::Tk;

bool Parser::Impl::ParseFilterOver(ast::Expr* f, int d) {
  // filter_over sits at d + 6, after `name ( distinct exprlist )`.
  int o = d + 6;
  if (T() == Tk::kFilter) {
    Advance();
    if (!ExpectAt(Tk::kLp, d + 7) || !ExpectAt(Tk::kWhere, d + 8)) return false;
    f->filter = ParseExpr(d + 8);
    if (!f->filter || !ExpectAt(Tk::kRp, d + 10)) return false;
    o = d + 7;
  }
  if (T() == Tk::kOver) {
    Advance();
    if (T() == Tk::kLp) {
      if (!CheckDepth(o + 1)) return false;
      Advance();
      f->over = ParseWindowBody(o + 1);
      if (!f->over || !ExpectAt(Tk::kRp, o + 3)) return false;
    } else if (IsNmToken(T())) {
      f->over = arena_->New<Window>();
      f->over->name = cur_.text();
      Advance();
    } else {
      SyntaxError();
      return false;
    }
  }
  return true;
}

Window* Parser::Impl::ParseWindowBody(int d) {
  Window* w = arena_->New<Window>();
  Tk t = T();
  if (IsNmToken(t) && t != Tk::kPartition && t != Tk::kRange && t != Tk::kRows &&
      t != Tk::kGroups) {
    w->base = cur_.text();
    Advance();
    d += 1;
  }
  if (T() == Tk::kPartition) {
    Advance();
    if (!Expect(Tk::kBy)) return nullptr;
    w->partition = ParseNExprList(d + 2);
    if (!w->partition) return nullptr;
    if (T() == Tk::kOrder) {
      Advance();
      if (!Expect(Tk::kBy)) return nullptr;
      w->order = ParseSortList(d + 5);
      if (!w->order) return nullptr;
    }
  } else if (T() == Tk::kOrder) {
    Advance();
    if (!Expect(Tk::kBy)) return nullptr;
    w->order = ParseSortList(d + 2);
    if (!w->order) return nullptr;
  }
  int f = w->partition ? d + 4 : w->order ? d + 3 : d;  // before frame_opt
  if (T() == Tk::kRange || T() == Tk::kRows || T() == Tk::kGroups) {
    if (!ParseFrame(w, f)) return nullptr;
  } else if (!CheckDepth(f + 1)) {  // the empty frame_opt
    return nullptr;
  }
  return w;
}

bool Parser::Impl::ParseFrame(Window* w, int d) {
  w->unit = T() == Tk::kRange  ? FrameUnit::kRange
            : T() == Tk::kRows ? FrameUnit::kRows
                               : FrameUnit::kGroups;
  Advance();
  // One bound; `is_start` picks which UNBOUNDED direction is allowed.
  auto bound = [&](bool is_start, FrameBound* kind, ast::Expr** expr, int depth) -> bool {
    if (T() == Tk::kUnbounded) {
      Advance();
      if (!Expect(is_start ? Tk::kPreceding : Tk::kFollowing)) return false;
      *kind = is_start ? FrameBound::kUnboundedPreceding : FrameBound::kUnboundedFollowing;
      return true;
    }
    if (T() == Tk::kCurrent) {
      Advance();
      if (!Expect(Tk::kRow)) return false;
      *kind = FrameBound::kCurrentRow;
      return true;
    }
    *expr = ParseExpr(depth);
    if (!*expr) return false;
    if (T() == Tk::kPreceding) {
      *kind = FrameBound::kPreceding;
    } else if (T() == Tk::kFollowing) {
      *kind = FrameBound::kFollowing;
    } else {
      SyntaxError();
      return false;
    }
    Advance();
    return true;
  };
  if (T() == Tk::kBetween) {
    Advance();
    if (!bound(true, &w->start, &w->start_expr, d + 2)) return false;
    if (!Expect(Tk::kAnd)) return false;
    if (!bound(false, &w->end, &w->end_expr, d + 4)) return false;
  } else {
    if (!bound(true, &w->start, &w->start_expr, d + 1)) return false;
    w->end = FrameBound::kCurrentRow;
  }
  if (T() == Tk::kExclude) {
    Advance();
    switch (T()) {
      case Tk::kNo:
        Advance();
        if (!Expect(Tk::kOthers)) return false;
        w->exclude = ast::FrameExclude::kNoOthers;
        break;
      case Tk::kCurrent:
        Advance();
        if (!Expect(Tk::kRow)) return false;
        w->exclude = ast::FrameExclude::kCurrentRow;
        break;
      case Tk::kGroup:
        Advance();
        w->exclude = ast::FrameExclude::kGroup;
        break;
      case Tk::kTies:
        Advance();
        w->exclude = ast::FrameExclude::kTies;
        break;
      default:
        SyntaxError();
        return false;
    }
  }
  // Frames that end before they start are rejected while parsing.
  bool bad = (w->start == FrameBound::kCurrentRow && w->end == FrameBound::kPreceding) ||
             (w->start == FrameBound::kFollowing &&
              (w->end == FrameBound::kPreceding || w->end == FrameBound::kCurrentRow));
  if (bad) Error("unsupported frame specification");
  return true;
}

bool Parser::Impl::ParseWindowClause(ast::Select* s, int d) {
  Advance();  // WINDOW
  int depth = d + 1;
  do {
    if (!IsNmToken(T())) {
      SyntaxError();
      return false;
    }
    std::string_view name = cur_.text();
    Advance();
    if (!Expect(Tk::kAs) || !Expect(Tk::kLp)) return false;
    Window* w = ParseWindowBody(depth + 3);
    if (!w || !Expect(Tk::kRp)) return false;
    w->name = name;
    s->windows.push_back(*arena_, w);
    depth = d + 3;
  } while (Accept(Tk::kComma));
  return true;
}

}  // namespace basalt
