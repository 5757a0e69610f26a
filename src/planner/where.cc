#include "planner/where.h"

#include <algorithm>
#include <cmath>

#include "parser/parser.h"
#include "planner/walk.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;

namespace {

TermOp CommuteOp(TermOp op) {
  switch (op) {
    case TermOp::kLt:
      return TermOp::kGt;
    case TermOp::kLe:
      return TermOp::kGe;
    case TermOp::kGt:
      return TermOp::kLt;
    case TermOp::kGe:
      return TermOp::kLe;
    default:
      return op;
  }
}

// Comparison affinity (SQLite's rule for `a <op> b`).
char CompareAffinity(char a, char b) {
  bool ha = a > '@', hb = b > '@';
  if (ha && hb) return (a >= 'C' || b >= 'C') ? 'C' : 'A';
  if (!ha && !hb) return '@';
  return ha ? a : b;
}

}  // namespace

SourceMask WherePlanner::ExprMask(const Expr* e) const {
  SourceMask m = 0;
  auto f = [&](Expr* x) {
    if (x->kind == ExprKind::kResolvedColumn) {
      int c = x->cursor - min_cursor_;
      if (c >= 0 && c < static_cast<int>(cursor_to_src_.size()) && cursor_to_src_[c] >= 0) {
        m |= SourceMask(1) << cursor_to_src_[c];
      }
    }
    return true;
  };
  WalkExpr(const_cast<Expr*>(e), f);
  return m;
}

void WherePlanner::SplitAnd(Expr* e, int on_source, WherePlan* plan) {
  if (e == nullptr) return;
  if (e->kind == ExprKind::kBinary && e->op == ast::Op::kAnd) {
    SplitAnd(e->left, on_source, plan);
    SplitAnd(e->right, on_source, plan);
    return;
  }
  WhereTerm t;
  t.expr = e;
  t.prereq = ExprMask(e);
  t.on_source = on_source;
  plan->terms.push_back(t);
}

