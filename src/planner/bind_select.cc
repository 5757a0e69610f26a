// Binding SELECTs: WITH clauses, compounds, result columns and their
// names, ORDER BY / GROUP BY terms, aggregates.
#include <cstring>

#include "parser/parser.h"
#include "planner/bind_internal.h"
#include "planner/resolve.h"
#include "planner/walk.h"
#include "planner/window_info.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Select;
using namespace bind;

std::string Resolver::ColumnName(const ast::ExprItem& item, const SelectInfo* info) {
  (void)info;
  if (!item.name.empty()) return std::string(item.name);
  const Expr* e = item.expr;
  auto it = flat_names_.find(e);
  if (it != flat_names_.end()) return std::string(it->second);
  if (e->kind == ExprKind::kResolvedColumn && e->tab != nullptr && !(e->pflags & 0x04)) {
    int col = e->column >= 0 ? e->column : static_cast<int>(e->ival);
    if (col >= 0) return e->tab->columns[static_cast<size_t>(col)].name;
    return std::string(e->text);
  }
  if (e->kind == ExprKind::kResolvedColumn && e->tab == nullptr && !(e->pflags & 0x04)) {
    return std::string(e->text);
  }
  return std::string(e->span);
}

// ---- SELECT -------------------------------------------------------------------

namespace {

// Whether a FROM clause names `name` unqualified (in nested joins too).
bool FromNames(const ast::FromList* from, std::string_view name) {
  if (from == nullptr) return false;
  for (size_t i = 0; i < from->size(); ++i) {
    const ast::FromItem* item = (*from)[i];
    if (item->nested != nullptr && FromNames(item->nested, name)) return true;
    if (item->subquery == nullptr && item->func_args == nullptr && item->schema.empty() &&
        EqualsIgnoreCase(item->name, name)) {
      return true;
    }
  }
  return false;
}

// SQLite makes a CTE recursive when a compound body's later arm reads the
// CTE itself, whether or not the WITH says RECURSIVE.
bool ReadsItselfRecursively(const ast::Cte* cte) {
  for (const Select* arm = cte->select; arm != nullptr && arm->prior != nullptr; arm = arm->prior) {
    if (FromNames(arm->from, cte->name)) return true;
  }
  return false;
}

}  // namespace

bool Resolver::PushWith(ast::With* with, Scope* outer) {
  if (with != nullptr) {
    for (ast::Cte* cte : with->ctes) {
      CteEntry* ce = ctx_->arena->New<CteEntry>();
      ce->cte = cte;
      ce->id = static_cast<int>(all_ctes_.size());
      all_ctes_.push_back(ce);
      ctes_.push_back(ce);
      // Resolve the body now so its column list is known. A recursive CTE's
      // body is a compound whose recursive arms refer to the CTE itself.
      ce->resolving = true;
      Select* body = cte->select;
      bool recursive_shape =
          body->prior != nullptr && (with->recursive || ReadsItselfRecursively(cte));
      if (recursive_shape) {
        // The initial (non-recursive) arms give the column list.
        Select* first = body;
        while (first->prior) first = first->prior;
        Select* saved = first;
        (void)saved;
        // Resolve the leftmost arm alone first.
        ce->queue_cursor = -1;
        Select* arm = body;
        std::vector<Select*> arms;
        for (Select* p = body; p; p = p->prior) arms.push_back(p);
        // arms.back() is the leftmost.
        if (!ResolveCore(arms.back(), outer)) return false;
        SubqueryColumns(arms.back(), &ce->columns);
        if (cte->columns) {
          if (cte->columns->size() != ce->columns.size()) {
            return ctx_->Error("table " + std::string(cte->name) + " has " +
                               std::to_string(ce->columns.size()) + " values for " +
                               std::to_string(cte->columns->size()) + " columns");
          }
          for (size_t i = 0; i < ce->columns.size(); ++i) {
            ce->columns[i].name = cte->columns->names[i];
          }
        }
        ce->queue_cursor = ctx_->AllocCursor();
        (void)arm;
      }
      if (!ResolveSelect(body, outer)) return false;
      ce->resolving = false;
      if (!recursive_shape || ce->columns.empty()) {
        SubqueryColumns(body, &ce->columns);
        if (cte->columns) {
          if (cte->columns->size() != ce->columns.size()) {
            return ctx_->Error("table " + std::string(cte->name) + " has " +
                               std::to_string(ce->columns.size()) + " values for " +
                               std::to_string(cte->columns->size()) + " columns");
          }
          for (size_t i = 0; i < ce->columns.size(); ++i) {
            ce->columns[i].name = cte->columns->names[i];
          }
        }
      }
      ce->cursor = ctx_->AllocCursor();
    }
  }
  return true;
}

