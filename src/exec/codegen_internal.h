// The code generator's shared state and helpers (internal to src/exec).
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "exec/program.h"
#include "parser/ast.h"
#include "planner/context.h"
#include "planner/resolve.h"
#include "planner/scope.h"
#include "planner/where.h"

namespace basalt {

struct FkParentKey;
struct WindowPlan;
struct WindowStage;
struct FkRef;

// Where a SELECT's rows go.
struct SelectDest {
  enum Kind {
    kOutput,      // ResultRow
    kCoroutine,   // copy into regs, Yield to the consumer
    kTable,       // append to temporary table `cursor` (rowid = sequence)
    kSet,         // insert as keys into temporary index `cursor` (dedup)
    kExcept,      // delete matching keys from temporary index `cursor`
    kIntersect,   // insert into index `cursor` if present in index `cursor2`
    kScalar,      // first column of the first row into `reg`, then jump to `label`
    kExists,      // set `reg` to 1 and jump to `label`
    kRegs,        // copy into regs (no yield): used for single-row INSERT ... SELECT
    kDiscard,     // evaluate and drop (SELECT in a trigger body)
    kKeyedTable,  // into temporary table `cursor`: rowid = first column, record =
                  // the others; a row with the same rowid is replaced
  };
  Kind kind = kOutput;
  int cursor = -1;
  int cursor2 = -1;
  int reg = 0;        // first register of the row (kCoroutine/kRegs), result (kScalar/kExists)
  int yield_reg = 0;  // coroutine return-address register
  bool clear_subtype = false;      // kCoroutine: a FROM subquery's rows lose their subtypes
  int label = 0;                   // jump target (kScalar/kExists)
  int has_null_reg = 0;            // kSet for IN: set to 1 when a NULL key is added
  const char* affinity = nullptr;  // kSet: affinity string applied to keys
  int n_columns = 0;
};

// One (cursor, column) → register redirection (aggregate output phase).
struct Redirect {
  int cursor;
  int column;
  int reg;
};

// Cursor → covering index substitution.
struct IndexSubst {
  int table_cursor;
  int index_cursor;
  const Index* index;
};

class Codegen {
 public:
  Codegen(CompileContext* ctx, Program* prog);

  // ---- program building ----
  int AllocReg(int n = 1) {
    int r = prog_->n_regs;
    prog_->n_regs += n;
    return r;
  }
  int MakeLabel() {
    labels_.push_back(-1);
    return -static_cast<int>(labels_.size());
  }
  void ResolveLabel(int label) { labels_[static_cast<size_t>(-label - 1)] = prog_->pc(); }
  int Op(Opcode op, int p1 = 0, int p2 = 0, int p3 = 0) { return prog_->AddOp(op, p1, p2, p3); }
  int OpP4Str(Opcode op, int p1, int p2, int p3, std::string_view s);
  int OpInt64(int64_t v, int reg);
  void OpString(std::string_view s, int reg);
  void FixLabels();
  const char* ArenaStr(std::string_view s) { return prog_->arena.CopyString(s).data(); }
  KeyInfo* MakeKeyInfo(int n);

  // ---- expressions (codegen_expr.cc; comparisons and jumps codegen_compare.cc;
  // subqueries and IN codegen_in.cc; calls, CASE and LIKE codegen_call.cc) ----
  // Evaluates e into `target`.
  void CodeExpr(ast::Expr* e, int target);
  // Evaluates e; returns a register holding the value (maybe not `target`
  // when the value already lives in a register). Caller must not modify it.
  int CodeExprTemp(ast::Expr* e);
  // Pass hoist_const: a literal operand gets a register of its own, loaded
  // once per run by a block after the program's Halt that the Init at pc 0
  // jumps to (BeginHoisting emits the Init, EmitHoisted the block). Only a
  // top-level statement hoists; sub-programs never call BeginHoisting.
  void BeginHoisting();
  void EmitHoisted();
  int HoistedConstant(ast::Expr* e);
  // Jumps to `label` if e is true (jump_if_true) / false; NULL goes with
  // `jump_if_null` (i.e. jumps when jump_if_null is set).
  void CodeJumpIf(ast::Expr* e, int label, bool jump_if_true, bool jump_if_null);
  void CodeColumn(int cursor, int column, const Table* tab, int target);
  void CodeIn(ast::Expr* e, int target);
  void CodeLiteralValue(ast::Expr* e, int target);
  void CodeFunction(ast::Expr* e, int target);
  void CodeCompare(ast::Expr* e, int target);
  void CodeCase(ast::Expr* e, int target);
  void CodeUnary(ast::Expr* e, int target);
  void CodeBinary(ast::Expr* e, int target);
  void CodeBetween(ast::Expr* e, int target);
  void CodeNullTest(ast::Expr* e, int target);
  void CodeVectorElement(ast::Expr* e, int target);
  void CodeCurrentTime(ast::Expr* e, int target);
  void CodeLike(ast::Expr* e, int target);
  bool Fold(const ast::Expr* e, Value* out, int depth);
  void CodeConstant(const Value& v, int target);
  void VectorElements(ast::Expr* e, std::vector<ast::Expr*>* out);
  void CodeVectorCompare(ast::Expr* e, int target);
  void CodeVectorIn(ast::Expr* e, int target);
  ast::Expr* Binary(ast::Op op, ast::Expr* l, ast::Expr* r);
  int CodeSubqueryValue(ast::Expr* e);  // scalar subquery → register
  // Builds an ephemeral index from an IN list/subquery; returns its cursor.
  int CodeInIndex(ast::Expr* in, int* has_null_reg, char* aff_out);
  // Temporary index of the distinct values of an IN list or subquery, for
  // IN-driven lookups (values converted with `aff`, compared with `coll`).
  int CodeInListIndex(ast::Expr* in, int* has_null, char aff, const Collation* coll);

