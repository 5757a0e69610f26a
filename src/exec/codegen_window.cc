// Window functions in a SELECT core (the stages are described in
// exec/window.h).
//
//  1. SetupSink calls PrepareWindows before the core's loops: the "leaves"
//     the output needs (columns of the core's sources, the core's aggregate
//     results) are listed, the window functions are grouped into stages by
//     PARTITION BY + ORDER BY, and each stage's sorter is opened.
//  2. Each row the core produces (after WHERE, or after GROUP BY / HAVING)
//     goes to the first stage's sorter (ProduceRow → CodeWindowFeed) with
//     the stage's keys, arguments and FILTER flags, and the leaves as
//     payload.
//  3. After the core, CodeWindowStages runs the stages in turn: WinNext
//     returns the rows of a stage in its order with its functions' values;
//     each row feeds the next stage, and the last stage's rows go through
//     the row pipeline (result columns, DISTINCT, ORDER BY, LIMIT) with the
//     leaves and window values read from registers.
//
// SQLite computes the functions of one window (partition, order and frame
// alike) in one pass and nests a subquery for each other window; the one of
// the first function is the outermost. The stages here are those passes in
// the same order, innermost first: rows that tie on a window's keys keep the
// order the previous pass gave them, so lag(), row_number(), frames by ROWS
// and the order of the final rows come out as in SQLite.
#include <algorithm>
#include <memory>

#include "exec/codegen_internal.h"
#include "exec/window.h"
#include "planner/walk.h"
#include "planner/window_info.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;

struct WindowStage {
  ast::Window* win = nullptr;  // its PARTITION BY and ORDER BY
  std::vector<size_t> funcs;   // indexes into WindowInfo::funcs
  int sorter = -1;
  int n_part = 0, n_keys = 0;
  int n_fields = 0;            // keys, arguments and flags, payload
  int regs = 0;                // where its records are built
  std::vector<int> arg_field;  // per function of `funcs`
  std::vector<int> filter_field;
  WindowSpec* spec = nullptr;
};

struct WindowPlan {
  const WindowInfo* info = nullptr;
  std::vector<Expr*> leaves;  // columns and aggregate calls
  int row = 0;                // registers: the leaves, then every function's value
  int n_leaves = 0;
  int n_funcs = 0;
  std::vector<WindowStage> stages;  // in run order
};

namespace {

bool SameList(const ExprList* a, const ExprList* b) {
  size_t na = a ? a->size() : 0, nb = b ? b->size() : 0;
  if (na != nb) return false;
  for (size_t i = 0; i < na; ++i) {
    if (a->items[i].order != b->items[i].order || !ExprEqual((*a)[i], (*b)[i])) return false;
  }
  return true;
}

size_t ListSize(const ExprList* l) { return l ? l->size() : 0; }

// The frame a function runs with, as SQLite records it: the built-in
// ranking and offset functions have fixed frames (whatever the OVER clause
// says), the others the one given, or the default.
struct Frame {
  ast::FrameUnit unit = ast::FrameUnit::kRange;
  ast::FrameBound start = ast::FrameBound::kUnboundedPreceding;
  ast::FrameBound end = ast::FrameBound::kCurrentRow;
  ast::FrameExclude exclude = ast::FrameExclude::kNoOthers;
  const Expr* start_expr = nullptr;
  const Expr* end_expr = nullptr;
};

Frame FrameOf(const WinFunc& f) {
  using ast::FrameBound;
  using ast::FrameUnit;
  Frame r;
  auto fixed = [&](FrameUnit u, FrameBound s, FrameBound e) {
    r.unit = u;
    r.start = s;
    r.end = e;
    return r;
  };
  switch (WinKindOf(f.def)) {
    case WinKind::kRowNumber:
    case WinKind::kLag:
      return fixed(FrameUnit::kRows, FrameBound::kUnboundedPreceding, FrameBound::kCurrentRow);
    case WinKind::kRank:
    case WinKind::kDenseRank:
      return fixed(FrameUnit::kRange, FrameBound::kUnboundedPreceding, FrameBound::kCurrentRow);
    case WinKind::kPercentRank:
      return fixed(FrameUnit::kGroups, FrameBound::kCurrentRow, FrameBound::kUnboundedFollowing);
    case WinKind::kCumeDist:
      return fixed(FrameUnit::kGroups, FrameBound::kFollowing, FrameBound::kUnboundedFollowing);
    case WinKind::kNtile:
      return fixed(FrameUnit::kRows, FrameBound::kCurrentRow, FrameBound::kUnboundedFollowing);
    case WinKind::kLead:
      return fixed(FrameUnit::kRows, FrameBound::kUnboundedPreceding,
                   FrameBound::kUnboundedFollowing);
    default:
      break;
  }
  if (f.win->unit != FrameUnit::kNone) {
    r.unit = f.win->unit;
    r.start = f.win->start;
    r.end = f.win->end;
    r.exclude = f.win->exclude;
    r.start_expr = f.win->start_expr;
    r.end_expr = f.win->end_expr;
  }
  return r;
}

bool SameExpr(const Expr* a, const Expr* b) {
  return a == nullptr || b == nullptr ? a == b : ExprEqual(a, b);
}

// Whether SQLite computes two window functions in one pass: same
// partition, order and frame (see CodeWindowStages for why it matters).
bool SameWindow(const WinFunc& a, const WinFunc& b) {
  Frame fa = FrameOf(a), fb = FrameOf(b);
  return SameList(a.win->partition, b.win->partition) && SameList(a.win->order, b.win->order) &&
         fa.unit == fb.unit && fa.start == fb.start && fa.end == fb.end &&
         fa.exclude == fb.exclude && SameExpr(fa.start_expr, fb.start_expr) &&
         SameExpr(fa.end_expr, fb.end_expr);
}

// The functions grouped by window (SameWindow), in the order of each
// window's first function.
std::vector<std::vector<size_t>> GroupByWindow(const WindowInfo& info) {
  std::vector<std::vector<size_t>> groups;
  for (size_t k = 0; k < info.funcs.size(); ++k) {
    std::vector<size_t>* g = nullptr;
    for (std::vector<size_t>& c : groups) {
      if (SameWindow(info.funcs[c[0]], info.funcs[k])) g = &c;
    }
    if (g == nullptr) g = &groups.emplace_back();
    g->push_back(k);
  }
  return groups;
}

}  // namespace

