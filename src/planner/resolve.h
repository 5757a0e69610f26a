// Name resolution: binds column names, tables, functions and aliases in the
// AST, expands `*`, collects aggregates, and computes result column names.
// Results are written into the AST (Expr annotations, Select::aux).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "planner/context.h"
#include "planner/scope.h"

namespace basalt {

// A common table expression visible to FROM clauses.
struct CteEntry {
  ast::Cte* cte = nullptr;
  int cursor = -1;         // ephemeral table holding the materialized rows
  bool resolving = false;  // true while its own body is being resolved (recursion)
  bool recursive = false;  // refers to itself
  int queue_cursor = -1;   // recursive CTEs: cursor of the current-row queue
  int refs = 0;            // FROM references (outside its own body)
  std::vector<SourceColumn> columns;
  int id = 0;
};

class Resolver {
 public:
  explicit Resolver(CompileContext* ctx) : ctx_(ctx) {}

  // Resolves a SELECT (all compound parts, nested subqueries), in `outer`.
  bool ResolveSelect(ast::Select* s, Scope* outer);
  // `s` is an INSERT's single-row VALUES, which SQLite codes without a
  // SELECT: the authorizer is not asked about SQLITE_SELECT for it.
  void SkipSelectAuth(const ast::Select* s) { no_select_auth_ = s; }
  // Resolves an expression in `scope`. Aggregates are allowed only where
  // scope->agg is set.
  bool ResolveExpr(ast::Expr* e, Scope* scope);
  bool ResolveList(ast::ExprList* list, Scope* scope);

  // Builds the single source of a DML statement's target table.
  Source MakeTableSource(const Table* t, std::string_view alias, int cursor);

  // The column of one of info's sources (a subquery, view or CTE) that a
  // resolved column reference e reads, or null (a table column, an outer
  // reference, an expression).
  static const SourceColumn* SourceColumnOf(const SelectInfo* info, const ast::Expr* e);

  // Result column names as SQLite reports them.
  std::string ColumnName(const ast::ExprItem& item, const SelectInfo* info);

  // Affinity of an expression ('@' for none, 'A'..'E').
  static char ExprAffinity(const ast::Expr* e);
  // Whether e's value may carry a subtype: only a function (or ->) gives one.
  static bool MayHaveSubtype(ast::Expr* e);
  // Collation of an expression (null = BINARY, or when none is defined);
  // *explicit_coll tells whether it came from a COLLATE operator.
  const Collation* ExprCollation(const ast::Expr* e, bool* explicit_coll = nullptr);
  // Collation for comparing a and b (datatype3 7.1).
  const Collation* BinaryCollation(const ast::Expr* a, const ast::Expr* b);
  // Collation of `x IN (list)`: x's own (datatype3: "the collating sequence
  // of x"), except that a list of one item that is constant as written
  // (no column, function or subquery) is the comparison `x = item`, whose
  // collation may come from the item (SQLite rewrites it while parsing).
  // Null = BINARY.
  const Collation* InListCollation(const ast::Expr* in);

  const Collation* FindCollation(std::string_view name);

  // Makes the CTEs of a WITH clause visible (resolving their bodies);
  // PopWith(mark) hides those pushed since cte_mark() returned mark.
  bool PushWith(ast::With* with, Scope* outer);
  size_t cte_mark() const { return ctes_.size(); }
  void PopWith(size_t mark) { ctes_.resize(mark); }
  std::vector<CteEntry*>& ctes() { return ctes_; }
  std::vector<CteEntry*>& all_ctes() { return all_ctes_; }

  // The columns a resolved SELECT offers as a FROM source (names, affinity,
  // collation, origin).
  void SubqueryColumns(ast::Select* s, std::vector<SourceColumn>* out);