void WherePlanner::Classify(WhereTerm* t) {
  Expr* e = t->expr;
  auto column_of = [&](Expr* x, int* src, int* col) {
    while (x->kind == ExprKind::kCollate) x = x->left;
    if (x->kind != ExprKind::kResolvedColumn || x->depth != 0) return false;
    int c = x->cursor - min_cursor_;
    if (c < 0 || c >= static_cast<int>(cursor_to_src_.size()) || cursor_to_src_[c] < 0) {
      return false;
    }
    *src = cursor_to_src_[c];
    *col = x->column;
    const Source& s = (*req_->sources)[static_cast<size_t>(*src)];
    return s.table != nullptr;  // only base tables have indexes / rowids
  };
  if (e->kind == ExprKind::kBinary) {
    TermOp op = TermOp::kNone;
    switch (e->op) {
      case ast::Op::kEq:
        op = TermOp::kEq;
        break;
      case ast::Op::kIs:
        op = TermOp::kIs;
        break;
      case ast::Op::kLt:
        op = TermOp::kLt;
        break;
      case ast::Op::kLe:
        op = TermOp::kLe;
        break;
      case ast::Op::kGt:
        op = TermOp::kGt;
        break;
      case ast::Op::kGe:
        op = TermOp::kGe;
        break;
      default:
        return;
    }
    if (e->left->kind == ExprKind::kVector || e->right->kind == ExprKind::kVector) return;
    // `x IS TRUE` / `x IS FALSE` test truth (2 IS TRUE), not equality with 1/0.
    if (op == TermOp::kIs && e->right->kind == ExprKind::kBool) return;
    int src, col;
    char aff = CompareAffinity(Resolver::ExprAffinity(e->left), Resolver::ExprAffinity(e->right));
    const Collation* coll = resolver_->BinaryCollation(e->left, e->right);
    if (column_of(e->left, &src, &col)) {
      SourceMask rm = ExprMask(e->right);
      if (!(rm & (SourceMask(1) << src))) {
        t->op = op;
        t->src = src;
        t->column = col;
        t->col_expr = e->left;
        t->rhs = e->right;
        t->rhs_prereq = rm;
        t->cmp_affinity = aff;
        t->coll = coll;
      }
    }
    int src2, col2;
    if (column_of(e->right, &src2, &col2)) {
      SourceMask lm = ExprMask(e->left);
      if (!(lm & (SourceMask(1) << src2))) {
        if (t->op == TermOp::kNone) {
          t->op = CommuteOp(op);
          t->src = src2;
          t->column = col2;
          t->col_expr = e->right;
          t->rhs = e->left;
          t->rhs_prereq = lm;
          t->cmp_affinity = aff;
          t->coll = coll;
        } else {
          // Both sides are columns of different sources: add the commuted
          // form as a virtual term (never evaluated as a filter itself).
          WhereTerm v = *t;
          v.op = CommuteOp(op);
          v.src = src2;
          v.column = col2;
          v.col_expr = e->right;
          v.rhs = e->left;
          v.rhs_prereq = lm;
          v.disabled = true;
          pending_.push_back(v);
        }
      }
    }
    return;
  }
  int src, col;
  if (e->kind == ExprKind::kIsNull && column_of(e->left, &src, &col)) {
    t->op = TermOp::kIsNull;
    t->src = src;
    t->column = col;
    t->col_expr = e->left;
    return;
  }
  if (e->kind == ExprKind::kIn && !e->has(ast::kNot) && column_of(e->left, &src, &col)) {
    SourceMask rm = 0;
    if (e->list) {
      for (size_t i = 0; i < e->list->size(); ++i) rm |= ExprMask((*e->list)[i]);
    } else if (e->select) {
      // The sources the subquery reads (correlated references); one that
      // reads the column's own table cannot drive a lookup into it.
      auto f = [&](Expr* x) {
        rm |= ExprMask(x);
        return false;
      };
      WalkSelectExprs(e->select, f);
    }
    if (rm & (SourceMask(1) << src)) return;
    t->op = TermOp::kIn;
    t->src = src;
    t->column = col;
    t->col_expr = e->left;
    t->rhs = e;
    t->rhs_prereq = rm;
    char laff = Resolver::ExprAffinity(e->left);
    t->cmp_affinity = laff;
    t->coll = resolver_->InListCollation(e);
    if (e->select != nullptr) {
      // IN (SELECT ...) compares with the affinity and collation of the
      // left side and the subquery's column together.
      ast::Select* first = e->select;
      while (first->prior) first = first->prior;
      Expr* rcol = (*InfoOf(first)->result)[0];
      t->cmp_affinity = CompareAffinity(laff, Resolver::ExprAffinity(rcol));
      t->coll = resolver_->BinaryCollation(e->left, rcol);
    }
    return;
  }
  if (e->kind == ExprKind::kBetween && !e->has(ast::kNot) && column_of(e->left, &src, &col)) {
    for (int half = 0; half < 2; ++half) {
      Expr* bound = (*e->list)[static_cast<size_t>(half)];
      SourceMask bm = ExprMask(bound);
      if (bm & (SourceMask(1) << src)) continue;
      WhereTerm v;
      v.expr = e;
      v.prereq = t->prereq;
      v.on_source = t->on_source;
      v.op = half == 0 ? TermOp::kGe : TermOp::kLe;
      v.src = src;
      v.column = col;
      v.col_expr = e->left;
      v.rhs = bound;
      v.rhs_prereq = bm;
      v.cmp_affinity =
          CompareAffinity(Resolver::ExprAffinity(e->left), Resolver::ExprAffinity(bound));
      v.coll = resolver_->BinaryCollation(e->left, bound);
      v.from_between = true;
      v.disabled = true;
      pending_.push_back(v);
    }
  }
}