// The order SQLite's innermost window subquery asks of its scan: the
// PARTITION BY then ORDER BY terms of the window computed first.
ExprList* Codegen::WindowScanOrder(SelectInfo* info) {
  std::vector<std::vector<size_t>> groups = GroupByWindow(*info->win);
  const ast::Window* w = info->win->funcs[groups.back()[0]].win;
  if (ListSize(w->partition) + ListSize(w->order) == 0) return nullptr;
  auto* list = ctx_->arena->New<ExprList>();
  for (const ExprList* l : {w->partition, w->order}) {
    for (size_t i = 0; i < ListSize(l); ++i) list->items.push_back(*ctx_->arena, l->items[i]);
  }
  return list;
}

void Codegen::CollectWindowLeaves(ast::Select* s, SelectInfo* info, WindowPlan* plan) {
  const AggInfo* agg = info->agg;
  auto owns = [&](int cursor) {
    for (const Source& src : info->sources) {
      if (src.cursor == cursor) return true;
    }
    return false;
  };
  // The arguments and keys of the first stage's functions are computed
  // from the core's rows directly: what only they read is no leaf.
  const std::vector<WinFunc>& funcs = info->win->funcs;
  const std::vector<size_t>& first = plan->stages.front().funcs;
  auto in_first_stage = [&](const Expr* e) {
    if (e->kind != ExprKind::kFunction || e->over == nullptr || e->column < 0 ||
        static_cast<size_t>(e->column) >= funcs.size() || funcs[e->column].call != e) {
      return false;
    }
    return std::find(first.begin(), first.end(), static_cast<size_t>(e->column)) != first.end();
  };
  auto visit = [&](Expr* e) {
    if (in_first_stage(e)) return false;
    bool column = e->kind == ExprKind::kResolvedColumn && owns(e->cursor);
    bool aggregate =
        e->kind == ExprKind::kFunction && e->agg >= 0 && agg != nullptr && e->reg == agg->id;
    if (!column && !aggregate) return true;
    for (Expr* l : plan->leaves) {
      if (column && l->kind == ExprKind::kResolvedColumn && l->cursor == e->cursor &&
          l->column == e->column) {
        return false;
      }
      if (aggregate && l->kind == ExprKind::kFunction && l->agg == e->agg) return false;
    }
    plan->leaves.push_back(e);
    return false;
  };
  for (size_t i = 0; i < info->result->size(); ++i) WalkExpr((*info->result)[i], visit);
  if (s->order_by != nullptr) {
    for (size_t i = 0; i < s->order_by->size(); ++i) WalkExpr((*s->order_by)[i], visit);
  }
}