 private:
  bool ResolveSelectInner(ast::Select* s, Scope* outer);
  bool ResolveCompound(ast::Select* s, Scope* outer);
  bool ResolveCore(ast::Select* s, Scope* outer);
  bool AddSources(ast::FromList* from, SelectInfo* info, Scope* outer);
  // first_item: the item opens the FROM clause (a group there needs no
  // nesting for a RIGHT JOIN inside it).
  bool AddSource(ast::FromItem* item, SelectInfo* info, Scope* outer, bool first_item);
  bool NestAsSubquery(const ast::FromItem* item, bool first_item);
  bool AddNestedJoin(ast::FromItem* item, SelectInfo* info, Scope* outer);
  static bool SourceNamed(const Source& src, std::string_view tname);
  bool ApplyJoinConditions(SelectInfo* info, Scope* scope);
  bool AndJoinCondition(ast::Expr* on, Scope* scope, ast::Expr** cond);
  // a AND b, resolved (either may be null: the other is the result).
  ast::Expr* Conjoin(ast::Expr* a, ast::Expr* b);
  bool ApplyGroupConditions(SelectInfo* info, Scope* scope);
  bool ExpandResultColumns(ast::Select* s, SelectInfo* info);
  bool CheckStarColumn(const std::vector<Source>& srcs, size_t si, size_t c);
  bool ResolveOrderBy(ast::Select* s, ast::ExprList* order, Scope* scope, SelectInfo* info,
                      const char* kind);
  bool ResolveCompoundOrderBy(ast::Select* last);
  ast::ExprList* ExpandNullsOrder(ast::ExprList* order);
  bool ResolveColumn(ast::Expr* e, Scope* scope);
  // The steps of ResolveColumn within one scope `sc`, `depth` levels out
  // from `scope`: trigger NEW/OLD, the upsert's EXCLUDED, the sources of
  // the FROM clause, result-column aliases.
  enum class Lookup : uint8_t { kMissing, kBound, kFailed };
  Lookup BindTriggerRef(ast::Expr* e, Scope* sc);
  Lookup BindExcludedRef(ast::Expr* e, Scope* sc);
  Lookup BindSourceColumn(ast::Expr* e, Scope* scope, Scope* sc, int depth);
  Lookup BindResultAlias(ast::Expr* e, Scope* scope, Scope* sc, int depth);
  bool BindCoalescedColumn(ast::Expr* e, const std::vector<std::pair<const Source*, int>>& cols,
                           int depth);
  // coalesce(args...), resolved (args are); null after an error.
  ast::Expr* NewCoalesce(ast::ExprList* args, std::string_view span);
  // A name no scope knows: a string ("x"), TRUE/FALSE, or an error.
  bool BindUnknownName(ast::Expr* e);
  bool ResolveFunction(ast::Expr* e, Scope* scope);
  bool FunctionUsable(ast::Expr* e, const FunctionDef* def);
  // Window function calls (bind_window.cc).
  bool ResolveWindowCall(ast::Expr* e, Scope* scope, const FunctionDef* def);
  ast::Window* MergeWindow(const ast::Window* w, ast::Select* s, int depth);
  bool ResolveWindowExprs(ast::Window* w, Scope* scope);
  bool ResolveSubquery(ast::Select* s, Scope* scope);
  bool AnalyzeAggregates(ast::Select* s, SelectInfo* info);
  CteEntry* FindCte(std::string_view name);
  ast::Expr* NewColumnRef(const Source& src, int col, std::string_view span);
  // sqlite3_set_authorizer's SQLITE_READ of column col of t (-1: the
  // rowid). kIgnore: the reference reads NULL; kDenied: error recorded.
  AuthResult AuthorizeRead(const Table* t, int col);
  bool CanFlatten(ast::Select* sub, const ast::FromItem* item);
  // RIGHT and FULL JOIN (bind_outer_join.cc): the sources left of source
  // `i` become nullable; USING's left side when the FROM has such a join.
  bool MarkRightJoin(SelectInfo* info, size_t i);
  bool UsingLeftSide(SelectInfo* info, size_t i, std::string_view name, ast::Expr** left, int* lsrc,
                     int* lcol);
  bool FindEponymous(const ast::FromItem* item, Table** t);
  bool ConnectVirtual(Table* t);
  bool AddTableFunction(ast::FromItem* item, Source* src);
  bool AddTableArgs(Source* s, Scope* scope, ast::Expr** cond);

 public:
  // Number of values of a row-value operand (1 for a scalar).
  static int VectorSize(const ast::Expr* e);

 private:
  void FinishFlattening(ast::Select* s, SelectInfo* info);
  std::unordered_map<const ast::Expr*, std::string_view> flat_names_;

  CompileContext* ctx_;
  const ast::Select* no_select_auth_ = nullptr;
  std::vector<CteEntry*> ctes_;      // visible CTEs, innermost last
  std::vector<CteEntry*> all_ctes_;  // every CTE seen in the statement
  int agg_depth_ = 0;                // > 0 inside aggregate arguments
  int win_depth_ = 0;                // > 0 inside a window call's arguments or window
  int agg_counter_ = 0;              // ids of AggInfos
  // SQLite adds the height of each expression it resolves to a running sum
  // while resolving it (subqueries inside included) and fails once the sum
  // passes SQLITE_LIMIT_EXPR_DEPTH. expr_nesting_ is 0 at a top-level
  // expression of the SELECT being resolved.
  int expr_nesting_ = 0;
  // Top-level expressions begun so far, and the one in which a column read
  // was refused: as SQLite, further reads are still asked about until that
  // expression ends, then no more (AuthorizeRead).
  uint64_t top_exprs_ = 0;
  uint64_t read_denied_in_ = 0;
  int height_sum_ = 0;
  bool ResolveTopExpr(ast::Expr* e, Scope* scope);
  bool no_flatten_ = false;
  const ast::FromList* nested_join_from_ =
      nullptr;  // AddNestedJoin's FROM          // the FROM being added has a RIGHT/FULL JOIN
};

// True if two resolved expressions are structurally identical.
bool ExprEqual(const ast::Expr* a, const ast::Expr* b);

}  // namespace basalt
