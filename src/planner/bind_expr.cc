// Binding expressions: column references (through the scopes of the
// enclosing queries), functions, subqueries.
#include <cstring>
#include <functional>

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

bool Resolver::ResolveList(ExprList* list, Scope* scope) {
  if (list == nullptr) return true;
  for (size_t i = 0; i < list->size(); ++i) {
    if (!ResolveExpr(list->items[i].expr, scope)) return false;
  }
  return true;
}

bool Resolver::ResolveSubquery(Select* s, Scope* scope) { return ResolveSelect(s, scope); }

namespace {

// Every SELECT from `scope` out to (not including) the one `depth` levels
// out is correlated: it reads a column of an outer query.
void MarkCorrelated(Scope* scope, int depth) {
  int d = 0;
  for (Scope* p = scope; p != nullptr && d < depth; p = p->outer, ++d) {
    if (p->select) p->select->correlated = true;
  }
}

std::string NoSuchColumn(std::string_view qualifier, std::string_view name) {
  return "no such column: " + std::string(qualifier) + "." + std::string(name);
}

}  // namespace

bool Resolver::ResolveColumn(Expr* e, Scope* scope) {
  int depth = 0;
  for (Scope* sc = scope; sc != nullptr; sc = sc->outer, ++depth) {
    Lookup r = BindTriggerRef(e, sc);
    if (r == Lookup::kMissing) r = BindExcludedRef(e, sc);
    if (r == Lookup::kMissing && sc->sources != nullptr) r = BindSourceColumn(e, scope, sc, depth);
    if (r == Lookup::kMissing) r = BindResultAlias(e, scope, sc, depth);
    if (r != Lookup::kMissing) return r == Lookup::kBound;
  }
  return BindUnknownName(e);
}

Resolver::Lookup Resolver::BindTriggerRef(Expr* e, Scope* sc) {
  std::string_view tname = e->table;
  if (tname.empty() || sc->trigger_table == nullptr) return Lookup::kMissing;
  int base;
  if (EqualsIgnoreCase(tname, "new")) {
    base = sc->new_base;
  } else if (EqualsIgnoreCase(tname, "old")) {
    base = sc->old_base;
  } else {
    return Lookup::kMissing;
  }
  std::string_view name = e->text;
  const Table* t = sc->trigger_table;
  int col = t->FindColumn(name);
  if (base < 0 || (col < 0 && !IsRowidName(name))) {
    ctx_->Error(NoSuchColumn(tname, name));
    return Lookup::kFailed;
  }
  if (col == t->rowid_alias) col = -1;  // also a rowid name (col < 0)
  e->kind = ExprKind::kRegister;
  e->reg = base + 1 + col;
  e->tab = t;
  int dcol = col >= 0 ? col : t->rowid_alias;
  const Column* column = dcol >= 0 ? &t->columns[static_cast<size_t>(dcol)] : nullptr;
  e->affinity = column ? static_cast<char>(column->affinity) : 'D';
  e->aux = ::basalt::BinaryCollation();
  if (column && !column->collation.empty()) e->aux = FindCollation(column->collation);
  if (e->aux) e->pflags |= 0x02;
  e->pflags |= kResolvedFlag;
  return Lookup::kBound;
}

Resolver::Lookup Resolver::BindExcludedRef(Expr* e, Scope* sc) {
  if (e->table.empty() || sc->excluded_base < 0 || !EqualsIgnoreCase(e->table, "excluded")) {
    return Lookup::kMissing;
  }
  const Table* t = (*sc->sources)[0].table;
  int col = t->FindColumn(e->text);
  if (col < 0 && !(IsRowidName(e->text) && t->HasRowid())) {
    ctx_->ErrorAt(e->span, NoSuchColumn("excluded", e->text));
    return Lookup::kFailed;
  }
  e->kind = ExprKind::kRegister;
  e->reg = sc->excluded_base + 1 + col;  // col -1: the rowid, at excluded_base
  e->affinity = col < 0 ? 'D' : static_cast<char>(t->columns[static_cast<size_t>(col)].affinity);
  e->pflags |= kResolvedFlag;
  return Lookup::kBound;
}