  // ---- SELECT (codegen_select.cc) ----
  bool CodeSelect(ast::Select* s, SelectDest* dest);
  bool CodeSimpleSelect(ast::Select* s, SelectDest* dest);
  bool CodeCompound(ast::Select* s, SelectDest* dest);
  int CompoundArmEqp(ast::Select* arm, bool leftmost);
  bool CodeCompoundArm(ast::Select* arm, ast::CompoundOp op, int n, KeyInfo* ki, int* acc,
                       SelectDest* arm_dest);
  bool CodeUnionAllAfterSet(ast::Select* arm, int n, int* acc, SelectDest* arm_dest);
  void ReadCompoundResult(ast::Select* last, SelectDest* dest, int acc, int n, const KeyInfo* ki);
  bool CodeValues(ast::Select* s, SelectDest* dest);
  // Emits one result row (regs[0..n)) to dest, honouring the row's stage.
  void EmitToDest(SelectDest* dest, int regs, int n);
  bool MaterializeSources(SelectInfo* info, int coroutine_src);
  // Runs a CTE's body into `out`, or into its temporary table when null.
  bool CodeCte(CteEntry* ce, SelectDest* out);
  struct CteQueue {  // the rows a recursive CTE has yet to process
    int queue = -1;  // table (FIFO) or index (ORDER BY) cursor
    int dist = -1;   // UNION: index of the rows queued so far, else -1
    int seq_reg = 0;
    int ncols = 0;
    ast::ExprList* order = nullptr;
    int norder = 0;
  };
  bool SplitRecursiveArms(CteEntry* ce, std::vector<ast::Select*>* arms, size_t* first_rec);
  void OpenCteQueue(bool distinct, CteQueue* q);
  void CodeCteFeed(const CteQueue& q, int feed_reg);
  std::unordered_map<int, std::pair<int, int>> coroutines_;  // cursor → (yield reg, first reg)
  bool CodeSimpleSelectArm(ast::Select* arm, SelectDest* dest);
  int ConvertTableToIndex(int table_cursor, int n, KeyInfo* ki);
  bool SetupSink(ast::Select* s, SelectInfo* info, SelectDest* dest, struct RowSink* sink,
                 bool order_satisfied);
  void SinkRow(struct RowSink* sink, int regs, const std::vector<int>& order_regs);
  void ProduceRow(struct RowSink* sink, SelectInfo* info, ast::ExprList* order_by);
  bool ProduceBoundedRow(struct RowSink* sink, SelectInfo* info, ast::ExprList* order_by);
  void DrainSorter(struct RowSink* sink);
  void EmitSinkEqp(struct RowSink* sink);
  KeyInfo* OrderKeyInfo(ast::ExprList* order_by);
  bool acc_is_table_ = false;
  // When set, kRegs destinations call this subroutine (return reg, label).
  std::pair<int, int> pending_gosub_{0, 0};
  std::vector<std::pair<int, int>> recursive_refs_;  // (cursor, cte id)
  // Recursive CTE id → the registers of its current row, while its
  // recursive arms are coded (CodeCte), when every arm reads that row
  // through an inner join: the self reference is then those registers, a
  // loop of one row (one_row_cursors_), as SQLite's pseudo-table.
  std::unordered_map<int, int> cte_row_regs_;
  std::vector<int> one_row_cursors_;
  void CodeLimit(ast::Select* s, int* limit_reg, int* offset_reg, int end_label);