bool Resolver::ResolveSelect(Select* s, Scope* outer) {
  if (s->aux != nullptr && InfoOf(s)->resolved) return true;
  if (ctx_->auth.fn != nullptr && s != no_select_auth_) {
    Status denied;
    if (Authorize(ctx_->auth, kAuthSelect, nullptr, nullptr, nullptr, &denied) ==
        AuthResult::kDenied) {
      if (ctx_->error.ok()) ctx_->error = denied;
      return false;
    }
  }
  // A subquery inside aggregate arguments may have aggregates of its own.
  int saved_agg_depth = agg_depth_;
  agg_depth_ = 0;
  // Its expressions are top-level ones (their heights add to height_sum_).
  int saved_nesting = expr_nesting_;
  expr_nesting_ = 0;
  bool ok = ResolveSelectInner(s, outer);
  expr_nesting_ = saved_nesting;
  agg_depth_ = saved_agg_depth;
  return ok;
}

bool Resolver::ResolveSelectInner(Select* s, Scope* outer) {
  size_t cte_mark = ctes_.size();
  if (!PushWith(s->with, outer)) return false;
  bool ok = s->prior ? ResolveCompound(s, outer) : ResolveCore(s, outer);
  ctes_.resize(cte_mark);
  return ok;
}

bool Resolver::ResolveCompound(Select* last, Scope* outer) {
  std::vector<Select*> arms;
  for (Select* p = last; p; p = p->prior) arms.push_back(p);
  // Resolve leftmost first.
  size_t ncols = 0;
  for (size_t i = arms.size(); i-- > 0;) {
    Select* arm = arms[i];
    if (arm != last && (arm->order_by || arm->limit)) {
      return ctx_->Error(std::string(arm->order_by ? "ORDER BY" : "LIMIT") +
                         " clause should come after " + CompoundName(arms[i - 1]->op) +
                         " not before");
    }
    if (arm->aux == nullptr || !InfoOf(arm)->resolved) {
      if (!ResolveCore(arm, outer)) return false;
    }
    size_t n = InfoOf(arm)->result->size();
    if (i == arms.size() - 1) {
      ncols = n;
    } else if (n != ncols) {
      return ctx_->Error(std::string("SELECTs to the left and right of ") + CompoundName(arm->op) +
                         " do not have the same number of result columns");
    }
  }
  if (last->order_by && !ResolveCompoundOrderBy(last)) return false;
  Scope empty;
  empty.outer = outer;
  if (last->limit && !ResolveExpr(last->limit, &empty)) return false;
  if (last->offset && !ResolveExpr(last->offset, &empty)) return false;
  return true;
}