Resolver::Lookup Resolver::BindSourceColumn(Expr* e, Scope* scope, Scope* sc, int depth) {
  std::string_view name = e->text;
  std::string_view tname = e->table;
  int matches = 0;
  const Source* msrc = nullptr;
  int mcol = -1;
  int table_matches = 0;
  const Source* tsrc = nullptr;
  // Unqualified USING/NATURAL columns merged by FULL JOINs: the columns the
  // value is coalesced from, in FROM order.
  std::vector<std::pair<const Source*, int>> full;
  for (const Source& src : *sc->sources) {
    if (src.hidden_names) continue;
    if (!tname.empty()) {
      if (!SourceNamed(src, tname)) continue;
      if (!e->schema.empty() && src.table == nullptr) continue;
    }
    ++table_matches;
    tsrc = &src;
    for (size_t c = 0; c < src.columns.size(); ++c) {
      if (!EqualsIgnoreCase(src.columns[c].name, name)) continue;
      if (src.nested_from) {
        // A nested join's columns: one per source inside it.
        if (!tname.empty() && !EqualsIgnoreCase(src.columns[c].table_name, tname)) {
          // Named by the join's alias: its first column of that name.
          if (!EqualsIgnoreCase(src.name, tname) || msrc == &src) continue;
        }
        if (matches > 0) full.clear();
        ++matches;
        msrc = &src;
        mcol = static_cast<int>(c);
        continue;
      }
      if (matches > 0 && tname.empty() && src.merged_with[c].first >= 0) {
        // A column merged by USING/NATURAL: after an inner or LEFT join the
        // left-most one stands; after a RIGHT JOIN the right-most; after a
        // FULL JOIN the first non-NULL of them all.
        if ((src.join & ast::kJoinRight) == 0) break;
        if ((src.join & ast::kJoinLeft) == 0) {
          matches = 0;
          full.clear();
        } else {
          if (full.empty()) full.emplace_back(msrc, mcol);
          full.emplace_back(&src, static_cast<int>(c));
        }
      } else if (matches > 0) {
        full.clear();  // an ambiguous name
      }
      ++matches;
      msrc = &src;
      mcol = static_cast<int>(c);
      break;
    }
  }
  if (matches > 1 && !full.empty() && full.size() == static_cast<size_t>(matches)) {
    MarkCorrelated(scope, depth);
    return BindCoalescedColumn(e, full, depth) ? Lookup::kBound : Lookup::kFailed;
  }
  if (matches == 0 && table_matches == 1 && IsRowidName(name)) {
    if (tsrc->table == nullptr) {
      // A view or subquery has no rowid; SQLite reads it as NULL.
      e->kind = ExprKind::kNull;
      e->pflags |= kResolvedFlag;
      return Lookup::kBound;
    }
    if (tsrc->table->HasRowid()) {
      matches = 1;
      msrc = tsrc;
      mcol = -1;
    }
  }
  if (matches == 0) return Lookup::kMissing;
  if (matches > 1) {
    std::string n =
        tname.empty() ? std::string(name) : std::string(tname) + "." + std::string(name);
    ctx_->ErrorAt(e->span, "ambiguous column name: " + n);
    return Lookup::kFailed;
  }
  MarkCorrelated(scope, depth);
  if (ctx_->name_watch != nullptr) {
    // (A column of a subquery, CTE or view is none of a table's columns.)
    NameWatch* w = ctx_->name_watch;
    size_t off = w->OffsetOf(e->span);
    const Table* tab = msrc->flattened ? nullptr : msrc->table;
    if (off != std::string_view::npos) w->columns.push_back({off, tab, tab ? mcol : -1});
  }
  if (mcol >= 0) {
    *e = *NewColumnRef(*msrc, mcol, e->span);
    if (msrc->flattened) {
      flat_names_[e] = msrc->columns[static_cast<size_t>(mcol)].name;
      // A flattened column that is a plain column reference reads from as
      // far out as the reference does (its copy's operands are shared, so
      // only a column itself takes the depth).
      if (e->kind == ExprKind::kResolvedColumn) e->depth = depth;
      return Lookup::kBound;
    }
  } else {
    if (AuthorizeRead(msrc->table, -1) == AuthResult::kIgnore) {
      e->kind = ExprKind::kNull;  // SQLITE_IGNORE: the rowid reads as NULL
      e->pflags |= kResolvedFlag;
      return Lookup::kBound;
    }
    e->kind = ExprKind::kResolvedColumn;
    e->cursor = msrc->cursor;
    e->column = -1;
    e->tab = msrc->table;
    e->ival = msrc->table->rowid_alias;
    e->affinity = 'D';
    e->pflags |= kResolvedFlag;
  }
  e->depth = depth;
  return Lookup::kBound;
}