  // ---- loops (codegen_where.cc) ----
  struct LevelState {
    int src = -1;
    int cursor = -1;                 // table (or ephemeral) cursor
    int index_cursor = -1;           // index cursor when an index is used
    int top = 0;                     // address of the loop top
    int cont = 0;                    // label: advance to the next row
    int brk = 0;                     // label: leave this level
    Opcode next_op = Opcode::kNoop;  // Next/Prev of the loop, kNoop for one-shot levels
    int next_cursor = -1;
    bool full_scan = false;       // a scan of the whole table: Next counts FULLSCAN_STEP
    int match_reg = 0;            // LEFT JOIN: 1 once a row matched
    int first_addr = 0;           // LEFT JOIN: re-entry point for the null row
    std::vector<int> in_cursors;  // IN lists driving equality lookups (outermost first)
    std::vector<int> in_tops;
    std::vector<int> in_nexts;  // labels
    // RIGHT/FULL JOIN onto this level: the keys of the rows that matched
    // (ephemeral index), and the subroutine that runs the inner levels and
    // the body, entered in line by the main loops and by Gosub for each
    // unmatched row afterwards.
    int rj_match = -1;
    int rj_return = 0;      // register: return address, NULL in line
    int rj_subr = 0;        // address of the subroutine's first instruction
    int rj_outer_cont = 0;  // label: the level's own next row
  };
  struct WhereLoops {
    WherePlan plan;
    std::vector<LevelState> levels;
    std::vector<Source>* sources = nullptr;
    int break_label = 0;     // after the loops
    int continue_label = 0;  // next row of the innermost loop
    size_t subst_mark = 0;
    int last_rj = -1;          // innermost level joined by RIGHT/FULL JOIN, -1 if none
    int loops_end = 0;         // label: the main loops are done (unmatched rows next)
    std::vector<int> rj_sets;  // per level: its RIGHT JOIN's match index, or -1
  };
  // Plans loops over `sources` filtered by `where` (and tries to satisfy
  // order_by / group_by by index order).
  bool PlanLoops(WhereLoops* w, std::vector<Source>* sources, ast::Expr* where,
                 ast::ExprList* order_by, ast::ExprList* group_by,
                 std::vector<std::vector<bool>>* used, bool first_row_only = false);
  // Emits the loop headers; afterwards the code for one joined row can be
  // emitted; WhereEnd closes the loops.
  bool WhereBegin(WhereLoops* w);
  void WhereEnd(WhereLoops* w);
  // The steps of WhereBegin for one level (codegen_where.cc).
  void CodeSubquerySourceLoop(const Source& src, LevelState* lv);
  void OpenLevelCursors(const LoopPlan& lp, const Source& src, LevelState* lv);
  void CodeFullScan(const LoopPlan& lp, const Source& src, LevelState* lv);
  void SeekTableRow(const Index* idx, const Source& src, LevelState* lv);
  void CodeRowidLookup(const LoopPlan& lp, const Source& src, LevelState* lv);
  void CodeRowidRange(const LoopPlan& lp, const Source& src, LevelState* lv);
  // Virtual tables as DML targets (codegen_vtab_dml.cc).
  // The table a DML statement names: a table or view, else the eponymous
  // table of a module of that name whatever the schema name (as SQLite's
  // sqlite3LocateTable). Null when there is none, or with ctx_ failed when
  // the module failed to connect.
  Table* FindTarget(std::string_view schema, std::string_view name);
  bool EnsureVtab(Table* t);
  bool CodeVtabInsert(ast::InsertStmt* st, const Table* tab, Scope* outer);
  bool CodeVtabUpdate(ast::UpdateStmt* st, const Table* tab, Scope* outer);
  bool CodeVtabDelete(ast::DeleteStmt* st, const Table* tab, Scope* outer);
  bool CodeVtabCollect(ast::Expr* where, std::vector<Source>* srcs,
                       const std::function<void(int argv)>& row, int n, int rows,
                       bool key_is_rowid = false);
  void CodeVtabApply(const Table* tab, int rows, int n, OnConflict on_conflict);
  const FunctionDef* VtabOverload(const FunctionDef* def, int nargs, const ast::Expr* arg);
  void CodeVtabLoop(WhereLoops* w, const LoopPlan& lp, const Source& src, LevelState* lv);
  void CodeVtabOrLoop(const VtabPlan& vp, const Source& src, LevelState* lv);
  std::string VtabDetail(const VtabPlan& vp, const std::string& name);
  void VtabOrEqp(const VtabPlan& vp, const Source& src);
  void CodeLevelTerms(WhereLoops* w, size_t li, const Source& src, SourceMask ready,
                      LevelState* lv);
  // RIGHT and FULL JOIN (codegen_right_join.cc).
  void OpenRightJoinSets(WhereLoops* w);
  bool RightJoinKeyIsRowid(const Source& src);
  int RightJoinKeySize(const Source& src);
  void CodeRightJoinKey(const Source& src, int reg);
  void RecordRightJoinMatch(const Source& src, LevelState* lv);
  void EndRightJoinSubroutine(LevelState* lv);
  void CodeUnmatchedRows(WhereLoops* w, size_t li);
  void ReopenLevelCursors(WhereLoops* w, size_t li);
  // Index lookups and ranges (codegen_where_index.cc).
  void CodeIndexRange(const LoopPlan& lp, const Source& src, LevelState* lv);
  void CodeInDrivers(const LoopPlan& lp, struct IndexScan* x, LevelState* lv);
  void CodeEqualityKeys(const LoopPlan& lp, struct IndexScan* x);
  void PlanIndexBounds(const LoopPlan& lp, struct IndexScan* x);
  void ApplyKeyAffinity(const struct IndexScan& x, int n);
  static bool NeedsNoAffinityChange(const ast::Expr* e, char aff);
  void CodeIndexStart(const LoopPlan& lp, struct IndexScan* x, LevelState* lv);
  void CodeIndexEnd(const LoopPlan& lp, struct IndexScan* x, LevelState* lv);
  // Columns each source's rows are read for (covering-index decisions).
  void UsedColumns(ast::Select* s, std::vector<Source>* sources,
                   std::vector<std::vector<bool>>* used);
  void MarkUsedColumns(ast::Expr* e, std::vector<Source>* sources,
                       std::vector<std::vector<bool>>* used);

