#include "planner/resolve.h"

#include <cstring>

#include "parser/parser.h"
#include "planner/walk.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::ExprList;
using ast::Select;

namespace {

constexpr uint8_t kResolvedFlag = 0x01;

bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

const char* CompoundName(ast::CompoundOp op) {
  switch (op) {
    case ast::CompoundOp::kUnion:
      return "UNION";
    case ast::CompoundOp::kUnionAll:
      return "UNION ALL";
    case ast::CompoundOp::kIntersect:
      return "INTERSECT";
    case ast::CompoundOp::kExcept:
      return "EXCEPT";
    default:
      return "SELECT";
  }
}

std::string Ordinal(int n) {
  const char* suffix = "th";
  int m = n % 100;
  if (m < 11 || m > 13) {
    if (n % 10 == 1)
      suffix = "st";
    else if (n % 10 == 2)
      suffix = "nd";
    else if (n % 10 == 3)
      suffix = "rd";
  }
  return std::to_string(n) + suffix;
}

// If e is an integer literal (possibly with unary +/-), sets *v.
bool IntegerLiteral(const Expr* e, int64_t* v) {
  if (e->kind == ExprKind::kInteger) {
    *v = e->ival;
    return true;
  }
  if (e->kind == ExprKind::kUnary && e->left != nullptr) {
    int64_t x;
    if (e->op == ast::Op::kNeg && IntegerLiteral(e->left, &x)) {
      *v = -x;
      return true;
    }
    if (e->op == ast::Op::kPlus && IntegerLiteral(e->left, &x)) {
      *v = x;
      return true;
    }
  }
  return false;
}

}  // namespace

// ---- helpers ------------------------------------------------------------------

const Collation* Resolver::FindCollation(std::string_view name) {
  return FindBuiltinCollation(name);
}

char Resolver::ExprAffinity(const Expr* e) {
  for (;;) {
    switch (e->kind) {
      case ExprKind::kCollate:
        e = e->left;
        continue;
      case ExprKind::kResolvedColumn:
      case ExprKind::kRegister:
        return e->affinity ? e->affinity : '@';
      case ExprKind::kCast:
        return static_cast<char>(e->text.empty() ? Affinity::kNumeric
                                                 : AffinityFromDeclType(e->text));
      case ExprKind::kSubquery: {
        const Select* s = e->select;
        while (s->prior) s = s->prior;
        const SelectInfo* info = InfoOf(s);
        if (info && info->result && info->result->size() > 0) {
          return ExprAffinity((*info->result)[0]);
        }
        return '@';
      }
      case ExprKind::kVector:
        return ExprAffinity((*e->list)[0]);
      default:
        return '@';
    }
  }
}

const Collation* Resolver::ExprCollation(const Expr* e, bool* explicit_coll) {
  if (explicit_coll) *explicit_coll = false;
  // Explicit COLLATE anywhere in the operand tree wins (left first).
  struct Finder {
    Resolver* r;
    const Collation* Find(const Expr* x) {
      if (x == nullptr) return nullptr;
      if (x->kind == ExprKind::kCollate) return static_cast<const Collation*>(x->aux);
      if (x->kind == ExprKind::kSubquery || x->kind == ExprKind::kExists ||
          x->kind == ExprKind::kResolvedColumn || x->kind == ExprKind::kFunction) {
        return nullptr;
      }
      if (const Collation* c = Find(x->left)) return c;
      if (const Collation* c = Find(x->right)) return c;
      if (x->list) {
        for (size_t i = 0; i < x->list->size(); ++i) {
          if (const Collation* c = Find((*x->list)[i])) return c;
        }
      }
      return nullptr;
    }
  } finder{this};
  if (const Collation* c = finder.Find(e)) {
    if (explicit_coll) *explicit_coll = true;
    return c;
  }
  while (e->kind == ExprKind::kCast || (e->kind == ExprKind::kUnary && e->op == ast::Op::kPlus)) {
    e = e->left;
  }
  // A column always has a collating sequence (BINARY unless declared), and
  // it takes part in choosing the comparison's collation.
  if (e->kind == ExprKind::kResolvedColumn) {
    if (e->pflags & 0x02) return static_cast<const Collation*>(e->aux);
    return ::basalt::BinaryCollation();
  }
  if (e->kind == ExprKind::kRegister && (e->pflags & 0x02)) {
    return static_cast<const Collation*>(e->aux);
  }
  return nullptr;
}

