// Virtual-table loops: one scan with the Filter arguments BestIndex asked
// for, or SQLite's MULTI-INDEX OR (one scan per disjunct of an OR term,
// rows deduplicated by rowid).
#include <algorithm>

#include "exec/codegen_internal.h"

namespace basalt {

std::string Codegen::VtabDetail(const VtabPlan& vp, const std::string& name) {
  return "SCAN " + name + " VIRTUAL TABLE INDEX " + std::to_string(vp.idx_num) + ":" +
         std::string(vp.idx_str);
}

// EXPLAIN QUERY PLAN of a MULTI-INDEX OR, as SQLite prints it:
//   MULTI-INDEX OR
//     INDEX 1
//       SCAN t VIRTUAL TABLE INDEX n:str
//     INDEX 2 ...
void Codegen::VtabOrEqp(const VtabPlan& vp, const Source& src) {
  EqpScope top(this, Eqp("MULTI-INDEX OR"));
  for (size_t i = 0; i < vp.branches.size(); ++i) {
    EqpScope sub(this, Eqp("INDEX " + std::to_string(i + 1)));
    Eqp(VtabDetail(*vp.branches[i], std::string(src.name)));
  }
}

// A virtual table: the cursor is opened, then each Filter call gets the
// arguments BestIndex asked for (one call per combination of the values of
// IN arguments), and VNext walks its rows. Terms the table enforces itself
// (omit) are not tested again.
void Codegen::CodeVtabLoop(WhereLoops* w, const LoopPlan& lp, const Source& src, LevelState* lv) {
  (void)w;
  const VtabPlan& vp = *lp.vtab;
  prog_->SetP4(Op(Opcode::kVOpen, src.cursor), src.table);
  if (vp.or_term != nullptr) {
    CodeVtabOrLoop(vp, src, lv);
    return;
  }
  const int argc = static_cast<int>(vp.args.size());
  const int base = AllocReg(argc > 0 ? argc : 1);
  int empty = lv->brk;  // where an empty scan goes: the next IN value, else out
  for (int i = 0; i < argc; ++i) {
    const VtabPlan::Arg& a = vp.args[static_cast<size_t>(i)];
    if (a.in == nullptr) continue;
    int has_null;
    int inc = CodeInListIndex(a.in, &has_null, 'A', nullptr);
    Op(Opcode::kRewind, inc, empty);
    lv->in_tops.push_back(prog_->pc());
    Op(Opcode::kColumn, inc, 0, base + i);
    lv->in_cursors.push_back(inc);
    int next = MakeLabel();
    lv->in_nexts.push_back(next);
    empty = next;
  }
  for (int i = 0; i < argc; ++i) {
    const VtabPlan::Arg& a = vp.args[static_cast<size_t>(i)];
    if (a.in != nullptr) continue;
    if (a.value != nullptr) {
      CodeExpr(a.value, base + i);
    } else {
      Op(Opcode::kNull, 0, base + i);
    }
  }
  auto* info = prog_->arena.New<VFilterInfo>();
  info->idx_num = vp.idx_num;
  info->idx_str = prog_->arena.CopyString(vp.idx_str).data();
  info->argc = argc;
  prog_->SetP4(Op(Opcode::kVFilter, src.cursor, empty, base), info);
  lv->top = prog_->pc();
  lv->next_op = Opcode::kVNext;
  lv->next_cursor = src.cursor;
  for (WhereTerm* t : vp.omitted) t->coded = true;
}

// The MULTI-INDEX OR loop. The level's body is a subroutine that each
// branch calls for its new rows; the level's "next" is its Return:
//        OpenRowSet  seen
//   per branch i:  [loops over its IN lists' values]  Filter args_i -> done_i
//     top_i:       residual tests of branch i (false: next_i)
//                  VRowid -> r; in seen: next_i; else add to seen
//                  Gosub ret, body
//     next_i:      VNext top_i
//     done_i:
//        Goto brk
//   body: ...inner levels...  cont: Return ret
// The last branch only tests `seen` (nothing after it reads it).
void Codegen::CodeVtabOrLoop(const VtabPlan& vp, const Source& src, LevelState* lv) {
  const int seen = ctx_->AllocCursor();
  prog_->n_cursors = std::max(prog_->n_cursors, ctx_->n_cursors);
  Op(Opcode::kOpenRowSet, seen);
  const int ret = AllocReg();
  const int rowid = AllocReg();
  const int body = MakeLabel();
  for (size_t b = 0; b < vp.branches.size(); ++b) {
    const VtabPlan& bp = *vp.branches[b];
    const int argc = static_cast<int>(bp.args.size());
    const int base = AllocReg(argc > 0 ? argc : 1);
    const int done = MakeLabel();
    const int next = MakeLabel();
    // IN arguments: a loop over each list's values around the scan.
    int empty = done;
    std::vector<int> in_cursors, in_tops, in_nexts;
    for (int i = 0; i < argc; ++i) {
      const VtabPlan::Arg& a = bp.args[static_cast<size_t>(i)];
      if (a.in == nullptr) continue;
      int has_null;
      int inc = CodeInListIndex(a.in, &has_null, 'A', nullptr);
      Op(Opcode::kRewind, inc, empty);
      in_tops.push_back(prog_->pc());
      Op(Opcode::kColumn, inc, 0, base + i);
      in_cursors.push_back(inc);
      empty = MakeLabel();
      in_nexts.push_back(empty);
    }
    for (int i = 0; i < argc; ++i) {
      const VtabPlan::Arg& a = bp.args[static_cast<size_t>(i)];
      if (a.in != nullptr) continue;
      if (a.value != nullptr) {
        CodeExpr(a.value, base + i);
      } else {
        Op(Opcode::kNull, 0, base + i);
      }
    }
    auto* info = prog_->arena.New<VFilterInfo>();
    info->idx_num = bp.idx_num;
    info->idx_str = prog_->arena.CopyString(bp.idx_str).data();
    info->argc = argc;
    prog_->SetP4(Op(Opcode::kVFilter, src.cursor, empty, base), info);
    const int top = prog_->pc();
    for (ast::Expr* e : bp.residual) CodeJumpIf(e, next, false, true);
    Op(Opcode::kVRowid, src.cursor, rowid);
    Op(Opcode::kRowSetTest, seen, next, rowid);
    if (b + 1 < vp.branches.size()) Op(Opcode::kRowSetAdd, seen, rowid);
    Op(Opcode::kGosub, ret, body);
    ResolveLabel(next);
    Op(Opcode::kVNext, src.cursor, top);
    for (size_t k = in_cursors.size(); k-- > 0;) {
      ResolveLabel(in_nexts[k]);
      Op(Opcode::kNext, in_cursors[k], in_tops[k]);
    }
    ResolveLabel(done);
  }
  Op(Opcode::kGoto, 0, lv->brk);
  ResolveLabel(body);
  lv->top = prog_->pc();
  lv->next_op = Opcode::kReturn;
  lv->next_cursor = ret;
  vp.or_term->coded = true;
}

}  // namespace basalt
