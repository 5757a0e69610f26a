// WHERE-clause analysis and access-path planning for one SELECT core (or the
// scan of an UPDATE/DELETE): splits the condition into AND-terms, finds the
// terms an index or rowid lookup can use, orders the joined sources, and
// picks one access path per loop.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "planner/context.h"
#include "planner/resolve.h"
#include "planner/scope.h"

namespace basalt {

using SourceMask = uint64_t;

enum class TermOp : uint8_t { kNone, kEq, kIs, kLt, kLe, kGt, kGe, kIn, kIsNull };

struct WhereTerm {
  ast::Expr* expr = nullptr;  // the whole term (evaluated as a filter)
  SourceMask prereq = 0;      // sources the term refers to
  int on_source = -1;         // from the ON clause of this (outer-joined) source
  int after_rj = -1;          // not testable before this RIGHT JOIN's source (-1: none)
  bool coded = false;         // fully enforced by an access path
  // Index-usable form: <source>.<column> <op> <rhs>.
  TermOp op = TermOp::kNone;
  int src = -1;     // source index of the column side
  int column = -2;  // table column, -1 = rowid
  ast::Expr* col_expr = nullptr;
  ast::Expr* rhs = nullptr;  // null for IS NULL; the kIn expr for kIn
  SourceMask rhs_prereq = 0;
  char cmp_affinity = '@';  // affinity of the comparison
  const Collation* coll = nullptr;
  bool from_between = false;  // half of a BETWEEN (the BETWEEN itself stays a filter)
  bool disabled = false;      // never evaluate (e.g. replaced by its halves)
};

// Whether term t may drive a lookup into source `src` (index `si`) as far
// as outer joins go: the inner side of a LEFT JOIN, and the table of a
// RIGHT JOIN, only by their own ON terms; no source by a term that applies
// after a RIGHT JOIN later than it.
inline bool OuterJoinUsable(const Source& src, int si, const WhereTerm& t) {
  if (t.after_rj > si) return false;
  if (t.on_source >= 0) return t.on_source == si;
  return !src.outer_nullable && (src.join & ast::kJoinRight) == 0;
}

enum class AccessKind : uint8_t {
  kFullScan,    // whole table (or index, for a covering scan)
  kRowidEq,     // rowid = value (or IN values)
  kRowidRange,  // rowid between bounds
  kIndex,       // equality prefix (eq terms), optional range on the next column
  kVirtual,     // a virtual table scan as its BestIndex chose (LoopPlan::vtab)
};

// What a virtual table's BestIndex chose for one loop.
struct VtabPlan {
  // One Filter argument: the value, or for `col IN (...)` the IN
  // expression (each of its values drives one Filter call).
  struct Arg {
    ast::Expr* value = nullptr;
    ast::Expr* in = nullptr;
  };
  int idx_num = 0;
  std::string_view idx_str;         // in the statement's arena
  std::vector<Arg> args;            // in argv order
  std::vector<WhereTerm*> omitted;  // terms the table enforces itself
  bool order_consumed = false;
  bool unique = false;  // SQLITE_INDEX_SCAN_UNIQUE: at most one row
  // MULTI-INDEX OR (or_term set, SQLite's plan for an OR whose every
  // disjunct the table can drive): one scan per disjunct, each with its own
  // plan in `branches`; a row an earlier branch delivered (same rowid) is
  // skipped. The OR term itself is then never evaluated.
  WhereTerm* or_term = nullptr;
  std::vector<VtabPlan*> branches;
  // In a branch: its disjunct's AND-parts the table does not enforce,
  // tested on each of the branch's rows.
  std::vector<ast::Expr*> residual;
};

struct LoopPlan {
  int src = -1;
  AccessKind access = AccessKind::kFullScan;
  const Index* index = nullptr;
  bool covering = false;       // the index holds every column the query needs
  std::vector<WhereTerm*> eq;  // one per index column prefix (or the rowid term)
  WhereTerm* lower = nullptr;  // range bounds on the next column (or rowid)
  WhereTerm* upper = nullptr;
  bool reverse = false;          // scan backwards (ORDER BY ... DESC)
  bool full_index_scan = false;  // every entry of `index` (no constraint)
  // A RIGHT JOIN's table: the index the pass over its unmatched rows scans
  // (null: the table), the one a covering scan of the table alone would use;
  // SQLite plans that pass as such a scan, so its rows come in that order.
  const Index* rj_scan_index = nullptr;
  bool minmax = false;             // stops at the first row for min()/max(): EXPLAIN says SEARCH
  const VtabPlan* vtab = nullptr;  // kVirtual
  double rows = 0;                 // estimated rows per outer iteration
  double cost = 0;
};

struct WherePlan {
  std::vector<WhereTerm> terms;
  std::vector<LoopPlan> loops;  // outermost first
  bool order_by_satisfied = false;
  bool group_by_satisfied = false;
};

struct PlanRequest {
  std::vector<Source>* sources = nullptr;
  ast::Expr* where = nullptr;
  ast::ExprList* order_by = nullptr;  // to try to satisfy by index order
  ast::ExprList* group_by = nullptr;
  // Columns the query reads, per source (for covering-index decisions);
  // empty vector = unknown (then no covering scans). bit 63 = "rowid".
  std::vector<std::vector<bool>>* used_columns = nullptr;
  bool one_row = false;  // e.g. scalar subquery (no effect yet)
  // Only the first row in order_by's order is read (min()/max()): a path
  // that delivers the order wins, as in SQLite, whatever its full cost.
  bool first_row_only = false;
  // The scan that finds the rows of a DELETE / UPDATE: as SQLite's (which
  // asks for a one-pass plan), it never reads a whole index instead of a
  // rowid table, so the rows change in the order SQLite changes them.
  bool dml_rows = false;
};

class WherePlanner {
 public:
  WherePlanner(CompileContext* ctx, Resolver* resolver) : ctx_(ctx), resolver_(resolver) {}
  // Builds the plan. Terms point into the request's expressions.
  bool Plan(const PlanRequest& req, WherePlan* plan);

