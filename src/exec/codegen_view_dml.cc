// INSERT, UPDATE and DELETE on a view: they run the view's INSTEAD OF
// triggers, once per affected view row, and change nothing themselves.
//
//  - DELETE FROM v WHERE w: the rows of `SELECT * FROM v WHERE w` are
//    collected first; each fires the DELETE triggers with OLD = the row.
//  - UPDATE v SET c = e WHERE w: `SELECT *, e... FROM v WHERE w` is
//    collected; OLD is the view row, NEW the same row with the SET values.
//  - INSERT INTO v [(cols)] source: each source row (collected first) fires
//    the INSERT triggers with NEW = the values, NULL for columns not given.
//
// Triggers bind NEW/OLD by column name, so the view gets a stand-in Table
// (owned by the code generator for the compile) whose columns are the
// view's result columns and whose triggers are the view's.
#include "exec/codegen_internal.h"

namespace basalt {

using ast::Expr;

namespace {

constexpr int kInsteadOf = static_cast<int>(ast::TriggerTime::kInsteadOf);

}  // namespace

// `SELECT * FROM view [AS alias]` over `target`, before any other items.
ast::Select* Codegen::ViewRowsSelect(const ast::FromItem* target, const Table* view) {
  ast::Select* sel = ctx_->arena->New<ast::Select>();
  sel->columns = ctx_->arena->New<ast::ExprList>();
  ast::ExprItem star;
  star.expr = ctx_->arena->New<Expr>();
  star.expr->kind = ast::ExprKind::kStar;
  star.expr->table = target->alias.empty() ? target->name : target->alias;
  sel->columns->items.push_back(*ctx_->arena, star);
  sel->from = ctx_->arena->New<ast::FromList>();
  sel->from->items.push_back(*ctx_->arena, TargetFromItem(target, view));
  return sel;
}

// The stand-in for `view`: its result columns as a table's.
const Table* Codegen::ViewStandIn(const Table* view) {
  ast::Select* body = ctx_->ParseSelect(view->view_sql);
  if (body == nullptr) return nullptr;
  std::vector<SourceColumn> cols;
  {
    // As in a FROM clause: the body sees no outer query and binds
    // unqualified names in the view's own database.
    CompileContext::FixedDbScope fixed(ctx_, view->owner);
    if (!resolver_.ResolveSelect(body, nullptr)) return nullptr;
    resolver_.SubqueryColumns(body, &cols);
  }
  if (!view->view_columns.empty()) {
    if (view->view_columns.size() != cols.size()) {
      ctx_->Error("expected " + std::to_string(view->view_columns.size()) + " columns for '" +
                  view->name + "' but got " + std::to_string(cols.size()));
      return nullptr;
    }
    for (size_t i = 0; i < cols.size(); ++i) cols[i].name = view->view_columns[i];
  }
  auto t = std::make_unique<Table>();
  t->name = view->name;
  t->owner = view->owner;
  t->is_view = true;
  t->triggers = view->triggers;
  for (const SourceColumn& sc : cols) {
    Column c;
    c.name = std::string(sc.name);
    c.affinity = sc.affinity >= 'A' && sc.affinity <= 'E' ? static_cast<Affinity>(sc.affinity)
                                                          : Affinity::kBlob;
    if (sc.coll != nullptr) c.collation = std::string(sc.coll_name);
    t->columns.push_back(std::move(c));
  }
  view_stand_ins_.push_back(std::move(t));
  return view_stand_ins_.back().get();
}

bool Codegen::NoInsteadOf(const Table* view, int event, const std::vector<bool>* changed) {
  if (HasTriggers(view, event, kInsteadOf, changed)) return false;
  ctx_->Error("cannot modify " + view->name + " because it is a view");
  return true;
}

bool Codegen::CodeViewDelete(ast::DeleteStmt* st, const Table* view, Scope* outer) {
  constexpr int kEvent = static_cast<int>(ast::TriggerEvent::kDelete);
  if (NoInsteadOf(view, kEvent, nullptr)) return false;
  ast::Select* sel = ViewRowsSelect(st->target, view);
  sel->where = st->where;
  sel->order_by = st->order_by;
  sel->limit = st->limit;
  sel->offset = st->offset;
  if (!resolver_.ResolveSelect(sel, outer)) return false;
  const Table* vt = ViewStandIn(view);
  if (vt == nullptr) return false;
  int n = static_cast<int>(vt->columns.size());
  int rows = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, rows, n);
  SelectDest d;
  d.kind = SelectDest::kTable;
  d.cursor = rows;
  if (!CodeSelect(sel, &d)) return false;
  int old_base = AllocReg(n + 1);
  int done = MakeLabel();
  Op(Opcode::kRewind, rows, done);
  int top = prog_->pc();
  int next = MakeLabel();
  Op(Opcode::kNull, 0, old_base);
  for (int i = 0; i < n; ++i) Op(Opcode::kColumn, rows, i, old_base + 1 + i);
  CodeTriggers(vt, kEvent, kInsteadOf, old_base, 0, next, nullptr, OnConflict::kDefault);
  ResolveLabel(next);
  Op(Opcode::kNext, rows, top);
  ResolveLabel(done);
  return !ctx_->failed();
}

