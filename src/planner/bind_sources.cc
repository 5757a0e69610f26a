// Binding FROM clauses: tables, views, CTEs, subqueries and virtual tables
// become Sources; join conditions (ON, USING, NATURAL) and `*` expansion.
#include <algorithm>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>

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

// ---- sources ------------------------------------------------------------------

Source Resolver::MakeTableSource(const Table* t, std::string_view alias, int cursor) {
  Source src;
  src.table = t;
  src.name = alias.empty() ? std::string_view(t->name) : alias;
  src.cursor = cursor;
  src.columns.reserve(t->columns.size());
  for (size_t i = 0; i < t->columns.size(); ++i) {
    const Column& c = t->columns[i];
    SourceColumn sc;
    sc.name = c.name;
    sc.affinity = static_cast<char>(c.affinity);
    if (!c.collation.empty()) {
      sc.coll = FindCollation(c.collation);
      sc.coll_name = c.collation;
    }
    sc.decl_type = c.decl_type;
    sc.origin_table = t;
    sc.origin_column = static_cast<int>(i);
    sc.hidden = c.hidden;
    src.columns.push_back(sc);
  }
  src.merged_with.assign(src.columns.size(), {-1, -1});
  return src;
}

void Resolver::SubqueryColumns(Select* s, std::vector<SourceColumn>* out) {
  Select* first = s;
  while (first->prior) first = first->prior;
  SelectInfo* info = InfoOf(first);
  out->clear();
  if (info == nullptr || info->result == nullptr) return;
  // Names taken so far (ASCII-lowercased) and, per base name, the last
  // suffix tried: a result of thousands of equal names stays linear.
  std::unordered_set<std::string> taken;
  std::unordered_map<std::string, int> last_suffix;
  auto lower = [](std::string s) {
    for (char& c : s) c = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    return s;
  };
  for (size_t i = 0; i < info->result->size(); ++i) {
    const Expr* e = (*info->result)[i];
    SourceColumn sc;
    std::string name = info->names.size() > i ? info->names[i] : std::string(e->span);
    // Make names unique the way SQLite does: drop a trailing ":<digits>",
    // append ":1", ":2", ... (up to 4 tries; SQLite then picks random
    // numbers, here the next unused number for the stem).
    std::string key = lower(name);
    for (int tries = 1; taken.count(key) != 0; ++tries) {
      size_t n = name.size();
      if (n > 0) {
        size_t j = n - 1;
        while (j > 0 && name[j] >= '0' && name[j] <= '9') --j;
        if (name[j] == ':') n = j;
      }
      std::string stem = name.substr(0, n);
      int suffix = tries;
      if (tries > 4) {
        int& next = last_suffix[lower(stem)];
        next = std::max(next, 4);
        suffix = ++next;
      }
      name = stem + ":" + std::to_string(suffix);
      key = lower(name);
    }
    taken.insert(std::move(key));
    sc.name = ctx_->arena->CopyString(name);
    sc.affinity = ExprAffinity(e);
    bool expl = false;
    sc.coll = ExprCollation(e, &expl);
    if (e->kind == ExprKind::kResolvedColumn && e->tab != nullptr) {
      sc.origin_table = e->tab;
      int col = e->column >= 0 ? e->column : static_cast<int>(e->ival);
      sc.origin_column = col;
      if (col >= 0) sc.decl_type = e->tab->columns[static_cast<size_t>(col)].decl_type;
    } else if (first == s) {
      // A column of a nested subquery or view passes its origin on.
      if (const SourceColumn* in = SourceColumnOf(info, e)) {
        sc.origin_table = in->origin_table;
        sc.origin_column = in->origin_column;
        sc.decl_type = in->decl_type;
      }
    }
    out->push_back(sc);
  }
}

