// Visiting every node of an expression tree, including the expressions of
// nested SELECTs (correlated references live there).
#pragma once

#include "parser/ast.h"
#include "planner/scope.h"

namespace basalt {

// Calls f(expr) for e and every expression below it, descending into
// subqueries. If f returns false the node's children are skipped.
template <typename F>
void WalkExpr(ast::Expr* e, F& f);

template <typename F>
void WalkSelectExprs(ast::Select* s, F& f) {
  for (ast::Select* p = s; p != nullptr; p = p->prior) {
    SelectInfo* si = InfoOf(p);
    ast::ExprList* result = si && si->result ? si->result : p->columns;
    if (result) {
      for (size_t i = 0; i < result->size(); ++i) WalkExpr((*result)[i], f);
    }
    for (ast::ExprList* row : p->values) {
      for (size_t i = 0; i < row->size(); ++i) WalkExpr((*row)[i], f);
    }
    WalkExpr(p->where, f);
    WalkExpr(p->having, f);
    if (si) {
      for (const Source& src : si->sources) {
        WalkExpr(src.on, f);
        if (src.subquery) WalkSelectExprs(src.subquery, f);
      }
    }
    if (p->group_by) {
      for (size_t i = 0; i < p->group_by->size(); ++i) WalkExpr((*p->group_by)[i], f);
    }
    if (p->order_by) {
      for (size_t i = 0; i < p->order_by->size(); ++i) WalkExpr((*p->order_by)[i], f);
    }
    WalkExpr(p->limit, f);
    WalkExpr(p->offset, f);
    // CTE bodies (they may read columns of an enclosing query).
    if (p->with != nullptr) {
      for (ast::Cte* cte : p->with->ctes) WalkSelectExprs(cte->select, f);
    }
  }
}

template <typename F>
void WalkExpr(ast::Expr* e, F& f) {
  if (e == nullptr) return;
  if (!f(e)) return;
  WalkExpr(e->left, f);
  WalkExpr(e->right, f);
  WalkExpr(e->filter, f);
  WalkExpr(e->escape, f);
  if (e->list) {
    for (size_t i = 0; i < e->list->size(); ++i) WalkExpr((*e->list)[i], f);
  }
  if (e->select) WalkSelectExprs(e->select, f);
  if (e->over != nullptr) {  // a window call's PARTITION BY and ORDER BY
    for (ast::ExprList* l : {e->over->partition, e->over->order}) {
      for (size_t i = 0; l != nullptr && i < l->size(); ++i) WalkExpr((*l)[i], f);
    }
  }
}

}  // namespace basalt