bool Resolver::ResolveCompoundOrderBy(Select* last) {
  std::vector<Select*> arms;
  for (Select* p = last; p; p = p->prior) arms.push_back(p);
  Select* first = arms.back();
  SelectInfo* finfo = InfoOf(first);
  size_t ncols = finfo->result->size();
  ExprList* order = last->order_by;
  if (order->size() > static_cast<size_t>(ctx_->options.max_columns)) {
    return ctx_->Error("too many terms in ORDER BY clause");
  }
  for (size_t i = 0; i < order->size(); ++i) {
    ast::ExprItem& item = order->items[i];
    Expr* e = item.expr;
    // A trailing COLLATE applies to the matched column.
    Expr* core = e;
    const Collation* coll = nullptr;
    if (core->kind == ExprKind::kCollate) {
      coll = FindCollation(core->text);
      if (coll == nullptr) {
        return ctx_->Error("no such collation sequence: " + std::string(core->text));
      }
      core = core->left;
    }
    int64_t k;
    int match = -1;
    if (IntegerLiteral(core, &k)) {
      if (k < 1 || k > static_cast<int64_t>(ncols)) {
        return ctx_->ErrorAt(k > 0 ? std::string_view() : core->span,
                             Ordinal(static_cast<int>(i + 1)) +
                                 " ORDER BY term out of range - should be between 1 and " +
                                 std::to_string(ncols));
      }
      match = static_cast<int>(k - 1);
    }
    for (size_t a = arms.size(); match < 0 && a-- > 0;) {
      SelectInfo* info = InfoOf(arms[a]);
      if (core->kind == ExprKind::kColumn && core->table.empty()) {
        for (size_t c = 0; c < info->result->size(); ++c) {
          const ast::ExprItem& ri = info->result->items[c];
          if (!ri.name.empty() && EqualsIgnoreCase(ri.name, core->text)) {
            match = static_cast<int>(c);
            break;
          }
        }
        if (match >= 0) break;
      }
      // Resolve a copy of the term against this arm and compare expressions.
      Expr* copy = ctx_->arena->New<Expr>(*core);
      Scope scope;
      scope.sources = &info->sources;
      Status saved = ctx_->error;
      if (ResolveExpr(copy, &scope)) {
        for (size_t c = 0; c < info->result->size(); ++c) {
          if (ExprEqual(copy, (*info->result)[c])) {
            match = static_cast<int>(c);
            break;
          }
        }
      }
      ctx_->error = saved;
    }
    if (match < 0) {
      return ctx_->Error(Ordinal(static_cast<int>(i + 1)) +
                         " ORDER BY term does not match any column in the result set");
    }
    // Represent the term as "result column `match`" (kRegister-like marker).
    Expr* ref = ctx_->arena->New<Expr>();
    ref->kind = ExprKind::kInteger;
    ref->ival = match + 1;
    ref->column = match;
    ref->pflags = kResolvedFlag | 0x08;  // 0x08: compound ORDER BY column reference
    if (coll) {
      ref->aux = coll;
      ref->pflags |= 0x02;
    }
    ref->span = e->span;
    item.expr = ref;
  }
  return true;
}

bool Resolver::ResolveOrderBy(Select* s, ExprList* order, Scope* scope, SelectInfo* info,
                              const char* kind) {
  (void)s;
  bool is_group = kind[0] == 'G';
  size_t ncols = info->result->size();
  if (order->size() > static_cast<size_t>(ctx_->options.max_columns)) {
    return ctx_->Error(std::string("too many terms in ") + kind + " clause");
  }
  for (size_t i = 0; i < order->size(); ++i) {
    ast::ExprItem& item = order->items[i];
    Expr* e = item.expr;
    Expr* core = e;
    Expr* collate = nullptr;
    if (core->kind == ExprKind::kCollate) {
      collate = core;
      core = core->left;
    }
    int64_t k;
    if (IntegerLiteral(core, &k)) {
      if (k < 1 || k > static_cast<int64_t>(ncols)) {
        return ctx_->ErrorAt(is_group || k > 0 ? std::string_view() : core->span,
                             Ordinal(static_cast<int>(i + 1)) + " " + kind +
                                 " term out of range - should be between 1 and " +
                                 std::to_string(ncols));
      }
      Expr* target = (*info->result)[static_cast<size_t>(k - 1)];
      if (collate) {
        collate->left = target;
        if (!ResolveExpr(collate, scope)) return false;
      } else {
        item.expr = target;
      }
      continue;
    }
    if (core->kind == ExprKind::kColumn && core->table.empty() && !is_group) {
      bool done = false;
      for (size_t c = 0; c < ncols; ++c) {
        const ast::ExprItem& ri = info->result->items[c];
        if (!ri.name.empty() && EqualsIgnoreCase(ri.name, core->text)) {
          if (collate) {
            collate->left = ri.expr;
            if (!ResolveExpr(collate, scope)) return false;
          } else {
            item.expr = ri.expr;
          }
          done = true;
          break;
        }
      }
      if (done) continue;
    }
    if (!ResolveExpr(e, scope)) return false;
    if (is_group) {
      // Aggregates are not allowed in GROUP BY.
      if (scope->has_agg) {
        return ctx_->Error("aggregate functions are not allowed in the GROUP BY clause");
      }
    }
  }
  return true;
}