const SourceColumn* Resolver::SourceColumnOf(const SelectInfo* info, const Expr* e) {
  if (info == nullptr || e->kind != ExprKind::kResolvedColumn || e->tab != nullptr ||
      e->depth != 0 || e->column < 0) {
    return nullptr;
  }
  for (const Source& src : info->sources) {
    if (src.cursor == e->cursor && static_cast<size_t>(e->column) < src.columns.size()) {
      return &src.columns[static_cast<size_t>(e->column)];
    }
  }
  return nullptr;
}

CteEntry* Resolver::FindCte(std::string_view name) {
  for (size_t i = ctes_.size(); i-- > 0;) {
    if (EqualsIgnoreCase(ctes_[i]->cte->name, name)) return ctes_[i];
  }
  return nullptr;
}

bool Resolver::AddSource(ast::FromItem* item, SelectInfo* info, Scope* outer, bool first_item) {
  if (item->nested != nullptr && NestAsSubquery(item, first_item)) {
    return AddNestedJoin(item, info, outer);
  }
  if (item->nested != nullptr) {
    // A parenthesised join: its items join the flat list; the first one takes
    // this item's join type.
    size_t first = info->sources.size();
    for (size_t i = 0; i < item->nested->size(); ++i) {
      if (!AddSource((*item->nested)[i], info, outer, first_item && i == 0)) return false;
    }
    if (info->sources.size() > first) {
      info->sources[first].join = item->join;
      info->sources[first].groups.emplace_back(item, info->sources.size() - first);
    }
    return true;
  }
  Source src;
  src.item = item;
  src.join = item->join;
  if (item->subquery != nullptr) {
    if (!ResolveSelect(item->subquery, outer)) return false;
    // A FROM subquery can only refer beyond the SELECT that contains it.
    for (Select* p = item->subquery; p; p = p->prior) {
      if (InfoOf(p)->correlated) info->correlated = true;
    }
    src.subquery = item->subquery;
    src.name = item->alias;
    SubqueryColumns(item->subquery, &src.columns);
    src.cursor = ctx_->AllocCursor();
  } else if (item->func_args != nullptr) {
    if (!AddTableFunction(item, &src)) return false;
  } else {
    // (item->tab preset: the code generator names a DML target table itself.)
    CteEntry* cte = item->schema.empty() && item->tab == nullptr ? FindCte(item->name) : nullptr;
    if (cte != nullptr) {
      src.name = item->alias.empty() ? item->name : item->alias;
      if (cte->resolving) {
        // A recursive reference from inside the CTE's own body.
        if (cte->queue_cursor < 0) {
          return ctx_->Error("circular reference: " + std::string(cte->cte->name));
        }
        cte->recursive = true;
        src.columns = cte->columns;
        src.cursor = ctx_->AllocCursor();
        src.cte = -2 - cte->id;  // marks "the recursive queue row"
      } else {
        src.columns = cte->columns;
        src.cursor = ctx_->AllocCursor();
        src.cte = cte->id;
        ++cte->refs;
        // A body reading an outer query's columns makes its reader
        // correlated too (as a FROM subquery would).
        for (Select* p = cte->cte->select; p; p = p->prior) {
          if (InfoOf(p) != nullptr && InfoOf(p)->correlated) info->correlated = true;
        }
      }
    } else {
      Table* t = item->tab != nullptr ? const_cast<Table*>(item->tab)
                                      : ctx_->FindTable(item->schema, item->name);
      if (t == nullptr && !FindEponymous(item, &t)) return false;
      if (t != nullptr && t->is_virtual && !ConnectVirtual(t)) return false;
      if (t == nullptr) return ctx_->NoSuchTable(item->schema, item->name);
      if (t->is_view) {
        // SQLITE_DBCONFIG_ENABLE_VIEW off leaves only TEMP views usable.
        if (!ctx_->options.enable_view && (t->owner == nullptr || !t->owner->is_temp())) {
          return ctx_->Error("access to view \"" + t->name + "\" prohibited");
        }
        const auto& open = ctx_->expanding_views;
        if (std::find(open.begin(), open.end(), t) != open.end()) {
          return ctx_->Error("view " + t->name + " is circularly defined");
        }
        Select* body = ctx_->ParseSelect(t->view_sql);
        if (body == nullptr) return false;
        // A view's body sees no outer query, and its unqualified names bind
        // to the view's own database.
        CompileContext::ViewExpansion expansion(ctx_, t);
        CompileContext::FixedDbScope fixed(ctx_, t->owner);
        if (!ResolveSelect(body, nullptr)) return false;
        src.subquery = body;
        src.name = item->alias.empty() ? std::string_view(t->name) : item->alias;
        SubqueryColumns(body, &src.columns);
        if (!t->view_columns.empty()) {
          if (t->view_columns.size() != src.columns.size()) {
            return ctx_->Error("expected " + std::to_string(t->view_columns.size()) +
                               " columns for '" + t->name + "' but got " +
                               std::to_string(src.columns.size()));
          }
          for (size_t i = 0; i < src.columns.size(); ++i) {
            src.columns[i].name = t->view_columns[i];
          }
        }
        src.cursor = ctx_->AllocCursor();
        item->tab = t;
      } else {
        int cursor = ctx_->AllocCursor();
        src = MakeTableSource(t, item->alias, cursor);
        src.item = item;
        src.join = item->join;
        item->tab = t;
        if (!item->indexed_by.empty()) {
          Index* idx = ctx_->FindIndex(item->schema, item->indexed_by);
          if (idx == nullptr || idx->table != t) {
            return ctx_->Error("no such index: " + std::string(item->indexed_by));
          }
        }
      }
    }
  }
  src.merged_with.assign(src.columns.size(), {-1, -1});
  item->cursor = src.cursor;
  if (src.subquery != nullptr && src.cte == -1 && !no_flatten_ && CanFlatten(src.subquery, item)) {
    SelectInfo* si = InfoOf(src.subquery);
    src.flattened = true;
    src.flat_exprs = si->result;
    src.cursor = -1;
    item->cursor = -1;
    info->sources.push_back(std::move(src));
    bool first = true;
    for (const Source& ss : si->sources) {
      Source copy = ss;
      copy.hidden_names = true;
      if (first) copy.join = item->join;
      first = false;
      info->sources.push_back(std::move(copy));
    }
    if (src.subquery->where != nullptr) info->flattened_where.push_back(src.subquery->where);
    for (Expr* w : si->flattened_where) info->flattened_where.push_back(w);
    return true;
  }
  info->sources.push_back(std::move(src));
  return true;
}

