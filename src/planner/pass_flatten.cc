// The flattening pass (Pass::kFlatten): a FROM subquery or view that is a
// plain join of tables is merged into the outer query instead of being
// materialized.
#include <cstring>

#include "parser/parser.h"
#include "planner/bind_internal.h"
#include "planner/resolve.h"
#include "planner/walk.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Select;
using namespace bind;

// Whether a FROM subquery (or view) can be merged into the outer query
// instead of being materialized: a plain SELECT over inner-joined sources
// whose result expressions may be evaluated more than once.
bool Resolver::CanFlatten(Select* sub, const ast::FromItem* item) {
  if (!ctx_->options.PassOn(Pass::kFlatten)) return false;
  if (sub->prior != nullptr || sub->values.size() > 0 || sub->distinct ||
      sub->group_by != nullptr || sub->having != nullptr || sub->limit != nullptr ||
      sub->offset != nullptr || sub->order_by != nullptr || sub->windows.size() > 0 ||
      sub->with != nullptr) {
    return false;
  }
  if ((item->join & (ast::kJoinLeft | ast::kJoinRight)) != 0) return false;
  SelectInfo* si = InfoOf(sub);
  if (si == nullptr || si->agg != nullptr || si->win != nullptr || si->correlated ||
      si->sources.empty())
    return false;
  for (const Source& ss : si->sources) {
    if (ss.outer_nullable || (ss.join & (ast::kJoinLeft | ast::kJoinRight | ast::kJoinCross))) {
      return false;
    }
    if (ss.cte <= -2) return false;
  }
  bool ok = true;
  auto check = [&](Expr* e) {
    if (e->kind == ExprKind::kFunction && e->aux != nullptr &&
        !(static_cast<const FunctionDef*>(e->aux)->flags & kFuncDeterministic)) {
      ok = false;
    }
    if (e->kind == ExprKind::kSubquery || e->kind == ExprKind::kExists) ok = false;
    return ok;
  };
  for (size_t i = 0; i < si->result->size() && ok; ++i) WalkExpr((*si->result)[i], check);
  return ok;
}

// Removes the name-only sources of flattened subqueries (their ON clauses
// and WHERE clauses become conditions of the outer query).
void Resolver::FinishFlattening(Select* s, SelectInfo* info) {
  bool any = !info->flattened_where.empty();
  for (const Source& src : info->sources) any |= src.flattened;
  if (!any) return;
  auto conj = [&](Expr* a, Expr* b) { return Conjoin(a, b); };
  std::vector<Source> kept;
  Expr* carried_on = nullptr;
  for (Source& src : info->sources) {
    if (src.flattened) {
      carried_on = conj(carried_on, src.on);
      continue;
    }
    if (carried_on != nullptr) {
      src.on = conj(src.on, carried_on);
      carried_on = nullptr;
    }
    kept.push_back(std::move(src));
  }
  info->sources = std::move(kept);
  // SQLite puts a flattened subquery's WHERE before the outer query's (the
  // one flattened last first): its terms are tested first, so a row the
  // subquery rejects never evaluates the outer terms (which may fail, as
  // abs() of the smallest integer does).
  Expr* w = s->where;
  for (Expr* x : info->flattened_where) w = conj(x, w);
  info->flattened_where.clear();
  s->where = w;
}

}  // namespace basalt
