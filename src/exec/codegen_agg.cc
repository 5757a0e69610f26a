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

bool Codegen::CodeAggregateSelect(Select* s, SelectInfo* info, SelectDest* dest, RowSink* sink,
                                  WhereLoops* wl) {
  AggInfo* agg = info->agg;
  int first_acc = prog_->n_aggs;
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
  int n_accs = prog_->n_aggs - first_acc;
  for (AggColumn& c : agg->columns) c.reg = AllocReg();
  WhereLoops& w = *wl;
  bool group = agg->group_by != nullptr;

  auto push_redirects = [&]() {
    size_t mark = redirects_.size();
    for (AggColumn& c : agg->columns) redirects_.push_back({c.cursor, c.column, c.reg});
    return mark;
  };
  // Bare columns show the values of the group's first row, or of the row
  // that gave the only min()/max() its value.
  int minmax = -1;
  {
    int n_minmax = 0;
    for (size_t i = 0; i < agg->funcs.size(); ++i) {
      if (agg->funcs[i].def->flags & kFuncMinMax) {
        ++n_minmax;
        minmax = static_cast<int>(i);
      }
    }
    if (n_minmax != 1) minmax = -1;
  }
  std::vector<int> out_regs;
  for (size_t i = 0; i < agg->columns.size(); ++i) out_regs.push_back(AllocReg());
  auto push_out_redirects = [&]() {
    size_t mark = redirects_.size();
    for (size_t i = 0; i < agg->columns.size(); ++i) {
      redirects_.push_back({agg->columns[i].cursor, agg->columns[i].column, out_regs[i]});
    }
    return mark;
  };
  // Copies the current row's columns (in c.reg, or read from the cursors
  // when `from_cursors`) into the output registers.
  auto copy_out = [&](bool from_cursors) {
    for (size_t i = 0; i < agg->columns.size(); ++i) {
      AggColumn& c = agg->columns[i];
      if (from_cursors) {
        CodeColumn(c.cursor, c.column, c.table, out_regs[i]);
      } else {
        Op(Opcode::kCopy, c.reg, out_regs[i], 0);
      }
    }
  };

  if (!group) {
    SetupSink(s, info, dest, sink, true);
    if (n_accs > 0) Op(Opcode::kAggReset, first_acc, n_accs);
    for (int r : out_regs) Op(Opcode::kNull, 0, r);
    int first = AllocReg();
    Op(Opcode::kInteger, 1, first);
    if (!WhereBegin(&w)) return false;
    UpdateAccumulators(agg);
    if (!agg->columns.empty()) {
      int skip = MakeLabel();
      int copy = MakeLabel();
      if (minmax >= 0) Op(Opcode::kIfAggHit, agg->funcs[static_cast<size_t>(minmax)].acc, copy);
      Op(Opcode::kIfNot, first, skip, 0);
      ResolveLabel(copy);
      copy_out(true);
      ResolveLabel(skip);
    }
    Op(Opcode::kInteger, 0, first);
    WhereEnd(&w);
    std::vector<int> results;
    FinalizeAccumulators(agg, &results);
    size_t mark = push_out_redirects();
    agg_results_[agg->id] = results;
    if (s->having) CodeJumpIf(s->having, sink->end_label, false, true);
    ProduceRow(sink, info, nullptr);
    redirects_.resize(mark);
    agg_results_.erase(agg->id);
    ResolveLabel(sink->end_label);
    return !ctx_->failed();
  }

  ast::ExprList* gb = agg->group_by;
  int ngroup = static_cast<int>(gb->size());
  int ncols = static_cast<int>(agg->columns.size());
  SetupSink(s, info, dest, sink, false);
  int sorter = ctx_->AllocCursor();
  KeyInfo* gki = MakeKeyInfo(ngroup);
  int gb_eqp = 0;
  for (int i = 0; i < ngroup; ++i) {
    const_cast<const Collation**>(gki->colls)[i] =
        resolver_.ExprCollation((*gb)[static_cast<size_t>(i)]);
  }
  int a = Op(Opcode::kSorterOpen, sorter, ngroup + ncols);
  prog_->SetP4(a, gki);
  if (!WhereBegin(&w)) return false;
  gb_eqp = Eqp("USE TEMP B-TREE FOR GROUP BY");
  (void)gb_eqp;
  {
    int regs = AllocReg(ngroup + ncols + 1);
    for (int i = 0; i < ngroup; ++i) CodeExpr((*gb)[static_cast<size_t>(i)], regs + i);
    for (int j = 0; j < ncols; ++j) {
      AggColumn& c = agg->columns[static_cast<size_t>(j)];
      CodeColumn(c.cursor, c.column, c.table, regs + ngroup + j);
    }
    Op(Opcode::kMakeRecord, regs, ngroup + ncols, regs + ngroup + ncols);
    Op(Opcode::kSorterInsert, sorter, regs + ngroup + ncols);
  }
  WhereEnd(&w);

  int first = AllocReg();
  int group_start = AllocReg();
  int prev = AllocReg(ngroup);
  int cur = AllocReg(ngroup);
  int out_ret = AllocReg();
  int out_sub = MakeLabel();
  int done = MakeLabel();
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
    const Collation* coll = gki->colls[i];
    if (coll) {
      prog_->SetP4(c, coll);
    }
  }
  Op(Opcode::kGoto, 0, same);
  ResolveLabel(changed);
  Op(Opcode::kGosub, out_ret, out_sub);
  ResolveLabel(new_group);
  for (int i = 0; i < ngroup; ++i) Op(Opcode::kCopy, cur + i, prev + i, 0);
  if (n_accs > 0) Op(Opcode::kAggReset, first_acc, n_accs);
  for (AggFunc& f : agg->funcs) {
    if (f.distinct_cursor >= 0) Op(Opcode::kClearEphemeral, f.distinct_cursor);
  }
  Op(Opcode::kInteger, 0, first);
  Op(Opcode::kInteger, 1, group_start);
  ResolveLabel(same);
  for (int j = 0; j < ncols; ++j) {
    Op(Opcode::kColumn, sorter, ngroup + j, agg->columns[static_cast<size_t>(j)].reg);
  }
  {
    size_t mark = push_redirects();
    UpdateAccumulators(agg);
    redirects_.resize(mark);
  }
  if (!agg->columns.empty()) {
    int skip = MakeLabel();
    int copy = MakeLabel();
    if (minmax >= 0) Op(Opcode::kIfAggHit, agg->funcs[static_cast<size_t>(minmax)].acc, copy);
    Op(Opcode::kIfNot, group_start, skip, 0);
    ResolveLabel(copy);
    copy_out(false);
    ResolveLabel(skip);
  }
  Op(Opcode::kInteger, 0, group_start);
  Op(Opcode::kSorterNext, sorter, top);
  Op(Opcode::kGosub, out_ret, out_sub);
  Op(Opcode::kGoto, 0, done);

  // Output subroutine: one row for the group just finished.
  ResolveLabel(out_sub);
  {
    std::vector<int> results;
    FinalizeAccumulators(agg, &results);
    size_t mark = push_out_redirects();
    agg_results_[agg->id] = results;
    int ret = MakeLabel();
    if (s->having) CodeJumpIf(s->having, ret, false, true);
    ProduceRow(sink, info, s->order_by);
    ResolveLabel(ret);
    Op(Opcode::kReturn, out_ret);
    redirects_.resize(mark);
    agg_results_.erase(agg->id);
  }
  ResolveLabel(done);
  if (sink->sorter_cursor >= 0) DrainSorter(sink);
  ResolveLabel(sink->end_label);
  return !ctx_->failed();
}

}  // namespace basalt