// A module's eponymous virtual table named like `item` (which names no
// table of its own), if there is one: *t stays null otherwise. The schema
// name is not looked at (SQLite finds `nosuch.dbstat` too).
bool Resolver::FindEponymous(const ast::FromItem* item, Table** t) {
  *t = nullptr;
  if (ctx_->vtabs == nullptr) return true;
  Status st;
  *t = ctx_->vtabs->Eponymous(item->name, &st);
  if (!st.ok()) return ctx_->Error(st.code(), st.message());
  return true;
}

// A virtual table declared by CREATE VIRTUAL TABLE is connected (xConnect)
// at its first use in this connection. Inside a view or trigger body a
// table whose module declared it direct-only (risk 2) is refused, and so is
// one of normal risk (0) when trusted_schema is off; innocuous ones (1)
// are always allowed.
bool Resolver::ConnectVirtual(Table* t) {
  if (t->vtab == nullptr) {
    Status st = ctx_->vtabs != nullptr ? ctx_->vtabs->Connect(t)
                                       : Status(kError, "no such module: " + t->module);
    if (!st.ok()) return ctx_->Error(st.code(), st.message());
  }
  if (ctx_->schema_depth > 0) {
    const int risk = t->vtab->risk;
    if (risk == 2 || (risk == 0 && !ctx_->options.trusted_schema)) {
      return ctx_->Error("unsafe use of virtual table \"" + t->name + "\"");
    }
  }
  return true;
}