// `a = x OR a = y OR a IN (z)` on one column becomes a virtual `a IN (x, y, z)`
// that an index lookup can use (the OR itself stays as the filter).
void WherePlanner::AddOrAsIn(const WhereTerm& t) {
  if (!ctx_->options.PassOn(Pass::kOrToIn)) return;
  Expr* e = t.expr;
  if (e->kind != ExprKind::kBinary || e->op != ast::Op::kOr) return;
  std::vector<Expr*> parts;
  std::vector<Expr*> stack{e};
  while (!stack.empty()) {
    Expr* x = stack.back();
    stack.pop_back();
    if (x->kind == ExprKind::kBinary && x->op == ast::Op::kOr) {
      stack.push_back(x->right);
      stack.push_back(x->left);
    } else {
      parts.push_back(x);
    }
  }
  Expr* col = nullptr;
  ast::ExprList* list = ctx_->arena->New<ast::ExprList>();
  auto same_col = [&](Expr* c) {
    if (c->kind != ExprKind::kResolvedColumn || c->depth != 0) return false;
    if (col == nullptr) {
      col = c;
      return true;
    }
    return col->cursor == c->cursor && col->column == c->column;
  };
  auto plain = [&](Expr* v) {
    return Resolver::ExprAffinity(v) == '@' && resolver_->ExprCollation(v) == nullptr &&
           (v->kind == ExprKind::kInteger || v->kind == ExprKind::kReal ||
            v->kind == ExprKind::kString || v->kind == ExprKind::kNull ||
            v->kind == ExprKind::kParam ||
            (v->kind == ExprKind::kUnary && v->left->kind != ExprKind::kResolvedColumn &&
             (v->left->kind == ExprKind::kInteger || v->left->kind == ExprKind::kReal)));
  };
  for (Expr* p : parts) {
    if (p->kind == ExprKind::kBinary && p->op == ast::Op::kEq) {
      if (same_col(p->left) && plain(p->right)) {
        {
          ast::ExprItem item;
          item.expr = p->right;
          list->items.push_back(*ctx_->arena, item);
        }
      } else if (same_col(p->right) && plain(p->left)) {
        {
          ast::ExprItem item;
          item.expr = p->left;
          list->items.push_back(*ctx_->arena, item);
        }
      } else {
        return;
      }
    } else if (p->kind == ExprKind::kIn && !p->has(ast::kNot) && p->list != nullptr &&
               p->select == nullptr && same_col(p->left)) {
      for (size_t i = 0; i < p->list->size(); ++i) {
        if (!plain((*p->list)[i])) return;
        list->items.push_back(*ctx_->arena, p->list->items[i]);
      }
    } else {
      return;
    }
  }
  if (col == nullptr || list->size() == 0) return;
  Expr* in = ctx_->arena->New<Expr>();
  in->kind = ExprKind::kIn;
  in->left = col;
  in->list = list;
  in->pflags = 0x01;
  WhereTerm v;
  v.expr = in;
  v.prereq = t.prereq;
  v.on_source = t.on_source;
  v.disabled = true;
  Classify(&v);
  if (v.op == TermOp::kIn) {
    v.expr = t.expr;  // evaluating the virtual term means evaluating the OR
    pending_.push_back(v);
  }
}

bool WherePlanner::OrderSatisfied(const LoopPlan& loop, const ast::ExprList* order,
                                  bool* reverse) const {
  if (order == nullptr || order->size() == 0) return false;
  if (!ctx_->options.PassOn(Pass::kOrderByIndex)) return false;
  const Source& s = (*req_->sources)[static_cast<size_t>(loop.src)];
  if (s.table == nullptr) return false;
  if (loop.access == AccessKind::kVirtual) {
    *reverse = false;
    return loop.vtab != nullptr && loop.vtab->order_consumed;
  }
  int dir = -1;  // unknown; 0 forward; 1 reverse
  auto term_ok = [&](const ast::ExprItem& item, int want_col, const Collation* want_coll,
                     bool col_desc) {
    Expr* e = item.expr;
    if (item.nulls != ast::NullsOrder::kUnspecified) return false;
    bool explicit_coll = false;
    const Collation* c = resolver_->ExprCollation(e, &explicit_coll);
    while (e->kind == ExprKind::kCollate) e = e->left;
    if (e->kind != ExprKind::kResolvedColumn || e->cursor != s.cursor || e->depth != 0) {
      return false;
    }
    if (e->column != want_col) return false;
    const Collation* a = c ? c : BinaryCollation();
    const Collation* b = want_coll ? want_coll : BinaryCollation();
    if (a != b) return false;
    bool desc = (item.order == ast::SortOrder::kDesc) != col_desc;
    int d = desc ? 1 : 0;
    if (dir >= 0 && dir != d) return false;
    dir = d;
    return true;
  };
  size_t n = order->size();
  if (loop.access == AccessKind::kFullScan || loop.access == AccessKind::kRowidRange ||
      loop.access == AccessKind::kRowidEq) {
    if (loop.access == AccessKind::kRowidEq) return false;
    if (loop.index != nullptr) {
      // covering index scan: handled below
    } else {
      if (n != 1) return false;
      if (!term_ok(order->items[0], -1, nullptr, false)) return false;
      *reverse = dir == 1;
      return true;
    }
  }
  const Index* idx = loop.index;
  if (idx == nullptr) return false;
  size_t pos = 0;
  // Columns fixed by equality (not IN) can be skipped.
  size_t fixed = 0;
  for (WhereTerm* t : loop.eq) {
    if (t->op == TermOp::kIn) break;
    ++fixed;
  }
  if (fixed < loop.eq.size()) return false;  // an IN constraint breaks the order
  size_t i = 0;
  for (pos = 0; i < n; ++pos) {
    if (pos < idx->columns.size()) {
      int col = idx->columns[pos];
      if (col < 0) return false;
      if (term_ok(order->items[i], col == s.table->rowid_alias ? -1 : col, idx->collations[pos],
                  idx->desc[pos] != 0)) {
        ++i;
        continue;
      }
      if (pos < fixed) continue;
      return false;
    }
    // After the index columns comes the rowid, or in an index of a WITHOUT
    // ROWID table the primary-key columns its key lacks.
    if (idx->without_rowid()) {
      size_t k = pos - idx->columns.size();
      if (idx->is_table_store() || k >= idx->suffix.size()) return false;
      if (!term_ok(order->items[i], idx->suffix[k], idx->collations[pos], idx->desc[pos] != 0)) {
        return false;
      }
      ++i;
      continue;
    }
    if (pos == idx->columns.size()) {
      if (!term_ok(order->items[i], -1, nullptr, false)) return false;
      ++i;
      continue;
    }
    return false;
  }
  *reverse = dir == 1;
  return true;
}