// `e` becomes coalesce() of the columns a FULL JOIN's USING merged.
bool Resolver::BindCoalescedColumn(Expr* e, const std::vector<std::pair<const Source*, int>>& cols,
                                   int depth) {
  ast::ExprList* args = ctx_->arena->New<ast::ExprList>();
  for (const auto& [src, col] : cols) {
    ast::ExprItem item;
    item.expr = NewColumnRef(*src, col, {});
    if (!src->flattened) item.expr->depth = depth;
    args->items.push_back(*ctx_->arena, item);
  }
  Expr* call = NewCoalesce(args, e->span);
  if (call == nullptr) return false;
  *e = *call;
  return true;
}

Expr* Resolver::NewCoalesce(ast::ExprList* args, std::string_view span) {
  Expr* call = ctx_->arena->New<Expr>();
  call->kind = ExprKind::kFunction;
  call->text = "coalesce";
  call->list = args;
  call->span = span;
  Scope none;  // the arguments are resolved already
  return ResolveExpr(call, &none) ? call : nullptr;
}

Resolver::Lookup Resolver::BindResultAlias(Expr* e, Scope* scope, Scope* sc, int depth) {
  // Result-column aliases (WHERE, GROUP BY, HAVING, ORDER BY), also from
  // subqueries nested in those clauses.
  if (!e->table.empty() || !sc->allow_result_alias || sc->result == nullptr) {
    return Lookup::kMissing;
  }
  for (size_t c = 0; c < sc->result->size(); ++c) {
    const ast::ExprItem& ri = sc->result->items[c];
    if (ri.name.empty() || !EqualsIgnoreCase(ri.name, e->text)) continue;
    const Expr* target = ri.expr;
    if (sc->agg == nullptr && target->kind == ExprKind::kFunction && target->agg >= 0) {
      ctx_->Error("misuse of aliased aggregate " + std::string(e->text));
      return Lookup::kFailed;
    }
    if (sc->win == nullptr && target->kind == ExprKind::kFunction && target->over != nullptr) {
      ctx_->Error("misuse of aliased window function " + std::string(e->text));
      return Lookup::kFailed;
    }
    std::string_view span = e->span;
    *e = *target;
    e->span = span;
    MarkCorrelated(scope, depth);
    return Lookup::kBound;
  }
  return Lookup::kMissing;
}

bool Resolver::BindUnknownName(Expr* e) {
  std::string_view name = e->text;
  if (e->table.empty()) {
    bool dqs_allowed = e->has(ast::kSchemaText) ? ctx_->options.dqs_schema : ctx_->options.dqs_dml;
    if (e->has(ast::kDoubleQuoted) && dqs_allowed) {
      if (ctx_->name_watch != nullptr) {
        size_t off = ctx_->name_watch->OffsetOf(e->span);
        if (off != std::string_view::npos) ctx_->name_watch->dq_strings.push_back(off);
      }
      e->kind = ExprKind::kString;
      e->pflags |= kResolvedFlag;
      return true;
    }
    if (EqualsIgnoreCase(name, "true") || EqualsIgnoreCase(name, "false")) {
      e->kind = ExprKind::kBool;
      e->ival = EqualsIgnoreCase(name, "true") ? 1 : 0;
      e->pflags |= kResolvedFlag;
      return true;
    }
  }
  std::string full;
  if (!e->schema.empty()) full = std::string(e->schema) + ".";
  if (!e->table.empty()) full += std::string(e->table) + ".";
  full += std::string(name);
  return ctx_->ErrorAt(e->span, "no such column: " + full);
}