// `FROM name(arg, ...)`: a virtual table whose hidden columns, in order,
// take the arguments as `hidden = arg` constraints on this source.
bool Resolver::AddTableFunction(ast::FromItem* item, Source* src) {
  Table* t = ctx_->FindTable(item->schema, item->name);
  if (t == nullptr && !FindEponymous(item, &t)) return false;
  if (t == nullptr) return ctx_->NoSuchTable(item->schema, item->name);
  if (!t->is_virtual) return ctx_->Error("'" + t->name + "' is not a function");
  if (!ConnectVirtual(t)) return false;
  std::vector<int> hidden;
  for (size_t c = 0; c < t->columns.size(); ++c) {
    if (t->columns[c].hidden) hidden.push_back(static_cast<int>(c));
  }
  if (item->func_args->size() > hidden.size()) {
    return ctx_->Error("too many arguments on " + t->name + "() - max " +
                       std::to_string(hidden.size()));
  }
  *src = MakeTableSource(t, item->alias, ctx_->AllocCursor());
  src->item = item;
  src->join = item->join;
  item->tab = t;
  // The arguments are resolved, and joined to the source's ON condition,
  // with the join conditions (ApplyJoinConditions).
  src->table_args = hidden;
  return true;
}

// `hidden_k = arg_k` for each argument of a table-valued function, ANDed
// onto *cond.
bool Resolver::AddTableArgs(Source* s, Scope* scope, Expr** cond) {
  ast::ExprList* args = s->item->func_args;
  for (size_t i = 0; i < args->size(); ++i) {
    Expr* arg = (*args)[i];
    if (!ResolveExpr(arg, scope)) return false;
    Expr* eq = ctx_->arena->New<Expr>();
    eq->kind = ExprKind::kBinary;
    eq->op = ast::Op::kEq;
    // SQLite adds these terms without asking the authorizer about the
    // hidden column.
    AuthHook saved = ctx_->auth;
    ctx_->auth = AuthHook();
    eq->left = NewColumnRef(*s, s->table_args[i], {});
    ctx_->auth = saved;
    eq->right = arg;
    eq->span = arg->span;
    eq->pflags |= kResolvedFlag;
    eq->flags |= ast::kFromJoinOn;
    *cond = Conjoin(*cond, eq);
  }
  return true;
}

bool Resolver::AddSources(ast::FromList* from, SelectInfo* info, Scope* outer) {
  if (from == nullptr) return true;
  // A subquery left of a RIGHT JOIN keeps its WHERE clause to itself (the
  // outer WHERE applies after the join), so none is flattened there.
  const bool saved = no_flatten_;
  // Nor in a parenthesised join made a subquery: its columns are named by
  // its sources (AddNestedJoin).
  no_flatten_ = bind::FromHasRightJoin(from) || from == nested_join_from_;
  for (size_t i = 0; i < from->size(); ++i) {
    if (!AddSource((*from)[i], info, outer, i == 0)) {
      no_flatten_ = saved;
      return false;
    }
  }
  no_flatten_ = saved;
  // Duplicate names are allowed by SQLite (they make references ambiguous).
  return true;
}

