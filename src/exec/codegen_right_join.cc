// RIGHT and FULL OUTER JOIN in the nested loops.
//
// The loops run in FROM order. At the level of a table joined by RIGHT (or
// FULL) JOIN, each row that satisfies the ON terms is recorded by its key
// (rowid set or ephemeral index); the inner levels and the body form a subroutine
// that the main loops run in line. After the main loops, each row of the
// table whose key was never recorded runs the subroutine again (Gosub) with
// every table to its left on its null row. The WHERE terms of the levels
// left of the join are coded inside the subroutine, so they apply to the
// unmatched rows too and never hide a match (CodeLevelTerms).
#include "exec/codegen_internal.h"

#include <algorithm>

namespace basalt {

void Codegen::OpenRightJoinSets(WhereLoops* w) {
  std::vector<Source>& srcs = *w->sources;
  const std::vector<LoopPlan>& loops = w->plan.loops;
  w->last_rj = -1;
  for (size_t li = 0; li < loops.size(); ++li) {
    if ((srcs[static_cast<size_t>(loops[li].src)].join & ast::kJoinRight) != 0) {
      w->last_rj = static_cast<int>(li);
    }
  }
  if (w->last_rj < 0) return;
  w->loops_end = MakeLabel();
  w->rj_sets.assign(loops.size(), -1);
  for (size_t li = 0; li < loops.size(); ++li) {
    const Source& src = srcs[static_cast<size_t>(loops[li].src)];
    if ((src.join & ast::kJoinRight) == 0) continue;
    int cursor;
    if (RightJoinKeyIsRowid(src)) {
      cursor = ctx_->AllocCursor();
      Op(Opcode::kOpenRowSet, cursor);
    } else {
      cursor = OpenRowKeySet(src.table);  // primary keys, in key order
    }
    prog_->n_cursors = std::max(prog_->n_cursors, ctx_->n_cursors);
    w->rj_sets[li] = cursor;
  }
}

// A row is known by its rowid, or by the primary key of a WITHOUT ROWID
// table; a materialized subquery's rows have rowids of their own. Rowids
// are kept in an in-memory integer set, keys in an ephemeral index.
bool Codegen::RightJoinKeyIsRowid(const Source& src) {
  return src.table == nullptr || !src.table->without_rowid;
}

int Codegen::RightJoinKeySize(const Source& src) {
  return src.table != nullptr ? RowKeySize(src.table) : 1;
}

void Codegen::CodeRightJoinKey(const Source& src, int reg) {
  const Table* tab = src.table;
  if (tab != nullptr && tab->without_rowid) {
    const Index* pk = tab->pk_index.get();
    for (size_t k = 0; k < pk->columns.size(); ++k) {
      CodeColumn(src.cursor, pk->columns[k], tab, reg + static_cast<int>(k));
    }
    return;
  }
  CodeColumn(src.cursor, -1, tab, reg);
}

void Codegen::RecordRightJoinMatch(const Source& src, LevelState* lv) {
  const int n = RightJoinKeySize(src);
  const int key = AllocReg(n + 1);
  CodeRightJoinKey(src, key);
  if (RightJoinKeyIsRowid(src)) {
    Op(Opcode::kRowSetAdd, lv->rj_match, key);
  } else {
    Op(Opcode::kMakeRecord, key, n, key + n);
    Op(Opcode::kIdxInsert, lv->rj_match, key + n);
  }
  lv->rj_return = AllocReg();
}

// The subroutine's end: back to the Gosub when entered by one, else on to
// the level's next row.
void Codegen::EndRightJoinSubroutine(LevelState* lv) {
  ResolveLabel(lv->cont);
  const int inline_run = MakeLabel();
  Op(Opcode::kIsNull, lv->rj_return, inline_run);
  Op(Opcode::kReturn, lv->rj_return);
  ResolveLabel(inline_run);
  lv->cont = lv->rj_outer_cont;
}

void Codegen::ReopenLevelCursors(WhereLoops* w, size_t li) {
  const LevelState& lv = w->levels[li];
  const LoopPlan& lp = w->plan.loops[li];
  const Source& src = (*w->sources)[static_cast<size_t>(lv.src)];
  const Table* tab = src.table;
  if (tab == nullptr) return;  // a materialized subquery: opened before the loops
  if (lp.access == AccessKind::kVirtual) {
    prog_->SetP4(Op(Opcode::kVOpen, src.cursor), tab);
    return;
  }
  const bool store = lp.index != nullptr && lp.index->is_table_store();
  if (lp.index == nullptr || !lp.covering || store) {
    OpenTableCursor(Opcode::kReopenIdx, tab, src.cursor);
  }
  if (lp.index != nullptr && !store) {
    CursorInfo* ici = prog_->arena.New<CursorInfo>();
    ici->key_info = &lp.index->key_info;
    ici->n_columns = lp.index->n_fields();
    prog_->SetP4(Op(Opcode::kReopenIdx, lv.index_cursor, static_cast<int>(lp.index->root),
                    lp.index->table->db()),
                 ici);
  }
}

// Every row of level li's table that no row of the levels before it
// matched, joined to null rows of those levels: a scan of the same cursor
// the level read (so covering-index column reads still apply).
void Codegen::CodeUnmatchedRows(WhereLoops* w, size_t li) {
  const LevelState& lv = w->levels[li];
  const LoopPlan& lp = w->plan.loops[li];
  const Source& src = (*w->sources)[static_cast<size_t>(lv.src)];
  // A level's cursors open inside the loops around it: when those had no
  // rows they never did.
  for (size_t j = 0; j <= li; ++j) ReopenLevelCursors(w, j);
  for (size_t j = 0; j < li; ++j) {
    const LevelState& left = w->levels[j];
    Op(Opcode::kNullRow, left.cursor);
    if (left.index_cursor >= 0 && left.index_cursor != left.cursor) {
      Op(Opcode::kNullRow, left.index_cursor);
    }
  }
  int scan = lv.cursor;
  const Index* by = nullptr;
  if (lp.index != nullptr && lp.covering && !lp.index->is_table_store()) {
    scan = lv.index_cursor;
    by = lp.index;
  } else if (lp.rj_scan_index != nullptr) {
    // The index a scan of the table alone would read (SQLite's order); the
    // level's columns still come from the table row of each entry.
    by = lp.rj_scan_index;
    scan = ctx_->AllocCursor();
    prog_->n_cursors = std::max(prog_->n_cursors, ctx_->n_cursors);
    CursorInfo* ici = prog_->arena.New<CursorInfo>();
    ici->key_info = &by->key_info;
    ici->n_columns = by->n_fields();
    prog_->SetP4(Op(Opcode::kOpenRead, scan, static_cast<int>(by->root), by->table->db()), ici);
  }
  std::string name(src.name);
  EqpScope eqp_scope(this, Eqp("RIGHT-JOIN " + (src.table != nullptr ? src.table->name : name)));
  Eqp(by == nullptr ? "SCAN " + name : "SCAN " + name + " USING COVERING INDEX " + by->name);
  const int done = MakeLabel();
  const int next = MakeLabel();
  Op(Opcode::kRewind, scan, done);
  const int top = prog_->pc();
  if (by != nullptr && scan != lv.index_cursor) {
    LevelState at = lv;
    at.index_cursor = scan;
    at.cont = next;
    SeekTableRow(by, src, &at);
  }
  const int n = RightJoinKeySize(src);
  const int key = AllocReg(n);
  CodeRightJoinKey(src, key);
  if (RightJoinKeyIsRowid(src)) {
    Op(Opcode::kRowSetTest, lv.rj_match, next, key);
  } else {
    prog_->SetP4Int(Op(Opcode::kFound, lv.rj_match, next, key), n);
  }
  Op(Opcode::kGosub, lv.rj_return, lv.rj_subr);
  ResolveLabel(next);
  Op(Opcode::kNext, scan, top);
  ResolveLabel(done);
}

}  // namespace basalt