// A function called from the schema (a view or trigger body, a DEFAULT, a
// generated column, an index expression or WHERE; not a CHECK) may not be
// direct-only, nor, with trusted_schema off, an application function not
// declared innocuous: "unsafe use of f()", as SQLite.
bool Resolver::FunctionUsable(Expr* e, const FunctionDef* def) {
  const bool from_schema = ctx_->schema_depth > 0 || ctx_->schema_exprs ||
                           (e->has(ast::kSchemaText) && !ctx_->check_exprs);
  if (!from_schema) return true;
  const bool app = def->api_func != nullptr || def->api_step != nullptr;
  if ((def->flags & kFuncDirectOnly) != 0 ||
      (app && (def->flags & kFuncInnocuous) == 0 && !ctx_->options.trusted_schema)) {
    return ctx_->Error("unsafe use of " + std::string(e->text) + "()");
  }
  return true;
}

bool Resolver::ResolveFunction(Expr* e, Scope* scope) {
  int nargs = e->list ? static_cast<int>(e->list->size()) : 0;
  const FunctionDef* def = ctx_->funcs->Find(e->text, nargs);
  if (def == nullptr) {
    if (ctx_->funcs->HasName(e->text)) {
      return ctx_->ErrorAt(e->span,
                           "wrong number of arguments to function " + std::string(e->text) + "()");
    }
    return ctx_->ErrorAt(e->span, "no such function: " + std::string(e->text));
  }
  e->aux = def;
  if (!FunctionUsable(e, def)) return false;
  if (ctx_->auth.fn != nullptr) {
    // sqlite3_set_authorizer's SQLITE_FUNCTION: IGNORE makes the call NULL.
    Status denied;
    AuthResult r =
        Authorize(ctx_->auth, kAuthFunction, nullptr, def->name.c_str(), nullptr, &denied);
    if (r == AuthResult::kDenied) {
      if (denied.code() == kAuth) {  // SQLite reports this one as a plain error
        denied = Status(kError, "not authorized to use function: " + std::string(e->text));
      }
      if (ctx_->error.ok()) ctx_->error = denied;
      return false;
    }
    if (r == AuthResult::kIgnore) {
      e->kind = ExprKind::kNull;
      e->list = nullptr;
      e->pflags |= kResolvedFlag;
      return true;
    }
  }
  if (nargs == 2 && EqualsIgnoreCase(e->text, "likelihood")) {
    // The probability must be written as a real literal in [0.0, 1.0].
    const Expr* p = (*e->list)[1];
    if (p->kind != ExprKind::kReal || !(p->rval >= 0.0 && p->rval <= 1.0)) {
      return ctx_->ErrorAt(
          e->span, "second argument to likelihood() must be a constant between 0.0 and 1.0");
    }
  }
  if (e->over != nullptr || (def->flags & kFuncWindowOnly) != 0) {
    return ResolveWindowCall(e, scope, def);  // bind_window.cc
  }
  bool is_agg = (def->flags & kFuncAggregate) != 0;
  if (e->has(ast::kStarArg) && !(is_agg && nargs == 0)) {
    return ctx_->Error("wrong number of arguments to function " + std::string(e->text) + "()");
  }
  if (e->has(ast::kDistinct)) {
    if (!is_agg) {
      return ctx_->Error("DISTINCT aggregates must have exactly one argument");
    }
    if (nargs != 1) {
      return ctx_->Error("DISTINCT aggregates must have exactly one argument");
    }
  }
  if (e->filter != nullptr && !is_agg) {
    return ctx_->Error("FILTER may not be used with non-aggregate " + std::string(e->text) + "()");
  }
  if (is_agg) {
    if (agg_depth_ > 0) {
      return ctx_->ErrorAt(e->span, "misuse of aggregate function " + std::string(e->text) + "()");
    }
    ++agg_depth_;
    bool ok =
        ResolveList(e->list, scope) && (e->filter == nullptr || ResolveExpr(e->filter, scope));
    --agg_depth_;
    if (!ok) return false;
    // An aggregate whose arguments only refer to an enclosing query belongs to
    // that query (SELECT (SELECT sum(outer.x)) FROM outer).
    // Columns read inside subqueries of the arguments count too, their
    // depths taken from the aggregate's own query (a subquery's own and
    // deeper columns do not decide).
    int owner_depth = 0;
    {
      int min_depth = -1;
      std::function<void(Expr*, int)> visit = [&](Expr* root, int nesting) {
        auto f = [&](Expr* x) {
          if (x->kind == ExprKind::kResolvedColumn) {
            const int d = x->depth - nesting;
            if (d >= 0 && (min_depth < 0 || d < min_depth)) min_depth = d;
          }
          if (x->select == nullptr) return true;
          if (x->left != nullptr) visit(x->left, nesting);  // IN's left operand
          auto inner = [&](Expr* y) {
            visit(y, nesting + 1);
            return false;
          };
          WalkSelectExprs(x->select, inner);
          return false;
        };
        WalkExpr(root, f);
      };
      if (e->list) {
        for (size_t i = 0; i < e->list->size(); ++i) visit((*e->list)[i], 0);
      }
      if (min_depth > 0) owner_depth = min_depth;
    }
    Scope* owner = scope;
    for (int d = 0; d < owner_depth && owner != nullptr; ++d) {
      if (owner->select) owner->select->correlated = true;
      owner = owner->outer;
    }
    if (owner == nullptr || owner->agg == nullptr) {
      return ctx_->ErrorAt(e->span, "misuse of aggregate function " + std::string(e->text) + "()");
    }
    AggInfo* agg = owner->agg;
    AggFunc f;
    f.expr = e;
    f.def = def;
    if (def->flags & kFuncNeedsCollation) {
      for (size_t i = 0; i < static_cast<size_t>(nargs) && f.coll == nullptr; ++i) {
        f.coll = ExprCollation((*e->list)[i]);
      }
    }
    e->agg = static_cast<int32_t>(agg->funcs.size());
    e->reg = agg->id;
    agg->funcs.push_back(f);
    owner->has_agg = true;
    return true;
  }
  return ResolveList(e->list, scope);
}