AuthResult Resolver::AuthorizeRead(const Table* t, int col) {
  // After a refusal SQLite still asks about the column reads of the
  // expression being resolved, then nothing more (the statement fails).
  if (ctx_->auth.fn == nullptr) return AuthResult::kOk;
  if (!ctx_->error.ok() && (read_denied_in_ == 0 || read_denied_in_ != top_exprs_)) {
    return AuthResult::kOk;
  }
  int named = col >= 0 ? col : t->rowid_alias;
  std::string column = named >= 0 ? t->columns[static_cast<size_t>(named)].name : "ROWID";
  const std::string& db = ctx_->catalog->name(t->db());
  Status denied;
  AuthResult r =
      Authorize(ctx_->auth, kAuthRead, t->name.c_str(), column.c_str(), db.c_str(), &denied);
  if (r != AuthResult::kDenied) return r;
  if (ctx_->error.ok()) read_denied_in_ = top_exprs_;
  if (denied.code() == kAuth) {
    // SQLite names the column, with its database when there is a choice.
    std::string what = t->name + "." + column;
    if (ctx_->catalog->size() > 2 || t->db() != 0) what = db + "." + what;
    denied = Status(kAuth, "access to " + what + " is prohibited");
  }
  if (ctx_->error.ok()) ctx_->error = denied;
  return r;
}

ast::Expr* Resolver::NewColumnRef(const Source& src, int col, std::string_view span) {
  if (src.flattened) {
    Expr* e = ctx_->arena->New<Expr>(*(*src.flat_exprs)[static_cast<size_t>(col)]);
    if (!span.empty()) e->span = span;
    if (MayHaveSubtype(e)) e->pflags |= kExprClearSubtype;
    flat_names_[e] = src.columns[static_cast<size_t>(col)].name;
    return e;
  }
  Expr* e = ctx_->arena->New<Expr>();
  if (src.table != nullptr && AuthorizeRead(src.table, col) == AuthResult::kIgnore) {
    e->kind = ExprKind::kNull;  // SQLITE_IGNORE: the column reads as NULL
    e->span = span;
    e->pflags |= kResolvedFlag;
    return e;
  }
  e->kind = ExprKind::kResolvedColumn;
  e->cursor = src.cursor;
  const SourceColumn& sc = src.columns[static_cast<size_t>(col)];
  e->text = sc.name;
  e->span = span.empty() ? sc.name : span;
  e->affinity = sc.affinity;
  if (sc.coll) {
    e->aux = sc.coll;
    e->pflags |= 0x02;
  }
  e->pflags |= kResolvedFlag;
  if (src.table != nullptr) {
    e->tab = src.table;
    e->ival = col;
    e->column = (col == src.table->rowid_alias) ? -1 : col;
  } else {
    e->column = col;
    e->ival = col;
  }
  return e;
}

bool Resolver::ApplyJoinConditions(SelectInfo* info, Scope* scope) {
  std::vector<Source>& srcs = info->sources;
  for (size_t i = 0; i < srcs.size(); ++i) {
    Source& s = srcs[i];
    if (s.hidden_names) continue;  // joined inside a flattened subquery already
    ast::FromItem* item = s.item;
    if ((s.join & ast::kJoinRight) != 0 && !MarkRightJoin(info, i)) return false;
    if (s.join & ast::kJoinLeft) s.outer_nullable = true;
    if (item == nullptr) continue;
    bool natural = (s.join & ast::kJoinNatural) != 0;
    if (natural && (item->on || item->using_cols)) {
      return ctx_->Error("a NATURAL join may not have an ON or USING clause");
    }
    if (item->on && item->using_cols) {
      return ctx_->Error("cannot have both ON and USING clauses in the same join");
    }
    if (i == 0) {
      if (item->on || item->using_cols) {
        return ctx_->Error("a JOIN clause is required before ON");
      }
      if (!s.table_args.empty()) {
        Expr* cond = nullptr;
        if (!AddTableArgs(&s, scope, &cond)) return false;
        s.on = cond;
      }
      continue;
    }
    std::vector<std::string_view> names;
    if (natural) {
      for (const SourceColumn& c : s.columns) {
        if (c.hidden) continue;
        for (size_t j = 0; j < i; ++j) {
          bool found = false;
          for (const SourceColumn& lc : srcs[j].columns) {
            if (!lc.hidden && EqualsIgnoreCase(lc.name, c.name)) found = true;
          }
          if (found) {
            names.push_back(c.name);
            break;
          }
        }
      }
    } else if (item->using_cols) {
      for (size_t k = 0; k < item->using_cols->size(); ++k) {
        names.push_back(item->using_cols->names[k]);
      }
    }
    Expr* cond = nullptr;
    for (std::string_view name : names) {
      int rcol = -1;
      for (size_t k = 0; k < s.columns.size(); ++k) {
        if (EqualsIgnoreCase(s.columns[k].name, name)) {
          rcol = static_cast<int>(k);
          break;
        }
      }
      int lsrc = -1, lcol = -1;
      Expr* left = nullptr;
      if (!UsingLeftSide(info, i, name, &left, &lsrc, &lcol)) return false;
      if (rcol < 0 || lsrc < 0) {
        return ctx_->Error("cannot join using column " + std::string(name) +
                           " - column not present in both tables");
      }
      s.merged_with[static_cast<size_t>(rcol)] = {lsrc, lcol};
      Expr* eq = ctx_->arena->New<Expr>();
      eq->kind = ExprKind::kBinary;
      eq->op = ast::Op::kEq;
      eq->left = left;
      eq->right = NewColumnRef(s, rcol, {});
      eq->pflags |= kResolvedFlag;
      eq->flags |= ast::kFromJoinOn;
      cond = Conjoin(cond, eq);
    }
    if (!s.table_args.empty() && !AddTableArgs(&s, scope, &cond)) return false;
    if (item->on && !AndJoinCondition(item->on, scope, &cond)) return false;
    s.on = cond;
  }
  return ApplyGroupConditions(info, scope);
}

