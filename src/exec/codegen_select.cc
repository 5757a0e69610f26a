// SELECT code generation: sources, the row pipeline (DISTINCT, ORDER BY,
// OFFSET, LIMIT), compound selects and VALUES.
#include <algorithm>

#include "exec/codegen_internal.h"
#include "parser/parser.h"

namespace basalt {

using ast::Expr;
using ast::ExprKind;
using ast::Select;

namespace {

void SetAffinityP4(Program* prog, int addr, const char* aff) {
  if (aff == nullptr) return;
  prog->SetP4Str(addr, aff);
}

// True when a and b always have the same value for a row: the same node,
// or references to the same column of the same cursor.
bool SameValueExpr(const Expr* a, const Expr* b) {
  if (a == b) return true;
  return a->kind == ExprKind::kResolvedColumn && b->kind == ExprKind::kResolvedColumn &&
         a->cursor == b->cursor && a->column == b->column && a->depth == b->depth && a->cursor >= 0;
}

// The ORDER BY key whose field holds result column c in the sink's sorter
// records (the first such key), or -1 when c is stored after the keys.
int SorterKeyOf(const RowSink& sink, int c) {
  for (size_t i = 0; i < sink.key_col.size(); ++i) {
    if (sink.key_col[i] == c) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

void Codegen::EmitToDest(SelectDest* dest, int regs, int n) {
  switch (dest->kind) {
    case SelectDest::kOutput:
      Op(Opcode::kResultRow, regs, n);
      break;
    case SelectDest::kCoroutine:
      if (regs != dest->reg) {
        for (int i = 0; i < n; ++i) Op(Opcode::kCopy, regs + i, dest->reg + i, 0);
      }
      if (dest->clear_subtype && n > 0) Op(Opcode::kClrSubtype, dest->reg, n);
      Op(Opcode::kYield, dest->yield_reg);
      break;
    case SelectDest::kRegs:
      if (regs != dest->reg) {
        for (int i = 0; i < n; ++i) Op(Opcode::kCopy, regs + i, dest->reg + i, 0);
      }
      if (pending_gosub_.first != 0)
        Op(Opcode::kGosub, pending_gosub_.first, pending_gosub_.second);
      break;
    case SelectDest::kKeyedTable: {
      int rec = AllocReg();
      Op(Opcode::kMakeRecord, regs + 1, n - 1, rec);
      Op(Opcode::kInsert, dest->cursor, rec, regs);
      break;
    }
    case SelectDest::kTable: {
      int rec = AllocReg(2);
      Op(Opcode::kMakeRecord, regs, n, rec);
      Op(Opcode::kNewRowid, dest->cursor, rec + 1);
      Op(Opcode::kInsert, dest->cursor, rec, rec + 1);
      break;
    }
    case SelectDest::kSet: {
      if (dest->has_null_reg) {
        for (int i = 0; i < n; ++i) {
          int nn = MakeLabel();
          Op(Opcode::kNotNull, regs + i, nn);
          Op(Opcode::kInteger, 1, dest->has_null_reg);
          ResolveLabel(nn);
        }
      }
      int rec = AllocReg();
      int a = Op(Opcode::kMakeRecord, regs, n, rec);
      SetAffinityP4(prog_, a, dest->affinity);
      Op(Opcode::kIdxInsert, dest->cursor, rec);
      break;
    }
    case SelectDest::kExcept:
      Op(Opcode::kIdxDelete, dest->cursor, regs, n);
      break;
    case SelectDest::kIntersect: {
      // The row kept is the left side's (equal under a collation is not
      // always the same text): the entry NotFound left the cursor on.
      int skip = MakeLabel();
      int a = Op(Opcode::kNotFound, dest->cursor2, skip, regs);
      prog_->SetP4Int(a, n);
      int left = AllocReg(n);
      for (int c = 0; c < n; ++c) Op(Opcode::kColumn, dest->cursor2, c, left + c);
      int rec = AllocReg();
      Op(Opcode::kMakeRecord, left, n, rec);
      Op(Opcode::kIdxInsert, dest->cursor, rec);
      ResolveLabel(skip);
      break;
    }
    case SelectDest::kScalar:
      for (int i = 0; i < n && i < std::max(dest->n_columns, 1); ++i) {
        Op(Opcode::kCopy, regs + i, dest->reg + i, 0);
      }
      Op(Opcode::kGoto, 0, dest->label);
      break;
    case SelectDest::kExists:
      Op(Opcode::kInteger, 1, dest->reg);
      Op(Opcode::kGoto, 0, dest->label);
      break;
    case SelectDest::kDiscard:
      break;
  }
}

void Codegen::CodeLimit(Select* s, int* limit_reg, int* offset_reg, int end_label) {
  *limit_reg = 0;
  *offset_reg = 0;
  if (s->limit == nullptr) return;
  *limit_reg = AllocReg();
  CodeExpr(s->limit, *limit_reg);
  Op(Opcode::kMustBeInt, *limit_reg, 0);
  // LIMIT 0 produces nothing.
  Op(Opcode::kIfNot, *limit_reg, end_label, 0);
  if (s->offset != nullptr) {
    *offset_reg = AllocReg();
    CodeExpr(s->offset, *offset_reg);
    Op(Opcode::kMustBeInt, *offset_reg, 0);
  }
}

// Sources that are subqueries, views or CTEs: the outermost loop's one runs
// as a co-routine that yields rows on demand (so an outer LIMIT can stop an
// unbounded recursive CTE); the others are materialized into temporary tables.
bool Codegen::MaterializeSources(SelectInfo* info, int coroutine_src) {
  for (size_t si = 0; si < info->sources.size(); ++si) {
    Source& src = info->sources[si];
    bool as_coroutine = static_cast<int>(si) == coroutine_src && src.table == nullptr &&
                        src.cte > -2 && in_trigger_ == 0;
    if (as_coroutine && src.cte >= 0) {
      CteEntry* ce = resolver_.all_ctes()[static_cast<size_t>(src.cte)];
      as_coroutine = ce->refs == 1;
      // With the pass off only a recursive CTE still runs as a co-routine:
      // an outer LIMIT is all that may bound it.
      if (!ctx_->options.PassOn(Pass::kCoroutine)) as_coroutine &= ce->recursive;
    } else if (as_coroutine && !ctx_->options.PassOn(Pass::kCoroutine)) {
      as_coroutine = false;
    }
    if (as_coroutine) {
      int ncols = static_cast<int>(src.columns.size());
      int yield_reg = AllocReg();
      int base = AllocReg(ncols > 0 ? ncols : 1);
      int body = MakeLabel();
      int after = MakeLabel();
      Op(Opcode::kInitCoroutine, yield_reg, after, body);
      ResolveLabel(body);
      SelectDest d;
      d.kind = SelectDest::kCoroutine;
      // Values leave a FROM subquery without their subtypes (as in SQLite,
      // where a materialized row could not keep them either); only a row
      // that may hold one pays for the clearing.
      Select* arms = src.cte >= 0 ? resolver_.all_ctes()[static_cast<size_t>(src.cte)]->cte->select
                                  : src.subquery;
      for (Select* p = arms; p != nullptr && !d.clear_subtype; p = p->prior) {
        const SelectInfo* pi = InfoOf(p);
        ast::ExprList* cols = pi != nullptr && pi->result != nullptr ? pi->result : p->columns;
        for (size_t c = 0; cols != nullptr && c < cols->size() && !d.clear_subtype; ++c) {
          d.clear_subtype = Resolver::MayHaveSubtype((*cols)[c]);
        }
        for (ast::ExprList* row : p->values) {
          for (size_t c = 0; c < row->size() && !d.clear_subtype; ++c) {
            d.clear_subtype = Resolver::MayHaveSubtype((*row)[c]);
          }
        }
      }
      d.reg = base;
      d.yield_reg = yield_reg;
      std::string what =
          src.cte >= 0 ? std::string(resolver_.all_ctes()[static_cast<size_t>(src.cte)]->cte->name)
                       : std::string(src.name);
      {
        EqpScope eqp_scope(this, Eqp("CO-ROUTINE " + what));
        if (src.cte >= 0) {
          CteEntry* ce = resolver_.all_ctes()[static_cast<size_t>(src.cte)];
          if (!CodeCte(ce, &d)) return false;
        } else if (!CodeSelect(src.subquery, &d)) {
          return false;
        }
      }
      Op(Opcode::kEndCoroutine, yield_reg);
      ResolveLabel(after);
      coroutines_[src.cursor] = {yield_reg, base};
      for (int c = 0; c < ncols; ++c) redirects_.push_back({src.cursor, c, base + c});
      continue;
    }
    if (src.cte >= 0) {
      CteEntry* ce = resolver_.all_ctes()[static_cast<size_t>(src.cte)];
      if (cte_done_regs_.size() <= static_cast<size_t>(src.cte)) {
        cte_done_regs_.resize(static_cast<size_t>(src.cte) + 1, 0);
      }
      // A body that reads an outer query's columns is rebuilt at each use;
      // any other is built once per run.
      bool correlated = false;
      for (Select* p = ce->cte->select; p; p = p->prior) {
        if (SelectInfo* si = InfoOf(p)) correlated |= si->correlated;
      }
      int& done_reg = cte_done_regs_[static_cast<size_t>(src.cte)];
      if (done_reg == 0) done_reg = AllocReg();
      int skip = MakeLabel();
      if (!correlated) Op(Opcode::kIfPos, done_reg, skip, 0);
      {
        EqpScope eqp_scope(this, Eqp("MATERIALIZE " + std::string(ce->cte->name)));
        if (!CodeCte(ce, nullptr)) return false;
      }
      Op(Opcode::kInteger, 1, done_reg);
      ResolveLabel(skip);
      Op(Opcode::kOpenDup, src.cursor, ce->cursor);
      continue;
    }
    if (src.cte <= -2) {
      // The recursive CTE's current row: a one-row table kept by CodeCte.
      CteEntry* ce = resolver_.all_ctes()[static_cast<size_t>(-2 - src.cte)];
      recursive_refs_.push_back({src.cursor, ce->id});
      auto held = cte_row_regs_.find(ce->id);
      if (held != cte_row_regs_.end()) {
        one_row_cursors_.push_back(src.cursor);
        for (int c = 0; c < static_cast<int>(src.columns.size()); ++c) {
          redirects_.push_back({src.cursor, c, held->second + c});
        }
        continue;
      }
      Op(Opcode::kOpenDup, src.cursor, ce->queue_cursor + 0);
      continue;
    }
    if (src.subquery == nullptr) continue;
    EqpScope eqp_scope(this, Eqp("MATERIALIZE " + std::string(src.name)));
    bool correlated = in_trigger_ > 0;
    for (Select* p = src.subquery; p; p = p->prior) correlated |= InfoOf(p)->correlated;
    int skip = MakeLabel();
    if (!correlated && SubqueryOnce()) Op(Opcode::kOnce, 0, skip);
    int ncols = static_cast<int>(src.columns.size());
    Op(Opcode::kOpenEphemeral, src.cursor, ncols);
    SelectDest dest;
    dest.kind = SelectDest::kTable;
    dest.cursor = src.cursor;
    if (!CodeSelect(src.subquery, &dest)) return false;
    ResolveLabel(skip);
  }
  return !ctx_->failed();
}

bool Codegen::CodeSelect(Select* s, SelectDest* dest) {
  if (ctx_->failed()) return false;
  if (s->prior != nullptr) return CodeCompound(s, dest);
  return CodeSimpleSelect(s, dest);
}

bool Codegen::CodeValues(Select* s, SelectDest* dest) {
  SelectInfo* info = InfoOf(s);
  int n = static_cast<int>(info->result->size());
  int end = MakeLabel();
  int limit_reg, offset_reg;
  CodeLimit(s, &limit_reg, &offset_reg, end);
  int regs = AllocReg(n);
  for (ast::ExprList* row : s->values) {
    int skip = MakeLabel();
    for (int i = 0; i < n; ++i) CodeExpr((*row)[static_cast<size_t>(i)], regs + i);
    if (offset_reg) Op(Opcode::kIfPos, offset_reg, skip, 1);
    EmitToDest(dest, regs, n);
    if (limit_reg) Op(Opcode::kDecrJumpZero, limit_reg, end);
    ResolveLabel(skip);
  }
  ResolveLabel(end);
  return !ctx_->failed();
}

// The part of the row pipeline run for each produced row.
void Codegen::SinkRow(RowSink* sink, int regs, const std::vector<int>& order_regs) {
  int skip = MakeLabel();
  int n = sink->n_result;
  if (sink->distinct_cursor >= 0) {
    int a = Op(Opcode::kFound, sink->distinct_cursor, skip, regs);
    prog_->SetP4Int(a, n);
    int rec = AllocReg();
    Op(Opcode::kMakeRecord, regs, n, rec);
    Op(Opcode::kIdxInsert, sink->distinct_cursor, rec);
  }
  if (sink->sorter_cursor >= 0) {
    // The record: the keys, then the result columns no key holds already.
    // Shallow copies: MakeRecord reads them before anything changes.
    // When the values already sit in consecutive registers in that order,
    // the record is made from them in place.
    int m = sink->n_order;
    std::vector<int> src(order_regs.begin(), order_regs.begin() + m);
    for (int c = 0; c < n; ++c) {
      if (SorterKeyOf(*sink, c) < 0) src.push_back(regs + c);
    }
    const int k = static_cast<int>(src.size());
    bool in_place = true;
    for (int j = 1; j < k; ++j) in_place = in_place && src[j] == src[0] + j;
    int rec = AllocReg(in_place ? 1 : k + 1);
    int first = in_place && k > 0 ? src[0] : rec;
    if (!in_place) {
      for (int j = 0; j < k; ++j) Op(Opcode::kSCopy, src[static_cast<size_t>(j)], rec + j);
    }
    int out = in_place ? rec : rec + k;
    Op(Opcode::kMakeRecord, first, k, out);
    Op(Opcode::kSorterInsert, sink->sorter_cursor, out);
  } else {
    if (sink->offset_reg) Op(Opcode::kIfPos, sink->offset_reg, skip, 1);
    EmitToDest(sink->dest, regs, n);
    if (sink->limit_reg) Op(Opcode::kDecrJumpZero, sink->limit_reg, sink->end_label);
  }
  ResolveLabel(skip);
}

// A bounded sorter whose result columns are plain columns and constants:
// the ORDER BY keys are computed first, and a row the sorter would drop
// skips the rest (reading its other columns, building its record). Without
// side effects in the skipped expressions nothing else can tell. Not with
// DISTINCT: a dropped row must still be remembered as seen.
bool Codegen::ProduceBoundedRow(RowSink* sink, SelectInfo* info, ast::ExprList* order_by) {
  if (!sink->bounded || sink->distinct_cursor >= 0 || order_by == nullptr) return false;
  int n = sink->n_result;
  for (int c = 0; c < n; ++c) {
    switch ((*info->result)[static_cast<size_t>(c)]->kind) {
      case ExprKind::kResolvedColumn:
      case ExprKind::kInteger:
      case ExprKind::kReal:
      case ExprKind::kString:
      case ExprKind::kBlob:
      case ExprKind::kNull:
      case ExprKind::kParam:
        break;
      default:
        return false;
    }
  }
  int m = static_cast<int>(order_by->size());
  int key = AllocReg(m);
  std::vector<int> from_key(static_cast<size_t>(n), -1);  // result column = key field
  std::vector<int> order_regs;
  for (int i = 0; i < m; ++i) {
    Expr* e = (*order_by)[static_cast<size_t>(i)];
    CodeExpr(e, key + i);
    order_regs.push_back(key + i);
    for (int c = 0; c < n; ++c) {
      if ((*info->result)[static_cast<size_t>(c)] == e ||
          (!sink->key_col.empty() && sink->key_col[static_cast<size_t>(i)] == c)) {
        from_key[static_cast<size_t>(c)] = i;
      }
    }
  }
  int drop = MakeLabel();
  int a = Op(Opcode::kSorterCheck, sink->sorter_cursor, drop, key);
  prog_->SetP4Int(a, m);
  int regs = AllocReg(n);
  for (int c = 0; c < n; ++c) {
    int k = from_key[static_cast<size_t>(c)];
    if (k >= 0) {
      Op(Opcode::kCopy, key + k, regs + c, 0);
    } else {
      CodeExpr((*info->result)[static_cast<size_t>(c)], regs + c);
    }
  }
  SinkRow(sink, regs, order_regs);
  ResolveLabel(drop);
  return true;
}

// Computes the result columns and ORDER BY keys of one row and sinks it.
void Codegen::ProduceRow(RowSink* sink, SelectInfo* info, ast::ExprList* order_by) {
  if (WindowFeedRow(info)) return;  // window functions: the rows go through their stages
  if (ProduceBoundedRow(sink, info, order_by)) return;
  int n = sink->n_result;
  int regs = AllocReg(n);
  for (int i = 0; i < n; ++i) CodeExpr((*info->result)[static_cast<size_t>(i)], regs + i);
  std::vector<int> order_regs;
  if (sink->sorter_cursor >= 0) {
    for (size_t i = 0; i < order_by->size(); ++i) {
      int c = sink->key_col.empty() ? -1 : sink->key_col[i];
      if (c >= 0) {
        order_regs.push_back(regs + c);
      } else {
        int r = AllocReg();
        CodeExpr((*order_by)[i], r);
        order_regs.push_back(r);
      }
    }
  }
  SinkRow(sink, regs, order_regs);
}

// After the loops: read the sorter back in order.
void Codegen::DrainSorter(RowSink* sink) {
  int m = sink->n_order;
  int n = sink->n_result;
  int done = sink->end_label;
  Op(Opcode::kSorterSort, sink->sorter_cursor, done);
  int top = prog_->pc();
  int next = MakeLabel();
  int regs = AllocReg(n);
  if (sink->offset_reg) Op(Opcode::kIfPos, sink->offset_reg, next, 1);
  int k = m;
  for (int c = 0; c < n; ++c) {
    int key = SorterKeyOf(*sink, c);
    Op(Opcode::kColumn, sink->sorter_cursor, key >= 0 ? key : k++, regs + c);
  }
  EmitToDest(sink->dest, regs, n);
  if (sink->limit_reg) Op(Opcode::kDecrJumpZero, sink->limit_reg, done);
  ResolveLabel(next);
  Op(Opcode::kSorterNext, sink->sorter_cursor, top);
}

KeyInfo* Codegen::OrderKeyInfo(ast::ExprList* order_by) {
  KeyInfo* ki = MakeKeyInfo(static_cast<int>(order_by->size()));
  for (size_t i = 0; i < order_by->size(); ++i) {
    const_cast<const Collation**>(ki->colls)[i] = resolver_.ExprCollation((*order_by)[i]);
    const_cast<uint8_t*>(ki->desc)[i] = order_by->items[i].order == ast::SortOrder::kDesc ? 1 : 0;
  }
  return ki;
}

void Codegen::EmitSinkEqp(RowSink* sink) {
  for (const char* line : sink->eqp_after_loops) Eqp(line);
  sink->eqp_after_loops.clear();
}

bool Codegen::SetupSink(Select* s, SelectInfo* info, SelectDest* dest, RowSink* sink,
                        bool order_satisfied) {
  sink->dest = dest;
  sink->n_result = static_cast<int>(info->result->size());
  sink->end_label = MakeLabel();
  CodeLimit(s, &sink->limit_reg, &sink->offset_reg, sink->end_label);
  if (info->win != nullptr) PrepareWindows(s, info);
  if (s->distinct) {
    sink->eqp_after_loops.push_back("USE TEMP B-TREE FOR DISTINCT");
    sink->distinct_cursor = ctx_->AllocCursor();
    KeyInfo* ki = MakeKeyInfo(sink->n_result);
    for (int i = 0; i < sink->n_result; ++i) {
      const_cast<const Collation**>(ki->colls)[i] =
          resolver_.ExprCollation((*info->result)[static_cast<size_t>(i)]);
    }
    int a = Op(Opcode::kOpenEphemeral, sink->distinct_cursor, sink->n_result);
    prog_->SetP4(a, ki);
  }
  if (s->order_by != nullptr && !order_satisfied && dest->kind != SelectDest::kExists) {
    sink->eqp_after_loops.push_back("USE TEMP B-TREE FOR ORDER BY");
    sink->order_by = s->order_by;
    sink->n_order = static_cast<int>(s->order_by->size());
    sink->sorter_cursor = ctx_->AllocCursor();
    sink->key_col.assign(static_cast<size_t>(sink->n_order), -1);
    for (int i = 0; i < sink->n_order; ++i) {
      Expr* e = (*s->order_by)[static_cast<size_t>(i)];
      for (int c = 0; c < sink->n_result; ++c) {
        if (SameValueExpr((*info->result)[static_cast<size_t>(c)], e)) {
          sink->key_col[static_cast<size_t>(i)] = c;
        }
      }
    }
    int a = Op(Opcode::kSorterOpen, sink->sorter_cursor, sink->n_order + sink->n_result);
    prog_->SetP4(a, OrderKeyInfo(s->order_by));
    // With LIMIT the sorter keeps only the rows that can be output (not
    // with window functions, whose stages feed the sorter themselves).
    if (sink->limit_reg && info->win == nullptr) {
      Op(Opcode::kSorterLimit, sink->sorter_cursor, sink->limit_reg, sink->offset_reg);
      sink->bounded = true;
    }
  }
  return true;
}

bool Codegen::CodeSimpleSelect(Select* s, SelectDest* dest) {
  SelectInfo* info = InfoOf(s);
  if (s->values.size() > 0) return CodeValues(s, dest);
  WhereLoops w;
  std::vector<std::vector<bool>> used;
  UsedColumns(s, &info->sources, &used);
  // With aggregates ORDER BY sorts rows made later; with window functions
  // the scan is asked for the order of the first window computed, as
  // SQLite's planner is (the order of rows tied on that window's keys).
  ast::ExprList* minmax_order = info->agg != nullptr ? MinMaxOrder(s, info) : nullptr;
  ast::ExprList* plan_order = info->agg != nullptr   ? minmax_order
                              : info->win != nullptr ? WindowScanOrder(info)
                                                     : s->order_by;
  if (!PlanLoops(&w, &info->sources, s->where, plan_order, nullptr, &used,
                 minmax_order != nullptr)) {
    return false;
  }
  int coroutine_src = w.plan.loops.empty() ? -1 : w.plan.loops[0].src;
  // The unmatched rows of a RIGHT JOIN need the left sources' null rows,
  // which a co-routine does not have.
  for (const Source& src : info->sources) {
    if ((src.join & ast::kJoinRight) != 0) coroutine_src = -1;
  }
  if (!MaterializeSources(info, coroutine_src)) return false;
  if (info->agg != nullptr) {
    RowSink sink;
    return CodeAggregateSelect(s, info, dest, &sink, &w, minmax_order);
  }
  RowSink sink;
  SetupSink(s, info, dest, &sink,
            w.plan.order_by_satisfied && !s->distinct && info->win == nullptr);
  if (!WhereBegin(&w)) return false;
  EmitSinkEqp(&sink);
  ProduceRow(&sink, info, s->order_by);
  WhereEnd(&w);
  CodeWindowStages(&sink, info, s->order_by);
  if (sink.sorter_cursor >= 0) DrainSorter(&sink);
  ResolveLabel(sink.end_label);
  return !ctx_->failed();
}

// ---- compound SELECT ---------------------------------------------------------

// A compound SELECT. All UNION ALL without ORDER BY/LIMIT: the arms go to
// the destination one after the other. Otherwise the rows accumulate in a
// temporary index (set operations) or table (UNION ALL), which is then read
// back through ORDER BY and LIMIT.
bool Codegen::CodeCompound(Select* last, SelectDest* dest) {
  std::vector<Select*> arms;
  for (Select* p = last; p; p = p->prior) arms.push_back(p);
  std::reverse(arms.begin(), arms.end());
  Select* first = arms[0];
  SelectInfo* finfo = InfoOf(first);
  int n = static_cast<int>(finfo->result->size());
  bool all_union_all = true;
  for (size_t i = 1; i < arms.size(); ++i) {
    all_union_all &= arms[i]->op == ast::CompoundOp::kUnionAll;
  }
  EqpScope compound_scope(this, Eqp("COMPOUND QUERY"));
  if (all_union_all && last->order_by == nullptr && last->limit == nullptr) {
    for (size_t i = 0; i < arms.size(); ++i) {
      EqpScope arm_scope(this, CompoundArmEqp(arms[i], i == 0));
      if (!CodeSimpleSelectArm(arms[i], dest)) return false;
    }
    return !ctx_->failed();
  }
  // Collations per column: the first arm whose column has one.
  KeyInfo* ki = MakeKeyInfo(n);
  for (int c = 0; c < n; ++c) {
    for (Select* arm : arms) {
      const Collation* coll =
          resolver_.ExprCollation((*InfoOf(arm)->result)[static_cast<size_t>(c)]);
      if (coll) {
        const_cast<const Collation**>(ki->colls)[c] = coll;
        break;
      }
    }
  }
  int acc = ctx_->AllocCursor();
  int a = Op(Opcode::kOpenEphemeral, acc, n);
  if (!all_union_all) prog_->SetP4(a, ki);
  SelectDest arm_dest;
  arm_dest.cursor = acc;
  for (size_t i = 0; i < arms.size(); ++i) {
    Select* arm = arms[i];
    EqpScope arm_scope(this, CompoundArmEqp(arm, i == 0));
    if (all_union_all) {
      arm_dest.kind = SelectDest::kTable;
      if (!CodeSimpleSelectArm(arm, &arm_dest)) return false;
      continue;
    }
    ast::CompoundOp op = i == 0 ? ast::CompoundOp::kUnion : arm->op;
    if (!CodeCompoundArm(arm, op, n, ki, &acc, &arm_dest)) return false;
  }
  acc_is_table_ = false;
  ReadCompoundResult(last, dest, acc, n, ki);
  return !ctx_->failed();
}

// The EXPLAIN QUERY PLAN line of one arm.
int Codegen::CompoundArmEqp(Select* arm, bool leftmost) {
  if (leftmost) return Eqp("LEFT-MOST SUBQUERY");
  switch (arm->op) {
    case ast::CompoundOp::kUnionAll:
      return Eqp("UNION ALL");
    case ast::CompoundOp::kUnion:
      return Eqp("UNION USING TEMP B-TREE");
    case ast::CompoundOp::kExcept:
      return Eqp("EXCEPT USING TEMP B-TREE");
    case ast::CompoundOp::kIntersect:
    case ast::CompoundOp::kNone:
      break;
  }
  return Eqp("INTERSECT USING TEMP B-TREE");
}

// One arm of a compound with set operations, combined into the accumulator
// *acc (which an INTERSECT or a UNION ALL replaces).
bool Codegen::CodeCompoundArm(Select* arm, ast::CompoundOp op, int n, KeyInfo* ki, int* acc,
                              SelectDest* arm_dest) {
  // Set operations need the accumulator as an index.
  if (acc_is_table_ && op != ast::CompoundOp::kUnionAll && op != ast::CompoundOp::kNone) {
    *acc = ConvertTableToIndex(*acc, n, ki);
    arm_dest->cursor = *acc;
    acc_is_table_ = false;
  }
  switch (op) {
    case ast::CompoundOp::kUnionAll:
      return CodeUnionAllAfterSet(arm, n, acc, arm_dest);
    case ast::CompoundOp::kUnion:
      arm_dest->kind = SelectDest::kSet;
      return CodeSimpleSelectArm(arm, arm_dest);
    case ast::CompoundOp::kExcept:
      arm_dest->kind = SelectDest::kExcept;
      arm_dest->cursor = *acc;
      return CodeSimpleSelectArm(arm, arm_dest);
    case ast::CompoundOp::kIntersect: {
      int out = ctx_->AllocCursor();
      int a = Op(Opcode::kOpenEphemeral, out, n);
      prog_->SetP4(a, ki);
      arm_dest->kind = SelectDest::kIntersect;
      arm_dest->cursor = out;
      arm_dest->cursor2 = *acc;
      if (!CodeSimpleSelectArm(arm, arm_dest)) return false;
      *acc = out;
      arm_dest->cursor = *acc;
      return true;
    }
    case ast::CompoundOp::kNone:
      break;
  }
  return true;
}

// UNION ALL after a set operation: duplicates must survive, so the set
// accumulated so far moves into a table, which then takes the arm's rows and
// serves as the accumulator (a later set operation converts it back).
bool Codegen::CodeUnionAllAfterSet(Select* arm, int n, int* acc, SelectDest* arm_dest) {
  int tab = ctx_->AllocCursor();
  Op(Opcode::kOpenEphemeral, tab, n);
  int rdone = MakeLabel();
  Op(Opcode::kRewind, *acc, rdone);
  int top = prog_->pc();
  int regs = AllocReg(n);
  for (int c = 0; c < n; ++c) Op(Opcode::kColumn, *acc, c, regs + c);
  SelectDest td;
  td.kind = SelectDest::kTable;
  td.cursor = tab;
  EmitToDest(&td, regs, n);
  Op(Opcode::kNext, *acc, top);
  ResolveLabel(rdone);
  if (!CodeSimpleSelectArm(arm, &td)) return false;
  acc_is_table_ = true;
  *acc = tab;
  arm_dest->cursor = *acc;
  return true;
}

// Reads the accumulated rows back, through ORDER BY and LIMIT.
void Codegen::ReadCompoundResult(Select* last, SelectDest* dest, int acc, int n,
                                 const KeyInfo* ki) {
  RowSink sink;
  sink.dest = dest;
  sink.n_result = n;
  sink.end_label = MakeLabel();
  CodeLimit(last, &sink.limit_reg, &sink.offset_reg, sink.end_label);
  ast::ExprList* order = last->order_by;
  if (order != nullptr) {
    sink.order_by = order;
    sink.n_order = static_cast<int>(order->size());
    sink.sorter_cursor = ctx_->AllocCursor();
    KeyInfo* oki = MakeKeyInfo(sink.n_order);
    for (int i = 0; i < sink.n_order; ++i) {
      Expr* e = (*order)[static_cast<size_t>(i)];
      int col = e->column;
      const Collation* coll =
          (e->pflags & 0x02) ? static_cast<const Collation*>(e->aux) : ki->colls[col];
      const_cast<const Collation**>(oki->colls)[i] = coll;
      const_cast<uint8_t*>(oki->desc)[i] =
          order->items[static_cast<size_t>(i)].order == ast::SortOrder::kDesc ? 1 : 0;
    }
    int a = Op(Opcode::kSorterOpen, sink.sorter_cursor, sink.n_order + n);
    prog_->SetP4(a, oki);
    if (sink.limit_reg)
      Op(Opcode::kSorterLimit, sink.sorter_cursor, sink.limit_reg, sink.offset_reg);
  }
  int rdone = MakeLabel();
  Op(Opcode::kRewind, acc, rdone);
  int top = prog_->pc();
  int regs = AllocReg(n);
  for (int c = 0; c < n; ++c) Op(Opcode::kColumn, acc, c, regs + c);
  std::vector<int> order_regs;
  if (order != nullptr) {
    for (int i = 0; i < sink.n_order; ++i) {
      int c = (*order)[static_cast<size_t>(i)]->column;
      order_regs.push_back(regs + c);
      sink.key_col.push_back(c);
    }
  }
  SinkRow(&sink, regs, order_regs);
  Op(Opcode::kNext, acc, top);
  ResolveLabel(rdone);
  if (sink.sorter_cursor >= 0) DrainSorter(&sink);
  ResolveLabel(sink.end_label);
}

int Codegen::ConvertTableToIndex(int table_cursor, int n, KeyInfo* ki) {
  int idx = ctx_->AllocCursor();
  int a = Op(Opcode::kOpenEphemeral, idx, n);
  prog_->SetP4(a, ki);
  int done = MakeLabel();
  Op(Opcode::kRewind, table_cursor, done);
  int top = prog_->pc();
  int regs = AllocReg(n + 1);
  for (int c = 0; c < n; ++c) Op(Opcode::kColumn, table_cursor, c, regs + c);
  Op(Opcode::kMakeRecord, regs, n, regs + n);
  Op(Opcode::kIdxInsert, idx, regs + n);
  Op(Opcode::kNext, table_cursor, top);
  ResolveLabel(done);
  return idx;
}

// One arm of a compound: a simple select without the compound's ORDER BY and
// LIMIT (those are on the last arm's node and apply to the whole).
bool Codegen::CodeSimpleSelectArm(Select* arm, SelectDest* dest) {
  ast::ExprList* order = arm->order_by;
  Expr* limit = arm->limit;
  Expr* offset = arm->offset;
  Select* prior = arm->prior;
  if (prior != nullptr) {
    arm->order_by = nullptr;
    arm->limit = nullptr;
    arm->offset = nullptr;
  }
  arm->prior = nullptr;
  bool ok = CodeSimpleSelect(arm, dest);
  arm->prior = prior;
  arm->order_by = order;
  arm->limit = limit;
  arm->offset = offset;
  return ok;
}

}  // namespace basalt