bool Resolver::ResolveTopExpr(Expr* e, Scope* scope) {
  const int height = e->height;  // (resolving may rewrite *e)
  height_sum_ += height;
  bool ok;
  if (height_sum_ > ctx_->options.max_expr_depth) {
    ok = ctx_->Error("Expression tree is too large (maximum depth " +
                     std::to_string(ctx_->options.max_expr_depth) + ")");
  } else {
    ++expr_nesting_;
    ++top_exprs_;
    ok = ResolveExpr(e, scope);
    --expr_nesting_;
  }
  height_sum_ -= height;
  return ok;
}

bool Resolver::ResolveExpr(Expr* e, Scope* scope) {
  if (e == nullptr) return true;
  if (e->pflags & kResolvedFlag) return true;
  if (expr_nesting_ == 0) return ResolveTopExpr(e, scope);
  switch (e->kind) {
    case ExprKind::kColumn:
      if (!ResolveColumn(e, scope)) return false;
      break;
    case ExprKind::kStar:
      return ctx_->Error("near \"*\": syntax error");
    case ExprKind::kFunction:
      if (!ResolveFunction(e, scope)) return false;
      break;
    case ExprKind::kCollate:
      if (!ResolveExpr(e->left, scope)) return false;
      e->aux = FindCollation(e->text);
      if (e->aux == nullptr) e->pflags |= kUnknownCollation;
      break;
    case ExprKind::kSubquery:
    case ExprKind::kExists:
      if (!ResolveSubquery(e->select, scope)) return false;
      if (e->kind == ExprKind::kSubquery) {
        Select* first = e->select;
        while (first->prior) first = first->prior;
        size_t n = InfoOf(first)->result->size();
        if (n != 1 && !(e->pflags & 0x10)) {
          return ctx_->Error("sub-select returns " + std::to_string(n) + " columns - expected 1");
        }
      }
      break;
    case ExprKind::kIn: {
      if (!ResolveExpr(e->left, scope)) return false;
      size_t lhs_n = e->left->kind == ExprKind::kVector ? e->left->list->size() : 1;
      if (e->select) {
        if (!ResolveSubquery(e->select, scope)) return false;
        Select* first = e->select;
        while (first->prior) first = first->prior;
        size_t n = InfoOf(first)->result->size();
        if (n != lhs_n) {
          return ctx_->Error("sub-select returns " + std::to_string(n) + " columns - expected " +
                             std::to_string(lhs_n));
        }
      } else if (e->list) {
        if (!ResolveList(e->list, scope)) return false;
        if (lhs_n != 1) {
          for (size_t i = 0; i < e->list->size(); ++i) {
            Expr* it = (*e->list)[i];
            size_t n = it->kind == ExprKind::kVector ? it->list->size() : 1;
            if (n != lhs_n) return ctx_->Error("row value misused");
          }
        }
      } else if (!e->text.empty()) {
        // x IN table: rewrite as x IN (SELECT * FROM table).
        Select* sel = ctx_->arena->New<Select>();
        sel->columns = ctx_->arena->New<ExprList>();
        ast::ExprItem star;
        star.expr = ctx_->arena->New<Expr>();
        star.expr->kind = ExprKind::kStar;
        sel->columns->items.push_back(*ctx_->arena, star);
        sel->from = ctx_->arena->New<ast::FromList>();
        ast::FromItem* fi = ctx_->arena->New<ast::FromItem>();
        fi->name = e->text;
        fi->schema = e->schema;
        sel->from->items.push_back(*ctx_->arena, fi);
        e->select = sel;
        if (!ResolveSubquery(sel, scope)) return false;
        if (InfoOf(sel)->result->size() != lhs_n) {
          return ctx_->Error("sub-select returns " + std::to_string(InfoOf(sel)->result->size()) +
                             " columns - expected " + std::to_string(lhs_n));
        }
      }
      break;
    }
    case ExprKind::kVectorElement:
      if (e->left->kind == ExprKind::kSubquery) e->left->pflags |= 0x10;  // multi-column OK
      if (!ResolveExpr(e->left, scope)) return false;
      break;
    case ExprKind::kRaise:
      break;
    case ExprKind::kResolvedColumn:
    case ExprKind::kRegister:
    case ExprKind::kAggregate:
      return true;
    default: {
      bool vector_cmp =
          e->kind == ExprKind::kBinary && e->left && e->right &&
          (e->left->kind == ExprKind::kVector || e->right->kind == ExprKind::kVector ||
           ((e->left->kind == ExprKind::kSubquery || e->right->kind == ExprKind::kSubquery) &&
            (e->op == ast::Op::kEq || e->op == ast::Op::kNe || e->op == ast::Op::kLt ||
             e->op == ast::Op::kLe || e->op == ast::Op::kGt || e->op == ast::Op::kGe ||
             e->op == ast::Op::kIs || e->op == ast::Op::kIsNot)));
      if (vector_cmp) {
        // Row-value comparison: subquery operands may have several columns.
        if (e->left->kind == ExprKind::kSubquery) e->left->pflags |= 0x10;
        if (e->right->kind == ExprKind::kSubquery) e->right->pflags |= 0x10;
      }
      if (!ResolveExpr(e->left, scope)) return false;
      if (!ResolveExpr(e->right, scope)) return false;
      if (!ResolveExpr(e->escape, scope)) return false;  // LIKE ... ESCAPE x
      if (!ResolveList(e->list, scope)) return false;
      if (e->select && !ResolveSubquery(e->select, scope)) return false;
      if (vector_cmp && VectorSize(e->left) != VectorSize(e->right)) {
        return ctx_->Error("row value misused");
      }
      break;
    }
  }
  e->pflags |= kResolvedFlag;
  return true;
}

}  // namespace basalt