bool Resolver::AndJoinCondition(Expr* on, Scope* scope, Expr** cond) {
  if (!ResolveExpr(on, scope)) return false;
  *cond = Conjoin(*cond, on);
  return true;
}

Expr* Resolver::Conjoin(Expr* a, Expr* b) {
  if (a == nullptr) return b;
  if (b == nullptr) return a;
  Expr* x = ctx_->arena->New<Expr>();
  x->kind = ExprKind::kBinary;
  x->op = ast::Op::kAnd;
  x->left = a;
  x->right = b;
  x->pflags |= kResolvedFlag;
  return x;
}

// The ON of a parenthesised join goes to the group's first source, whose
// join type it took: as a filter after an inner join, as the join condition
// of a LEFT JOIN onto a single source. A LEFT JOIN onto several sources
// would need them NULL-extended together, which the loops cannot do yet.
bool Resolver::ApplyGroupConditions(SelectInfo* info, Scope* scope) {
  std::vector<Source>& srcs = info->sources;
  for (size_t i = 0; i < srcs.size(); ++i) {
    Source& s = srcs[i];
    for (const auto& [group, n] : s.groups) {
      if (group->using_cols != nullptr || (group->join & ast::kJoinNatural) != 0) {
        return ctx_->Error("USING or NATURAL with a parenthesised join is not supported yet");
      }
      if (group->on == nullptr) continue;
      if (i == 0) return ctx_->Error("a JOIN clause is required before ON");
      if ((s.join & ast::kJoinLeft) != 0 && n > 1) {
        return ctx_->Error("LEFT JOIN onto a parenthesised join is not supported yet");
      }
      if (!AndJoinCondition(group->on, scope, &s.on)) return false;
    }
  }
  return true;
}

namespace {

// Whether a later source merges a column with sources[si].columns[c] by
// USING/NATURAL in a RIGHT or FULL JOIN.
bool MergedByRightJoin(const std::vector<Source>& srcs, size_t si, size_t c) {
  for (size_t j = si + 1; j < srcs.size(); ++j) {
    if ((srcs[j].join & ast::kJoinRight) == 0) continue;
    for (const auto& m : srcs[j].merged_with) {
      if (m.first == static_cast<int>(si) && m.second == static_cast<int>(c)) return true;
    }
  }
  return false;
}

}  // namespace

