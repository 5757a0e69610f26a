// The parts of UPDATE and DELETE that are SELECTs in disguise:
//
//  - `... ORDER BY o LIMIT n OFFSET m` (SQLITE_ENABLE_UPDATE_DELETE_LIMIT)
//    limits the rows changed to those a SELECT of the target's rowids would
//    return: the WHERE becomes
//        rowid IN (SELECT rowid FROM target WHERE w ORDER BY o LIMIT n OFFSET m)
//    and the statement proceeds as usual.
//  - `UPDATE target SET c = e ... FROM f WHERE w` joins the target with the
//    FROM list. Its first pass is the SELECT
//        SELECT target.rowid, e... FROM target, f WHERE w [ORDER BY/LIMIT]
//    whose rows land in a temporary table keyed by the rowid (a target row
//    that joins several rows is changed once, with the values of the last;
//    a WITHOUT ROWID target's rows are keyed by its primary key instead);
//    the second pass rewrites each row from the stored values.
//
// The AST of the statement is never changed (trigger bodies are compiled
// once per firing statement); the SELECTs are new nodes in the compile arena
// sharing the statement's expressions.
#include "exec/codegen_internal.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;

namespace {

// The name a rowid reference can use for `tab`: the first of SQLite's three
// spellings that no real column shadows.
std::string_view RowidName(const Table* tab) {
  for (std::string_view n : {"rowid", "_rowid_", "oid"}) {
    if (tab->FindColumn(n) < 0) return n;
  }
  return "rowid";
}

std::string_view EffectiveName(const ast::FromItem* item) {
  return item->alias.empty() ? item->name : item->alias;
}

}  // namespace

// A FROM item naming `tab` directly, so the SELECT binds the target table
// itself (not a CTE or another schema's table of the same name).
ast::FromItem* Codegen::TargetFromItem(const ast::FromItem* target, const Table* tab) {
  ast::FromItem* fi = ctx_->arena->New<ast::FromItem>();
  fi->schema = target->schema;
  fi->name = target->name;
  fi->alias = target->alias;
  fi->indexed_by = target->indexed_by;
  fi->not_indexed = target->not_indexed;
  fi->tab = tab;
  return fi;
}

Expr* Codegen::RowidRef(const ast::FromItem* target, const Table* tab) {
  Expr* e = ctx_->arena->New<Expr>();
  e->kind = ExprKind::kColumn;
  e->text = RowidName(tab);
  e->table = EffectiveName(target);
  return e;
}

// What identifies a row of `tab`: its rowid, or a WITHOUT ROWID table's
// primary-key columns (a vector when there are several).
Expr* Codegen::RowKeyRef(const ast::FromItem* target, const Table* tab) {
  if (!tab->without_rowid) return RowidRef(target, tab);
  const std::vector<int>& pk = tab->pk_index->columns;
  auto column = [&](int c) {
    Expr* e = ctx_->arena->New<Expr>();
    e->kind = ExprKind::kColumn;
    e->text = tab->columns[static_cast<size_t>(c)].name;
    e->table = EffectiveName(target);
    return e;
  };
  if (pk.size() == 1) return column(pk[0]);
  Expr* v = ctx_->arena->New<Expr>();
  v->kind = ExprKind::kVector;
  v->list = ctx_->arena->New<ast::ExprList>();
  for (int c : pk) {
    ast::ExprItem item;
    item.expr = column(c);
    v->list->items.push_back(*ctx_->arena, item);
  }
  return v;
}

// The WHERE that applies ORDER BY / LIMIT / OFFSET of an UPDATE or DELETE
// (see the top of the file); `where` itself when there is no LIMIT. Null
// after an error (ORDER BY without LIMIT).
Expr* Codegen::LimitedDmlWhere(const DmlLimit& lim, const ast::FromItem* target, const Table* tab,
                               Expr* where, const char* verb) {
  if (lim.limit == nullptr) {
    if (lim.order_by != nullptr) {
      ctx_->Error(std::string("ORDER BY without LIMIT on ") + verb);
      return nullptr;
    }
    return where;
  }
  ast::Select* sel = ctx_->arena->New<ast::Select>();
  sel->columns = ctx_->arena->New<ast::ExprList>();
  ast::ExprItem item;
  item.expr = RowKeyRef(target, tab);
  if (item.expr->kind == ExprKind::kVector) {
    sel->columns = item.expr->list;  // (a, b) IN (SELECT a, b ...)
  } else {
    sel->columns->items.push_back(*ctx_->arena, item);
  }
  sel->from = ctx_->arena->New<ast::FromList>();
  sel->from->items.push_back(*ctx_->arena, TargetFromItem(target, tab));
  sel->where = where;
  sel->order_by = lim.order_by;
  sel->limit = lim.limit;
  sel->offset = lim.offset;
  Expr* in = ctx_->arena->New<Expr>();
  in->kind = ExprKind::kIn;
  in->left = RowKeyRef(target, tab);
  in->select = sel;
  return in;
}

