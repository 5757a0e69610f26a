// Binding window function calls: where they may appear, the window they use
// (OVER name, OVER (base ...) merged with the WINDOW clause), and the checks
// SQLite makes while preparing. Offsets of frames are checked when the
// statement runs (exec/vm_window.cc), as SQLite does.
#include "parser/parser.h"
#include "planner/bind_internal.h"
#include "planner/resolve.h"
#include "planner/walk.h"
#include "planner/window_info.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::FrameBound;
using ast::FrameUnit;
using ast::Window;
using namespace bind;

namespace {

const Window* FindWindowDef(const ast::Select* s, std::string_view name) {
  if (s == nullptr) return nullptr;
  // With two definitions of one name, the later one is used (as in SQLite).
  for (size_t i = s->windows.size(); i-- > 0;) {
    if (EqualsIgnoreCase(s->windows[i]->name, name)) return s->windows[i];
  }
  return nullptr;
}

bool HasOffset(FrameBound b) { return b == FrameBound::kPreceding || b == FrameBound::kFollowing; }

}  // namespace

// The window `w` means, with its base window's clauses copied in; null with
// the error recorded when a name is unknown or a clause is overridden.
Window* Resolver::MergeWindow(const Window* w, ast::Select* s, int depth) {
  if (depth > 64) {
    ctx_->Error("no such window: " + std::string(w->base));
    return nullptr;
  }
  Window* out = ctx_->arena->New<Window>(*w);
  if (w->base.empty()) return out;
  const Window* b = FindWindowDef(s, w->base);
  if (b == nullptr) {
    ctx_->Error("no such window: " + std::string(w->base));
    return nullptr;
  }
  Window* base = MergeWindow(b, s, depth + 1);
  if (base == nullptr) return nullptr;
  std::string which;
  if (w->partition != nullptr) {
    which = "PARTITION clause";
  } else if (w->order != nullptr && base->order != nullptr) {
    which = "ORDER BY clause";
  } else if (base->unit != FrameUnit::kNone) {
    which = "frame specification";
  }
  if (!which.empty()) {
    ctx_->Error("cannot override " + which + " of window: " + std::string(w->base));
    return nullptr;
  }
  out->base = {};
  out->partition = base->partition;
  if (out->order == nullptr) out->order = base->order;
  return out;
}

bool Resolver::ResolveWindowExprs(Window* w, Scope* scope) {
  // SQLite sorts by PARTITION BY then ORDER BY: one ORDER BY as far as the limit goes.
  size_t terms = (w->partition ? w->partition->size() : 0) + (w->order ? w->order->size() : 0);
  if (terms > static_cast<size_t>(ctx_->options.max_columns)) {
    return ctx_->Error("too many terms in ORDER BY clause");
  }
  if (!ResolveList(w->partition, scope)) return false;
  if (w->order != nullptr) {
    if (!ResolveList(w->order, scope)) return false;
    w->order = ExpandNullsOrder(w->order);
  }
  // Frame offsets are constants; one that reads a column or a subquery is
  // NULL here (the run-time check then rejects it, as SQLite does).
  for (Expr** p : {&w->start_expr, &w->end_expr}) {
    if (*p == nullptr) continue;
    bool has_column = false;
    auto find_column = [&](Expr* x) {
      if (x->kind == ExprKind::kColumn || x->kind == ExprKind::kSubquery ||
          x->kind == ExprKind::kExists) {
        has_column = true;
      }
      return true;
    };
    WalkExpr(*p, find_column);
    if (has_column) {
      Expr* null = ctx_->arena->New<Expr>();
      null->kind = ExprKind::kNull;
      *p = null;
    }
    Scope empty;
    if (!ResolveExpr(*p, &empty)) return false;
  }
  return true;
}

bool Resolver::ResolveWindowCall(Expr* e, Scope* scope, const FunctionDef* def) {
  std::string name(e->text);
  bool window_only = (def->flags & kFuncWindowOnly) != 0;
  if (e->over == nullptr || scope->win == nullptr || agg_depth_ > 0 || win_depth_ > 0) {
    return ctx_->ErrorAt(e->span, "misuse of window function " + name + "()");
  }
  // An aggregate without value() (sqlite3_create_function) is no window
  // function either (SQLite 3.40 refuses it too).
  if (!window_only && ((def->flags & kFuncAggregate) == 0 || def->value == nullptr)) {
    return ctx_->ErrorAt(e->span, name + "() may not be used as a window function");
  }
  if (e->has(ast::kDistinct)) {
    return ctx_->Error("DISTINCT is not supported for window functions");
  }
  int nargs = e->list ? static_cast<int>(e->list->size()) : 0;
  if (e->has(ast::kStarArg) && !(nargs == 0 && !window_only)) {
    return ctx_->Error("wrong number of arguments to function " + name + "()");
  }
  WindowInfo* info = scope->win;
  const Window* over = e->over;
  bool by_name = !over->name.empty() && over->base.empty() && over->partition == nullptr &&
                 over->order == nullptr && over->unit == FrameUnit::kNone;
  if (by_name) {
    over = FindWindowDef(info->select, over->name);
    if (over == nullptr) return ctx_->Error("no such window: " + std::string(e->over->name));
  }
  Window* w = MergeWindow(over, info->select, 0);
  if (w == nullptr) return false;
  bool range_offset = w->unit == FrameUnit::kRange && (HasOffset(w->start) || HasOffset(w->end));
  if (range_offset && (w->order == nullptr || w->order->size() != 1)) {
    return ctx_->Error("RANGE with offset PRECEDING/FOLLOWING requires one ORDER BY expression");
  }
  if (window_only && e->filter != nullptr) {
    return ctx_->Error("FILTER clause may only be used with aggregate window functions");
  }
  ++win_depth_;
  bool ok = ResolveList(e->list, scope) &&
            (e->filter == nullptr || ResolveExpr(e->filter, scope)) && ResolveWindowExprs(w, scope);
  --win_depth_;
  if (!ok) return false;
  WinFunc f;
  f.call = e;
  f.def = def;
  f.win = w;
  if (def->flags & kFuncNeedsCollation) {
    for (int i = 0; i < nargs && f.coll == nullptr; ++i) {
      f.coll = ExprCollation((*e->list)[static_cast<size_t>(i)]);
    }
  }
  e->over = w;  // walkers see the merged window's PARTITION BY and ORDER BY
  e->column = static_cast<int32_t>(info->funcs.size());
  e->agg = -1;
  info->funcs.push_back(f);
  return true;
}

}  // namespace basalt
