// Common table expressions: materialized once into a temporary table; a
// recursive CTE runs its recursive arms over a queue of rows until the queue
// is empty.
#include <algorithm>

#include "exec/codegen_internal.h"
#include "planner/walk.h"

namespace basalt {

using ast::Select;

// Runs a CTE's body into `out` (its temporary table when null). A
// recursive CTE: the initial arms feed a queue; then, until the queue is
// empty, the first queued row is popped into the current-row table, output,
// and the recursive arms (reading that table) feed the queue again.
bool Codegen::CodeCte(CteEntry* ce, SelectDest* out) {
  Select* body = ce->cte->select;
  // A CTE read in several places has its body coded at each, and the one
  // that runs first need not be the one coded first: no copy may reuse the
  // register of a scalar subquery another copy computes (CodeSubqueryValue).
  auto forget = [](ast::Expr* x) {
    x->pflags &= static_cast<uint8_t>(~0x20);
    return true;
  };
  WalkSelectExprs(body, forget);
  int ncols = static_cast<int>(ce->columns.size());
  SelectDest table_dest;
  table_dest.kind = SelectDest::kTable;
  table_dest.cursor = ce->cursor;
  if (out == nullptr) {
    Op(Opcode::kOpenEphemeral, ce->cursor, ncols);
    out = &table_dest;
  }
  if (!ce->recursive) return CodeSelect(body, out);
  std::vector<Select*> arms;
  size_t first_rec = 0;
  if (!SplitRecursiveArms(ce, &arms, &first_rec)) return false;
  CteQueue q;
  q.ncols = ncols;
  q.order = body->order_by;
  q.norder = q.order ? static_cast<int>(q.order->size()) : 0;
  OpenCteQueue(arms[first_rec]->op == ast::CompoundOp::kUnion, &q);
  int end = MakeLabel();
  int limit_reg = 0, offset_reg = 0;
  CodeLimit(body, &limit_reg, &offset_reg, end);
  // Rows produced by any arm go to the queue through a subroutine: the arm
  // copies its row into feed_reg (kRegs) and calls it.
  int feed_reg = AllocReg(ncols);
  int feed_ret = AllocReg();
  int feed_sub = MakeLabel();
  int after_feed = MakeLabel();
  Op(Opcode::kGoto, 0, after_feed);
  ResolveLabel(feed_sub);
  CodeCteFeed(q, feed_reg);
  Op(Opcode::kReturn, feed_ret);
  ResolveLabel(after_feed);
  SelectDest feed;
  feed.kind = SelectDest::kRegs;
  feed.reg = feed_reg;
  auto code_arm = [&](Select* arm) {
    // Another recursive CTE materialized inside this arm (its FROM, a
    // subquery) sets its own feed and gives this one back.
    const auto saved = pending_gosub_;
    pending_gosub_ = {feed_ret, feed_sub};
    bool ok = CodeSimpleSelectArm(arm, &feed);
    pending_gosub_ = saved;
    return ok;
  };
  for (size_t i = 0; i < first_rec; ++i) {
    if (!code_arm(arms[i])) return false;
  }
  // Main loop: pop the first queued row into the current-row table, output
  // it, and run the recursive arms.
  // The current row is a one-row table, or only registers when every
  // recursive arm joins it without an outer join.
  bool in_regs = true;
  for (size_t i = first_rec; i < arms.size(); ++i) {
    for (const Source& src : InfoOf(arms[i])->sources) {
      if (src.outer_nullable || (src.join & ast::kJoinRight) != 0) in_regs = false;
    }
  }
  int cur = ce->queue_cursor;
  if (!in_regs) Op(Opcode::kOpenEphemeral, cur, ncols);
  int loop = prog_->pc();
  Op(Opcode::kRewind, q.queue, end);
  int row = AllocReg(ncols + 2);
  int qoff = q.order != nullptr ? q.norder + 1 : 0;
  for (int c = 0; c < ncols; ++c) Op(Opcode::kColumn, q.queue, qoff + c, row + c);
  Op(Opcode::kDelete, q.queue);
  if (!in_regs) {
    Op(Opcode::kClearEphemeral, cur);
    SelectDest cd;
    cd.kind = SelectDest::kTable;
    cd.cursor = cur;
    EmitToDest(&cd, row, ncols);
  }
  int skip_out = MakeLabel();
  if (offset_reg) Op(Opcode::kIfPos, offset_reg, skip_out, 1);
  EmitToDest(out, row, ncols);
  if (limit_reg) Op(Opcode::kDecrJumpZero, limit_reg, end);
  ResolveLabel(skip_out);
  if (in_regs) cte_row_regs_[ce->id] = row;
  for (size_t i = first_rec; i < arms.size(); ++i) {
    if (!code_arm(arms[i])) {
      cte_row_regs_.erase(ce->id);
      return false;
    }
  }
  cte_row_regs_.erase(ce->id);
  Op(Opcode::kGoto, 0, loop);
  ResolveLabel(end);
  return !ctx_->failed();
}

// Splits a recursive CTE's compound into initial arms (no self reference)
// and recursive arms (from the first self-referencing arm on), and checks
// the recursive arms: no aggregate, one self reference each.
bool Codegen::SplitRecursiveArms(CteEntry* ce, std::vector<Select*>* arms, size_t* first_rec) {
  for (Select* p = ce->cte->select; p; p = p->prior) arms->push_back(p);
  std::reverse(arms->begin(), arms->end());
  auto refers_self = [&](Select* arm) {
    SelectInfo* info = InfoOf(arm);
    for (const Source& src : info->sources) {
      if (src.cte == -2 - ce->id) return true;
    }
    return false;
  };
  *first_rec = arms->size();
  for (size_t i = 0; i < arms->size(); ++i) {
    if (refers_self((*arms)[i])) {
      *first_rec = i;
      break;
    }
  }
  if (*first_rec == 0 || *first_rec == arms->size()) {
    return ctx_->Error("recursive reference in a subquery: " + std::string(ce->cte->name));
  }
  for (size_t i = *first_rec; i < arms->size(); ++i) {
    SelectInfo* ai = InfoOf((*arms)[i]);
    if (ai->agg != nullptr) return ctx_->Error("recursive aggregate queries not supported");
    int refs = 0;
    for (const Source& src : ai->sources) refs += src.cte == -2 - ce->id;
    if (refs > 1) {
      return ctx_->Error("multiple references to recursive table: " + std::string(ce->cte->name));
    }
  }
  return true;
}

// The queue: FIFO (a table) or, with ORDER BY, a priority queue (an index on
// the ORDER BY columns, then a sequence number, then the row); for UNION
// (`distinct`) also an index of the rows queued so far.
void Codegen::OpenCteQueue(bool distinct, CteQueue* q) {
  q->queue = ctx_->AllocCursor();
  q->seq_reg = AllocReg();
  if (q->order != nullptr) {
    KeyInfo* qki = MakeKeyInfo(q->norder + 1 + q->ncols);
    for (int i = 0; i < q->norder; ++i) {
      ast::Expr* e = (*q->order)[static_cast<size_t>(i)];
      const_cast<const Collation**>(qki->colls)[i] =
          (e->pflags & 0x02) ? static_cast<const Collation*>(e->aux) : nullptr;
      const_cast<uint8_t*>(qki->desc)[i] =
          q->order->items[static_cast<size_t>(i)].order == ast::SortOrder::kDesc ? 1 : 0;
    }
    int a = Op(Opcode::kOpenEphemeral, q->queue, q->norder + 1 + q->ncols);
    prog_->SetP4(a, qki);
    Op(Opcode::kInteger, 0, q->seq_reg);
  } else {
    Op(Opcode::kOpenEphemeral, q->queue, q->ncols);
  }
  KeyInfo* ki = MakeKeyInfo(q->ncols);
  if (distinct) {
    q->dist = ctx_->AllocCursor();
    int a = Op(Opcode::kOpenEphemeral, q->dist, q->ncols);
    prog_->SetP4(a, ki);
  }
}

// The body of the feed subroutine: queues the row in r[feed_reg..] (unless
// UNION has seen it).
void Codegen::CodeCteFeed(const CteQueue& q, int feed_reg) {
  int skip = MakeLabel();
  if (q.dist >= 0) {
    int a = Op(Opcode::kFound, q.dist, skip, feed_reg);
    prog_->SetP4Int(a, q.ncols);
    int rec = AllocReg();
    Op(Opcode::kMakeRecord, feed_reg, q.ncols, rec);
    Op(Opcode::kIdxInsert, q.dist, rec);
  }
  if (q.order != nullptr) {
    int norder = q.norder;
    int rec = AllocReg(norder + 2 + q.ncols);
    for (int i = 0; i < norder; ++i) {
      int col = (*q.order)[static_cast<size_t>(i)]->column;
      Op(Opcode::kCopy, feed_reg + col, rec + i, 0);
    }
    Op(Opcode::kAddImm, q.seq_reg, 1);
    Op(Opcode::kCopy, q.seq_reg, rec + norder, 0);
    for (int c = 0; c < q.ncols; ++c) Op(Opcode::kCopy, feed_reg + c, rec + norder + 1 + c, 0);
    Op(Opcode::kMakeRecord, rec, norder + 1 + q.ncols, rec + norder + 1 + q.ncols);
    Op(Opcode::kIdxInsert, q.queue, rec + norder + 1 + q.ncols);
  } else {
    SelectDest qd;
    qd.kind = SelectDest::kTable;
    qd.cursor = q.queue;
    EmitToDest(&qd, feed_reg, q.ncols);
  }
  ResolveLabel(skip);
}

}  // namespace basalt
