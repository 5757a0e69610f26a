// Access paths for virtual tables: the WHERE terms that constrain a virtual
// table's columns, and the ORDER BY, are offered to its BestIndex (the
// protocol of catalog/vtab.h); its answer becomes a kVirtual LoopPlan.
//
// A term is offered as `column <op> value` when one side is a column of the
// table and the other does not refer to the table:
//   = != < <= > >= IS IS NOT   (commuted when the column is on the right)
//   col LIKE / GLOB / REGEXP / MATCH value
//   col IS NULL, col IS NOT NULL (no value)
//   col IN (...)               (offered as =; each IN value drives a Filter)
// It is usable when its value can be computed at this loop (every source it
// refers to is in an outer loop), under the same LEFT JOIN rules as index
// terms.
#include <algorithm>

#include "parser/parser.h"
#include "planner/where.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;

namespace {

constexpr double kUnusablePlan = 1e300;

// The VtabOp for a binary operator with the column on the left.
uint8_t BinaryVtabOp(ast::Op op, bool commuted) {
  switch (op) {
    case ast::Op::kEq:
      return kVtabEq;
    case ast::Op::kNe:
      return kVtabNe;
    case ast::Op::kIs:
      return kVtabIs;
    case ast::Op::kIsNot:
      return kVtabIsNot;
    case ast::Op::kLt:
      return commuted ? kVtabGt : kVtabLt;
    case ast::Op::kLe:
      return commuted ? kVtabGe : kVtabLe;
    case ast::Op::kGt:
      return commuted ? kVtabLt : kVtabGt;
    case ast::Op::kGe:
      return commuted ? kVtabLe : kVtabGe;
    default:
      return 0;
  }
}

// A value known while planning (sqlite3_vtab_rhs_value), or null.
const Value* ConstantOf(const Expr* e, Arena* arena) {
  while (e->kind == ExprKind::kCollate) e = e->left;
  Value* v = nullptr;
  switch (e->kind) {
    case ExprKind::kInteger:
      v = arena->New<Value>();
      v->SetInt(e->ival);
      break;
    case ExprKind::kReal:
      v = arena->New<Value>();
      v->SetReal(e->rval);
      break;
    case ExprKind::kString:
      v = arena->New<Value>();
      v->SetTextStatic(e->text);
      break;
    case ExprKind::kBlob:
      v = arena->New<Value>();
      v->SetBlobStatic(e->text.data(), e->text.size());
      break;
    default:
      break;
  }
  return v;
}

// Whether SQLite would copy term `e` into each branch of a MULTI-INDEX OR:
// a comparison (= < <= > >= IS, IN, IS NULL) with a column on one side.
// MATCH, LIKE, != and the like are not among them.
bool IsComparisonTerm(const Expr* e) {
  auto is_col = [](const Expr* x) {
    while (x->kind == ExprKind::kCollate) x = x->left;
    return x->kind == ExprKind::kResolvedColumn && x->depth == 0;
  };
  if (e->kind == ExprKind::kBinary) {
    switch (e->op) {
      case ast::Op::kEq:
      case ast::Op::kLt:
      case ast::Op::kLe:
      case ast::Op::kGt:
      case ast::Op::kGe:
      case ast::Op::kIs:
        return is_col(e->left) || is_col(e->right);
      default:
        return false;
    }
  }
  if (e->kind == ExprKind::kIn) return !e->has(ast::kNot) && is_col(e->left);
  if (e->kind == ExprKind::kIsNull) return is_col(e->left);
  return false;
}

// Whether t is the IN term made from `c = x OR c = y ...` (where.cc,
// AddOrAsIn) with only equalities among the disjuncts.
bool EqualityOr(const WhereTerm& t) {
  if (!t.disabled || t.op != TermOp::kIn || t.rhs == nullptr || t.rhs->kind != ExprKind::kIn ||
      t.expr->kind != ExprKind::kBinary || t.expr->op != ast::Op::kOr) {
    return false;
  }
  std::vector<const Expr*> stack{t.expr};
  while (!stack.empty()) {
    const Expr* x = stack.back();
    stack.pop_back();
    if (x->kind == ExprKind::kBinary && x->op == ast::Op::kOr) {
      stack.push_back(x->right);
      stack.push_back(x->left);
    } else if (x->kind != ExprKind::kBinary || x->op != ast::Op::kEq) {
      return false;
    }
  }
  return true;
}

}  // namespace