const Collation* Resolver::BinaryCollation(const Expr* a, const Expr* b) {
  bool ea = false, eb = false;
  const Collation* ca = ExprCollation(a, &ea);
  const Collation* cb = b ? ExprCollation(b, &eb) : nullptr;
  if (ea) return ca;
  if (eb) return cb;
  if (ca) return ca;
  return cb;
}

bool ExprEqual(const Expr* a, const Expr* b) {
  if (a == b) return true;
  if (a == nullptr || b == nullptr) return false;
  if (a->kind != b->kind || a->op != b->op) return false;
  if ((a->flags & (ast::kNot | ast::kDistinct | ast::kStarArg)) !=
      (b->flags & (ast::kNot | ast::kDistinct | ast::kStarArg))) {
    return false;
  }
  switch (a->kind) {
    case ExprKind::kInteger:
    case ExprKind::kBool:
      if (a->ival != b->ival) return false;
      break;
    case ExprKind::kReal:
      if (a->rval != b->rval) return false;
      break;
    case ExprKind::kString:
    case ExprKind::kBlob:
      if (a->text != b->text) return false;
      break;
    case ExprKind::kResolvedColumn:
      return a->cursor == b->cursor && a->column == b->column;
    case ExprKind::kRegister:
      return a->reg == b->reg;
    case ExprKind::kParam:
      return a->param_index == b->param_index;
    case ExprKind::kFunction:
    case ExprKind::kCast:
    case ExprKind::kCollate:
      if (!EqualsIgnoreCase(a->text, b->text)) return false;
      break;
    case ExprKind::kSubquery:
    case ExprKind::kExists:
      return false;
    default:
      break;
  }
  if (a->select || b->select) return false;
  if (!ExprEqual(a->left, b->left) || !ExprEqual(a->right, b->right)) return false;
  if ((a->list == nullptr) != (b->list == nullptr)) return false;
  if (a->list) {
    if (a->list->size() != b->list->size()) return false;
    for (size_t i = 0; i < a->list->size(); ++i) {
      if (!ExprEqual((*a->list)[i], (*b->list)[i])) return false;
    }
  }
  return ExprEqual(a->filter, b->filter);
}

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
  for (size_t i = 0; i < info->result->size(); ++i) {
    const Expr* e = (*info->result)[i];
    SourceColumn sc;
    std::string name = info->names.size() > i ? info->names[i] : std::string(e->span);
    // Make names unique the way SQLite does ("a", "a:1", ...).
    std::string base = name;
    int suffix = 0;
    for (;;) {
      bool clash = false;
      for (const SourceColumn& o : *out) clash |= EqualsIgnoreCase(o.name, name);
      if (!clash) break;
      name = base + ":" + std::to_string(++suffix);
    }
    sc.name = ctx_->arena->CopyString(name);
    sc.affinity = ExprAffinity(e);
    bool expl = false;
    sc.coll = ExprCollation(e, &expl);
    if (e->kind == ExprKind::kResolvedColumn && e->tab != nullptr) {
      sc.origin_table = e->tab;
      int col = e->column >= 0 ? e->column : static_cast<int>(e->ival);
      sc.origin_column = col;
      if (col >= 0) sc.decl_type = e->tab->columns[static_cast<size_t>(col)].decl_type;
    }
    out->push_back(sc);
  }
}

CteEntry* Resolver::FindCte(std::string_view name) {
  for (size_t i = ctes_.size(); i-- > 0;) {
    if (EqualsIgnoreCase(ctes_[i]->cte->name, name)) return ctes_[i];
  }
  return nullptr;
}