  // ---- aggregates (codegen_agg.cc) ----
  bool CodeAggregateSelect(ast::Select* s, SelectInfo* info, SelectDest* dest, struct RowSink* sink,
                           struct WhereLoops* w, ast::ExprList* minmax_order);
  void UpdateAccumulators(AggInfo* agg);
  struct AggPlan {  // accumulators and output registers of one aggregate query
    AggInfo* agg = nullptr;
    int first_acc = 0;
    int n_accs = 0;
    int minmax = -1;  // the only min()/max() function, or -1
    // The min()/max() query reads rows in its argument's order (an index):
    // the first row whose argument is not NULL decides, and the loops stop
    // there (SQLite's min/max optimization). Null otherwise.
    ast::Expr* stop_arg = nullptr;
    std::vector<int> out_regs;  // the bare columns' values in the output row
  };
  void PrepareAccumulators(AggInfo* agg, AggPlan* plan);
  ast::ExprList* MinMaxOrder(ast::Select* s, SelectInfo* info);
  size_t PushOutRedirects(const AggPlan& plan);
  void CodeBareColumns(const AggPlan& plan, int first_flag, bool from_cursors);
  bool CodeSingleGroup(ast::Select* s, SelectInfo* info, SelectDest* dest, struct RowSink* sink,
                       struct WhereLoops* w, const AggPlan& plan);
  bool CodeGroupBy(ast::Select* s, SelectInfo* info, SelectDest* dest, struct RowSink* sink,
                   struct WhereLoops* w, const AggPlan& plan);
  void CodeGroupLoop(const AggPlan& plan, int sorter, const KeyInfo* gki, int out_ret, int out_sub,
                     int done);
  void FinalizeAccumulators(AggInfo* agg, std::vector<int>* results);

  // ---- window functions (codegen_window.cc) ----
  void PrepareWindows(ast::Select* s, SelectInfo* info);  // from SetupSink
  // A row of a core with window functions goes to the first stage (true).
  bool WindowFeedRow(SelectInfo* info);  // from ProduceRow
  // After the core's loops: the stages, then the rows into `sink`.
  void CodeWindowStages(struct RowSink* sink, SelectInfo* info, ast::ExprList* order_by);
  void CodeWindowValue(ast::Expr* e, int target);    // a window call's value
  ast::ExprList* WindowScanOrder(SelectInfo* info);  // the order asked of the scan
  void CollectWindowLeaves(ast::Select* s, SelectInfo* info, WindowPlan* plan);
  void BuildWindowStage(SelectInfo* info, WindowPlan* plan, WindowStage* st);
  void CodeWindowFeed(WindowPlan* plan, size_t k);
  // shared_ptr: WindowPlan is complete only in codegen_window.cc.
  std::unordered_map<const SelectInfo*, std::shared_ptr<WindowPlan>> win_plans_;
  const SelectInfo* win_emitting_ = nullptr;  // the core whose final rows are coded now
  int win_out_base_ = -1;                     // registers of its window values
  int n_window_specs_ = 0;

  // ---- DML (codegen_dml.cc, codegen_insert.cc, codegen_update.cc, codegen_delete.cc) ----
  bool CodeInsert(ast::InsertStmt* st, Scope* outer);
  bool CodeUpdate(ast::UpdateStmt* st, Scope* outer);
  bool CodeDelete(ast::DeleteStmt* st, Scope* outer);
  bool CodeInsertBody(ast::InsertStmt* st, Scope* outer);
  // The steps of CodeInsertBody (codegen_insert.cc).
  struct Sequence {                // the AUTOINCREMENT counter of the target table
    const Table* table = nullptr;  // sqlite_sequence
    int reg = 0;                   // the largest rowid used
    int rowid = 0;                 // rowid of the table's sqlite_sequence row (NULL: none)
  };
  struct InsertLoop {   // how a multi-row source delivers its rows
    int temp = -1;      // temporary table cursor, or -1
    int yield_reg = 0;  // co-routine, or 0
    int top = 0;
  };
  bool InsertTargets(ast::InsertStmt* st, const Table* tab, std::vector<int>* targets);
  bool ResolveInsertSource(ast::InsertStmt* st, const Table* tab, Scope* outer, int nvals);
  bool InsertNeedsJournal(const Table* tab, OnConflict on_conflict);
  bool CodeInsertSource(ast::Select* src, const Table* tab, int nvals, int vals, int end,
                        InsertLoop* loop);
  int AssembleInsertRow(const Table* tab, const std::vector<int>& targets, int vals, int base);
  void CodeInsertRowid(const Table* tab, int cursor, int base, int vals, int rowid_from,
                       int seq_reg, int auto_rowid);
  void CodeReadSequence(const Table* tab, Sequence* seq);
  void CodeWriteSequence(const Table* tab, const Sequence& seq);
  bool CodeUpdateBody(ast::UpdateStmt* st, Scope* outer);
  bool CodeDeleteBody(ast::DeleteStmt* st, Scope* outer);