bool WherePlanner::OfferToVtab(int src, SourceMask ready, const std::vector<WhereTerm*>& offer,
                               bool whole, LoopPlan* out) {
  const Source& s = (*req_->sources)[static_cast<size_t>(src)];
  Vtab* vt = s.table->vtab.get();
  const SourceMask self = SourceMask(1) << src;
  auto column_of = [&](const Expr* e, int* col) {
    while (e->kind == ExprKind::kCollate) e = e->left;
    if (e->kind != ExprKind::kResolvedColumn || e->cursor != s.cursor || e->depth != 0) {
      return false;
    }
    *col = e->column;
    return true;
  };
  // The constraints, and for each the term and its Filter argument.
  IndexInfo info;
  std::vector<WhereTerm*> terms;
  std::vector<VtabPlan::Arg> values;
  std::vector<IndexInfo::Constraint> late_cons;
  std::vector<WhereTerm*> late_terms;
  std::vector<VtabPlan::Arg> late_values;
  std::vector<size_t> late_group;  // the offered term each late one comes from
  for (size_t ti = 0; ti < offer.size(); ++ti) {
    WhereTerm& t = *offer[ti];
    if ((t.prereq & self) == 0) continue;
    // `c = x OR c = y ...` is offered as `c IN (x, y, ...)`, as SQLite
    // rewrites it (only plain equalities: an IN among them keeps the OR).
    const bool or_in = t.disabled && EqualityOr(t) && t.src == src;
    // The halves of `c BETWEEN x AND y` are offered as c >= x, c <= y.
    const bool half = t.disabled && t.from_between && t.src == src;
    if (t.disabled && !or_in && !half) continue;
    size_t group = ti;
    if (half) {
      for (size_t k = 0; k < offer.size(); ++k) {
        if (offer[k]->expr == t.expr && !offer[k]->from_between) group = k;
      }
    }
    Expr* e = or_in ? t.rhs : t.expr;
    IndexInfo::Constraint c;
    VtabPlan::Arg arg;
    int col = 0;
    Expr* other = nullptr;
    if (half) {
      if ((ExprMask(t.rhs) & self) != 0) continue;
      c.op = t.op == TermOp::kGe ? kVtabGe : kVtabLe;
      col = t.column;
      other = t.rhs;
      c.coll = t.coll;
      arg.value = other;
    } else if (e->kind == ExprKind::kBinary && BinaryVtabOp(e->op, false) != 0) {
      if (column_of(e->left, &col) && (ExprMask(e->right) & self) == 0) {
        c.op = BinaryVtabOp(e->op, false);
        other = e->right;
      } else if (column_of(e->right, &col) && (ExprMask(e->left) & self) == 0) {
        c.op = BinaryVtabOp(e->op, true);
        other = e->left;
      } else {
        continue;
      }
      c.coll = resolver_->BinaryCollation(e->left, e->right);
      arg.value = other;
    } else if (e->kind == ExprKind::kLike && !e->has(ast::kNot) && e->escape == nullptr &&
               column_of(e->left, &col) && (ExprMask(e->right) & self) == 0) {
      c.op = e->op == ast::Op::kGlob     ? kVtabGlob
             : e->op == ast::Op::kRegexp ? kVtabRegexp
             : e->op == ast::Op::kMatch  ? kVtabMatch
                                         : kVtabLike;
      other = e->right;
      arg.value = other;
    } else if ((e->kind == ExprKind::kIsNull || e->kind == ExprKind::kNotNull) &&
               column_of(e->left, &col)) {
      c.op = e->kind == ExprKind::kIsNull ? kVtabIsNull : kVtabIsNotNull;
    } else if (e->kind == ExprKind::kIn && !e->has(ast::kNot) && column_of(e->left, &col) &&
               e->left->kind != ExprKind::kVector) {
      c.op = kVtabEq;
      c.is_in = true;
      arg.in = e;
      SourceMask m = 0;
      if (e->list != nullptr) {
        for (size_t i = 0; i < e->list->size(); ++i) m |= ExprMask((*e->list)[i]);
      }
      if (e->select != nullptr) m |= t.prereq & ~self;
      if ((m & self) != 0) continue;
      other = nullptr;
    } else {
      continue;
    }
    c.column = col;
    SourceMask rhs = t.prereq & ~self;
    bool usable = (rhs & ~ready) == 0;
    // WHERE terms may not constrain the inner side of a LEFT JOIN (it can
    // be the null row); its own ON terms may.
    if (!OuterJoinUsable(s, src, t)) usable = false;
    c.usable = usable;
    if (other != nullptr) c.rhs = ConstantOf(other, ctx_->arena);
    // SQLite lists a term's own comparison first; the operators it turns
    // into extra (virtual) terms -- LIKE, GLOB, REGEXP, MATCH, !=, IS NOT,
    // IS NOT NULL, and the IN made of an OR -- come after all of those,
    // last term first.
    const bool late =
        or_in || half || e->kind == ExprKind::kLike || e->kind == ExprKind::kNotNull ||
        (e->kind == ExprKind::kBinary && (e->op == ast::Op::kNe || e->op == ast::Op::kIsNot));
    (late ? late_cons : info.constraints).push_back(c);
    (late ? late_terms : terms).push_back(&t);
    (late ? late_values : values).push_back(arg);
    if (late) late_group.push_back(group);
  }
  // Later terms' extra terms first; one term's in the order made.
  std::vector<size_t> order(late_cons.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return late_group[a] > late_group[b]; });
  for (size_t i : order) {
    info.constraints.push_back(late_cons[i]);
    terms.push_back(late_terms[i]);
    values.push_back(late_values[i]);
  }
  // ORDER BY, when the table is the only source and every term is one of
  // its columns.
  if (whole && req_->order_by != nullptr && req_->sources->size() == 1) {
    bool all = true;
    for (size_t i = 0; i < req_->order_by->size() && all; ++i) {
      const ast::ExprItem& item = req_->order_by->items[i];
      int col = 0;
      all = item.nulls == ast::NullsOrder::kUnspecified && column_of(item.expr, &col);
      if (all) info.order_by.push_back({col, item.order == ast::SortOrder::kDesc});
    }
    if (!all) info.order_by.clear();
  }
  if (req_->used_columns != nullptr && static_cast<size_t>(src) < req_->used_columns->size()) {
    const std::vector<bool>& used = (*req_->used_columns)[static_cast<size_t>(src)];
    for (size_t c = 0; c < used.size(); ++c) {
      if (used[c]) info.col_used |= uint64_t{1} << (c < 63 ? c : 63);
    }
  } else {
    info.col_used = ~uint64_t{0};
  }
  if (whole && req_->group_by != nullptr) info.distinct = 1;
  Status st = vt->BestIndex(&info);
  if (st.primary() == kConstraint) {
    // This combination of usable constraints is not a plan the table can run.
    *out = LoopPlan();
    out->src = src;
    out->access = AccessKind::kVirtual;
    out->rows = kUnusablePlan;
    out->cost = kUnusablePlan;
    return true;
  }
  if (!st.ok()) return ctx_->Error(st.code(), st.message());
  return PlanFromAnswer(src, info, terms, values, out);
}

