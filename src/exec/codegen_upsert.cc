// UPSERT: INSERT ... ON CONFLICT [(target) [WHERE e]] DO NOTHING | DO UPDATE
// SET ... [WHERE e], with the semantics of SQLite 3.35+:
//
//   1. PrepareUpsert binds each clause's target to one constraint: the
//      INTEGER PRIMARY KEY (-1) or a UNIQUE index (its position in
//      table->indexes); a clause without a target (only the last may omit
//      it) takes any uniqueness conflict (-2). A target that names no such
//      constraint is an error. SET and WHERE are resolved against the target
//      table (through a fake cursor) and `excluded` (the row being inserted).
//   2. The INSERT's uniqueness checks run in UpsertCheckOrder: the clauses'
//      constraints first, in clause order, then the others in
//      UniqueCheckOrder. A conflict on a constraint some clause covers runs
//      that clause's action (CodeUpsertAction) instead of the constraint's
//      own ON CONFLICT algorithm; the first clause that covers it wins.
//   3. DO NOTHING skips the row. DO UPDATE reads the conflicting row, skips
//      it when the WHERE is not true, else updates it as an UPDATE ... OR
//      ABORT of that row would (BEFORE/AFTER UPDATE triggers, constraint
//      checks, index maintenance), adds a RETURNING row, and skips the
//      insert.
#include "exec/codegen_internal.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;

namespace {

bool IsRowidName(std::string_view n) {
  return EqualsIgnoreCase(n, "rowid") || EqualsIgnoreCase(n, "oid") ||
         EqualsIgnoreCase(n, "_rowid_");
}

// Text of an expression compared loosely: case and blanks do not count.
std::string Squeeze(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
    out += static_cast<char>((c >= 'A' && c <= 'Z') ? c - 'A' + 'a' : c);
  }
  return out;
}

// The index key columns a target names: a column number, or kExprColumn
// with its text for an expression.
struct TargetTerm {
  int column = -1;
  std::string text;
  std::string collation;  // COLLATE given, else the column's (or BINARY)
};

bool SameCollation(const TargetTerm& term, const Collation* index_coll) {
  std::string_view name = index_coll != nullptr ? index_coll->name : "BINARY";
  return EqualsIgnoreCase(term.collation, name);
}

// Whether a conflict target names the UNIQUE index idx: the same key
// columns (any order) with the same collations, and for a partial index
// the same WHERE.
bool TargetMatches(const std::vector<TargetTerm>& terms, const Index& idx, Expr* target_where) {
  if (!idx.unique || idx.columns.size() != terms.size()) return false;
  if (!idx.where_sql.empty() &&
      (target_where == nullptr || Squeeze(target_where->span) != Squeeze(idx.where_sql))) {
    return false;
  }
  for (size_t k = 0; k < idx.columns.size(); ++k) {
    bool found = false;
    for (const TargetTerm& term : terms) {
      if (term.column != idx.columns[k]) continue;
      if (term.column == kExprColumn && term.text != Squeeze(idx.column_exprs[k])) continue;
      if (!SameCollation(term, idx.collations[k])) continue;
      found = true;
    }
    if (!found) return false;
  }
  return true;
}

}  // namespace

bool Codegen::PrepareUpsert(ast::InsertStmt* st, const Table* tab, Scope* outer, int insert_base,
                            UpsertPlan* plan) {
  plan->cursor = ctx_->AllocCursor();
  plan->srcs.push_back(resolver_.MakeTableSource(tab, st->alias, plan->cursor));
  Scope scope;
  scope.outer = outer;
  scope.sources = &plan->srcs;
  const std::string no_match =
      "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint";
  for (ast::Upsert* u = st->upsert; u != nullptr; u = u->next) {
    UpsertClause uc;
    uc.clause = u;
    if (u->target != nullptr) {
      std::vector<TargetTerm> terms;
      for (size_t i = 0; i < u->target->size(); ++i) {
        Expr* e = (*u->target)[i];
        TargetTerm term;
        if (e->kind == ExprKind::kCollate) term.collation = std::string(e->text);
        while (e->kind == ExprKind::kCollate) e = e->left;
        if (e->kind == ExprKind::kColumn && !e->table.empty() &&
            !EqualsIgnoreCase(e->table, st->alias.empty() ? tab->name : st->alias)) {
          return ctx_->ErrorAt(
              e->span, "no such column: " + std::string(e->table) + "." + std::string(e->text));
        }
        if (e->kind == ExprKind::kColumn) {
          term.column = tab->FindColumn(e->text);
          if (term.column < 0 && IsRowidName(e->text) && tab->HasRowid()) {
            term.column = tab->rowid_alias;  // -1 without an INTEGER PRIMARY KEY
          } else if (term.column < 0) {
            return ctx_->ErrorAt(e->span, "no such column: " + std::string(e->text));
          } else if (term.collation.empty()) {
            term.collation = tab->columns[static_cast<size_t>(term.column)].collation;
          }
        } else {
          term.column = kExprColumn;
          term.text = Squeeze(e->span);
        }
        if (term.collation.empty()) term.collation = "BINARY";
        terms.push_back(std::move(term));
      }
      if (u->target_where != nullptr && !resolver_.ResolveExpr(u->target_where, &scope)) {
        return false;
      }
      uc.constraint = -3;
      if (terms.size() == 1 && terms[0].column == tab->rowid_alias && terms[0].text.empty()) {
        uc.constraint = -1;
      }
      // A WITHOUT ROWID table's primary key is the row key (-1) too.
      if (tab->pk_index && TargetMatches(terms, *tab->pk_index, u->target_where)) {
        uc.constraint = -1;
      }
      for (size_t i = 0; uc.constraint == -3 && i < tab->indexes.size(); ++i) {
        if (TargetMatches(terms, *tab->indexes[i], u->target_where)) {
          uc.constraint = static_cast<int>(i);
        }
      }
      if (uc.constraint == -3) return ctx_->Error(no_match);
    }
    if (!u->do_nothing) {
      scope.excluded_base = insert_base;
      uc.sets.changed.assign(tab->columns.size(), false);
      if (!ResolveUpdateSets(u->sets, tab, &scope, &uc.sets)) return false;
      if (u->where != nullptr && !resolver_.ResolveExpr(u->where, &scope)) return false;
      scope.excluded_base = -1;
    }
    plan->clauses.push_back(std::move(uc));
  }
  return true;
}