bool Resolver::ResolveCore(Select* s, Scope* outer) {
  SelectInfo* info = s->aux ? InfoOf(s) : ctx_->arena->New<SelectInfo>();
  s->aux = info;
  if (s->values.size() > 0) {
    Scope scope;
    scope.outer = outer;
    scope.select = info;
    size_t n = s->values[0]->size();
    if (n > static_cast<size_t>(ctx_->options.max_columns)) {
      return ctx_->Error("too many columns in result set");
    }
    for (ExprList* row : s->values) {
      if (row->size() != n) return ctx_->Error("all VALUES must have the same number of terms");
      if (!ResolveList(row, &scope)) return false;
    }
    info->result = s->values[0];
    for (size_t i = 0; i < n; ++i) info->names.push_back("column" + std::to_string(i + 1));
    info->resolved = true;
    return true;
  }
  if (!AddSources(s->from, info, outer)) return false;
  Scope scope;
  scope.outer = outer;
  scope.sources = &info->sources;
  scope.select = info;
  if (!ApplyJoinConditions(info, &scope)) return false;
  if (!ExpandResultColumns(s, info)) return false;
  if (info->result->size() > static_cast<size_t>(ctx_->options.max_columns)) {
    return ctx_->Error("too many columns in result set");
  }

  AggInfo* agg = ctx_->arena->New<AggInfo>();
  agg->id = ++agg_counter_;
  scope.agg = agg;
  WindowInfo* win = ctx_->arena->New<WindowInfo>();
  win->select = s;
  scope.win = win;
  if (!ResolveList(info->result, &scope)) return false;
  bool result_has_agg = scope.has_agg;

  scope.win = nullptr;
  scope.agg = nullptr;
  scope.has_agg = false;
  scope.result = info->result;
  scope.allow_result_alias = true;
  if (s->where) {
    scope.clause = "WHERE";
    if (!ResolveExpr(s->where, &scope)) return false;
  }
  if (s->group_by) {
    scope.clause = "GROUP BY";
    if (!ResolveOrderBy(s, s->group_by, &scope, info, "GROUP BY")) return false;
  }
  scope.agg = agg;
  scope.has_agg = result_has_agg;
  if (s->having) {
    scope.clause = "HAVING";
    if (!ResolveExpr(s->having, &scope)) return false;
    if (!scope.has_agg && s->group_by == nullptr) {
      return ctx_->Error("HAVING clause on a non-aggregate query");
    }
  }
  if (s->order_by && !(s->prior != nullptr)) {
    scope.clause = "ORDER BY";
    scope.win = win;
    // A core of a compound never gets here with ORDER BY (it is on the last).
    if (!ResolveOrderBy(s, s->order_by, &scope, info, "ORDER BY")) return false;
    s->order_by = ExpandNullsOrder(s->order_by);
  }
  if (!win->funcs.empty()) info->win = win;
  bool is_agg = scope.has_agg || s->group_by != nullptr;
  if (is_agg) {
    agg->group_by = s->group_by;
    info->agg = agg;
    if (!AnalyzeAggregates(s, info)) return false;
  } else if (!agg->funcs.empty()) {
    info->agg = agg;
  }
  Scope empty;
  empty.outer = outer;
  if (s->limit && !ResolveExpr(s->limit, &empty)) return false;
  if (s->offset && !ResolveExpr(s->offset, &empty)) return false;
  info->names.reserve(info->result->size());
  for (size_t i = 0; i < info->result->size(); ++i) {
    info->names.push_back(ColumnName(info->result->items[i], info));
  }
  FinishFlattening(s, info);
  info->resolved = true;
  return true;
}

