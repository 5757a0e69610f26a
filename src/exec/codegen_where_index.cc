// The loop header of a level that reads through an index: equality terms
// on a prefix of the index columns (IN lists drive loops over their values),
// then an optional range on the next column.
//
// The key registers hold the equality values, then the range bound. The
// header is emitted in steps:
//   1. IN terms: a loop over each list's distinct values, outermost first;
//   2. the other equality values, with the affinity of their columns;
//   3. the start: a seek to the first entry of the range (past the range
//      column's NULLs when they sort first), or to the equality prefix;
//   4. the end bound, tested at the top of each iteration;
//   5. the table row of the entry, unless the index covers the query.
#include "exec/codegen_internal.h"

namespace basalt {

// One index level while its header is emitted.
struct IndexScan {
  const Index* idx = nullptr;
  const Table* tab = nullptr;
  int neq = 0;        // equality terms (index columns 0..neq-1)
  int keys = 0;       // first key register: neq values, then the range bound
  int range_brk = 0;  // where to go when the range is exhausted
  std::string aff;    // affinity per key register ('A': none)
  // The range column (index column neq), in index order: a DESC column
  // reverses the value order, and its NULLs sort last instead of first.
  char range_aff = 'A';
  bool desc_col = false;
  WhereTerm* first = nullptr;  // bound where the scan starts, and its operator
  TermOp first_op = TermOp::kNone;
  WhereTerm* last = nullptr;  // bound where the scan ends, and its operator
  TermOp last_op = TermOp::kNone;
  bool has_range = false;
  bool nulls_low = true;  // the range column's NULLs come first in index order
};

namespace {

// A bound's operator in index order.
TermOp InIndexOrder(TermOp op, bool desc_col) {
  if (!desc_col) return op;
  switch (op) {
    case TermOp::kLt:
      return TermOp::kGt;
    case TermOp::kLe:
      return TermOp::kGe;
    case TermOp::kGt:
      return TermOp::kLt;
    case TermOp::kGe:
      return TermOp::kLe;
    case TermOp::kNone:  // not bounds: unchanged
    case TermOp::kEq:
    case TermOp::kIs:
    case TermOp::kIn:
    case TermOp::kIsNull:
      break;
  }
  return op;
}

// The affinity a probe key gets from its index column. As SQLite's
// OP_Affinity, REAL affinity leaves an integer an integer (only a stored
// value becomes a real), so 9007199254740993 does not find the stored real
// 9007199254740992.0; that is NUMERIC affinity here.
char SeekAffinity(Affinity column) {
  return static_cast<char>(column == Affinity::kReal ? Affinity::kNumeric : column);
}

}  // namespace

void Codegen::CodeIndexRange(const LoopPlan& lp, const Source& src, LevelState* lv) {
  IndexScan x;
  x.idx = lp.index;
  x.tab = src.table;
  x.neq = static_cast<int>(lp.eq.size());
  x.keys = AllocReg(x.neq + 2);
  x.range_brk = lv->brk;
  x.aff.assign(static_cast<size_t>(x.neq + 1), 'A');
  CodeInDrivers(lp, &x, lv);
  CodeEqualityKeys(lp, &x);
  PlanIndexBounds(lp, &x);
  CodeIndexStart(lp, &x, lv);
  CodeIndexEnd(lp, &x, lv);
  if (!lp.covering) SeekTableRow(lp.index, src, lv);
  if (lp.lower) lp.lower->coded = !lp.lower->from_between;
  if (lp.upper) lp.upper->coded = !lp.upper->from_between;
  lv->next_op = lp.reverse ? Opcode::kPrev : Opcode::kNext;
  lv->next_cursor = lv->index_cursor;
}

// Step 1: IN terms drive outer loops over their values.
void Codegen::CodeInDrivers(const LoopPlan& lp, IndexScan* x, LevelState* lv) {
  for (int i = 0; i < x->neq; ++i) {
    WhereTerm* t = lp.eq[static_cast<size_t>(i)];
    if (t->op != TermOp::kIn) continue;
    int col = x->idx->columns[static_cast<size_t>(i)];
    char aff = static_cast<char>(x->tab->columns[static_cast<size_t>(col)].affinity);
    int has_null;
    int inc = CodeInListIndex(t->rhs, &has_null, t->cmp_affinity >= 'B' ? aff : 'A',
                              x->idx->collations[static_cast<size_t>(i)]);
    int outer_brk = lv->in_cursors.empty() ? lv->brk : lv->in_nexts.back();
    Op(Opcode::kRewind, inc, outer_brk);
    int in_top = prog_->pc();
    int in_next = MakeLabel();
    Op(Opcode::kColumn, inc, 0, x->keys + i);
    Op(Opcode::kIsNull, x->keys + i, in_next);
    lv->in_cursors.push_back(inc);
    lv->in_tops.push_back(in_top);
    lv->in_nexts.push_back(in_next);
    x->range_brk = in_next;
  }
}

// Whether `e`'s value already compares as the affinity `aff` would make it
// (SQLite's sqlite3ExprNeedsNoAffinityChange): then the key keeps it as is.
// Above all, an integer literal probing a REAL column stays an integer, so
// one beyond 2^53 is not rounded into a match.
bool Codegen::NeedsNoAffinityChange(const ast::Expr* e, char aff) {
  using ast::ExprKind;
  if (aff <= 'A') return true;
  bool negated = false;
  while (e->kind == ExprKind::kUnary && (e->op == ast::Op::kNeg || e->op == ast::Op::kPlus)) {
    negated |= e->op == ast::Op::kNeg;
    e = e->left;
  }
  switch (e->kind) {
    case ExprKind::kInteger:
    case ExprKind::kReal:
      return aff >= 'C';
    case ExprKind::kString:
      return !negated && aff == 'B';
    case ExprKind::kBlob:
      return !negated;
    case ExprKind::kResolvedColumn:
      return aff >= 'C' && e->column < 0;
    default:
      return false;
  }
}

// Step 2: the other equality values (IS NULL: a NULL key).
void Codegen::CodeEqualityKeys(const LoopPlan& lp, IndexScan* x) {
  for (int i = 0; i < x->neq; ++i) {
    WhereTerm* t = lp.eq[static_cast<size_t>(i)];
    int col = x->idx->columns[static_cast<size_t>(i)];
    char caff = SeekAffinity(x->tab->columns[static_cast<size_t>(col)].affinity);
    if (t->op == TermOp::kIn) {
      // value already loaded by the IN loop
    } else if (t->op == TermOp::kIsNull) {
      Op(Opcode::kNull, 0, x->keys + i);
    } else {
      CodeExpr(t->rhs, x->keys + i);
      if (t->op == TermOp::kEq) Op(Opcode::kIsNull, x->keys + i, x->range_brk);
    }
    bool keep = t->op != TermOp::kIsNull;  // the value needs no affinity change
    if (t->op == TermOp::kIn) {
      keep = t->rhs->list != nullptr;
      for (size_t k = 0; keep && k < t->rhs->list->size(); ++k) {
        keep = NeedsNoAffinityChange((*t->rhs->list)[k], caff);
      }
    } else if (keep) {
      keep = NeedsNoAffinityChange(t->rhs, caff);
    }
    if (t->cmp_affinity >= 'B' && !keep) {
      x->aff[static_cast<size_t>(i)] = caff;
    }
    t->coded = true;
  }
}

// Which bound starts the scan and which ends it, in index order.
void Codegen::PlanIndexBounds(const LoopPlan& lp, IndexScan* x) {
  if (x->neq < static_cast<int>(x->idx->columns.size())) {
    int col = x->idx->columns[static_cast<size_t>(x->neq)];
    if (col >= 0) x->range_aff = SeekAffinity(x->tab->columns[static_cast<size_t>(col)].affinity);
    x->desc_col = x->idx->desc[static_cast<size_t>(x->neq)] != 0;
  }
  WhereTerm* lo_term = x->desc_col ? lp.upper : lp.lower;
  WhereTerm* hi_term = x->desc_col ? lp.lower : lp.upper;
  TermOp lo_op = lo_term ? InIndexOrder(lo_term->op, x->desc_col) : TermOp::kNone;
  TermOp hi_op = hi_term ? InIndexOrder(hi_term->op, x->desc_col) : TermOp::kNone;
  x->has_range = lo_term != nullptr || hi_term != nullptr;
  x->nulls_low = !x->desc_col;
  x->first = lp.reverse ? hi_term : lo_term;
  x->last = lp.reverse ? lo_term : hi_term;
  x->first_op = lp.reverse ? hi_op : lo_op;
  x->last_op = lp.reverse ? lo_op : hi_op;
}

// Applies the key affinities to the first n key registers (if any is set).
void Codegen::ApplyKeyAffinity(const IndexScan& x, int n) {
  bool any = false;
  for (int i = 0; i < n; ++i) any |= x.aff[static_cast<size_t>(i)] != 'A';
  if (!any) return;
  char* s = prog_->arena.NewArray<char>(static_cast<size_t>(n) + 1);
  for (int i = 0; i < n; ++i) s[i] = x.aff[static_cast<size_t>(i)];
  s[n] = 0;
  int a = Op(Opcode::kAffinity, x.keys, n);
  prog_->SetP4Str(a, s);
}

// Step 3: the start position.
void Codegen::CodeIndexStart(const LoopPlan& lp, IndexScan* x, LevelState* lv) {
  int neq = x->neq;
  auto seek = [&](Opcode op, int n) {
    int a = Op(op, lv->index_cursor, x->range_brk, x->keys);
    prog_->SetP4Int(a, n);
  };
  if (x->first != nullptr) {
    CodeExpr(x->first->rhs, x->keys + neq);
    Op(Opcode::kIsNull, x->keys + neq, x->range_brk);
    if (x->first->cmp_affinity >= 'B' && !NeedsNoAffinityChange(x->first->rhs, x->range_aff)) {
      x->aff[static_cast<size_t>(neq)] = x->range_aff;
    }
    ApplyKeyAffinity(*x, neq + 1);
    Opcode op;
    if (!lp.reverse) {
      op = x->first_op == TermOp::kGt ? Opcode::kSeekGT : Opcode::kSeekGE;
    } else {
      op = x->first_op == TermOp::kLt ? Opcode::kSeekLT : Opcode::kSeekLE;
    }
    seek(op, neq + 1);
  } else if (x->has_range && x->nulls_low != lp.reverse) {
    // The NULLs of the range column are where the scan starts: skip them.
    Op(Opcode::kNull, 0, x->keys + neq);
    ApplyKeyAffinity(*x, neq);
    seek(lp.reverse ? Opcode::kSeekLT : Opcode::kSeekGT, neq + 1);
  } else if (neq > 0) {
    ApplyKeyAffinity(*x, neq);
    seek(lp.reverse ? Opcode::kSeekLE : Opcode::kSeekGE, neq);
  } else {
    Op(lp.reverse ? Opcode::kLast : Opcode::kRewind, lv->index_cursor, x->range_brk);
  }
}

// Step 4: the end bound, tested at the top of each iteration (the loop top
// is set here).
void Codegen::CodeIndexEnd(const LoopPlan& lp, IndexScan* x, LevelState* lv) {
  int neq = x->neq;
  int end_key = 0;
  int end_n = 0;
  Opcode end_op = Opcode::kNoop;
  if (x->last != nullptr) {
    end_key = AllocReg(neq + 1);
    for (int i = 0; i < neq; ++i) Op(Opcode::kSCopy, x->keys + i, end_key + i);
    CodeExpr(x->last->rhs, end_key + neq);
    Op(Opcode::kIsNull, end_key + neq, x->range_brk);
    if (x->last->cmp_affinity >= 'B' && !NeedsNoAffinityChange(x->last->rhs, x->range_aff)) {
      char* s = prog_->arena.NewArray<char>(2);
      s[0] = x->range_aff;
      s[1] = 0;
      int a = Op(Opcode::kAffinity, end_key + neq, 1);
      prog_->SetP4Str(a, s);
    }
    end_n = neq + 1;
    if (!lp.reverse) {
      end_op = x->last_op == TermOp::kLt ? Opcode::kIdxGE : Opcode::kIdxGT;
    } else {
      end_op = x->last_op == TermOp::kGt ? Opcode::kIdxLE : Opcode::kIdxLT;
    }
  } else if (x->has_range && x->nulls_low == lp.reverse) {
    // The NULLs are where the scan ends: stop at them.
    end_key = AllocReg(neq + 1);
    for (int i = 0; i < neq; ++i) Op(Opcode::kSCopy, x->keys + i, end_key + i);
    Op(Opcode::kNull, 0, end_key + neq);
    end_n = neq + 1;
    end_op = lp.reverse ? Opcode::kIdxLE : Opcode::kIdxGE;
  } else if (neq > 0) {
    end_key = x->keys;
    end_n = neq;
    end_op = lp.reverse ? Opcode::kIdxLT : Opcode::kIdxGT;
  }
  lv->top = prog_->pc();
  if (end_op != Opcode::kNoop) {
    int a = Op(end_op, lv->index_cursor, x->range_brk, end_key);
    prog_->SetP4Int(a, end_n);
  }
}

}  // namespace basalt