  // Source mask of the sources an expression refers to.
  SourceMask ExprMask(const ast::Expr* e) const;

 private:
  void SplitAnd(ast::Expr* e, int on_source, WherePlan* plan);
  void Classify(WhereTerm* t);
  void AddOrAsIn(const WhereTerm& t);
  void BestAccess(int src, SourceMask ready, WherePlan* plan, LoopPlan* out);
  void AllAccess(int src, SourceMask ready, WherePlan* plan, std::vector<LoopPlan>* cands);
  // Virtual tables (where_vtab.cc): the plan BestIndex gives when the
  // sources in `ready` are available; false (error set) if it failed.
  bool VirtualAccess(int src, SourceMask ready, WherePlan* plan, std::vector<LoopPlan>* cands);
  // One BestIndex call offering `terms` (and, if `whole`, the ORDER BY);
  // the plan goes to *out (rows = cost = 1e300 when the table refuses it).
  bool OfferToVtab(int src, SourceMask ready, const std::vector<WhereTerm*>& terms, bool whole,
                   LoopPlan* out);
  // BestIndex's answer (Filter arguments in argv order, omitted terms)
  // as a loop plan; false (error set) on a malformed answer.
  bool PlanFromAnswer(int src, const IndexInfo& info, const std::vector<WhereTerm*>& terms,
                      const std::vector<VtabPlan::Arg>& values, LoopPlan* out);
  // The MULTI-INDEX OR plans for the OR terms on virtual table `src`.
  bool VirtualOrAccess(int src, SourceMask ready, WherePlan* plan, std::vector<LoopPlan>* cands);
  bool OrderSatisfied(const LoopPlan& loop, const ast::ExprList* order, bool* reverse) const;
  bool MinMaxOuterFirst(std::vector<int>* order, bool fixed_order, WherePlan* plan);
  const Index* UnmatchedRowsIndex(int src, WherePlan* plan);

  CompileContext* ctx_;
  Resolver* resolver_;
  const PlanRequest* req_ = nullptr;
  bool rj_unmatched_pass_ = false;  // planning a RIGHT JOIN's unmatched-rows scan
  std::vector<int> cursor_to_src_;
  int min_cursor_ = 0;
  std::vector<WhereTerm> pending_;  // virtual terms made while classifying
};

}  // namespace basalt