// Pass 1 of UPDATE ... FROM: the rowid of each target row the join finds,
// with the SET values computed in the join, into temporary table `eph`
// (rowid → record of the values in SET order).
// A WITHOUT ROWID target has no rowid: its rows are known by the primary
// key, stored with the values in an index ordered by the key alone
// (OpenUpdateFromKeySet, CodeKeepLastPerKey).
bool Codegen::CodeUpdateFromRows(ast::UpdateStmt* st, const Table* tab, Scope* outer, int eph) {
  // The target may appear in FROM only under another name (or alias).
  for (const ast::FromItem* fi : st->from->items) {
    if (fi->subquery != nullptr || fi->nested != nullptr) continue;
    if (EqualsIgnoreCase(fi->name, st->target->name) &&
        EqualsIgnoreCase(fi->alias, st->target->alias)) {
      return ctx_->Error("target object/alias may not appear in FROM clause: " +
                         std::string(EffectiveName(fi)));
    }
  }
  ast::Select* sel = ctx_->arena->New<ast::Select>();
  sel->columns = ctx_->arena->New<ast::ExprList>();
  ast::ExprItem item;
  item.expr = RowKeyRef(st->target, tab);
  if (item.expr->kind == ExprKind::kVector) {
    for (const ast::ExprItem& k : item.expr->list->items)
      sel->columns->items.push_back(*ctx_->arena, k);
  } else {
    sel->columns->items.push_back(*ctx_->arena, item);
  }
  for (const ast::ExprItem& set : st->sets->items) {
    item.expr = set.expr;
    sel->columns->items.push_back(*ctx_->arena, item);
  }
  sel->from = ctx_->arena->New<ast::FromList>();
  sel->from->items.push_back(*ctx_->arena, TargetFromItem(st->target, tab));
  // The FROM list's first item joins the target as if by a comma.
  for (ast::FromItem* fi : st->from->items) sel->from->items.push_back(*ctx_->arena, fi);
  sel->where = st->where;
  sel->order_by = st->order_by;
  sel->limit = st->limit;
  sel->offset = st->offset;
  if (st->limit == nullptr && st->order_by != nullptr) {
    return ctx_->Error("ORDER BY without LIMIT on UPDATE");
  }
  if (!resolver_.ResolveSelect(sel, outer)) return false;
  SelectDest dest;
  if (!tab->without_rowid) {
    dest.kind = SelectDest::kKeyedTable;
    dest.cursor = eph;
    return CodeSelect(sel, &dest);
  }
  const int n_sets = static_cast<int>(st->sets->size());
  const int rows = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, rows, tab->n_pk() + n_sets);
  dest.kind = SelectDest::kTable;
  dest.cursor = rows;
  if (!CodeSelect(sel, &dest)) return false;
  CodeKeepLastPerKey(tab, rows, n_sets, eph);
  return !ctx_->failed();
}

// The join's rows (key, values), in the order found, into `set` keyed by
// the primary key: a target row the join finds again replaces its entry,
// so it is changed once, with the values of the last (as by rowid).
void Codegen::CodeKeepLastPerKey(const Table* tab, int rows, int n_sets, int set) {
  const int n = tab->n_pk();
  const int regs = AllocReg(n + n_sets + 1);
  const int done = MakeLabel();
  Op(Opcode::kRewind, rows, done);
  const int top = prog_->pc();
  for (int c = 0; c < n + n_sets; ++c) Op(Opcode::kColumn, rows, c, regs + c);
  const int insert = MakeLabel();
  prog_->SetP4Int(Op(Opcode::kNotFound, set, insert, regs), n);
  Op(Opcode::kDelete, set);
  ResolveLabel(insert);
  Op(Opcode::kMakeRecord, regs, n + n_sets, regs + n + n_sets);
  Op(Opcode::kIdxInsert, set, regs + n + n_sets);
  Op(Opcode::kNext, rows, top);
  ResolveLabel(done);
}

}  // namespace basalt