bool Codegen::CodeViewUpdate(ast::UpdateStmt* st, const Table* view, Scope* outer) {
  constexpr int kEvent = static_cast<int>(ast::TriggerEvent::kUpdate);
  if (st->from != nullptr) {
    return ctx_->Error("cannot modify " + view->name + " because it is a view");
  }
  ast::Select* sel = ViewRowsSelect(st->target, view);
  for (const ast::ExprItem& set : st->sets->items) {
    ast::ExprItem item;
    item.expr = set.expr;
    sel->columns->items.push_back(*ctx_->arena, item);
  }
  sel->where = st->where;
  sel->order_by = st->order_by;
  sel->limit = st->limit;
  sel->offset = st->offset;
  if (!resolver_.ResolveSelect(sel, outer)) return false;
  const Table* vt = ViewStandIn(view);
  if (vt == nullptr) return false;
  int n = static_cast<int>(vt->columns.size());
  std::vector<int> set_col;
  std::vector<bool> changed(static_cast<size_t>(n), false);
  for (const ast::ExprItem& set : st->sets->items) {
    int c = vt->FindColumn(set.name);
    if (c < 0) return ctx_->Error("no such column: " + std::string(set.name));
    set_col.push_back(c);
    changed[static_cast<size_t>(c)] = true;
  }
  if (NoInsteadOf(vt, kEvent, &changed)) return false;
  int nset = static_cast<int>(set_col.size());
  int rows = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, rows, n + nset);
  SelectDest d;
  d.kind = SelectDest::kTable;
  d.cursor = rows;
  if (!CodeSelect(sel, &d)) return false;
  int old_base = AllocReg(n + 1);
  int new_base = AllocReg(n + 1);
  int done = MakeLabel();
  Op(Opcode::kRewind, rows, done);
  int top = prog_->pc();
  int next = MakeLabel();
  Op(Opcode::kNull, 0, old_base, old_base + n);  // OLD and NEW, rowids included
  Op(Opcode::kNull, 0, new_base, new_base + n);
  for (int i = 0; i < n; ++i) {
    Op(Opcode::kColumn, rows, i, old_base + 1 + i);
    Op(Opcode::kColumn, rows, i, new_base + 1 + i);
  }
  for (int i = 0; i < nset; ++i) {
    Op(Opcode::kColumn, rows, n + i, new_base + 1 + set_col[static_cast<size_t>(i)]);
  }
  CodeTriggers(vt, kEvent, kInsteadOf, old_base, new_base, next, &changed,
               ToOnConflict(st->on_conflict));
  ResolveLabel(next);
  Op(Opcode::kNext, rows, top);
  ResolveLabel(done);
  return !ctx_->failed();
}

bool Codegen::CodeViewInsert(ast::InsertStmt* st, const Table* view, Scope* outer) {
  constexpr int kEvent = static_cast<int>(ast::TriggerEvent::kInsert);
  if (NoInsteadOf(view, kEvent, nullptr)) return false;
  const Table* vt = ViewStandIn(view);
  if (vt == nullptr) return false;
  int n = static_cast<int>(vt->columns.size());
  std::vector<int> targets;
  if (!InsertTargets(st, vt, &targets)) return false;
  int nvals = static_cast<int>(targets.size());
  int new_base = AllocReg(n + 1);
  int end = MakeLabel();
  int rows = -1;
  if (st->select != nullptr) {
    if (!ResolveInsertSource(st, vt, outer, nvals)) return false;
    rows = ctx_->AllocCursor();
    Op(Opcode::kOpenEphemeral, rows, nvals);
    SelectDest d;
    d.kind = SelectDest::kTable;
    d.cursor = rows;
    if (!CodeSelect(st->select, &d)) return false;
    Op(Opcode::kRewind, rows, end);
  }
  int top = prog_->pc();
  int next = MakeLabel();
  Op(Opcode::kNull, 0, new_base, new_base + n);
  for (int i = 0; i < nvals; ++i) {
    int c = targets[static_cast<size_t>(i)];
    int dst = c < 0 ? new_base : new_base + 1 + c;
    if (rows >= 0) Op(Opcode::kColumn, rows, i, dst);
  }
  CodeTriggers(vt, kEvent, kInsteadOf, 0, new_base, next, nullptr, ToOnConflict(st->on_conflict));
  ResolveLabel(next);
  if (rows >= 0) Op(Opcode::kNext, rows, top);
  ResolveLabel(end);
  return !ctx_->failed();
}

}  // namespace basalt