// SQLite's min/max optimization over a join: a source with an access path
// that delivers the argument's order becomes the outer loop (SQLite's
// planner takes that plan even when another source is more selective), so
// the first row it reads decides which of equal values min()/max() returns,
// as there. With the join order fixed (outer joins) only the first source
// may; with a RIGHT JOIN none. Returns whether order[0] is now such a source.
bool WherePlanner::MinMaxOuterFirst(std::vector<int>* order, bool fixed_order, WherePlan* plan) {
  const std::vector<Source>& srcs = *req_->sources;
  for (const Source& s : srcs) {
    if ((s.join & ast::kJoinRight) != 0) return false;
  }
  for (size_t pos = 0; pos < order->size() && (pos == 0 || !fixed_order); ++pos) {
    const int s = (*order)[pos];
    if (srcs[static_cast<size_t>(s)].table == nullptr) continue;
    std::vector<LoopPlan> cands;
    AllAccess(s, 0, plan, &cands);
    for (const LoopPlan& c : cands) {
      bool reverse = false;
      if (!OrderSatisfied(c, req_->order_by, &reverse)) continue;
      order->erase(order->begin() + static_cast<std::ptrdiff_t>(pos));
      order->insert(order->begin(), s);
      return true;
    }
  }
  return false;
}

// The pass over a RIGHT JOIN table's unmatched rows reads every row: the
// covering index a scan of that table alone would take, or null for the
// table itself.
const Index* WherePlanner::UnmatchedRowsIndex(int src, WherePlan* plan) {
  rj_unmatched_pass_ = true;
  std::vector<LoopPlan> cands;
  AllAccess(src, 0, plan, &cands);
  rj_unmatched_pass_ = false;
  const LoopPlan* best = nullptr;
  for (const LoopPlan& c : cands) {
    const bool whole = c.access == AccessKind::kFullScan || c.full_index_scan;
    if (!whole || (c.index != nullptr && !c.index->is_table_store() && !c.covering)) continue;
    if (best == nullptr || c.cost < best->cost) best = &c;
  }
  if (best == nullptr || best->index == nullptr || best->index->is_table_store()) return nullptr;
  return best->index;
}

