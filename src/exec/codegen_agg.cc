// Aggregate queries: accumulators stepped per row; with GROUP BY the rows
// are first sorted by the group key and each run of equal keys is one group.
#include "exec/codegen_internal.h"

namespace basalt {

using ast::Expr;
using ast::Select;

void Codegen::UpdateAccumulators(AggInfo* agg) {
  for (AggFunc& f : agg->funcs) {
    Expr* call = f.expr;
    int nargs = call->list ? static_cast<int>(call->list->size()) : 0;
    int args = nargs > 0 ? AllocReg(nargs) : 0;
    int skip = MakeLabel();
    if (call->filter != nullptr) CodeJumpIf(call->filter, skip, false, true);
    for (int i = 0; i < nargs; ++i) CodeExpr((*call->list)[static_cast<size_t>(i)], args + i);
    if (f.distinct_cursor >= 0) {
      int a = Op(Opcode::kFound, f.distinct_cursor, skip, args);
      prog_->SetP4Int(a, 1);
      int rec = AllocReg();
      Op(Opcode::kMakeRecord, args, 1, rec);
      Op(Opcode::kIdxInsert, f.distinct_cursor, rec);
    }
    FuncCall* fc = prog_->arena.New<FuncCall>();
    fc->def = f.def;
    fc->coll = f.coll;
    fc->nargs = nargs;
    int a = Op(Opcode::kAggStep, args, nargs, f.acc);
    prog_->SetP4(a, fc);
    ResolveLabel(skip);
  }
}

void Codegen::FinalizeAccumulators(AggInfo* agg, std::vector<int>* results) {
  results->clear();
  for (AggFunc& f : agg->funcs) {
    int r = AllocReg();
    FuncCall* fc = prog_->arena.New<FuncCall>();
    fc->def = f.def;
    fc->coll = f.coll;
    int a = Op(Opcode::kAggFinal, f.acc, r);
    prog_->SetP4(a, fc);
    results->push_back(r);
  }
}

// An aggregate query: accumulators, then one output row for the whole
// input (no GROUP BY) or one per group (rows sorted by the group key, a
// group ending where the key changes).
bool Codegen::CodeAggregateSelect(Select* s, SelectInfo* info, SelectDest* dest, RowSink* sink,
                                  WhereLoops* wl, ast::ExprList* minmax_order) {
  AggPlan plan;
  PrepareAccumulators(info->agg, &plan);
  if (minmax_order != nullptr && wl->plan.order_by_satisfied) plan.stop_arg = (*minmax_order)[0];
  // SQLite's EXPLAIN QUERY PLAN says SEARCH for every loop of a query it
  // tried the min/max optimization on, whether or not an index served.
  if (minmax_order != nullptr) {
    for (LoopPlan& lp : wl->plan.loops) lp.minmax = true;
  }
  // SQLite reads an aggregate query's columns as aggregate columns, which
  // a virtual table never overloads functions on (VtabOverload).
  const size_t mark = agg_cursors_.size();
  if (wl->sources != nullptr) {
    for (const Source& src : *wl->sources) agg_cursors_.push_back(src.cursor);
  }
  bool ok = info->agg->group_by == nullptr ? CodeSingleGroup(s, info, dest, sink, wl, plan)
                                           : CodeGroupBy(s, info, dest, sink, wl, plan);
  agg_cursors_.resize(mark);
  return ok;
}

// SQLite's min/max optimization: a query whose only aggregate is one
// min(x) or max(x) (no GROUP BY, HAVING, FILTER or window) asks the planner
// for the rows in x's order (ascending for min, descending for max). When
// an index gives that order the first row with x not NULL is the answer,
// and its bare columns are that row's. Returns the ORDER BY to plan with,
// or null.
ast::ExprList* Codegen::MinMaxOrder(Select* s, SelectInfo* info) {
  const AggInfo* agg = info->agg;
  if (agg == nullptr || agg->group_by != nullptr || s->having != nullptr || info->win != nullptr ||
      agg->funcs.size() != 1 || !ctx_->options.PassOn(Pass::kOrderByIndex)) {
    return nullptr;
  }
  const AggFunc& f = agg->funcs[0];
  Expr* call = f.expr;
  if ((f.def->flags & kFuncMinMax) == 0 || call->list == nullptr || call->list->size() != 1 ||
      call->filter != nullptr || call->over != nullptr) {
    return nullptr;
  }
  auto* order = ctx_->arena->New<ast::ExprList>();
  ast::ExprItem item;
  item.expr = (*call->list)[0];
  item.order = f.def->name == "max" ? ast::SortOrder::kDesc : ast::SortOrder::kAsc;
  order->items.push_back(*ctx_->arena, item);
  return order;
}

// Allocates the accumulators (and DISTINCT's temporary indexes), the
// registers of the columns the output reads, and finds the min()/max() that
// decides which row the bare columns come from.
void Codegen::PrepareAccumulators(AggInfo* agg, AggPlan* plan) {
  plan->agg = agg;
  plan->first_acc = prog_->n_aggs;
  for (AggFunc& f : agg->funcs) {
    f.acc = prog_->n_aggs++;
    if (f.expr->has(ast::kDistinct)) {
      f.distinct_cursor = ctx_->AllocCursor();
      KeyInfo* ki = MakeKeyInfo(1);
      const_cast<const Collation**>(ki->colls)[0] = resolver_.ExprCollation((*f.expr->list)[0]);
      int a = Op(Opcode::kOpenEphemeral, f.distinct_cursor, 1);
      prog_->SetP4(a, ki);
    }
  }
  plan->n_accs = prog_->n_aggs - plan->first_acc;
  for (AggColumn& c : agg->columns) c.reg = AllocReg();
  // Bare columns show the values of the group's first row, or of the row
  // that gave the only min()/max() its value.
  int n_minmax = 0;
  for (size_t i = 0; i < agg->funcs.size(); ++i) {
    if (agg->funcs[i].def->flags & kFuncMinMax) {
      ++n_minmax;
      plan->minmax = static_cast<int>(i);
    }
  }
  if (n_minmax != 1) plan->minmax = -1;
  for (size_t i = 0; i < agg->columns.size(); ++i) plan->out_regs.push_back(AllocReg());
}

// Redirects the aggregate's columns to the output registers; returns the
// mark to cut the redirections back to.
size_t Codegen::PushOutRedirects(const AggPlan& plan) {
  size_t mark = redirects_.size();
  const AggInfo* agg = plan.agg;
  for (size_t i = 0; i < agg->columns.size(); ++i) {
    redirects_.push_back({agg->columns[i].cursor, agg->columns[i].column, plan.out_regs[i]});
  }
  return mark;
}

// Copies the bare columns of the current row into the output registers when
// it is the first row of the group (r[first_flag]) or the row that set the
// min()/max(). The columns come from the cursors (`from_cursors`) or from
// their registers.
void Codegen::CodeBareColumns(const AggPlan& plan, int first_flag, bool from_cursors) {
  AggInfo* agg = plan.agg;
  if (agg->columns.empty()) return;
  int skip = MakeLabel();
  int copy = MakeLabel();
  if (plan.minmax >= 0) {
    Op(Opcode::kIfAggHit, agg->funcs[static_cast<size_t>(plan.minmax)].acc, copy);
  }
  Op(Opcode::kIfNot, first_flag, skip, 0);
  ResolveLabel(copy);
  for (size_t i = 0; i < agg->columns.size(); ++i) {
    AggColumn& c = agg->columns[i];
    if (from_cursors) {
      CodeColumn(c.cursor, c.column, c.table, plan.out_regs[i]);
    } else {
      Op(Opcode::kCopy, c.reg, plan.out_regs[i], 0);
    }
  }
  ResolveLabel(skip);
}

// No GROUP BY: every row steps the accumulators; one output row at the end.
bool Codegen::CodeSingleGroup(Select* s, SelectInfo* info, SelectDest* dest, RowSink* sink,
                              WhereLoops* w, const AggPlan& plan) {
  AggInfo* agg = plan.agg;
  SetupSink(s, info, dest, sink, true);
  if (plan.n_accs > 0) Op(Opcode::kAggReset, plan.first_acc, plan.n_accs);
  for (int r : plan.out_regs) Op(Opcode::kNull, 0, r);
  // The first-row flag matters only to bare columns.
  const bool bare = !agg->columns.empty();
  int first = AllocReg();
  if (bare) Op(Opcode::kInteger, 1, first);
  if (!WhereBegin(w)) return false;
  EmitSinkEqp(sink);
  UpdateAccumulators(agg);
  if (bare) {
    CodeBareColumns(plan, first, true);
    Op(Opcode::kInteger, 0, first);
  }
  if (plan.stop_arg != nullptr) {
    int r = AllocReg();
    CodeExpr(plan.stop_arg, r);
    Op(Opcode::kNotNull, r, w->break_label);
  }
  WhereEnd(w);
  std::vector<int> results;
  FinalizeAccumulators(agg, &results);
  size_t mark = PushOutRedirects(plan);
  agg_results_[agg->id] = results;
  if (s->having) CodeJumpIf(s->having, sink->end_label, false, true);
  ProduceRow(sink, info, nullptr);
  redirects_.resize(mark);
  agg_results_.erase(agg->id);
  CodeWindowStages(sink, info, nullptr);
  ResolveLabel(sink->end_label);
  return !ctx_->failed();
}

// GROUP BY: the rows (group key, then the columns the output reads) go
// through a sorter; the sorted rows are read back, an output subroutine
// runs whenever the key changes and after the last row.
bool Codegen::CodeGroupBy(Select* s, SelectInfo* info, SelectDest* dest, RowSink* sink,
                          WhereLoops* w, const AggPlan& plan) {
  AggInfo* agg = plan.agg;
  ast::ExprList* gb = agg->group_by;
  int ngroup = static_cast<int>(gb->size());
  int ncols = static_cast<int>(agg->columns.size());
  SetupSink(s, info, dest, sink, false);
  int sorter = ctx_->AllocCursor();
  KeyInfo* gki = MakeKeyInfo(ngroup);
  for (int i = 0; i < ngroup; ++i) {
    const_cast<const Collation**>(gki->colls)[i] =
        resolver_.ExprCollation((*gb)[static_cast<size_t>(i)]);
  }
  int a = Op(Opcode::kSorterOpen, sorter, ngroup + ncols);
  prog_->SetP4(a, gki);
  if (!WhereBegin(w)) return false;
  Eqp("USE TEMP B-TREE FOR GROUP BY");
  EmitSinkEqp(sink);
  int regs = AllocReg(ngroup + ncols + 1);
  for (int i = 0; i < ngroup; ++i) CodeExpr((*gb)[static_cast<size_t>(i)], regs + i);
  for (int j = 0; j < ncols; ++j) {
    AggColumn& c = agg->columns[static_cast<size_t>(j)];
    CodeColumn(c.cursor, c.column, c.table, regs + ngroup + j);
  }
  Op(Opcode::kMakeRecord, regs, ngroup + ncols, regs + ngroup + ncols);
  Op(Opcode::kSorterInsert, sorter, regs + ngroup + ncols);
  WhereEnd(w);

  int out_ret = AllocReg();
  int out_sub = MakeLabel();
  int done = MakeLabel();
  CodeGroupLoop(plan, sorter, gki, out_ret, out_sub, done);
  // Output subroutine: one row for the group just finished.
  ResolveLabel(out_sub);
  std::vector<int> results;
  FinalizeAccumulators(agg, &results);
  size_t mark = PushOutRedirects(plan);
  agg_results_[agg->id] = results;
  int ret = MakeLabel();
  if (s->having) CodeJumpIf(s->having, ret, false, true);
  ProduceRow(sink, info, s->order_by);
  ResolveLabel(ret);
  Op(Opcode::kReturn, out_ret);
  redirects_.resize(mark);
  agg_results_.erase(agg->id);
  ResolveLabel(done);
  CodeWindowStages(sink, info, s->order_by);
  if (sink->sorter_cursor >= 0) DrainSorter(sink);
  ResolveLabel(sink->end_label);
  return !ctx_->failed();
}

// The loop over the sorted rows: compares each row's key with the previous
// one (NULLs equal), calls the output subroutine when it changed, starts a
// new group (accumulators reset) and steps the accumulators.
void Codegen::CodeGroupLoop(const AggPlan& plan, int sorter, const KeyInfo* gki, int out_ret,
                            int out_sub, int done) {
  AggInfo* agg = plan.agg;
  int ngroup = static_cast<int>(agg->group_by->size());
  int ncols = static_cast<int>(agg->columns.size());
  int first = AllocReg();
  int group_start = AllocReg();
  int prev = AllocReg(ngroup);
  int cur = AllocReg(ngroup);
  Op(Opcode::kInteger, 1, first);
  Op(Opcode::kSorterSort, sorter, done);
  int top = prog_->pc();
  for (int i = 0; i < ngroup; ++i) Op(Opcode::kColumn, sorter, i, cur + i);
  int new_group = MakeLabel();
  int same = MakeLabel();
  int changed = MakeLabel();
  Op(Opcode::kIf, first, new_group, 0);
  for (int i = 0; i < ngroup; ++i) {
    int c = Op(Opcode::kNe, prev + i, changed, cur + i);
    prog_->at(c).p5 = kCmpNullEq;
    if (const Collation* coll = gki->colls[i]) prog_->SetP4(c, coll);
  }
  Op(Opcode::kGoto, 0, same);
  ResolveLabel(changed);
  Op(Opcode::kGosub, out_ret, out_sub);
  ResolveLabel(new_group);
  for (int i = 0; i < ngroup; ++i) Op(Opcode::kCopy, cur + i, prev + i, 0);
  if (plan.n_accs > 0) Op(Opcode::kAggReset, plan.first_acc, plan.n_accs);
  for (AggFunc& f : agg->funcs) {
    if (f.distinct_cursor >= 0) Op(Opcode::kClearEphemeral, f.distinct_cursor);
  }
  Op(Opcode::kInteger, 0, first);
  Op(Opcode::kInteger, 1, group_start);
  ResolveLabel(same);
  for (int j = 0; j < ncols; ++j) {
    Op(Opcode::kColumn, sorter, ngroup + j, agg->columns[static_cast<size_t>(j)].reg);
  }
  size_t mark = redirects_.size();
  for (AggColumn& c : agg->columns) redirects_.push_back({c.cursor, c.column, c.reg});
  UpdateAccumulators(agg);
  redirects_.resize(mark);
  CodeBareColumns(plan, group_start, false);
  Op(Opcode::kInteger, 0, group_start);
  Op(Opcode::kSorterNext, sorter, top);
  Op(Opcode::kGosub, out_ret, out_sub);
  Op(Opcode::kGoto, 0, done);
}

}  // namespace basalt