  // Cursors a DML statement writes through.
  struct DmlTarget {
    const Table* table = nullptr;
    int cursor = -1;                 // table cursor
    std::vector<int> index_cursors;  // parallel to table->indexes
  };
  // open_table false: only the index cursors (the table cursor is a scan's,
  // opened for writing by WhereBegin through dml_write_cursor_).
  void OpenDmlTarget(const Table* tab, DmlTarget* t, int cursor, bool open_table = true);
  // Row keys (codegen_rowkey.cc): a row's rowid, or for a WITHOUT ROWID
  // table its primary-key values (RowKeySize registers).
  // Opens `cursor` on the table's B-tree with `op` (OpenRead/OpenWrite).
  int OpenTableCursor(Opcode op, const Table* tab, int cursor);
  static int RowKeySize(const Table* tab);
  void CodeRowKeyFromRow(const Table* tab, int base, int key);
  void CodeRowKeyFromIndex(const Index* idx, int icur, int key);
  void CodeRowKeyFromTable(const Table* tab, int cur, int key);
  // Moves cursor `cur` to the row with the key; jumps to `fail` if absent.
  void CodeSeekRowKey(const Table* tab, int cur, int fail, int key);
  void CodeJumpIfSameRowKey(const Table* tab, int a, int b, int label);
  // Writes the row at `base` into the table B-tree (Insert P5 flags).
  void CodeWriteTableRow(DmlTarget* t, int base, uint8_t flags);
  // The keys of the rows a DELETE/UPDATE changes, collected first: a
  // temporary table of rowids, or an index of primary keys (with
  // extra_columns more fields after the key, not compared).
  // scan_order: the keys stay in the order they were added (SQLite changes
  // the rows of a one-pass DELETE / UPDATE in its scan order; hooks see it).
  int OpenRowKeySet(const Table* tab, int extra_columns = 0, bool scan_order = false);
  void CodeAddRowKey(const Table* tab, int cursor, int set, bool scan_order = false);
  void CodeRowKeyFromSet(const Table* tab, int set, int key, bool scan_order = false);
  // Whether `e` holds a subquery (SQLite's DELETE / UPDATE are then not one-pass).
  static bool HasSubquery(ast::Expr* e);
  // Primary-key uniqueness of a WITHOUT ROWID table's new row.
  void CodePkUniqueCheck(DmlTarget* t, int base, int old_base, OnConflict on_conflict,
                         int skip_label);
  // The steps of CodeUpdateBody (codegen_update.cc).
  struct UpdateSets {           // what an UPDATE's SET list assigns
    std::vector<int> set_col;   // column of each SET (-1 = rowid)
    std::vector<bool> changed;  // per column
    bool rowid_set = false;
    bool key_set = false;  // the row key changes (rowid, or a WITHOUT ROWID primary-key column)
  };
  // scope null: the SET expressions are resolved elsewhere (UPDATE ... FROM).
  bool ResolveUpdateSets(ast::ExprList* set_list, const Table* tab, Scope* scope, UpdateSets* sets);
  // UPDATE/DELETE parts that are SELECTs (codegen_dml_select.cc).
  struct DmlLimit {
    ast::ExprList* order_by = nullptr;
    ast::Expr* limit = nullptr;
    ast::Expr* offset = nullptr;
  };
  ast::FromItem* TargetFromItem(const ast::FromItem* target, const Table* tab);
  ast::Expr* RowidRef(const ast::FromItem* target, const Table* tab);
  ast::Expr* RowKeyRef(const ast::FromItem* target, const Table* tab);
  ast::Expr* LimitedDmlWhere(const DmlLimit& lim, const ast::FromItem* target, const Table* tab,
                             ast::Expr* where, const char* verb);
  bool CodeUpdateFromRows(ast::UpdateStmt* st, const Table* tab, Scope* outer, int eph);
  // INSTEAD OF triggers: DML on views (codegen_view_dml.cc).
  ast::Select* ViewRowsSelect(const ast::FromItem* target, const Table* view);
  const Table* ViewStandIn(const Table* view);  // null after an error
  // True (with the error set) when no INSTEAD OF trigger would fire.
  bool NoInsteadOf(const Table* view, int event, const std::vector<bool>* changed);
  bool CodeViewDelete(ast::DeleteStmt* st, const Table* view, Scope* outer);
  bool CodeViewUpdate(ast::UpdateStmt* st, const Table* view, Scope* outer);
  bool CodeViewInsert(ast::InsertStmt* st, const Table* view, Scope* outer);
  std::vector<std::unique_ptr<Table>> view_stand_ins_;
  // *scan_order in: SQLite would run the UPDATE one-pass if its scan uses no
  // index with a changed column; out: whether the set keeps scan order.
  bool CodeCollectRowids(ast::Expr* where, const Table* tab, std::vector<Source>* srcs, int* rowids,
                         const std::vector<bool>& changed, bool* scan_order);
  bool UpdateNeedsTwoPasses(const Table* tab, const std::vector<bool>& changed);
  // SQLite's one-pass UPDATE of a rowid table scanned in full: each row is
  // rewritten where the scan stands. *done false (nothing emitted) when the
  // scan would use an index or seek; the two passes are then needed.
  bool CodeUpdateOnePass(ast::UpdateStmt* st, Table* tab, std::vector<Source>* srcs,
                         const UpdateSets& sets, ast::Expr* where, OnConflict on_conflict,
                         bool* done);
  // values_cursor >= 0: the SET values are that cursor's columns from
  // values_at on (in SET order) instead of the SET expressions.
  void CodeUpdatedRow(ast::ExprList* set_list, const Table* tab, const UpdateSets& sets,
                      int old_base, int new_base, int values_cursor = -1, int values_at = 0);
  // UPDATE ... FROM on a WITHOUT ROWID table: the join's rows into the key
  // set, one per primary key (codegen_dml_select.cc).
  void CodeKeepLastPerKey(const Table* tab, int rows, int n_sets, int set);
  // RETURNING (codegen_returning.cc): rows are computed into a temporary
  // table while the statement runs and handed out after it.
  struct Returning {
    ast::ExprList* list = nullptr;  // after * expansion, resolved
    int cursor = -1;                // the fake cursor the list refers to
    int temp = -1;                  // temporary table of the result rows
    int n_columns = 0;              // columns of the target table
  };
  bool CheckNoSchemaQualifier(ast::Expr* e);
  bool PrepareReturning(ast::ExprList* list, const Table* tab, Scope* outer, Returning* ret);
  void CodeReturningRow(const Returning& ret, int base);
  void CodeReturningOutput(const Returning& ret);
  // UPSERT (codegen_upsert.cc): each ON CONFLICT clause bound to the
  // constraint it names (-1: the rowid, -2: any), its SET and WHERE resolved
  // against the target row (a fake cursor) and `excluded` (the new row).
  struct UpsertClause {
    ast::Upsert* clause = nullptr;
    int constraint = -2;  // index position in table->indexes, -1 rowid, -2 any
    UpdateSets sets;
  };
  struct UpsertPlan {
    std::vector<UpsertClause> clauses;
    std::vector<Source> srcs;
    int cursor = -1;                 // fake cursor of the target row
    const Returning* ret = nullptr;  // RETURNING rows for updated rows
    OnConflict on_conflict = OnConflict::kDefault;
  };
  bool PrepareUpsert(ast::InsertStmt* st, const Table* tab, Scope* outer, int insert_base,
                     UpsertPlan* plan);
  const UpsertClause* UpsertFor(int constraint) const;
  std::vector<int> UpsertCheckOrder(const Table* tab) const;
  // Uniqueness constraints in SQLite's checking order (-1: rowid or
  // WITHOUT ROWID primary key, else the position in table->indexes).
  static std::vector<int> UniqueCheckOrder(const Table* tab);
  // The DO action for a conflict with the row whose rowid is in
  // `conflict_rowid`; ends by jumping to `skip_label` (the row is not
  // inserted).
  void CodeUpsertAction(DmlTarget* t, const UpsertClause& uc, int conflict_rowid, int skip_label);
  UpsertPlan* upsert_ = nullptr;  // set while an INSERT's uniqueness checks are emitted
  // changed: the columns that may differ (null: any), to keep index
  // entries whose key cannot change.
  void CodeReplaceRow(DmlTarget* t, int old_base, int new_base, bool rowid_set,
                      const std::vector<bool>* changed = nullptr);
  // Row layout: r[base] = rowid, r[base+1+i] = column i.
  void ApplyColumnAffinity(const Table* tab, int base);
  // NOT NULL, CHECK, PRIMARY KEY and UNIQUE checks for the new row at
  // `base`. `old_rowid` is the row being updated (0 for INSERT).
  // `on_conflict` is the statement's OR action (kDefault if none); rows to
  // skip (IGNORE) jump to `skip_label`.
  void CodeConstraintChecks(DmlTarget* t, int base, int old_rowid, bool rowid_changed,
                            OnConflict on_conflict, int skip_label,
                            const std::vector<bool>* changed_cols);
  void CodeNotNullChecks(const Table* tab, int base, OnConflict on_conflict, int skip_label,
                         const std::vector<bool>* changed_cols);
  bool CodeCheckConstraints(const Table* tab, int base, OnConflict on_conflict, int skip_label);
  void CodeRowidUniqueCheck(DmlTarget* t, int base, int old_rowid, OnConflict on_conflict,
                            int skip_label);
  // For a partial index: jumps to the returned label (to be resolved after
  // the index operation) when the row at `base` is outside the index; 0 for
  // a full index.
  int CodePartialIndexGuard(const Index* idx, int base);
  void CodeUniqueIndexCheck(DmlTarget* t, size_t i, int base, int old_rowid, OnConflict on_conflict,
                            int skip_label);
  void CodeUniqueIndexChecks(DmlTarget* t, int base, int old_rowid, bool rowid_changed,
                             OnConflict on_conflict, int skip_label,
                             const std::vector<bool>* changed_cols);
  // Deletes the row the table cursor is on, with its index entries (the
  // row's values must be in r[base..]).
  void CodeDeleteRow(DmlTarget* t, int base, bool count_change, bool counts_total = false);
  // Compiling a DELETE SQLite runs as a truncation (no WHERE, triggers,
  // foreign keys or RETURNING, and no preupdate hook when it was compiled):
  // its rows fire no hooks.
  bool truncating_ = false;
  // Planning the scan that finds a DELETE's / UPDATE's rows (PlanRequest::dml_rows).
  bool dml_rows_ = false;
  // The cursor WhereBegin opens for writing (a one-pass UPDATE's table), or -1.
  int dml_write_cursor_ = -1;
  // Records the trigger depth of the hooked write at `addr` (Program::hook_depths).
  void NoteHookDepth(int addr) {
    if (in_trigger_ > 0) prog_->hook_depths.emplace_back(addr, in_trigger_);
  }
  // Writes the row at `base` and its index entries.
  void CodeInsertRow(DmlTarget* t, int base, bool count_change, bool is_update);
  // Reads the row the table cursor is on into r[base..].
  void CodeReadRow(DmlTarget* t, int base);
  void CodeIndexKey(const Index* idx, int base, int key_regs);
  // MakeRecord at addr writes a stored row or index key whose field i is a
  // REAL column's where mask[i] is 'E' (see EncodeRecord); no-op without one.
  void SetRealMask(int addr, const std::string& mask);
  std::string IndexRealMask(const Index* idx);
  // Expression of the table evaluated over the row at `base` (defaults,
  // CHECK constraints).
  ast::Expr* ParseTableExpr(const Table* tab, std::string_view sql, int base);
  void CodeDefault(const Table* tab, int col, int target);
  void CodeReplaceDelete(DmlTarget* pt, int old, int skip_label);
  // Generated columns and STRICT tables (codegen_generated.cc).
  // A VIRTUAL column of the row `cursor` is on, computed.
  void CodeVirtualColumn(int cursor, int column, const Table* tab, int target);
  // The generated columns of the row at `base`, from its other columns.
  void CodeGeneratedColumns(const Table* tab, int base);
  // After the affinity of a new row at `base`: the STRICT type check when
  // it must come first (generated columns or BEFORE triggers follow), then
  // the generated columns.
  void CodeComputedColumns(const Table* tab, int base, bool early_type_check);
  void CodeStrictTypeCheck(const Table* tab, int base);  // nothing unless STRICT
  // The record of the row at `base` (rowid alias as NULL, VIRTUAL columns
  // left out); returns its register.
  int CodeTableRecord(const Table* tab, int base);
  // False (with the error) if `col` is generated: it cannot be written.
  bool CheckGeneratedTarget(const Table* tab, int col, bool update);
  void ApplyGeneratedAffinity(const Column& c, int reg);
  void CodeGeneratedExpr(ast::Expr* e, int target);  // calls may not read the clock
  void GeneratedLoopError(const Column& c);
  std::vector<std::pair<const Table*, int>> gen_busy_;  // VIRTUAL columns being coded
  bool gen_loop_error_ = false;                         // ctx_->error is a "generated column loop"
  const char* pure_context_ = nullptr;                  // FuncCall::pure_context of calls coded now
  // Triggers on `tab` for `event` at `time` (ast::TriggerTime/Event values).
  void CodeTriggers(const Table* tab, int event, int time, int old_base, int new_base,
                    int skip_label, const std::vector<bool>* changed_cols, OnConflict on_conflict);
  bool TriggerEnabled(const Trigger* trig) const;
  bool HasTriggers(const Table* tab, int event, int time, const std::vector<bool>* changed_cols);
  bool CodeTriggerBody(const Trigger* trig, const Table* tab, int event, int old_base, int new_base,
                       int skip_label, OnConflict on_conflict);
  const Program* TriggerSubprogram(const Trigger* trig, const Table* tab, int event,
                                   OnConflict on_conflict);
  struct SubprogramEntry {
    const Trigger* trig;
    int on_conflict;
    const Program* prog;
  };
  using SubprogramCache = std::vector<SubprogramEntry>;
  // Shared by the code generators of one statement and its sub-programs.
  SubprogramCache own_subprogram_cache_;
  SubprogramCache* subprogram_cache_ = &own_subprogram_cache_;
  Program* root_prog_ = nullptr;  // set in a sub-program's code generator
  std::vector<const Trigger*> active_triggers_;
  // Entries of active_triggers_ that are not inlined in this program (in a
  // trigger sub-program: the callers' and its own).
  int trigger_base_ = 0;
  bool top_level_dml_ = true;