void Codegen::PrepareWindows(ast::Select* s, SelectInfo* info) {
  auto owned = std::make_shared<WindowPlan>();
  WindowPlan* plan = owned.get();
  plan->info = info->win;
  win_plans_[info] = std::move(owned);
  const std::vector<WinFunc>& funcs = info->win->funcs;
  // Stages: functions with the same window (frame included) share one.
  std::vector<std::vector<size_t>> groups = GroupByWindow(*info->win);
  for (size_t g = groups.size(); g-- > 0;) {
    WindowStage& st = plan->stages.emplace_back();
    st.win = funcs[groups[g][0]].win;
    st.funcs = groups[g];
  }
  CollectWindowLeaves(s, info, plan);
  plan->n_leaves = static_cast<int>(plan->leaves.size());
  plan->n_funcs = static_cast<int>(funcs.size());
  plan->row = AllocReg(plan->n_leaves + plan->n_funcs);
  for (WindowStage& st : plan->stages) BuildWindowStage(info, plan, &st);
}

void Codegen::BuildWindowStage(SelectInfo* info, WindowPlan* plan, WindowStage* st) {
  const std::vector<WinFunc>& funcs = info->win->funcs;
  st->n_part = static_cast<int>(ListSize(st->win->partition));
  st->n_keys = st->n_part + static_cast<int>(ListSize(st->win->order));
  int field = st->n_keys;
  for (size_t k : st->funcs) {
    const WinFunc& f = funcs[k];
    st->arg_field.push_back(field);
    field += static_cast<int>(ListSize(f.call->list));
    st->filter_field.push_back(f.call->filter ? field++ : -1);
  }
  int payload = field;
  st->n_fields = payload + plan->n_leaves + plan->n_funcs;
  st->regs = AllocReg(st->n_fields + 1);
  KeyInfo* ki = MakeKeyInfo(st->n_keys);
  for (int i = 0; i < st->n_keys; ++i) {
    bool part = i < st->n_part;
    const ast::ExprItem& item = part ? st->win->partition->items[static_cast<size_t>(i)]
                                     : st->win->order->items[static_cast<size_t>(i - st->n_part)];
    const_cast<const Collation**>(ki->colls)[i] = resolver_.ExprCollation(item.expr);
    const_cast<uint8_t*>(ki->desc)[i] = !part && item.order == ast::SortOrder::kDesc ? 1 : 0;
  }
  st->sorter = ctx_->AllocCursor();
  int a = Op(Opcode::kSorterOpen, st->sorter, st->n_fields);
  prog_->SetP4(a, ki);
  prog_->at(a).p5 = kP5SorterRandomAccess;  // frames read rows by position

  WindowSpec* spec = prog_->arena.New<WindowSpec>();
  spec->id = n_window_specs_++;
  spec->n_part = st->n_part;
  spec->n_keys = st->n_keys;
  spec->peer_key = *ki;
  spec->part_key = *ki;
  spec->part_key.n_fields = st->n_part;
  spec->order_desc = st->n_keys > st->n_part && ki->desc[st->n_keys - 1] != 0;
  spec->payload = payload;
  spec->n_payload = plan->n_leaves + plan->n_funcs;
  spec->n_funcs = static_cast<int>(st->funcs.size());
  WinFuncSpec* fs = prog_->arena.NewArray<WinFuncSpec>(st->funcs.size());
  for (size_t j = 0; j < st->funcs.size(); ++j) {
    const WinFunc& f = funcs[st->funcs[j]];
    WinFuncSpec* w = new (&fs[j]) WinFuncSpec();
    w->kind = WinKindOf(f.def);
    w->def = f.def;
    w->coll = f.coll;
    w->nargs = static_cast<int>(ListSize(f.call->list));
    w->arg = st->arg_field[j];
    w->filter = st->filter_field[j];
    w->out = plan->n_leaves + static_cast<int>(st->funcs[j]);
    if (f.win->unit != ast::FrameUnit::kNone) {
      w->unit = f.win->unit;
      w->start = f.win->start;
      w->end = f.win->end;
      w->exclude = f.win->exclude;
    }
  }
  spec->funcs = fs;
  st->spec = spec;
}