// `*` over several sources stands for `db.source.column` names (`*` as the
// database of subqueries), which are ambiguous when two sources of one
// name in one database have the column: an error, as in SQLite.
bool Resolver::CheckStarColumn(const std::vector<Source>& srcs, size_t si, size_t c) {
  const Source& src = srcs[si];
  const std::string_view name = src.columns[c].name;
  auto db_of = [](const Source& s) { return s.table != nullptr ? s.table->db() : -1; };
  for (size_t j = 0; j < srcs.size(); ++j) {
    const Source& o = srcs[j];
    if (j == si || o.hidden_names || o.flattened != src.flattened) continue;
    if (!EqualsIgnoreCase(o.name, src.name) || db_of(o) != db_of(src)) continue;
    for (size_t k = 0; k < o.columns.size(); ++k) {
      if (o.columns[k].hidden || o.merged_with[k].first >= 0) continue;
      if (!EqualsIgnoreCase(o.columns[k].name, name)) continue;
      const std::string db = src.table != nullptr && ctx_->catalog != nullptr
                                 ? ctx_->catalog->name(src.table->db())
                                 : std::string("*");
      return ctx_->Error("ambiguous column name: " + db + "." + std::string(src.name) + "." +
                         std::string(name));
    }
  }
  return true;
}

bool Resolver::ExpandResultColumns(Select* s, SelectInfo* info) {
  ExprList* in = s->columns;
  bool has_star = false;
  for (size_t i = 0; i < in->size(); ++i) {
    if ((*in)[i]->kind == ExprKind::kStar) has_star = true;
  }
  if (!has_star) {
    info->result = in;
    return true;
  }
  ExprList* out = ctx_->arena->New<ExprList>();
  for (size_t i = 0; i < in->size(); ++i) {
    Expr* e = (*in)[i];
    if (e->kind != ExprKind::kStar) {
      out->items.push_back(*ctx_->arena, in->items[i]);
      continue;
    }
    bool any = false;
    if (e->table.empty()) {
      if (info->sources.empty()) return ctx_->Error("no tables specified");
      for (size_t si = 0; si < info->sources.size(); ++si) {
        const Source& src = info->sources[si];
        if (src.hidden_names) continue;
        for (size_t c = 0; c < src.columns.size(); ++c) {
          if (src.columns[c].hidden || src.merged_with[c].first >= 0) continue;
          ast::ExprItem item;
          if (MergedByRightJoin(info->sources, si, c)) {
            // Read as the unqualified name is: the right-most column or a
            // coalesce() (BindSourceColumn).
            item.expr = ctx_->arena->New<Expr>();
            item.expr->kind = ExprKind::kColumn;
            item.expr->text = src.columns[c].name;
            item.expr->span = src.columns[c].name;
            out->items.push_back(*ctx_->arena, item);
            any = true;
            continue;
          }
          if (!CheckStarColumn(info->sources, si, c)) return false;
          item.expr = NewColumnRef(src, static_cast<int>(c), {});
          if (src.flattened) flat_names_[item.expr] = src.columns[c].name;
          out->items.push_back(*ctx_->arena, item);
          any = true;
        }
      }
    } else {
      bool found = false;
      for (const Source& src : info->sources) {
        if (src.hidden_names || !SourceNamed(src, e->table)) continue;
        found = true;
        for (size_t c = 0; c < src.columns.size(); ++c) {
          if (src.columns[c].hidden) continue;
          if (src.nested_from && !EqualsIgnoreCase(src.columns[c].table_name, e->table)) continue;
          ast::ExprItem item;
          item.expr = NewColumnRef(src, static_cast<int>(c), {});
          if (src.flattened) flat_names_[item.expr] = src.columns[c].name;
          out->items.push_back(*ctx_->arena, item);
          any = true;
        }
        break;
      }
      if (!found) return ctx_->Error("no such table: " + std::string(e->table));
    }
    (void)any;
  }
  info->result = out;
  return true;
}

}  // namespace basalt