  // ---- foreign keys (codegen_fkey.cc) ----
  // With PRAGMA foreign_keys on: the checks of the keys of `tab` and of the
  // keys that refer to it for a row leaving (old_base) and / or entering
  // (new_base) the table (0: none); `changed`: the columns an UPDATE sets
  // (null: all). False on a compile error.
  bool CodeFkCheck(const Table* tab, int old_base, int new_base, const std::vector<bool>* changed);
  // The ON DELETE (new_base 0) / ON UPDATE actions of the keys that refer to
  // `tab`, after its row at old_base was deleted or updated.
  bool CodeFkActions(const Table* tab, int old_base, int new_base,
                     const std::vector<bool>* changed);
  bool FkEnabled() const;
  struct FkActionCache;
  std::shared_ptr<FkActionCache> fk_cache_;
  bool fk_top_ = true;             // compiling the top-level program (not an action)
  bool fk_ignore_errors_ = false;  // DROP TABLE's implicit DELETE: missing parents are no error
  bool no_triggers_ = false;       // DROP TABLE's implicit DELETE fires no triggers
  // An ON DELETE CASCADE action's program: the key whose lookups its DELETE
  // leaves out (CascadeSkipsCount).
  const ForeignKeyDef* fk_cascading_ = nullptr;
  bool CascadeSkipsCount(const Table* parent, const FkRef& ref) const;
  const Index* CascadeIndex(const Table* parent, const FkRef& ref, const FkParentKey& pk) const;
  void CodeFkCascadeDelete(const Table* child, const Index* idx, const FkParentKey& pk,
                           int old_base);
  bool FkMismatch(const Table* child, const Table* parent);
  bool FkHaltsAtOnce(const ForeignKeyDef& fk) const;
  bool CodeFkCheckRow(const Table* tab, int base, int incr, const std::vector<bool>* changed);
  void CodeFkLookupParent(const Table* child, const ForeignKeyDef& fk, const FkParentKey& pk,
                          int base, int incr);
  bool CodeFkChildLoop(const Table* parent, const Table* child, const std::string& where,
                       int old_base, int new_base, const std::function<void()>& body);
  bool CodeFkScanChildren(const Table* parent, const FkRef& ref, const FkParentKey& pk, int base,
                          int incr);
  std::string FkActionSql(const Table* parent, const FkRef& ref, const FkParentKey& pk, bool update,
                          int action);
  const Program* FkActionProgram(const Table* parent, const FkRef& ref, const FkParentKey& pk,
                                 bool update, int action);
  bool CodeFkActionBody(const Table* parent, const FkRef& ref, const FkParentKey& pk, bool update,
                        int action, int old_base, int new_base);

