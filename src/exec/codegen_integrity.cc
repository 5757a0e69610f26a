// The part of PRAGMA integrity_check / quick_check that needs expressions
// evaluated (main/integrity_rows.cc does the rest in plain C++): CHECK
// constraints, and the entries of indexes on expressions, on VIRTUAL
// generated columns, and partial indexes.
#include "exec/codegen.h"
#include "exec/codegen_internal.h"

namespace basalt {

Result<std::unique_ptr<Program>> CompileRowCheck(const Table* tab,
                                                 const std::vector<const Index*>& idxs,
                                                 bool check_constraints, CompileContext* ctx) {
  auto prog = std::make_unique<Program>();
  Codegen cg(ctx, prog.get());
  const int ncol = static_cast<int>(tab->columns.size());
  const int n_idx = static_cast<int>(idxs.size());
  const int tc = ctx->AllocCursor();
  cg.OpenTableCursor(Opcode::kOpenRead, tab, tc);
  std::vector<int> icur;
  for (const Index* idx : idxs) {
    icur.push_back(ctx->AllocCursor());
    CursorInfo* ci = prog->arena.New<CursorInfo>();
    ci->key_info = &idx->key_info;
    ci->n_columns = idx->n_fields();
    int a = cg.Op(Opcode::kOpenRead, icur.back(), static_cast<int>(idx->root), tab->db());
    prog->SetP4(a, ci);
  }
  // r[row]: the row number; r[count + i]: the rows that belong in idxs[i];
  // r[out..+2]: a report row.
  const int row = cg.AllocReg();
  const int count = cg.AllocReg(std::max(n_idx, 1));
  const int out = cg.AllocReg(3);
  cg.Op(Opcode::kInteger, 0, row);
  for (int i = 0; i < n_idx; ++i) cg.Op(Opcode::kInteger, 0, count + i);
  auto report = [&](int value_reg, int kind, int index) {
    cg.Op(Opcode::kCopy, value_reg, out);
    cg.Op(Opcode::kInteger, kind, out + 1);
    cg.Op(Opcode::kInteger, index, out + 2);
    cg.Op(Opcode::kResultRow, out, 3);
  };
  const int done = cg.MakeLabel();
  cg.Op(Opcode::kRewind, tc, done);
  const int top = prog->pc();
  cg.Op(Opcode::kAddImm, row, 1);
  const int base = cg.AllocReg(ncol + 1);
  Codegen::DmlTarget t;
  t.table = tab;
  t.cursor = tc;
  cg.CodeReadRow(&t, base);
  if (check_constraints && !tab->checks.empty()) {
    // One report per row, whichever constraint fails (NULL passes).
    const int ok = cg.MakeLabel();
    const int bad = cg.MakeLabel();
    for (const CheckConstraint& ck : tab->checks) {
      size_t mark = cg.redirects_.size();
      ctx->check_exprs = true;
      ast::Expr* e = cg.ParseTableExpr(tab, ck.sql, base);
      ctx->check_exprs = false;
      if (e == nullptr) return ctx->error;
      cg.CodeJumpIf(e, bad, false, false);
      cg.redirects_.resize(mark);
    }
    cg.Op(Opcode::kGoto, 0, ok);
    cg.ResolveLabel(bad);
    report(row, 0, 0);
    cg.ResolveLabel(ok);
  }
  for (int i = 0; i < n_idx; ++i) {
    const Index* idx = idxs[static_cast<size_t>(i)];
    const int next = cg.MakeLabel();
    const int skip = cg.CodePartialIndexGuard(idx, base);
    if (ctx->failed()) return ctx->error;
    cg.Op(Opcode::kAddImm, count + i, 1);
    const int nf = idx->n_fields();
    const int keys = cg.AllocReg(nf);
    cg.CodeIndexKey(idx, base, keys);
    int a = cg.Op(Opcode::kFound, icur[static_cast<size_t>(i)], next, keys);
    prog->SetP4Int(a, nf);
    report(row, 1, i);
    cg.ResolveLabel(next);
    if (skip != 0) cg.ResolveLabel(skip);
  }
  cg.Op(Opcode::kNext, tc, top);
  cg.ResolveLabel(done);
  for (int i = 0; i < n_idx; ++i) report(count + i, 2, i);
  cg.Op(Opcode::kHalt, 0, 0);
  if (ctx->failed()) return ctx->error;
  cg.FixLabels();
  prog->n_cursors = ctx->n_cursors;
  return prog;
}

}  // namespace basalt
