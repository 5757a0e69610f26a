// Name resolution structures: the sources of a SELECT, the scopes that
// column names are looked up in, and what the resolver learns about each
// SELECT (attached to ast::Select::aux).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/schema.h"
#include "parser/ast.h"
#include "record/value.h"

namespace basalt {

struct SelectInfo;
struct WindowInfo;

// Expr::pflags bit: the value loses its subtype once computed (a flattened
// subquery's result expression read by the outer query).
inline constexpr uint8_t kExprClearSubtype = 0x80;

// One column of a source as name resolution sees it.
struct SourceColumn {
  std::string_view name;
  char affinity = 'A';              // 'A'..'E', '@' none (expression results)
  const Collation* coll = nullptr;  // null = BINARY
  std::string_view coll_name;       // "" unless a named collation applies
  std::string_view decl_type;
  const Table* origin_table = nullptr;
  int origin_column = -1;
  bool hidden = false;          // not part of `*` (USING/NATURAL right-side duplicates)
  std::string_view table_name;  // a nested join's column: the source it comes from
};

// A FROM-clause item after resolution.
struct Source {
  ast::FromItem* item = nullptr;
  std::string_view name;            // alias if given, else the table/view/CTE name
  const Table* table = nullptr;     // base table; null for subqueries, views, CTEs
  ast::Select* subquery = nullptr;  // subquery, view body or CTE body
  int cte = -1;                     // index into CompileContext-level CTE list, or -1
  int cursor = -1;
  std::vector<SourceColumn> columns;
  uint8_t join = 0;             // ast::JoinType with the previous source
  bool outer_nullable = false;  // right side of a LEFT JOIN: may be the null row
  ast::Expr* on = nullptr;      // ON / USING / NATURAL condition (resolved)
  // Parenthesised joins this source opens (outermost last), with how many
  // sources each spans: their own ON conditions apply here.
  std::vector<std::pair<ast::FromItem*, size_t>> groups;
  // USING/NATURAL: for each column of this source that is merged with a
  // column of an earlier source, the (source index, column) it merges with.
  std::vector<std::pair<int, int>> merged_with;  // per column; (-1,-1) if none
  // Per column (empty if none): a USING/NATURAL column carried through a
  // RIGHT or FULL JOIN reads as coalesce() of every column merged into it.
  std::vector<ast::Expr*> merged_expr;
  // Query flattening: a subquery/view merged into the outer query leaves a
  // `flattened` name-only source whose columns stand for flat_exprs, and
  // its own sources join the outer list with hidden_names (their names are
  // not visible to the outer query).
  bool flattened = false;
  ast::ExprList* flat_exprs = nullptr;
  bool hidden_names = false;
  // A parenthesised join made a subquery (an outer join onto several
  // sources): its columns are named by their own sources (table_name).
  bool nested_from = false;
  // A table-valued function `vtab(arg, ...)`: the hidden columns that take
  // the arguments, in order (the arguments are in item->func_args).
  std::vector<int> table_args;
};

// The aggregate part of a SELECT.
struct AggFunc {
  ast::Expr* expr = nullptr;  // the call
  const FunctionDef* def = nullptr;
  const Collation* coll = nullptr;
  int distinct_cursor = -1;  // ephemeral index for DISTINCT args
  int acc = -1;              // accumulator number
};

struct AggColumn {
  int cursor = -1;
  int column = -1;  // -1 rowid
  const Table* table = nullptr;
  ast::Expr* expr = nullptr;  // first reference (for affinity)
  int reg = -1;               // register holding the current group's value
  int sorter_column = -1;     // position in the GROUP BY sorter record
};

struct AggInfo {
  int id = 0;  // statement-unique; aggregate calls record it in Expr::reg
  std::vector<AggFunc> funcs;
  std::vector<AggColumn> columns;
  ast::ExprList* group_by = nullptr;
  int group_regs = -1;  // registers for the current GROUP BY values
};

// A scope in which names are looked up: one SELECT's sources, or a DML
// target, chained to enclosing scopes for correlated references.
struct Scope {
  Scope* outer = nullptr;
  std::vector<Source>* sources = nullptr;
  // Result columns, for ORDER BY / GROUP BY / HAVING alias references.
  ast::ExprList* result = nullptr;
  bool allow_result_alias = false;
  AggInfo* agg = nullptr;        // non-null where aggregate calls are allowed
  SelectInfo* select = nullptr;  // owning SELECT (null for DML scopes)
  bool has_agg = false;          // an aggregate call was seen in this scope
  // Trigger NEW/OLD pseudo tables: cursor numbers, -1 if not visible.
  const Table* trigger_table = nullptr;
  int new_base = -1;  // register base of NEW.* (rowid first, then columns)
  int old_base = -1;
  // Excluded pseudo table of an upsert.
  int excluded_base = -1;
  // Where an error message names a clause ("a GROUP BY clause" ...).
  const char* clause = nullptr;
  // Non-null where window functions are allowed (result columns, ORDER BY).
  WindowInfo* win = nullptr;
};

struct SelectInfo {
  std::vector<Source> sources;
  std::vector<ast::Expr*> flattened_where;  // WHERE clauses of flattened subqueries
  ast::ExprList* result = nullptr;          // result columns after * expansion
  std::vector<std::string> names;           // result column names
  AggInfo* agg = nullptr;                   // null unless aggregate or GROUP BY
  bool correlated = false;                  // refers to an enclosing query
  WindowInfo* win = nullptr;                // null unless it has window functions
  bool resolved = false;
  int depth = 0;
};

inline SelectInfo* InfoOf(const ast::Select* s) { return static_cast<SelectInfo*>(s->aux); }

}  // namespace basalt