// NULLS FIRST/LAST against the default (NULLs first ascending, last
// descending) becomes an extra leading key `x IS NULL` in the same direction.
ExprList* Resolver::ExpandNullsOrder(ExprList* order) {
  bool any = false;
  for (size_t i = 0; i < order->size(); ++i) {
    const ast::ExprItem& it = order->items[i];
    if (it.nulls == ast::NullsOrder::kUnspecified) continue;
    bool desc = it.order == ast::SortOrder::kDesc;
    bool nulls_first = it.nulls == ast::NullsOrder::kFirst;
    if (nulls_first != desc) continue;  // the default already
    any = true;
  }
  if (!any) {
    for (size_t i = 0; i < order->size(); ++i)
      order->items[i].nulls = ast::NullsOrder::kUnspecified;
    return order;
  }
  ExprList* out = ctx_->arena->New<ExprList>();
  for (size_t i = 0; i < order->size(); ++i) {
    ast::ExprItem it = order->items[i];
    bool desc = it.order == ast::SortOrder::kDesc;
    bool explicit_nulls = it.nulls != ast::NullsOrder::kUnspecified;
    bool nulls_first = it.nulls == ast::NullsOrder::kFirst;
    it.nulls = ast::NullsOrder::kUnspecified;
    if (explicit_nulls && nulls_first == desc) {
      ast::ExprItem key;
      Expr* isnull = ctx_->arena->New<Expr>();
      isnull->kind = ExprKind::kIsNull;
      isnull->left = it.expr;
      isnull->pflags |= kResolvedFlag;
      isnull->span = it.expr->span;
      key.expr = isnull;
      key.order = it.order;
      out->items.push_back(*ctx_->arena, key);
    }
    out->items.push_back(*ctx_->arena, it);
  }
  return out;
}

// Collects the columns of this SELECT's sources that aggregate processing
// must carry (arguments, GROUP BY terms, bare columns), including those
// referenced from correlated subqueries.
bool Resolver::AnalyzeAggregates(Select* s, SelectInfo* info) {
  AggInfo* agg = info->agg;
  auto owns = [&](int cursor) {
    for (const Source& src : info->sources) {
      if (src.cursor == cursor) return true;
    }
    return false;
  };
  struct Walker {
    AggInfo* agg;
    decltype(owns)& own;
    void Walk(Expr* e) {
      if (e == nullptr) return;
      if (e->kind == ExprKind::kResolvedColumn) {
        if (!own(e->cursor)) return;
        for (const AggColumn& c : agg->columns) {
          if (c.cursor == e->cursor && c.column == e->column) return;
        }
        AggColumn c;
        c.cursor = e->cursor;
        c.column = e->column;
        c.table = e->tab;
        c.expr = e;
        agg->columns.push_back(c);
        return;
      }
      Walk(e->left);
      Walk(e->right);
      Walk(e->filter);
      if (e->list) {
        for (size_t i = 0; i < e->list->size(); ++i) Walk((*e->list)[i]);
      }
      if (e->select) WalkSelect(e->select);
    }
    void WalkSelect(Select* sel) {
      for (Select* p = sel; p; p = p->prior) {
        SelectInfo* si = InfoOf(p);
        if (si == nullptr) continue;
        if (si->result) {
          for (size_t i = 0; i < si->result->size(); ++i) Walk((*si->result)[i]);
        }
        for (ExprList* row : p->values) {
          for (size_t i = 0; i < row->size(); ++i) Walk((*row)[i]);
        }
        Walk(p->where);
        Walk(p->having);
        for (const Source& src : si->sources) {
          Walk(src.on);
          if (src.subquery) WalkSelect(src.subquery);
        }
        if (p->group_by) {
          for (size_t i = 0; i < p->group_by->size(); ++i) Walk((*p->group_by)[i]);
        }
        if (p->order_by) {
          for (size_t i = 0; i < p->order_by->size(); ++i) Walk((*p->order_by)[i]);
        }
      }
    }
  } walker{agg, owns};
  for (size_t i = 0; i < info->result->size(); ++i) walker.Walk((*info->result)[i]);
  if (info->win != nullptr) {
    for (const WinFunc& f : info->win->funcs) {
      for (ast::ExprList* l : {f.win->partition, f.win->order}) {
        for (size_t i = 0; l != nullptr && i < l->size(); ++i) walker.Walk((*l)[i]);
      }
    }
  }
  walker.Walk(s->having);
  if (s->order_by) {
    for (size_t i = 0; i < s->order_by->size(); ++i) walker.Walk((*s->order_by)[i]);
  }
  if (s->group_by) {
    for (size_t i = 0; i < s->group_by->size(); ++i) walker.Walk((*s->group_by)[i]);
  }
  return true;
}

// ---- expressions --------------------------------------------------------------

}  // namespace basalt