bool WherePlanner::Plan(const PlanRequest& req, WherePlan* plan) {
  req_ = &req;
  std::vector<Source>& srcs = *req.sources;
  size_t n = srcs.size();
  if (n > 64) return ctx_->Error("at most 64 tables in a join");
  // Cursor → source map.
  min_cursor_ = 0;
  int max_cursor = -1;
  if (n > 0) {
    min_cursor_ = srcs[0].cursor;
    for (const Source& s : srcs) {
      min_cursor_ = std::min(min_cursor_, s.cursor);
      max_cursor = std::max(max_cursor, s.cursor);
    }
  }
  cursor_to_src_.assign(static_cast<size_t>(max_cursor - min_cursor_ + 1), -1);
  for (size_t i = 0; i < n; ++i) {
    cursor_to_src_[static_cast<size_t>(srcs[i].cursor - min_cursor_)] = static_cast<int>(i);
  }
  // A RIGHT JOIN's matches are recorded before the terms that apply to its
  // result are tested: the WHERE terms, and the ON terms of later joins,
  // wait for the last RIGHT JOIN before them (after_rj).
  int last_rj = -1;
  for (size_t i = 0; i < n; ++i) {
    if ((srcs[i].join & ast::kJoinRight) != 0) last_rj = static_cast<int>(i);
  }
  SplitAnd(req.where, -1, plan);
  for (WhereTerm& t : plan->terms) t.after_rj = last_rj;
  int rj = -1;
  for (size_t i = 0; i < n; ++i) {
    if ((srcs[i].join & ast::kJoinRight) != 0) rj = static_cast<int>(i);
    if (srcs[i].on == nullptr) continue;
    const size_t first = plan->terms.size();
    const bool own = srcs[i].outer_nullable || (srcs[i].join & ast::kJoinRight) != 0;
    SplitAnd(srcs[i].on, own ? static_cast<int>(i) : -1, plan);
    for (size_t k = first; k < plan->terms.size(); ++k) plan->terms[k].after_rj = rj;
  }
  pending_.clear();
  for (WhereTerm& t : plan->terms) Classify(&t);
  for (size_t i = 0, n0 = plan->terms.size(); i < n0; ++i) AddOrAsIn(plan->terms[i]);
  for (WhereTerm& v : pending_) plan->terms.push_back(v);
  pending_.clear();

  // Join order: keep FROM order when outer or CROSS joins are present.
  bool fixed_order = false;
  for (const Source& s : srcs) {
    if (s.outer_nullable || (s.join & (ast::kJoinCross | ast::kJoinRight))) fixed_order = true;
  }
  std::vector<int> order;
  if (n <= 1 || fixed_order) {
    for (size_t i = 0; i < n; ++i) order.push_back(static_cast<int>(i));
  } else if (n <= 8) {
    // Dynamic programming over subsets.
    size_t full = (size_t(1) << n) - 1;
    std::vector<double> cost(full + 1, 1e300), rows(full + 1, 1);
    std::vector<int> last(full + 1, -1);
    std::vector<size_t> prev(full + 1, 0);
    cost[0] = 0;
    for (size_t m = 0; m <= full; ++m) {
      if (cost[m] >= 1e299) continue;
      for (size_t s = 0; s < n; ++s) {
        if (m & (size_t(1) << s)) continue;
        LoopPlan lp;
        BestAccess(static_cast<int>(s), m, plan, &lp);
        size_t nm = m | (size_t(1) << s);
        double c = cost[m] + rows[m] * lp.cost;
        if (c < cost[nm] * 0.999999) {
          cost[nm] = c;
          rows[nm] = std::max(1.0, rows[m] * lp.rows);
          last[nm] = static_cast<int>(s);
          prev[nm] = m;
        }
      }
    }
    for (size_t m = full; m != 0; m = prev[m]) order.push_back(last[m]);
    std::reverse(order.begin(), order.end());
  } else {
    SourceMask ready = 0;
    std::vector<bool> placed(n, false);
    for (size_t step = 0; step < n; ++step) {
      int best = -1;
      LoopPlan bl;
      for (size_t s = 0; s < n; ++s) {
        if (placed[s]) continue;
        LoopPlan lp;
        BestAccess(static_cast<int>(s), ready, plan, &lp);
        if (best < 0 || lp.cost < bl.cost) {
          best = static_cast<int>(s);
          bl = lp;
        }
      }
      placed[static_cast<size_t>(best)] = true;
      ready |= SourceMask(1) << best;
      order.push_back(best);
    }
  }
  const bool minmax_first = n > 1 && req.first_row_only && req.order_by != nullptr &&
                            req.group_by == nullptr && MinMaxOuterFirst(&order, fixed_order, plan);
  SourceMask ready = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    int s = order[k];
    LoopPlan lp;
    if (k == 0 && (n == 1 || minmax_first) && req.order_by != nullptr && req.group_by == nullptr &&
        srcs[static_cast<size_t>(s)].table != nullptr) {
      // A single table with ORDER BY: weigh each access path with the cost
      // of sorting its output unless it already delivers the order.
      std::vector<LoopPlan> cands;
      AllAccess(s, ready, plan, &cands);
      double best_total = 0;
      bool best_sat = false;
      for (size_t i = 0; i < cands.size(); ++i) {
        bool rev = false;
        bool sat = OrderSatisfied(cands[i], req.order_by, &rev);
        double rows = std::max(cands[i].rows, 2.0);
        double total = cands[i].cost + (sat ? 0.0 : rows * std::log2(rows));
        if (req.first_row_only && sat) total = 1.0 + cands[i].cost * 1e-9;
        if (i == 0 || total < best_total) {
          best_total = total;
          lp = cands[i];
          lp.reverse = sat && rev;
          best_sat = sat;
        }
      }
      plan->order_by_satisfied = best_sat;
    } else {
      BestAccess(s, ready, plan, &lp);
    }
    if ((srcs[static_cast<size_t>(s)].join & ast::kJoinRight) != 0) {
      lp.rj_scan_index = UnmatchedRowsIndex(s, plan);
    }
    plan->loops.push_back(lp);
    ready |= SourceMask(1) << s;
  }
  return true;
}

}  // namespace basalt