  // ---- triggers (codegen_trigger.cc) ----
  void CodeRaise(ast::Expr* e);
  struct TriggerFrame {
    int ignore_label;  // RAISE(IGNORE) jumps here (skips the row)
  };
  std::vector<TriggerFrame> trigger_frames_;
  int in_trigger_ = 0;

  // Whether an uncorrelated subquery runs once per statement (kOnce):
  // Pass::kSubqueryOnce, except where running it once is what the SQL
  // means and the pass may not change it (RETURNING lists: > 0 while one
  // is coded, as SQLite evaluates their subqueries once).
  int subquery_once_required_ = 0;
  bool SubqueryOnce() const {
    return subquery_once_required_ > 0 || ctx_->options.PassOn(Pass::kSubqueryOnce);
  }

  // ---- EXPLAIN QUERY PLAN ----
  // Adds a plan line under the current parent; returns its id.
  int Eqp(std::string detail) {
    if (!ctx_->explain_plan) return 0;  // plan lines only for EXPLAIN QUERY PLAN
    EqpRow r;
    r.id = ++eqp_last_id_;
    r.parent = eqp_parent_;
    r.detail = std::move(detail);
    prog_->eqp.push_back(std::move(r));
    return eqp_last_id_;
  }
  // Makes `id` the parent of the lines added until the guard ends.
  struct EqpScope {
    Codegen* cg;
    int saved;
    EqpScope(Codegen* c, int id) : cg(c), saved(c->eqp_parent_) { c->eqp_parent_ = id; }
    ~EqpScope() { cg->eqp_parent_ = saved; }
  };
  std::string LoopDetail(const LoopPlan& lp, const Source& src);
  int eqp_parent_ = 0;
  int eqp_last_id_ = 0;
  int subquery_counter_ = 0;

