// Common table expressions: materialized once into a temporary table; a
// recursive CTE runs its recursive arms over a queue of rows until the queue
// is empty.
#include <algorithm>

#include "exec/codegen_internal.h"

namespace basalt {

using ast::Select;

bool Codegen::CodeCte(CteEntry* ce, SelectDest* out) {
  Select* body = ce->cte->select;
  int ncols = static_cast<int>(ce->columns.size());
  SelectDest table_dest;
  table_dest.kind = SelectDest::kTable;
  table_dest.cursor = ce->cursor;
  if (out == nullptr) {
    Op(Opcode::kOpenEphemeral, ce->cursor, ncols);
    out = &table_dest;
  }
  if (!ce->recursive) return CodeSelect(body, out);
  // Split the compound into initial arms (no self reference) and recursive
  // arms (the ones after the first self-referencing arm).
  std::vector<Select*> arms;
  for (Select* p = body; p; p = p->prior) arms.push_back(p);
  std::reverse(arms.begin(), arms.end());
  auto refers_self = [&](Select* arm) {
    SelectInfo* info = InfoOf(arm);
    for (const Source& src : info->sources) {
      if (src.cte == -2 - ce->id) return true;
    }
    return false;
  };
  size_t first_rec = arms.size();
  for (size_t i = 0; i < arms.size(); ++i) {
    if (refers_self(arms[i])) {
      first_rec = i;
      break;
    }
  }
  if (first_rec == 0 || first_rec == arms.size()) {
    return ctx_->Error("recursive reference in a subquery: " + std::string(ce->cte->name));
  }
  bool distinct = arms[first_rec]->op == ast::CompoundOp::kUnion;
  for (size_t i = first_rec; i < arms.size(); ++i) {
    SelectInfo* ai = InfoOf(arms[i]);
    if (ai->agg != nullptr) return ctx_->Error("recursive aggregate queries not supported");
    int refs = 0;
    for (const Source& src : ai->sources) refs += src.cte == -2 - ce->id;
    if (refs > 1) {
      return ctx_->Error("multiple references to recursive table: " + std::string(ce->cte->name));
    }
  }
  // The queue: FIFO (a table) or, with ORDER BY, a priority queue (an index on
  // the ORDER BY columns, then a sequence number, then the row).
  ast::ExprList* order = body->order_by;
  int norder = order ? static_cast<int>(order->size()) : 0;
  int queue = ctx_->AllocCursor();
  int seq_reg = AllocReg();
  if (order != nullptr) {
    KeyInfo* qki = MakeKeyInfo(norder + 1 + ncols);
    for (int i = 0; i < norder; ++i) {
      ast::Expr* e = (*order)[static_cast<size_t>(i)];
      const_cast<const Collation**>(qki->colls)[i] =
          (e->pflags & 0x02) ? static_cast<const Collation*>(e->aux) : nullptr;
      const_cast<uint8_t*>(qki->desc)[i] =
          order->items[static_cast<size_t>(i)].order == ast::SortOrder::kDesc ? 1 : 0;
    }
    int a = Op(Opcode::kOpenEphemeral, queue, norder + 1 + ncols);
    prog_->SetP4(a, qki);
    Op(Opcode::kInteger, 0, seq_reg);
  } else {
    Op(Opcode::kOpenEphemeral, queue, ncols);
  }
  int dist = -1;
  KeyInfo* ki = MakeKeyInfo(ncols);
  if (distinct) {
    dist = ctx_->AllocCursor();
    int a = Op(Opcode::kOpenEphemeral, dist, ncols);
    prog_->SetP4(a, ki);
  }
  // Rows produced by any arm go to the queue (deduplicated for UNION).
  int end = MakeLabel();
  int limit_reg = 0, offset_reg = 0;
  CodeLimit(body, &limit_reg, &offset_reg, end);
  int feed_reg = AllocReg(ncols);
  int feed_ret = AllocReg();
  int feed_sub = MakeLabel();
  int after_feed = MakeLabel();
  Op(Opcode::kGoto, 0, after_feed);
  // Subroutine: queue the row in feed_reg.
  ResolveLabel(feed_sub);
  {
    int skip = MakeLabel();
    if (distinct) {
      int a = Op(Opcode::kFound, dist, skip, feed_reg);
      prog_->SetP4Int(a, ncols);
      int rec = AllocReg();
      Op(Opcode::kMakeRecord, feed_reg, ncols, rec);
      Op(Opcode::kIdxInsert, dist, rec);
    }
    if (order != nullptr) {
      int rec = AllocReg(norder + 2 + ncols);
      for (int i = 0; i < norder; ++i) {
        int col = (*order)[static_cast<size_t>(i)]->column;
        Op(Opcode::kCopy, feed_reg + col, rec + i, 0);
      }
      Op(Opcode::kAddImm, seq_reg, 1);
      Op(Opcode::kCopy, seq_reg, rec + norder, 0);
      for (int c = 0; c < ncols; ++c) Op(Opcode::kCopy, feed_reg + c, rec + norder + 1 + c, 0);
      Op(Opcode::kMakeRecord, rec, norder + 1 + ncols, rec + norder + 1 + ncols);
      Op(Opcode::kIdxInsert, queue, rec + norder + 1 + ncols);
    } else {
      SelectDest qd;
      qd.kind = SelectDest::kTable;
      qd.cursor = queue;
      EmitToDest(&qd, feed_reg, ncols);
    }
    ResolveLabel(skip);
    Op(Opcode::kReturn, feed_ret);
  }
  ResolveLabel(after_feed);
  // Arms feed through a coroutine-free path: copy into feed_reg and Gosub.
  SelectDest feed;
  feed.kind = SelectDest::kRegs;
  feed.reg = feed_reg;
  auto code_arm = [&](Select* arm) {
    // kRegs copies the row; then call the feed subroutine.
    pending_gosub_ = {feed_ret, feed_sub};
    bool ok = CodeSimpleSelectArm(arm, &feed);
    pending_gosub_ = {0, 0};
    return ok;
  };
  for (size_t i = 0; i < first_rec; ++i) {
    if (!code_arm(arms[i])) return false;
  }
  // Main loop: pop the first queued row into the current-row table, output
  // it, and run the recursive arms.
  int cur = ce->queue_cursor;
  Op(Opcode::kOpenEphemeral, cur, ncols);
  int loop = prog_->pc();
  Op(Opcode::kRewind, queue, end);
  int row = AllocReg(ncols + 2);
  int qoff = order != nullptr ? norder + 1 : 0;
  for (int c = 0; c < ncols; ++c) Op(Opcode::kColumn, queue, qoff + c, row + c);
  Op(Opcode::kDelete, queue);
  Op(Opcode::kClearEphemeral, cur);
  SelectDest cd;
  cd.kind = SelectDest::kTable;
  cd.cursor = cur;
  EmitToDest(&cd, row, ncols);
  int skip_out = MakeLabel();
  if (offset_reg) Op(Opcode::kIfPos, offset_reg, skip_out, 1);
  EmitToDest(out, row, ncols);
  if (limit_reg) Op(Opcode::kDecrJumpZero, limit_reg, end);
  ResolveLabel(skip_out);
  for (size_t i = first_rec; i < arms.size(); ++i) {
    if (!code_arm(arms[i])) return false;
  }
  Op(Opcode::kGoto, 0, loop);
  ResolveLabel(end);
  return !ctx_->failed();
}

}  // namespace basalt