// One row of the core (or of the previous stage) into stage `k`'s sorter.
void Codegen::CodeWindowFeed(WindowPlan* plan, size_t k) {
  WindowStage& st = plan->stages[k];
  const std::vector<WinFunc>& funcs = plan->info->funcs;
  int regs = st.regs;
  for (int i = 0; i < st.n_part; ++i) {
    CodeExpr((*st.win->partition)[static_cast<size_t>(i)], regs + i);
  }
  for (int i = st.n_part; i < st.n_keys; ++i) {
    CodeExpr((*st.win->order)[static_cast<size_t>(i - st.n_part)], regs + i);
  }
  for (size_t j = 0; j < st.funcs.size(); ++j) {
    Expr* call = funcs[st.funcs[j]].call;
    for (size_t a = 0; a < ListSize(call->list); ++a) {
      CodeExpr((*call->list)[a], regs + st.arg_field[j] + static_cast<int>(a));
    }
    if (call->filter != nullptr) {
      int flag = regs + st.filter_field[j];
      int skip = MakeLabel();
      Op(Opcode::kInteger, 0, flag);
      CodeJumpIf(call->filter, skip, false, true);
      Op(Opcode::kInteger, 1, flag);
      ResolveLabel(skip);
    }
  }
  int payload = regs + st.spec->payload;
  if (k == 0) {
    for (int i = 0; i < plan->n_leaves; ++i) {
      CodeExpr(plan->leaves[static_cast<size_t>(i)], payload + i);
    }
    Op(Opcode::kNull, 0, payload + plan->n_leaves, payload + st.spec->n_payload - 1);
  } else {
    for (int i = 0; i < st.spec->n_payload; ++i) Op(Opcode::kCopy, plan->row + i, payload + i, 0);
  }
  Op(Opcode::kMakeRecord, regs, st.n_fields, regs + st.n_fields);
  Op(Opcode::kSorterInsert, st.sorter, regs + st.n_fields);
}

bool Codegen::WindowFeedRow(SelectInfo* info) {
  if (info->win == nullptr || win_emitting_ == info) return false;
  auto it = win_plans_.find(info);
  if (it == win_plans_.end()) return false;
  CodeWindowFeed(it->second.get(), 0);
  return true;
}

void Codegen::CodeWindowStages(RowSink* sink, SelectInfo* info, ExprList* order_by) {
  auto it = win_plans_.find(info);
  if (it == win_plans_.end()) return;
  WindowPlan* plan = it->second.get();
  // From here on the leaves are read from the row registers.
  size_t mark = redirects_.size();
  std::vector<int> agg_regs;
  if (info->agg != nullptr) agg_regs.assign(info->agg->funcs.size(), plan->row);
  for (int i = 0; i < plan->n_leaves; ++i) {
    Expr* l = plan->leaves[static_cast<size_t>(i)];
    if (l->kind == ExprKind::kResolvedColumn) {
      redirects_.push_back({l->cursor, l->column, plan->row + i});
    } else {
      agg_regs[static_cast<size_t>(l->agg)] = plan->row + i;
    }
  }
  bool had_agg = info->agg != nullptr && agg_results_.count(info->agg->id) > 0;
  std::vector<int> saved_agg;
  if (had_agg) saved_agg = agg_results_[info->agg->id];
  if (info->agg != nullptr) agg_results_[info->agg->id] = agg_regs;
  for (size_t k = 0; k < plan->stages.size(); ++k) {
    WindowStage& st = plan->stages[k];
    const std::vector<WinFunc>& funcs = info->win->funcs;
    for (size_t j = 0; j < st.funcs.size(); ++j) {
      const ast::Window* w = funcs[st.funcs[j]].win;
      auto* f = const_cast<WinFuncSpec*>(&st.spec->funcs[j]);
      if (w->start_expr != nullptr) {
        f->start_reg = AllocReg();
        CodeExpr(w->start_expr, f->start_reg);
      }
      if (w->end_expr != nullptr) {
        f->end_reg = AllocReg();
        CodeExpr(w->end_expr, f->end_reg);
      }
    }
    int done = MakeLabel();
    Op(Opcode::kSorterSort, st.sorter, done);
    prog_->SetP4(Op(Opcode::kWinInit, st.sorter), st.spec);
    int top = prog_->pc();
    prog_->SetP4(Op(Opcode::kWinNext, st.sorter, done, plan->row), st.spec);
    if (k + 1 < plan->stages.size()) {
      CodeWindowFeed(plan, k + 1);
    } else {
      const SelectInfo* saved_emitting = win_emitting_;
      int saved_base = win_out_base_;
      win_emitting_ = info;
      win_out_base_ = plan->row + plan->n_leaves;
      ProduceRow(sink, info, order_by);
      win_emitting_ = saved_emitting;
      win_out_base_ = saved_base;
    }
    Op(Opcode::kGoto, 0, top);
    ResolveLabel(done);
  }
  redirects_.resize(mark);
  if (had_agg) {
    agg_results_[info->agg->id] = saved_agg;
  } else if (info->agg != nullptr) {
    agg_results_.erase(info->agg->id);
  }
}

void Codegen::CodeWindowValue(Expr* e, int target) {
  if (win_out_base_ < 0 || e->column < 0) {
    ctx_->Error("misuse of window function " + std::string(e->text) + "()");
    return;
  }
  Op(Opcode::kCopy, win_out_base_ + e->column, target, 0);
}

}  // namespace basalt