  CompileContext* ctx() { return ctx_; }
  Program* prog() { return prog_; }
  Resolver& resolver() { return resolver_; }

  std::vector<Redirect> redirects_;
  std::vector<IndexSubst> substs_;
  // AggInfo id → registers holding its functions' results (while the
  // output of that aggregate query is being produced).
  std::unordered_map<int, std::vector<int>> agg_results_;
  const int* AggResultReg(const ast::Expr* e) const {
    auto it = agg_results_.find(e->reg);
    if (it == agg_results_.end() || static_cast<size_t>(e->agg) >= it->second.size()) {
      return nullptr;
    }
    return &it->second[static_cast<size_t>(e->agg)];
  }
  std::vector<int> agg_cursors_;  // cursors of the aggregate queries being coded
  std::vector<int> cte_done_regs_;
  std::vector<int> cte_cursors_;

 private:
  CompileContext* ctx_;
  Program* prog_;
  Resolver resolver_;
  std::vector<int> labels_;
  int init_addr_ = -1;  // the Init at pc 0 when hoisting, else -1
  std::vector<std::pair<ast::Expr*, int>> hoisted_;
};

OnConflict ToOnConflict(ast::ConflictAction a);

// The affinity a comparison of a with b applies to its operands ('@': none).
char CmpAffinity(const ast::Expr* a, const ast::Expr* b);

// Rows produced by a SELECT core go through a sink that applies DISTINCT,
// ORDER BY (sorter), OFFSET and LIMIT before reaching the destination.
struct RowSink {
  SelectDest* dest = nullptr;
  int n_result = 0;
  // EXPLAIN QUERY PLAN lines of the sink's temporary trees: SQLite lists
  // them after the loops' lines (EmitSinkEqp).
  std::vector<const char*> eqp_after_loops;
  // DISTINCT
  int distinct_cursor = -1;
  // ORDER BY via sorter
  int sorter_cursor = -1;
  ast::ExprList* order_by = nullptr;
  int n_order = 0;
  // key_col[i]: the result column whose value ORDER BY term i always has
  // (the same column reference), or -1. Such a result column is not stored
  // again after the keys in the sorter's records: it is read back from key
  // field i (SinkRow, DrainSorter). Every producer of rows for the sink
  // uses that result column's register as key i (ProduceRow).
  std::vector<int> key_col;
  bool bounded = false;  // the sorter keeps LIMIT + OFFSET rows (SorterLimit)
  // LIMIT / OFFSET
  int limit_reg = 0;
  int offset_reg = 0;
  int end_label = 0;  // where to go when the limit is reached
};

}  // namespace basalt