const Codegen::UpsertClause* Codegen::UpsertFor(int constraint) const {
  if (upsert_ == nullptr) return nullptr;
  for (const UpsertClause& uc : upsert_->clauses) {
    if (uc.constraint == constraint || uc.constraint == -2) return &uc;
  }
  return nullptr;
}

std::vector<int> Codegen::UpsertCheckOrder(const Table* tab) const {
  std::vector<int> order;
  auto add = [&order](int c) {
    for (int o : order) {
      if (o == c) return;
    }
    order.push_back(c);
  };
  for (const UpsertClause& uc : upsert_->clauses) {
    if (uc.constraint >= -1) add(uc.constraint);
  }
  for (int c : UniqueCheckOrder(tab)) add(c);
  return order;
}

void Codegen::CodeUpsertAction(DmlTarget* t, const UpsertClause& uc, int conflict_rowid,
                               int skip_label) {
  if (uc.clause->do_nothing) {
    Op(Opcode::kGoto, 0, skip_label);
    return;
  }
  UpsertPlan* plan = upsert_;
  upsert_ = nullptr;  // the update's own checks are plain ABORT checks
  const Table* tab = t->table;
  int ncol = static_cast<int>(tab->columns.size());
  int old_base = AllocReg(ncol + 1);
  int new_base = AllocReg(ncol + 1);
  CodeSeekRowKey(tab, t->cursor, skip_label, conflict_rowid);
  CodeReadRow(t, old_base);
  size_t mark = redirects_.size();
  redirects_.push_back({plan->cursor, -1, old_base});
  for (int c = 0; c < ncol; ++c) redirects_.push_back({plan->cursor, c, old_base + 1 + c});
  if (uc.clause->where != nullptr) CodeJumpIf(uc.clause->where, skip_label, false, true);
  CodeUpdatedRow(uc.clause->sets, tab, uc.sets, old_base, new_base);
  redirects_.resize(mark);
  const std::vector<bool>* changed = &uc.sets.changed;
  int update = static_cast<int>(ast::TriggerEvent::kUpdate);
  bool before = HasTriggers(tab, update, static_cast<int>(ast::TriggerTime::kBefore), changed);
  if (before) {
    CodeTriggers(tab, update, static_cast<int>(ast::TriggerTime::kBefore), old_base, new_base,
                 skip_label, changed, OnConflict::kAbort);
    int old_key = AllocReg(RowKeySize(tab));
    CodeRowKeyFromRow(tab, old_base, old_key);
    CodeSeekRowKey(tab, t->cursor, skip_label, old_key);
  }
  CodeConstraintChecks(t, new_base, old_base, uc.sets.key_set, OnConflict::kAbort, skip_label,
                       changed);
  CodeFkCheck(tab, old_base, new_base, changed);
  CodeReplaceRow(t, old_base, new_base, uc.sets.rowid_set, before ? nullptr : changed);
  CodeFkActions(tab, old_base, new_base, changed);
  if (plan->ret != nullptr) CodeReturningRow(*plan->ret, new_base);  // before AFTER triggers
  CodeTriggers(tab, update, static_cast<int>(ast::TriggerTime::kAfter), old_base, new_base,
               skip_label, changed, OnConflict::kAbort);
  Op(Opcode::kGoto, 0, skip_label);
  upsert_ = plan;
}

}  // namespace basalt