bool Resolver::AddSource(ast::FromItem* item, SelectInfo* info, Scope* outer) {
  if (item->nested != nullptr) {
    // A parenthesised join: its items join the flat list; the first one takes
    // this item's join type.
    size_t first = info->sources.size();
    for (size_t i = 0; i < item->nested->size(); ++i) {
      if (!AddSource((*item->nested)[i], info, outer)) return false;
    }
    if (info->sources.size() > first) info->sources[first].join = item->join;
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
    CteEntry* cte = item->schema.empty() ? FindCte(item->name) : nullptr;
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
      }
    } else {
      Table* t = ctx_->FindTable(item->schema, item->name);
      if (t == nullptr && !FindEponymous(item, &t)) return false;
      if (t != nullptr && t->is_virtual && !ConnectVirtual(t)) return false;
      if (t == nullptr) {
        std::string n = item->schema.empty()
                            ? std::string(item->name)
                            : std::string(item->schema) + "." + std::string(item->name);
        return ctx_->Error("no such table: " + n);
      }
      if (t->is_view) {
        Select* body = ctx_->ParseSelect(t->view_sql);
        if (body == nullptr) return false;
        // A view's body sees no outer query, and its unqualified names bind
        // to the view's own database.
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
  if (src.subquery != nullptr && src.cte == -1 && CanFlatten(src.subquery, item)) {
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
// table of its own), if there is one: *t stays null otherwise.
bool Resolver::FindEponymous(const ast::FromItem* item, Table** t) {
  *t = nullptr;
  if (ctx_->vtabs == nullptr) return true;
  if (!item->schema.empty() && ctx_->catalog->Find(item->schema) < 0) return true;
  Status st;
  *t = ctx_->vtabs->Eponymous(item->name, &st);
  if (!st.ok()) return ctx_->Error(st.code(), st.message());
  return true;
}

// A virtual table declared by CREATE VIRTUAL TABLE is connected (xConnect)
// at its first use in this connection.
bool Resolver::ConnectVirtual(Table* t) {
  if (t->vtab != nullptr) return true;
  Status st = ctx_->vtabs != nullptr ? ctx_->vtabs->Connect(t)
                                     : Status(kError, "no such module: " + t->module);
  if (!st.ok()) return ctx_->Error(st.code(), st.message());
  return true;
}

// `FROM name(arg, ...)`: a virtual table whose hidden columns, in order,
// take the arguments as `hidden = arg` constraints on this source.
bool Resolver::AddTableFunction(ast::FromItem* item, Source* src) {
  Table* t = ctx_->FindTable(item->schema, item->name);
  if (t == nullptr && !FindEponymous(item, &t)) return false;
  if (t == nullptr) {
    std::string n = item->schema.empty()
                        ? std::string(item->name)
                        : std::string(item->schema) + "." + std::string(item->name);
    return ctx_->Error("no such table: " + n);
  }
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
    eq->left = NewColumnRef(*s, s->table_args[i], {});
    eq->right = arg;
    eq->span = arg->span;
    eq->pflags |= kResolvedFlag;
    eq->flags |= ast::kFromJoinOn;
    if (*cond == nullptr) {
      *cond = eq;
      continue;
    }
    Expr* a = ctx_->arena->New<Expr>();
    a->kind = ExprKind::kBinary;
    a->op = ast::Op::kAnd;
    a->left = *cond;
    a->right = eq;
    a->pflags |= kResolvedFlag;
    *cond = a;
  }
  return true;
}

// Whether a FROM subquery (or view) can be merged into the outer query
// instead of being materialized: a plain SELECT over inner-joined sources
// whose result expressions may be evaluated more than once.
bool Resolver::CanFlatten(Select* sub, const ast::FromItem* item) {
  if (sub->prior != nullptr || sub->values.size() > 0 || sub->distinct ||
      sub->group_by != nullptr || sub->having != nullptr || sub->limit != nullptr ||
      sub->offset != nullptr || sub->order_by != nullptr || sub->windows.size() > 0 ||
      sub->with != nullptr) {
    return false;
  }
  if ((item->join & (ast::kJoinLeft | ast::kJoinRight)) != 0) return false;
  SelectInfo* si = InfoOf(sub);
  if (si == nullptr || si->agg != nullptr || si->correlated || si->sources.empty()) return false;
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

bool Resolver::AddSources(ast::FromList* from, SelectInfo* info, Scope* outer) {
  if (from == nullptr) return true;
  for (size_t i = 0; i < from->size(); ++i) {
    if (!AddSource((*from)[i], info, outer)) return false;
  }
  // Duplicate names are allowed by SQLite (they make references ambiguous).
  return true;
}

ast::Expr* Resolver::NewColumnRef(const Source& src, int col, std::string_view span) {
  if (src.flattened) {
    Expr* e = ctx_->arena->New<Expr>(*(*src.flat_exprs)[static_cast<size_t>(col)]);
    if (!span.empty()) e->span = span;
    flat_names_[e] = src.columns[static_cast<size_t>(col)].name;
    return e;
  }
  Expr* e = ctx_->arena->New<Expr>();
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
    if ((s.join & ast::kJoinRight) != 0) {
      return ctx_->Error("RIGHT and FULL OUTER JOINs are not currently supported");
    }
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
      for (size_t j = 0; j < i && lsrc < 0; ++j) {
        for (size_t k = 0; k < srcs[j].columns.size(); ++k) {
          if (EqualsIgnoreCase(srcs[j].columns[k].name, name) && srcs[j].merged_with[k].first < 0) {
            lsrc = static_cast<int>(j);
            lcol = static_cast<int>(k);
            break;
          }
        }
      }
      if (rcol < 0 || lsrc < 0) {
        return ctx_->Error("cannot join using column " + std::string(name) +
                           " - column not present in both tables");
      }
      s.merged_with[static_cast<size_t>(rcol)] = {lsrc, lcol};
      Expr* eq = ctx_->arena->New<Expr>();
      eq->kind = ExprKind::kBinary;
      eq->op = ast::Op::kEq;
      eq->left = NewColumnRef(srcs[static_cast<size_t>(lsrc)], lcol, {});
      eq->right = NewColumnRef(s, rcol, {});
      eq->pflags |= kResolvedFlag;
      eq->flags |= ast::kFromJoinOn;
      if (cond == nullptr) {
        cond = eq;
      } else {
        Expr* a = ctx_->arena->New<Expr>();
        a->kind = ExprKind::kBinary;
        a->op = ast::Op::kAnd;
        a->left = cond;
        a->right = eq;
        a->pflags |= kResolvedFlag;
        cond = a;
      }
    }
    if (!s.table_args.empty() && !AddTableArgs(&s, scope, &cond)) return false;
    if (item->on) {
      if (!ResolveExpr(item->on, scope)) return false;
      if (cond == nullptr) {
        cond = item->on;
      } else {
        Expr* a = ctx_->arena->New<Expr>();
        a->kind = ExprKind::kBinary;
        a->op = ast::Op::kAnd;
        a->left = cond;
        a->right = item->on;
        a->pflags |= kResolvedFlag;
        cond = a;
      }
    }
    s.on = cond;
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
      for (const Source& src : info->sources) {
        if (src.hidden_names) continue;
        for (size_t c = 0; c < src.columns.size(); ++c) {
          if (src.columns[c].hidden || src.merged_with[c].first >= 0) continue;
          ast::ExprItem item;
          item.expr = NewColumnRef(src, static_cast<int>(c), {});
          if (src.flattened) flat_names_[item.expr] = src.columns[c].name;
          out->items.push_back(*ctx_->arena, item);
          any = true;
        }
      }
    } else {
      bool found = false;
      for (const Source& src : info->sources) {
        if (src.hidden_names || !EqualsIgnoreCase(src.name, e->table)) continue;
        found = true;
        for (size_t c = 0; c < src.columns.size(); ++c) {
          if (src.columns[c].hidden) continue;
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

// ---- SELECT -------------------------------------------------------------------

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
      bool recursive_shape = with->recursive && body->prior != nullptr;
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
  // A subquery inside aggregate arguments may have aggregates of its own.
  int saved_agg_depth = agg_depth_;
  agg_depth_ = 0;
  bool ok = ResolveSelectInner(s, outer);
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

  AggInfo* agg = ctx_->arena->New<AggInfo>();
  agg->id = ++agg_counter_;
  scope.agg = agg;
  if (!ResolveList(info->result, &scope)) return false;
  bool result_has_agg = scope.has_agg;

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
    // A core of a compound never gets here with ORDER BY (it is on the last).
    if (!ResolveOrderBy(s, s->order_by, &scope, info, "ORDER BY")) return false;
    s->order_by = ExpandNullsOrder(s->order_by);
  }
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

// Removes the name-only sources of flattened subqueries (their ON clauses
// and WHERE clauses become conditions of the outer query).
void Resolver::FinishFlattening(Select* s, SelectInfo* info) {
  bool any = !info->flattened_where.empty();
  for (const Source& src : info->sources) any |= src.flattened;
  if (!any) return;
  auto conj = [&](Expr* a, Expr* b) -> Expr* {
    if (a == nullptr) return b;
    if (b == nullptr) return a;
    Expr* x = ctx_->arena->New<Expr>();
    x->kind = ExprKind::kBinary;
    x->op = ast::Op::kAnd;
    x->left = a;
    x->right = b;
    x->pflags |= kResolvedFlag;
    return x;
  };
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
  Expr* w = s->where;
  for (Expr* x : info->flattened_where) w = conj(w, x);
  info->flattened_where.clear();
  s->where = w;
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

bool Resolver::ResolveList(ExprList* list, Scope* scope) {
  if (list == nullptr) return true;
  for (size_t i = 0; i < list->size(); ++i) {
    if (!ResolveExpr(list->items[i].expr, scope)) return false;
  }
  return true;
}

bool Resolver::ResolveSubquery(Select* s, Scope* scope) { return ResolveSelect(s, scope); }

bool Resolver::ResolveColumn(Expr* e, Scope* scope) {
  std::string_view name = e->text;
  std::string_view tname = e->table;
  int depth = 0;
  for (Scope* sc = scope; sc != nullptr; sc = sc->outer, ++depth) {
    // Trigger pseudo-tables NEW and OLD, and the upsert's EXCLUDED.
    if (!tname.empty() && sc->trigger_table != nullptr) {
      int base = -1;
      if (EqualsIgnoreCase(tname, "new")) base = sc->new_base;
      if (EqualsIgnoreCase(tname, "old")) base = sc->old_base;
      if (EqualsIgnoreCase(tname, "new") || EqualsIgnoreCase(tname, "old")) {
        if (base < 0) {
          return ctx_->Error("no such column: " + std::string(tname) + "." + std::string(name));
        }
        const Table* t = sc->trigger_table;
        int col = t->FindColumn(name);
        if (col < 0 && IsRowidName(name))
          col = -1;
        else if (col < 0) {
          return ctx_->Error("no such column: " + std::string(tname) + "." + std::string(name));
        }
        if (col == t->rowid_alias && col >= 0) col = -1;
        e->kind = ExprKind::kRegister;
        e->reg = base + 1 + col;
        e->tab = t;
        int dcol = col >= 0 ? col : t->rowid_alias;
        e->affinity =
            dcol >= 0 ? static_cast<char>(t->columns[static_cast<size_t>(dcol)].affinity) : 'D';
        e->aux = ::basalt::BinaryCollation();
        if (dcol >= 0 && !t->columns[static_cast<size_t>(dcol)].collation.empty()) {
          e->aux = FindCollation(t->columns[static_cast<size_t>(dcol)].collation);
        }
        if (e->aux) e->pflags |= 0x02;
        e->pflags |= kResolvedFlag;
        return true;
      }
    }
    if (!tname.empty() && sc->excluded_base >= 0 && EqualsIgnoreCase(tname, "excluded")) {
      const Table* t = (*sc->sources)[0].table;
      int col = t->FindColumn(name);
      if (col < 0) {
        return ctx_->Error("no such column: excluded." + std::string(name));
      }
      e->kind = ExprKind::kRegister;
      e->reg = sc->excluded_base + 1 + col;
      e->affinity = static_cast<char>(t->columns[static_cast<size_t>(col)].affinity);
      e->pflags |= kResolvedFlag;
      return true;
    }
    if (sc->sources == nullptr) continue;
    int matches = 0;
    const Source* msrc = nullptr;
    int mcol = -1;
    int table_matches = 0;
    const Source* tsrc = nullptr;
    for (const Source& src : *sc->sources) {
      if (src.hidden_names) continue;
      if (!tname.empty()) {
        if (!EqualsIgnoreCase(src.name, tname)) continue;
        if (!e->schema.empty() && src.table == nullptr) continue;
      }
      ++table_matches;
      tsrc = &src;
      for (size_t c = 0; c < src.columns.size(); ++c) {
        if (!EqualsIgnoreCase(src.columns[c].name, name)) continue;
        // An unqualified reference to a USING/NATURAL column means the
        // left-hand one.
        if (tname.empty() && src.merged_with[c].first >= 0) continue;
        ++matches;
        msrc = &src;
        mcol = static_cast<int>(c);
        break;
      }
    }
    if (matches == 0 && table_matches == 1 && tsrc->table != nullptr && IsRowidName(name) &&
        tsrc->table->HasRowid()) {
      matches = 1;
      msrc = tsrc;
      mcol = -1;
    }
    if (matches == 0 && table_matches == 1 && tsrc->table == nullptr && IsRowidName(name)) {
      // A view or subquery has no rowid; SQLite reads it as NULL.
      e->kind = ExprKind::kNull;
      e->pflags |= kResolvedFlag;
      return true;
    }
    if (matches > 1) {
      std::string n =
          tname.empty() ? std::string(name) : std::string(tname) + "." + std::string(name);
      return ctx_->ErrorAt(e->span, "ambiguous column name: " + n);
    }
    if (matches == 1) {
      if (mcol >= 0 && msrc->flattened) {
        Expr* ref = NewColumnRef(*msrc, mcol, e->span);
        *e = *ref;
        flat_names_[e] = msrc->columns[static_cast<size_t>(mcol)].name;
        if (depth > 0) {
          int d = 0;
          for (Scope* p = scope; p != nullptr && d < depth; p = p->outer, ++d) {
            if (p->select) p->select->correlated = true;
          }
        }
        return true;
      }
      if (mcol >= 0) {
        Expr* ref = NewColumnRef(*msrc, mcol, e->span);
        *e = *ref;
      } else {
        e->kind = ExprKind::kResolvedColumn;
        e->cursor = msrc->cursor;
        e->column = -1;
        e->tab = msrc->table;
        e->ival = msrc->table->rowid_alias;
        e->affinity = 'D';
        e->pflags |= kResolvedFlag;
      }
      e->depth = depth;
      if (depth > 0) {
        // Every SELECT between here and the owner is correlated.
        int d = 0;
        for (Scope* p = scope; p != nullptr && d < depth; p = p->outer, ++d) {
          if (p->select) p->select->correlated = true;
        }
      }
      return true;
    }
    // Result-column aliases (WHERE, GROUP BY, HAVING, ORDER BY), also from
    // subqueries nested in those clauses.
    if (tname.empty() && sc->allow_result_alias && sc->result != nullptr) {
      for (size_t c = 0; c < sc->result->size(); ++c) {
        const ast::ExprItem& ri = sc->result->items[c];
        if (ri.name.empty() || !EqualsIgnoreCase(ri.name, name)) continue;
        Expr* target = ri.expr;
        if (target->kind == ExprKind::kResolvedColumn &&
            sc->result->items[c].expr->span == ri.name) {
          // `*` expansion names are not aliases.
        }
        if (sc->agg == nullptr && target->kind == ExprKind::kFunction && target->agg >= 0) {
          return ctx_->Error("misuse of aliased aggregate " + std::string(name));
        }
        std::string_view span = e->span;
        *e = *target;
        e->span = span;
        if (depth > 0) {
          int d = 0;
          for (Scope* p = scope; p != nullptr && d < depth; p = p->outer, ++d) {
            if (p->select) p->select->correlated = true;
          }
        }
        return true;
      }
    }
  }
  if (tname.empty()) {
    if (e->has(ast::kDoubleQuoted)) {
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
  if (!tname.empty()) full += std::string(tname) + ".";
  full += std::string(name);
  return ctx_->ErrorAt(e->span, "no such column: " + full);
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
  bool is_agg = (def->flags & kFuncAggregate) != 0 && e->over == nullptr;
  if (e->over != nullptr) {
    return ctx_->Error("window functions are not supported yet");
  }
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
    int owner_depth = 0;
    {
      int min_depth = -1;
      auto f = [&](Expr* x) {
        if (x->kind == ExprKind::kResolvedColumn) {
          if (min_depth < 0 || x->depth < min_depth) min_depth = x->depth;
        }
        return x->kind != ExprKind::kSubquery && x->kind != ExprKind::kExists;
      };
      if (e->list) {
        for (size_t i = 0; i < e->list->size(); ++i) WalkExpr((*e->list)[i], f);
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

bool Resolver::ResolveExpr(Expr* e, Scope* scope) {
  if (e == nullptr) return true;
  if (e->pflags & kResolvedFlag) return true;
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
      if (e->aux == nullptr) {
        return ctx_->Error("no such collation sequence: " + std::string(e->text));
      }
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

int Resolver::VectorSize(const Expr* e) {
  if (e->kind == ExprKind::kVector) return static_cast<int>(e->list->size());
  if (e->kind == ExprKind::kSubquery && (e->pflags & 0x10)) {
    const Select* first = e->select;
    while (first->prior) first = first->prior;
    return static_cast<int>(InfoOf(first)->result->size());
  }
  return 1;
}

}  // namespace basalt
