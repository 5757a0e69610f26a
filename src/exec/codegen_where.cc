// Nested-loop code for a planned FROM/WHERE: one level per source, with the
// access path the planner chose (scan, rowid lookup/range, index lookup/range,
// IN-list driven lookups), LEFT JOIN null rows, and term filtering.
#include "exec/codegen_internal.h"
#include "planner/walk.h"
#include "record/affinity.h"
#include "record/value_ops.h"

#include <algorithm>

namespace basalt {

using ast::Expr;
using ast::ExprKind;

namespace {

uint8_t AffBits(char aff) { return aff <= 'A' ? 0 : static_cast<uint8_t>(aff & kCmpAffinityMask); }

}  // namespace

namespace {

// Marks the table column `x` reads, if it reads one. A generated column
// counts as using every column (as in SQLite: no index covers it).
void MarkColumnUse(const Expr* x, const std::vector<Source>& sources,
                   std::vector<std::vector<bool>>* used) {
  if (x->kind != ExprKind::kResolvedColumn || x->column < 0) return;
  for (size_t i = 0; i < sources.size(); ++i) {
    const Source& src = sources[i];
    if (src.cursor != x->cursor || src.table == nullptr) continue;
    std::vector<bool>& u = (*used)[i];
    if (src.table->columns[static_cast<size_t>(x->column)].is_generated()) {
      u.assign(u.size(), true);
    }
    u[static_cast<size_t>(x->column)] = true;
  }
}

}  // namespace

void Codegen::UsedColumns(ast::Select* s, std::vector<Source>* sources,
                          std::vector<std::vector<bool>>* used) {
  used->assign(sources->size(), {});
  for (size_t i = 0; i < sources->size(); ++i) {
    const Source& src = (*sources)[i];
    if (src.table) (*used)[i].assign(src.table->columns.size(), false);
  }
  auto mark = [&](Expr* e) {
    MarkColumnUse(e, *sources, used);
    return true;
  };
  if (s != nullptr) WalkSelectExprs(s, mark);
}

void Codegen::MarkUsedColumns(Expr* e, std::vector<Source>* sources,
                              std::vector<std::vector<bool>>* used) {
  if (used->size() < sources->size()) {
    used->resize(sources->size());
    for (size_t i = 0; i < sources->size(); ++i) {
      const Source& src = (*sources)[i];
      if (src.table && (*used)[i].empty()) (*used)[i].assign(src.table->columns.size(), false);
    }
  }
  auto mark = [&](Expr* x) {
    MarkColumnUse(x, *sources, used);
    return true;
  };
  if (e != nullptr) WalkExpr(e, mark);
}

namespace {
// Frees a Value placed in an Arena when the arena goes away.
struct ValueHolder {
  Value* v;
  explicit ValueHolder(Value* p) : v(p) {}
  ~ValueHolder() { v->~Value(); }
};
}  // namespace

int Codegen::CodeInListIndex(Expr* in, int* has_null, char aff, const Collation* coll) {
  if (in->select != nullptr) {
    char a;
    int c = CodeInIndex(in, has_null, &a);
    return c;
  }
  int cursor = ctx_->AllocCursor();
  {
    // A list of literals: sorted and de-duplicated now, iterated at run time.
    std::vector<Value> vals;
    bool literal = true;
    for (size_t i = 0; i < in->list->size() && literal; ++i) {
      Value v;
      literal = ctx_->options.PassOn(Pass::kConstFold) && Fold((*in->list)[i], &v, 0);
      if (literal) {
        if (!NeedsNoAffinityChange((*in->list)[i], aff)) {
          ApplyAffinity(&v, static_cast<Affinity>(aff));
        }
        vals.push_back(std::move(v));
      }
    }
    if (literal) {
      std::stable_sort(vals.begin(), vals.end(), [&](const Value& x, const Value& y) {
        return CompareValues(x, y, coll) < 0;
      });
      ConstList* list = prog_->arena.New<ConstList>();
      Value* out = static_cast<Value*>(
          prog_->arena.Allocate(sizeof(Value) * (vals.size() + 1), alignof(Value)));
      int n = 0;
      for (Value& v : vals) {
        if (n > 0 && CompareValues(out[n - 1], v, coll) == 0) continue;
        Value* slot = new (&out[n]) Value();
        slot->CopyFrom(v);
        prog_->arena.New<ValueHolder>(slot);
        ++n;
      }
      list->values = out;
      list->n = n;
      *has_null = 0;
      int a = Op(Opcode::kOpenConstList, cursor);
      prog_->SetP4(a, list);
      return cursor;
    }
  }
  KeyInfo* ki = MakeKeyInfo(1);
  const_cast<const Collation**>(ki->colls)[0] = coll;
  bool constant = in_trigger_ == 0;
  for (size_t i = 0; i < in->list->size(); ++i) {
    ExprKind k = (*in->list)[i]->kind;
    if (k != ExprKind::kInteger && k != ExprKind::kReal && k != ExprKind::kString &&
        k != ExprKind::kNull && k != ExprKind::kBlob && k != ExprKind::kParam) {
      constant = false;
    }
  }
  *has_null = 0;
  int done = MakeLabel();
  if (constant && SubqueryOnce()) Op(Opcode::kOnce, 0, done);
  int a = Op(Opcode::kOpenEphemeral, cursor, 1);
  prog_->SetP4(a, ki);
  int r = AllocReg(2);
  char* affs = nullptr;
  if (aff > 'A') {
    affs = prog_->arena.NewArray<char>(2);
    affs[0] = aff;
    affs[1] = 0;
  }
  for (size_t i = 0; i < in->list->size(); ++i) {
    CodeExpr((*in->list)[i], r);
    a = Op(Opcode::kMakeRecord, r, 1, r + 1);
    if (affs && !NeedsNoAffinityChange((*in->list)[i], aff)) {
      prog_->SetP4Str(a, affs);
    }
    Op(Opcode::kIdxInsert, cursor, r + 1);
  }
  ResolveLabel(done);
  return cursor;
}

bool Codegen::PlanLoops(WhereLoops* w, std::vector<Source>* sources, Expr* where,
                        ast::ExprList* order_by, ast::ExprList* group_by,
                        std::vector<std::vector<bool>>* used, bool first_row_only) {
  w->sources = sources;
  WherePlanner planner(ctx_, &resolver_);
  PlanRequest req;
  req.sources = sources;
  req.where = where;
  req.order_by = order_by;
  req.group_by = group_by;
  req.used_columns = used;
  req.dml_rows = dml_rows_;
  req.first_row_only = first_row_only;
  return planner.Plan(req, &w->plan);
}

std::string Codegen::LoopDetail(const LoopPlan& lp, const Source& src) {
  std::string name(src.name);
  if (src.table == nullptr) return "SCAN " + name;
  std::string d;
  auto col_name = [&](int col) {
    if (col < 0) return std::string("rowid");
    return src.table->columns[static_cast<size_t>(col)].name;
  };
  switch (lp.access) {
    case AccessKind::kFullScan:
      d = (lp.minmax ? "SEARCH " : "SCAN ") + name;
      if (lp.index && !lp.index->is_table_store()) {
        d += std::string(lp.covering ? " USING COVERING INDEX " : " USING INDEX ") + lp.index->name;
      } else if (lp.minmax && src.table->without_rowid) {
        d += " USING PRIMARY KEY";
      }
      return d;
    case AccessKind::kRowidEq:
      return "SEARCH " + name + " USING INTEGER PRIMARY KEY (rowid=?)";
    case AccessKind::kRowidRange: {
      d = "SEARCH " + name + " USING INTEGER PRIMARY KEY (";
      if (lp.lower) d += std::string("rowid>") + (lp.lower->op == TermOp::kGe ? "=" : "") + "?";
      if (lp.lower && lp.upper) d += " AND ";
      if (lp.upper) d += std::string("rowid<") + (lp.upper->op == TermOp::kLe ? "=" : "") + "?";
      return d + ")";
    }
    case AccessKind::kVirtual:
      return VtabDetail(*lp.vtab, name);
    case AccessKind::kIndex: {
      const bool pk = lp.index->is_table_store();
      if (lp.eq.empty() && !lp.lower && !lp.upper) {
        std::string verb = lp.minmax ? "SEARCH " : "SCAN ";
        if (pk) return verb + name + (lp.minmax ? " USING PRIMARY KEY" : "");
        return verb + name + (lp.covering ? " USING COVERING INDEX " : " USING INDEX ") +
               lp.index->name;
      }
      d = "SEARCH " + name +
          (pk ? std::string(" USING PRIMARY KEY")
              : (lp.covering ? " USING COVERING INDEX " : " USING INDEX ") + lp.index->name) +
          " (";
      std::string terms;
      for (size_t i = 0; i < lp.eq.size(); ++i) {
        if (!terms.empty()) terms += " AND ";
        terms += col_name(lp.index->columns[i]) + "=?";
      }
      if (lp.lower || lp.upper) {
        std::string c = col_name(lp.index->columns[lp.eq.size()]);
        if (lp.lower) {
          if (!terms.empty()) terms += " AND ";
          terms += c + ">" + (lp.lower->op == TermOp::kGe ? "=" : "") + "?";
        }
        if (lp.upper) {
          if (!terms.empty()) terms += " AND ";
          terms += c + "<" + (lp.upper->op == TermOp::kLe ? "=" : "") + "?";
        }
      }
      return d + terms + ")";
    }
  }
  return d;
}

// Emits the loop headers, outermost first. For each level (one source):
//   1. labels, and the LEFT JOIN match flag;
//   2. the access path: a co-routine or temporary-table scan, or the cursors
//      of a table/index with a full scan, rowid lookup, rowid range or index
//      lookup/range (IN lists add loops over their values);
//   3. the terms that can be tested once this level's row is known.
bool Codegen::WhereBegin(WhereLoops* w) {
  std::vector<Source>& srcs = *w->sources;
  WherePlan& plan = w->plan;
  if (ctx_->explain_plan) {
    if (plan.loops.empty()) Eqp("SCAN CONSTANT ROW");
    for (const LoopPlan& lp : plan.loops) {
      const Source& src = srcs[static_cast<size_t>(lp.src)];
      if (lp.access == AccessKind::kVirtual && lp.vtab->or_term != nullptr) {
        VtabOrEqp(*lp.vtab, src);
        continue;
      }
      Eqp(LoopDetail(lp, src) + (src.outer_nullable ? " LEFT-JOIN" : ""));
    }
  }
  w->break_label = MakeLabel();
  w->subst_mark = substs_.size();
  // Terms that refer to no source of this loop nest are tested once, first.
  for (WhereTerm& t : plan.terms) {
    if (t.disabled || t.coded || t.prereq != 0 || t.on_source >= 0) continue;
    CodeJumpIf(t.expr, w->break_label, false, true);
    t.coded = true;
  }
  OpenRightJoinSets(w);
  // Table and index cursors open once, before the loops (opened at its
  // level, an inner level's cursor would reopen for each outer row).
  std::vector<LevelState> opened(plan.loops.size());
  for (size_t li = 0; li < plan.loops.size(); ++li) {
    const LoopPlan& lp = plan.loops[li];
    const Source& src = srcs[static_cast<size_t>(lp.src)];
    if (src.table != nullptr && lp.access != AccessKind::kVirtual) {
      OpenLevelCursors(lp, src, &opened[li]);
    }
  }
  SourceMask ready = 0;
  for (size_t li = 0; li < plan.loops.size(); ++li) {
    LoopPlan& lp = plan.loops[li];
    const Source& src = srcs[static_cast<size_t>(lp.src)];
    LevelState lv = std::move(opened[li]);
    lv.src = lp.src;
    lv.cursor = src.cursor;
    lv.brk = li > 0 ? MakeLabel() : w->last_rj >= 0 ? w->loops_end : w->break_label;
    if (!w->rj_sets.empty()) lv.rj_match = w->rj_sets[li];
    lv.cont = MakeLabel();
    if (src.outer_nullable) {
      lv.match_reg = AllocReg();
      Op(Opcode::kInteger, 0, lv.match_reg);
    }
    if (src.table == nullptr) {
      CodeSubquerySourceLoop(src, &lv);
    } else if (lp.access == AccessKind::kVirtual) {
      CodeVtabLoop(w, lp, src, &lv);
    } else {
      switch (lp.access) {
        case AccessKind::kFullScan:
          CodeFullScan(lp, src, &lv);
          break;
        case AccessKind::kRowidEq:
          CodeRowidLookup(lp, src, &lv);
          break;
        case AccessKind::kRowidRange:
          CodeRowidRange(lp, src, &lv);
          break;
        case AccessKind::kIndex:
          CodeIndexRange(lp, src, &lv);
          // A BETWEEN whose two halves bound the index range is enforced by
          // the range, as SQLite drops a term whose virtual halves all drive
          // the loop; it is not tested again for each row.
          // Not with a RIGHT JOIN or on an outer join's inner side, where
          // the term is also tested on null rows.
          if (w->last_rj < 0 && !src.outer_nullable && lp.lower && lp.upper &&
              lp.lower->from_between && lp.upper->from_between &&
              lp.lower->expr == lp.upper->expr) {
            for (WhereTerm& t : plan.terms) {
              if (!t.from_between && t.expr == lp.lower->expr) t.coded = true;
            }
          }
          break;
        case AccessKind::kVirtual:  // handled above
          break;
      }
    }
    ready |= SourceMask(1) << lp.src;
    CodeLevelTerms(w, li, src, ready, &lv);
    w->levels.push_back(lv);
  }
  // Anything left (should not happen) is tested in the innermost loop.
  int cont = w->levels.empty() ? w->break_label : w->levels.back().cont;
  for (WhereTerm& t : plan.terms) {
    if (t.disabled || t.coded) continue;
    CodeJumpIf(t.expr, cont, false, true);
    t.coded = true;
  }
  w->continue_label = cont;
  if (w->levels.empty()) {
    // No FROM clause: the body runs once.
    w->continue_label = w->break_label;
  }
  return !ctx_->failed();
}

// A source with no B-tree of its own: a co-routine (each Yield delivers the
// next row in registers) or a materialized subquery, view or CTE (a scan of
// its temporary table).
void Codegen::CodeSubquerySourceLoop(const Source& src, LevelState* lv) {
  if (std::find(one_row_cursors_.begin(), one_row_cursors_.end(), src.cursor) !=
      one_row_cursors_.end()) {
    // A recursive CTE's current row, in registers: one pass, no cursor.
    lv->top = prog_->pc();
    lv->next_op = Opcode::kNoop;
    lv->next_cursor = 0;
    return;
  }
  if (coroutines_.count(src.cursor)) {
    lv->top = prog_->pc();
    Op(Opcode::kYield, coroutines_[src.cursor].first, lv->brk);
    lv->next_op = Opcode::kGoto;
    lv->next_cursor = 0;
    return;
  }
  Op(Opcode::kRewind, src.cursor, lv->brk);
  lv->top = prog_->pc();
  lv->next_op = Opcode::kNext;
  lv->next_cursor = src.cursor;
}

// Opens the table cursor (unless a covering index replaces it) and the
// index cursor of the level's plan.
void Codegen::OpenLevelCursors(const LoopPlan& lp, const Source& src, LevelState* lv) {
  const Table* tab = src.table;
  if (lp.index != nullptr && lp.index->is_table_store()) {
    // A WITHOUT ROWID table read through its primary key: the table cursor
    // is the index cursor.
    OpenTableCursor(Opcode::kOpenRead, tab, src.cursor);
    lv->index_cursor = src.cursor;
    return;
  }
  bool need_table = !(lp.index != nullptr && lp.covering);
  if (need_table) {
    OpenTableCursor(src.cursor == dml_write_cursor_ ? Opcode::kOpenWrite : Opcode::kOpenRead, tab,
                    src.cursor);
  }
  if (lp.index != nullptr) {
    lv->index_cursor = ctx_->AllocCursor();
    prog_->n_cursors = std::max(prog_->n_cursors, ctx_->n_cursors);
    CursorInfo* ici = prog_->arena.New<CursorInfo>();
    ici->key_info = &lp.index->key_info;
    ici->n_columns = lp.index->n_fields();
    int a = Op(Opcode::kOpenRead, lv->index_cursor, static_cast<int>(lp.index->root),
               lp.index->table->db());
    prog_->SetP4(a, ici);
    if (lp.covering) {
      substs_.push_back({src.cursor, lv->index_cursor, lp.index});
    }
  }
}

// Every row of the table, or every entry of the index (then the table row
// of each entry unless the index covers the query).
void Codegen::CodeFullScan(const LoopPlan& lp, const Source& src, LevelState* lv) {
  int cursor = lp.index != nullptr ? lv->index_cursor : src.cursor;
  Op(lp.reverse ? Opcode::kLast : Opcode::kRewind, cursor, lv->brk);
  lv->top = prog_->pc();
  lv->next_op = lp.reverse ? Opcode::kPrev : Opcode::kNext;
  lv->next_cursor = cursor;
  lv->full_scan = lp.index == nullptr || lp.index->is_table_store();
  if (lp.index != nullptr && !lp.covering) SeekTableRow(lp.index, src, lv);
}

// Moves the table cursor to the row of the index entry the index cursor is
// on. P5 = 1: that row must exist (else the file is corrupt).
void Codegen::SeekTableRow(const Index* idx, const Source& src, LevelState* lv) {
  const Table* tab = src.table;
  if (tab->without_rowid) {
    // The primary key stored in the entry leads to the row.
    int key = AllocReg(tab->n_pk());
    CodeRowKeyFromIndex(idx, lv->index_cursor, key);
    int a = Op(Opcode::kNotFound, src.cursor, lv->cont, key);
    prog_->SetP4Int(a, tab->n_pk());
    return;
  }
  int r = AllocReg();
  Op(Opcode::kIdxRowid, lv->index_cursor, r);
  prog_->at(Op(Opcode::kSeekRowid, src.cursor, lv->cont, r)).p5 = 1;
}

// rowid = x, or rowid IN (...): one lookup per value.
void Codegen::CodeRowidLookup(const LoopPlan& lp, const Source& src, LevelState* lv) {
  WhereTerm* t = lp.eq[0];
  int seek_fail = lv->brk;  // where a failed lookup goes
  int r;
  if (t->op == TermOp::kIn) {
    int has_null;
    int inc = CodeInListIndex(t->rhs, &has_null, 'D', nullptr);
    Op(Opcode::kRewind, inc, lv->brk);
    int in_top = prog_->pc();
    r = AllocReg();
    Op(Opcode::kColumn, inc, 0, r);
    lv->in_cursors.push_back(inc);
    lv->in_tops.push_back(in_top);
    int in_next = MakeLabel();
    lv->in_nexts.push_back(in_next);
    seek_fail = in_next;
    lv->cont = in_next;
  } else {
    r = CodeExprTemp(t->rhs);
  }
  Op(Opcode::kSeekRowid, src.cursor, seek_fail, r);
  lv->top = prog_->pc();
  lv->next_op = Opcode::kNoop;
  t->coded = true;
}

// A range of rowids: seek to the first bound, test the other at the top of
// each iteration.
void Codegen::CodeRowidRange(const LoopPlan& lp, const Source& src, LevelState* lv) {
  int hi_reg = 0;
  if (lp.upper) {
    hi_reg = AllocReg();
    CodeExpr(lp.upper->rhs, hi_reg);
    Op(Opcode::kIsNull, hi_reg, lv->brk);
  }
  if (lp.reverse) {
    if (lp.upper) {
      int a = Op(lp.upper->op == TermOp::kLt ? Opcode::kSeekLT : Opcode::kSeekLE, src.cursor,
                 lv->brk, hi_reg);
      prog_->SetP4Int(a, 1);
    } else {
      Op(Opcode::kLast, src.cursor, lv->brk);
    }
  } else if (lp.lower) {
    int lo = AllocReg();
    CodeExpr(lp.lower->rhs, lo);
    Op(Opcode::kIsNull, lo, lv->brk);
    int a = Op(lp.lower->op == TermOp::kGt ? Opcode::kSeekGT : Opcode::kSeekGE, src.cursor, lv->brk,
               lo);
    prog_->SetP4Int(a, 1);
  } else {
    Op(Opcode::kRewind, src.cursor, lv->brk);
  }
  lv->top = prog_->pc();
  int rowid = AllocReg();
  if (!lp.reverse && lp.upper) {
    Op(Opcode::kRowid, src.cursor, rowid);
    int a = Op(lp.upper->op == TermOp::kLt ? Opcode::kGe : Opcode::kGt, rowid, lv->brk, hi_reg);
    prog_->at(a).p5 = AffBits('C') | kCmpJumpIfNull;
  }
  if (lp.reverse && lp.lower) {
    int lo = AllocReg();
    CodeExpr(lp.lower->rhs, lo);
    Op(Opcode::kRowid, src.cursor, rowid);
    int a = Op(lp.lower->op == TermOp::kGt ? Opcode::kLe : Opcode::kLt, rowid, lv->brk, lo);
    prog_->at(a).p5 = AffBits('C') | kCmpJumpIfNull;
  }
  lv->next_op = lp.reverse ? Opcode::kPrev : Opcode::kNext;
  lv->next_cursor = src.cursor;
}

// The terms that become testable at this level: for an outer join's inner
// source its ON terms first, then (RIGHT JOIN) the record of the match and
// (LEFT JOIN) the match flag; then the WHERE terms whose sources are all
// ready. Terms that apply to a RIGHT JOIN's result wait for its level:
// they see its rows matched or not.
void Codegen::CodeLevelTerms(WhereLoops* w, size_t li, const Source& src, SourceMask ready,
                             LevelState* lv) {
  std::vector<WhereTerm>& terms = w->plan.terms;
  const int self = w->plan.loops[li].src;
  const bool right = lv->rj_match >= 0;
  if (src.outer_nullable || right) {
    for (WhereTerm& t : terms) {
      if (t.disabled || t.coded || t.on_source != self) continue;
      CodeJumpIf(t.expr, lv->cont, false, true);
      t.coded = true;
    }
  }
  if (right) RecordRightJoinMatch(src, lv);
  if (src.outer_nullable) {
    lv->first_addr = prog_->pc();
    Op(Opcode::kInteger, 1, lv->match_reg);
  }
  if (right) {
    // The subroutine starts here; its end (WhereEnd) is the level's
    // continue point.
    Op(Opcode::kNull, 0, lv->rj_return);
    lv->rj_subr = prog_->pc();
    lv->rj_outer_cont = lv->cont;
    lv->cont = MakeLabel();
  }
  for (WhereTerm& t : terms) {
    if (t.disabled || t.coded) continue;
    if ((t.prereq & ~ready) != 0) continue;
    if (t.on_source >= 0 && t.on_source != self) continue;
    if (t.after_rj > self) continue;  // (FROM order: a source's level is its index)
    CodeJumpIf(t.expr, lv->cont, false, true);
    t.coded = true;
  }
}

void Codegen::WhereEnd(WhereLoops* w) {
  std::vector<Source>& srcs = *w->sources;
  for (size_t li = w->levels.size(); li-- > 0;) {
    LevelState& lv = w->levels[li];
    const Source& src = srcs[static_cast<size_t>(lv.src)];
    if (lv.rj_match >= 0) EndRightJoinSubroutine(&lv);
    if (lv.in_cursors.empty()) ResolveLabel(lv.cont);
    if (lv.next_op != Opcode::kNoop) {
      if (!lv.in_cursors.empty()) ResolveLabel(lv.cont);
      int next = Op(lv.next_op, lv.next_cursor, lv.top);
      if (lv.full_scan) prog_->at(next).p5 = kP5FullScanStep;
    }
    // IN loops: advance the innermost IN value, then the outer ones.
    for (size_t k = lv.in_cursors.size(); k-- > 0;) {
      ResolveLabel(lv.in_nexts[k]);
      Op(Opcode::kNext, lv.in_cursors[k], lv.in_tops[k]);
    }
    if (lv.brk != w->break_label) ResolveLabel(lv.brk);
    if (src.outer_nullable) {
      int done = MakeLabel();
      Op(Opcode::kIfPos, lv.match_reg, done, 0);
      Op(Opcode::kNullRow, lv.cursor);
      if (lv.index_cursor >= 0) Op(Opcode::kNullRow, lv.index_cursor);
      Op(Opcode::kGoto, 0, lv.first_addr);
      ResolveLabel(done);
    }
  }
  if (w->last_rj >= 0) {
    // The rows of each RIGHT JOIN's table that nothing matched, outermost
    // first (each pass may add matches for the inner ones).
    for (size_t li = 0; li < w->levels.size(); ++li) {
      if (w->levels[li].rj_match >= 0) CodeUnmatchedRows(w, li);
    }
  }
  ResolveLabel(w->break_label);
  substs_.resize(w->subst_mark);
}

}  // namespace basalt