bool WherePlanner::PlanFromAnswer(int src, const IndexInfo& info,
                                  const std::vector<WhereTerm*>& terms,
                                  const std::vector<VtabPlan::Arg>& values, LoopPlan* out) {
  // Filter's arguments: argv_index values 1..n, each once, on usable
  // constraints only.
  auto* vp = ctx_->arena->New<VtabPlan>();
  std::vector<bool> assigned;
  for (size_t i = 0; i < info.constraints.size(); ++i) {
    const IndexInfo::Constraint& c = info.constraints[i];
    if (c.argv_index <= 0) continue;
    if (!c.usable || c.argv_index > static_cast<int>(info.constraints.size())) {
      return ctx_->Error("xBestIndex malfunction");
    }
    size_t at = static_cast<size_t>(c.argv_index - 1);
    if (vp->args.size() <= at) {
      vp->args.resize(at + 1);
      assigned.resize(at + 1, false);
    }
    if (assigned[at]) return ctx_->Error("xBestIndex malfunction");
    assigned[at] = true;
    // IS NULL / IS NOT NULL have no value: their argument is NULL.
    vp->args[at] = values[i];
    if (c.omit) vp->omitted.push_back(terms[i]);
  }
  for (bool a : assigned) {
    if (!a) return ctx_->Error("xBestIndex malfunction");  // a gap in the positions
  }
  vp->idx_num = info.idx_num;
  vp->idx_str = ctx_->arena->CopyString(info.idx_str);
  vp->order_consumed = info.order_by_consumed && !info.order_by.empty();
  vp->unique = (info.idx_flags & 1) != 0;
  *out = LoopPlan();
  out->src = src;
  out->access = AccessKind::kVirtual;
  out->vtab = vp;
  out->cost = info.estimated_cost > 0 ? info.estimated_cost : 1;
  out->rows = info.estimated_rows > 0 ? static_cast<double>(info.estimated_rows) : 1;
  return true;
}

bool WherePlanner::VirtualAccess(int src, SourceMask ready, WherePlan* plan,
                                 std::vector<LoopPlan>* cands) {
  std::vector<WhereTerm*> offer;
  offer.reserve(plan->terms.size());
  for (WhereTerm& t : plan->terms) offer.push_back(&t);
  LoopPlan p;
  if (!OfferToVtab(src, ready, offer, true, &p)) return false;
  cands->push_back(p);
  return VirtualOrAccess(src, ready, plan, cands);
}

// SQLite's MULTI-INDEX OR on a virtual table: for `A OR B OR ...` each
// disjunct (itself split into AND-parts) gets its own BestIndex call, and
// the OR is one loop over the union of those scans. It is a candidate only
// when every disjunct's plan takes a Filter argument (a disjunct the table
// cannot drive costs a full scan, which the plain plan already beats); the
// cost is the branches' total, a little more, as in SQLite.
bool WherePlanner::VirtualOrAccess(int src, SourceMask ready, WherePlan* plan,
                                   std::vector<LoopPlan>* cands) {
  const Source& s = (*req_->sources)[static_cast<size_t>(src)];
  const SourceMask self = SourceMask(1) << src;
  if (s.outer_nullable || (s.join & ast::kJoinRight) != 0) return true;
  for (const Source& other : *req_->sources) {
    if ((other.join & ast::kJoinRight) != 0) return true;
  }
  for (WhereTerm& t : plan->terms) {
    if (t.disabled || (t.prereq & self) == 0 || (t.prereq & ~self & ~ready) != 0) continue;
    if (t.expr->kind != ExprKind::kBinary || t.expr->op != ast::Op::kOr) continue;
    // An OR SQLite turns into IN is planned as that IN (OfferToVtab).
    bool as_in = false;
    for (const WhereTerm& o : plan->terms) as_in = as_in || (o.expr == t.expr && EqualityOr(o));
    if (as_in) continue;
    if (!OuterJoinUsable(s, src, t)) continue;
    std::vector<Expr*> disjuncts;
    std::vector<Expr*> stack{t.expr};
    while (!stack.empty()) {
      Expr* x = stack.back();
      stack.pop_back();
      if (x->kind == ExprKind::kBinary && x->op == ast::Op::kOr) {
        stack.push_back(x->right);
        stack.push_back(x->left);
      } else {
        disjuncts.push_back(x);
      }
    }
    std::vector<WhereTerm*> extra;
    for (WhereTerm& o : plan->terms) {
      if (&o == &t || o.disabled || (o.prereq & ~self & ~ready) != 0) continue;
      if (IsComparisonTerm(o.expr)) {
        auto* copy = ctx_->arena->New<WhereTerm>(o);
        extra.push_back(copy);
      }
    }
    auto* vp = ctx_->arena->New<VtabPlan>();
    vp->or_term = &t;
    double cost = 0, rows = 0;
    for (Expr* d : disjuncts) {
      std::vector<Expr*> parts;
      std::vector<Expr*> and_stack{d};
      while (!and_stack.empty()) {
        Expr* x = and_stack.back();
        and_stack.pop_back();
        if (x->kind == ExprKind::kBinary && x->op == ast::Op::kAnd) {
          and_stack.push_back(x->right);
          and_stack.push_back(x->left);
        } else {
          parts.push_back(x);
        }
      }
      // As in SQLite, a disjunct counts only through a MATCH or a
      // comparison among its parts (not through LIKE, GLOB or REGEXP).
      bool drivable = false;
      for (Expr* x : parts) {
        drivable = drivable || IsComparisonTerm(x) ||
                   (x->kind == ExprKind::kLike && x->op == ast::Op::kMatch && !x->has(ast::kNot));
      }
      if (!drivable) {
        vp = nullptr;
        break;
      }
      std::vector<WhereTerm*> offer;
      for (Expr* x : parts) {
        auto* pt = ctx_->arena->New<WhereTerm>();
        pt->expr = x;
        pt->prereq = ExprMask(x);
        pt->on_source = t.on_source;
        pt->after_rj = t.after_rj;
        offer.push_back(pt);
      }
      LoopPlan bp;
      if (!OfferToVtab(src, ready, offer, false, &bp)) return false;
      if (bp.vtab == nullptr || bp.vtab->args.empty()) {
        vp = nullptr;
        break;
      }
      cost += bp.cost;
      rows += bp.rows;
      // The plan the branch runs: SQLite plans each branch again with the
      // query's other comparison terms ANDed in (they may narrow it).
      if (!extra.empty()) {
        offer.insert(offer.end(), extra.begin(), extra.end());
        LoopPlan with_extra;
        if (!OfferToVtab(src, ready, offer, false, &with_extra)) return false;
        if (with_extra.vtab != nullptr) bp = with_extra;
      }
      auto* branch = const_cast<VtabPlan*>(bp.vtab);
      for (WhereTerm* pt : offer) {
        bool omitted = false;
        for (WhereTerm* o : branch->omitted) omitted = omitted || o == pt;
        if (!omitted) branch->residual.push_back(pt->expr);
      }
      vp->branches.push_back(branch);
    }
    if (vp == nullptr) continue;
    LoopPlan p;
    p.src = src;
    p.access = AccessKind::kVirtual;
    p.vtab = vp;
    p.cost = cost * 1.07;
    p.rows = rows;
    cands->push_back(p);
  }
  return true;
}

}  // namespace basalt
