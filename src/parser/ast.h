// The abstract syntax tree produced by the parser.
//
// All nodes live in the statement's Arena (trivially destructible, linked by
// raw pointers; names are string_views into the arena or the SQL text).
// Expressions use one node type (like SQLite's Expr): the meaning of the
// generic fields depends on `kind`, documented per kind below. Later layers
// annotate nodes in place (the "planner annotations" fields) and may rewrite
// a node's kind; the parser leaves annotations at their defaults.
#pragma once

#include <cassert>
#include <cstdint>
#include <string_view>

#include "common/arena.h"

namespace basalt {

struct Table;  // catalog object, only pointed to by annotations

namespace ast {

struct Expr;
struct Select;
struct Window;

// ---- Expressions -------------------------------------------------------------

enum class ExprKind : uint8_t {
  kNull,         // NULL
  kInteger,      // ival: value (a literal that does not fit int64 is kReal); text: literal
                 // as written. `-9223372036854775808` (minus applied to that literal)
                 // is folded into one kInteger INT64_MIN by the parser.
  kReal,         // rval: value; text: literal as written
  kString,       // text: dequoted string
  kBlob,         // text: decoded bytes of x'..'
  kBool,         // ival 0/1: TRUE / FALSE when they are not column names (resolver). The
                 // parser makes kBool only for `DEFAULT true|false`; elsewhere TRUE and
                 // FALSE are kColumn and the resolver decides.
  kCurrentTime,  // op: kCurTime / kCurDate / kCurTimestamp
  kParam,        // param_index: 1-based parameter number; text: name as written ("?", "?3", ":a")
  kColumn,       // [schema.][table.]column: schema, table, text = column name
  kStar,         // `*` or `table.*` in a result list (table = qualifier, may be empty)
  kUnary,        // op applied to left
  kBinary,       // left op right
  kCollate,      // left COLLATE text
  kCast,         // CAST(left AS text)  (text = type name as written, may be empty)
  kBetween,      // left BETWEEN list[0] AND list[1]; flags kNot
  kIn,           // left IN (list) | left IN (select) | left IN table (text = table
                 // name, schema); flags kNot. left may be a kVector. `IN ()` has an
                 // empty non-null list. For `IN tablefunc(args)` list holds the args.
  kLike,         // left op right [ESCAPE escape]; op kLike/kGlob/kRegexp/kMatch; flags kNot
                 // (left is the string, right the pattern; `escape` field, or null)
  kIsNull,       // left ISNULL / IS NULL
  kNotNull,      // left NOTNULL / NOT NULL / IS NOT NULL
  kCase,         // CASE [left] WHEN list[0] THEN list[1] ... [ELSE right] END
  kFunction,  // text(args in list) [FILTER (WHERE filter)] [OVER over]; flags kDistinct, kStarArg
              // (list is null for f() and f(*))
  kExists,    // EXISTS (select)
  kSubquery,  // (select) used as a scalar
  kVector,    // (list[0], list[1], ...) row value
  kRaise,     // RAISE(op, text): op kRaiseIgnore / kRaiseRollback / kRaiseAbort / kRaiseFail
  // (kColumn: kDoubleQuoted is set when the column part was written "name".)
  kVectorElement,  // element ival (0-based) of the row value `left` (a kSubquery or
                   // kVector); made by the parser for SET (a,b) = (SELECT ..)

  // Kinds produced by later layers, never by the parser.
  kResolvedColumn,  // cursor/column filled in (column -1 = rowid)
  kRegister,        // value is in VM register `reg`
  kAggregate,       // a resolved aggregate call: agg = index into the select's list
};

enum class Op : uint8_t {
  kNone,
  // unary
  kNeg,
  kPlus,
  kBitNot,
  kNot,
  // binary, loosest to tightest grouping as in lang_expr "Operators"
  kOr,
  kAnd,
  kEq,
  kNe,
  kIs,
  kIsNot,  // = == | != <> | IS [DISTINCT FROM..] handled by parser
  kLt,
  kLe,
  kGt,
  kGe,
  kBitAnd,
  kBitOr,
  kShl,
  kShr,
  kAdd,
  kSub,
  kMul,
  kDiv,
  kMod,
  kConcat,
  kJsonArrow,
  kJsonArrow2,  // -> and ->>
  // kLike
  kLike,
  kGlob,
  kRegexp,
  kMatch,
  // kCurrentTime
  kCurTime,
  kCurDate,
  kCurTimestamp,
  // kRaise
  kRaiseIgnore,
  kRaiseRollback,
  kRaiseAbort,
  kRaiseFail,
};

enum ExprFlags : uint16_t {
  kNot = 1 << 0,            // NOT BETWEEN / NOT IN / NOT LIKE
  kDistinct = 1 << 1,       // f(DISTINCT x)
  kStarArg = 1 << 2,        // f(*)
  kDoubleQuoted = 1 << 3,   // kColumn written as "name" (may fall back to a string)
  kParenthesized = 1 << 4,  // written inside ( )
  kFromJoinOn = 1 << 5,     // (planner) term came from an ON clause
  kSchemaText = 1 << 6,     // (planner) parsed from stored schema text (a CHECK, a
                            // DEFAULT, an index expression...), not the statement
};

enum class SortOrder : uint8_t { kUnspecified, kAsc, kDesc };
enum class NullsOrder : uint8_t { kUnspecified, kFirst, kLast };

struct ExprItem {
  Expr* expr = nullptr;
  std::string_view name;  // alias (AS name) in result lists; column name in SET / IdLists
  SortOrder order = SortOrder::kUnspecified;
  NullsOrder nulls = NullsOrder::kUnspecified;
  bool name_quoted = false;  // alias was quoted (informational)
};

struct ExprList {
  ArenaVec<ExprItem> items;
  size_t size() const { return items.size(); }
  Expr* operator[](size_t i) const { return items[i].expr; }
};

struct Expr {
  ExprKind kind = ExprKind::kNull;
  Op op = Op::kNone;
  uint16_t flags = 0;
  int32_t height = 0;  // (parser) tree height as SQLite counts it (limit 1000)
  // The expression's source text, exactly as written. Exceptions, made so the
  // text is what SQLite shows: the top expression of a result column (and of
  // RETURNING) spans to the start of the next token, whitespace trimmed, so
  // trailing comments are included (column names); CHECK (...) and
  // DEFAULT (...) expressions span the text between the parentheses,
  // whitespace trimmed (CHECK constraint messages, dflt_value).
  std::string_view span;

  Expr* left = nullptr;
  Expr* right = nullptr;
  ExprList* list = nullptr;
  Select* select = nullptr;
  Expr* filter = nullptr;  // FILTER (WHERE ...) of an aggregate/window call
  Window* over = nullptr;  // OVER (...) / OVER name
  Expr* escape = nullptr;  // kLike: ESCAPE expression

  union {
    int64_t ival = 0;
    double rval;
  };
  std::string_view text;    // see kinds
  std::string_view table;   // qualifier (kColumn, kStar), table name (kIn table)
  std::string_view schema;  // qualifier (kColumn, kIn table)
  int32_t param_index = 0;

  // ---- planner annotations (defaults from the parser) ----
  int32_t cursor = -1;
  int32_t column = -1;
  int32_t reg = -1;
  int32_t agg = -1;
  int32_t depth = 0;           // nesting distance of a correlated column reference
  const Table* tab = nullptr;  // table of a resolved column
  const void* aux = nullptr;   // planner-private pointer (function def, collation, ...)
  char affinity = 0;           // cached affinity letter, 0 = not computed
  uint8_t pflags = 0;          // planner-private flags

  bool has(uint16_t f) const { return (flags & f) != 0; }
};

// ---- FROM clause -------------------------------------------------------------

enum JoinType : uint8_t {
  kJoinComma = 0,       // `a, b` (or the first item)
  kJoinInner = 1 << 0,  // [INNER] JOIN
  kJoinCross = 1 << 1,  // CROSS JOIN
  kJoinNatural = 1 << 2,
  kJoinLeft = 1 << 3,   // LEFT [OUTER]
  kJoinRight = 1 << 4,  // RIGHT [OUTER]
  kJoinFull = kJoinLeft | kJoinRight,
};

struct FromList;

struct IdList {
  ArenaVec<std::string_view> names;
  size_t size() const { return names.size(); }
};

struct FromItem {
  std::string_view schema;
  std::string_view name;          // table/view/CTE name; empty for a subquery
  std::string_view alias;         // AS alias
  Select* subquery = nullptr;     // ( select ) [AS alias]
  ExprList* func_args = nullptr;  // table-valued function name(args)
  FromList* nested = nullptr;     // ( join-clause ) in parentheses
  uint8_t join = kJoinComma;      // how this item joins to the items before it.
                                  // (parser) JOIN, INNER JOIN, CROSS JOIN and NATURAL
                                  // JOIN carry kJoinInner (with kJoinCross /
                                  // kJoinNatural); LEFT / RIGHT / FULL [OUTER] carry
                                  // only their bits (and kJoinNatural if given)
  Expr* on = nullptr;
  IdList* using_cols = nullptr;
  std::string_view indexed_by;  // INDEXED BY name
  bool not_indexed = false;     // NOT INDEXED

  // ---- planner annotations ----
  int32_t cursor = -1;
  const Table* tab = nullptr;
  void* aux = nullptr;
};

struct FromList {
  ArenaVec<FromItem*> items;
  size_t size() const { return items.size(); }
  FromItem* operator[](size_t i) const { return items[i]; }
};

// ---- WITH, windows, SELECT ----------------------------------------------------

struct Cte {
  std::string_view name;
  IdList* columns = nullptr;
  Select* select = nullptr;
  int8_t materialized = -1;  // -1 unspecified, 1 MATERIALIZED, 0 NOT MATERIALIZED
};

struct With {
  bool recursive = false;
  ArenaVec<Cte*> ctes;
};

enum class FrameUnit : uint8_t { kNone, kRows, kRange, kGroups };
enum class FrameBound : uint8_t {
  kUnboundedPreceding,
  kPreceding,
  kCurrentRow,
  kFollowing,
  kUnboundedFollowing
};
enum class FrameExclude : uint8_t { kNoOthers, kCurrentRow, kGroup, kTies };

struct Window {
  std::string_view name;  // name in WINDOW name AS (...), or OVER name
  std::string_view base;  // base window name inside ( )
                          // (window names are kept as written, quotes included:
                          // SQLite matches them without dequoting)
  ExprList* partition = nullptr;
  ExprList* order = nullptr;
  FrameUnit unit = FrameUnit::kNone;  // kNone: no frame clause
  FrameBound start = FrameBound::kUnboundedPreceding;
  Expr* start_expr = nullptr;
  FrameBound end = FrameBound::kCurrentRow;
  Expr* end_expr = nullptr;
  FrameExclude exclude = FrameExclude::kNoOthers;
};

enum class CompoundOp : uint8_t { kNone, kUnion, kUnionAll, kIntersect, kExcept };

// One SELECT core, or a compound: `prior <op> this`. ORDER BY / LIMIT /
// OFFSET / WITH of a compound are on its last (rightmost) Select.
struct Select {
  CompoundOp op = CompoundOp::kNone;
  Select* prior = nullptr;
  bool distinct = false;
  ExprList* columns = nullptr;  // result columns; kStar items for * and t.*
  FromList* from = nullptr;
  Expr* where = nullptr;
  ExprList* group_by = nullptr;
  Expr* having = nullptr;
  ArenaVec<Window*> windows;   // WINDOW clause
  ArenaVec<ExprList*> values;  // VALUES (..),(..): rows; columns/from null then
  ExprList* order_by = nullptr;
  Expr* limit = nullptr;
  Expr* offset = nullptr;
  With* with = nullptr;
  std::string_view span;

  // ---- planner annotations ----
  void* aux = nullptr;
  uint32_t pflags = 0;
};

// ---- Statements -----------------------------------------------------------------

enum class StmtKind : uint8_t {
  kSelect,
  kInsert,
  kUpdate,
  kDelete,
  kCreateTable,
  kCreateIndex,
  kCreateView,
  kCreateTrigger,
  kCreateVirtualTable,
  kDrop,
  kAlterTable,
  kBegin,
  kCommit,
  kRollback,
  kSavepoint,
  kRelease,
  kPragma,
  kVacuum,
  kReindex,
  kAnalyze,
  kAttach,
  kDetach,
};

enum class ConflictAction : uint8_t { kDefault, kRollback, kAbort, kFail, kIgnore, kReplace };

struct Stmt {
  StmtKind kind;
  uint8_t explain = 0;    // 1 EXPLAIN, 2 EXPLAIN QUERY PLAN
  std::string_view span;  // statement text without the trailing ';'
  explicit Stmt(StmtKind k) : kind(k) {}
  template <typename T>
  T* As() {
    assert(kind == T::kKind);
    return static_cast<T*>(this);
  }
  template <typename T>
  const T* As() const {
    assert(kind == T::kKind);
    return static_cast<const T*>(this);
  }
};

struct SelectStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kSelect;
  SelectStmt() : Stmt(kKind) {}
  Select* select = nullptr;
};

struct Upsert {
  ExprList* target = nullptr;  // ON CONFLICT (indexed columns) — null if omitted
  Expr* target_where = nullptr;
  bool do_nothing = true;
  ExprList* sets = nullptr;  // DO UPDATE SET: item.name = column, item.expr = value
  Expr* where = nullptr;
  Upsert* next = nullptr;  // several ON CONFLICT clauses
};

// SET assignments (UPDATE and upsert): each item's name is the column. A
// row-value assignment (a,b) = (x,y) is expanded by the parser into the items
// a = x, b = y; (a,b) = (SELECT ..) into a = kVectorElement(0, sub),
// b = kVectorElement(1, sub), both pointing at the same kSubquery node.
struct InsertStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kInsert;
  InsertStmt() : Stmt(kKind) {}
  With* with = nullptr;
  ConflictAction on_conflict = ConflictAction::kDefault;  // INSERT OR x / REPLACE
  bool is_replace = false;                                // written as REPLACE INTO
  std::string_view schema, table, alias;
  IdList* columns = nullptr;  // (a, b, c) or null
  Select* select = nullptr;   // VALUES rows or a SELECT; null for DEFAULT VALUES
  bool default_values = false;
  Upsert* upsert = nullptr;
  ExprList* returning = nullptr;
};

struct UpdateStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kUpdate;
  UpdateStmt() : Stmt(kKind) {}
  With* with = nullptr;
  ConflictAction on_conflict = ConflictAction::kDefault;
  FromItem* target = nullptr;  // qualified-table-name (schema, name, alias, INDEXED BY)
  ExprList* sets = nullptr;    // item.name = column, item.expr = value
  FromList* from = nullptr;    // UPDATE ... FROM
  Expr* where = nullptr;
  ExprList* returning = nullptr;
  ExprList* order_by = nullptr;
  Expr* limit = nullptr;
  Expr* offset = nullptr;
};

struct DeleteStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kDelete;
  DeleteStmt() : Stmt(kKind) {}
  With* with = nullptr;
  FromItem* target = nullptr;
  Expr* where = nullptr;
  ExprList* returning = nullptr;
  ExprList* order_by = nullptr;
  Expr* limit = nullptr;
  Expr* offset = nullptr;
};

// ---- CREATE TABLE ----

enum class ConstraintKind : uint8_t {
  kPrimaryKey,
  kNotNull,
  kNull,
  kUnique,
  kCheck,
  kDefault,
  kCollate,
  kReferences,
  kGenerated,
};

struct ForeignKey {
  std::string_view table;     // parent table
  IdList* columns = nullptr;  // parent columns (may be null)
  // ON DELETE / ON UPDATE actions: 0 none, 1 SET NULL, 2 SET DEFAULT, 3 CASCADE,
  // 4 RESTRICT, 5 NO ACTION
  uint8_t on_delete = 0, on_update = 0;
  int8_t deferrable = -1;  // -1 unspecified, 0 not deferrable, 1 initially deferred,
                           // 2 deferrable initially immediate
};

struct ColumnConstraint {
  ConstraintKind kind;
  std::string_view name;  // CONSTRAINT name
  ConflictAction on_conflict = ConflictAction::kDefault;
  SortOrder order = SortOrder::kUnspecified;  // PRIMARY KEY ASC/DESC
  bool autoincrement = false;
  Expr* expr = nullptr;        // CHECK / DEFAULT / GENERATED AS expression
  std::string_view collation;  // COLLATE name
  ForeignKey* fk = nullptr;    // REFERENCES
  bool stored = false;         // GENERATED ... STORED (else VIRTUAL)
};

struct ColumnDef {
  std::string_view name;
  std::string_view type;  // declared type as SQLite records it: the source text from
                          // the first to the last type token (inner spacing kept,
                          // "VARCHAR (10)"), a trailing "GENERATED ALWAYS" removed,
                          // then dequoted the way SQLite does ("'abc' def" -> abc);
                          // INT INTEGER REAL TEXT BLOB ANY in any case come out in
                          // upper case, as SQLite records them
  ArenaVec<ColumnConstraint*> constraints;
};

struct TableConstraint {
  ConstraintKind kind;  // kPrimaryKey, kUnique, kCheck, kReferences (FOREIGN KEY)
  std::string_view name;
  ExprList* columns = nullptr;  // PRIMARY KEY / UNIQUE indexed columns (expr + COLLATE + order)
  ConflictAction on_conflict = ConflictAction::kDefault;
  bool autoincrement = false;
  Expr* check = nullptr;
  IdList* fk_columns = nullptr;  // FOREIGN KEY (cols)
  ForeignKey* fk = nullptr;
};

struct CreateTableStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kCreateTable;
  CreateTableStmt() : Stmt(kKind) {}
  // Source text from the object name as written (after any `schema.`) to
  // where SQLite ends the text it stores: sqlite_schema.sql is
  // "CREATE TABLE " + body_text (empty for CREATE TABLE ... AS SELECT)
  std::string_view body_text;
  bool temp = false, if_not_exists = false;
  std::string_view schema, name;
  std::string_view name_text;  // the name's token as written (quotes kept)
  ArenaVec<ColumnDef*> columns;
  ArenaVec<TableConstraint*> constraints;
  Select* as_select = nullptr;
  bool without_rowid = false, strict = false;
};

struct CreateIndexStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kCreateIndex;
  CreateIndexStmt() : Stmt(kKind) {}
  // Source text from the object name as written (after any `schema.`) to
  // where SQLite ends the text it stores: sqlite_schema.sql is
  // "CREATE [UNIQUE ]INDEX " + body_text
  std::string_view body_text;
  bool unique = false, if_not_exists = false;
  std::string_view schema, name, table;
  ExprList* columns = nullptr;  // indexed columns: expr (kColumn or expression), COLLATE
                                // as a kCollate wrapper, item.order ASC/DESC
  Expr* where = nullptr;
};

struct CreateViewStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kCreateView;
  CreateViewStmt() : Stmt(kKind) {}
  // Source text from the object name as written (after any `schema.`) to
  // where SQLite ends the text it stores: sqlite_schema.sql is
  // "CREATE VIEW " + body_text
  std::string_view body_text;
  bool temp = false, if_not_exists = false;
  std::string_view schema, name;
  std::string_view name_text;  // the name's token as written (quotes kept)
  IdList* columns = nullptr;
  Select* select = nullptr;
};

enum class TriggerTime : uint8_t { kBefore, kAfter, kInsteadOf };
enum class TriggerEvent : uint8_t { kDelete, kInsert, kUpdate };

struct CreateTriggerStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kCreateTrigger;
  CreateTriggerStmt() : Stmt(kKind) {}
  // Source text from the object name as written (after any `schema.`) to
  // where SQLite ends the text it stores: sqlite_schema.sql is
  // "CREATE TRIGGER " + body_text
  std::string_view body_text;
  bool temp = false, if_not_exists = false;
  std::string_view schema, name;
  std::string_view name_text;               // the name's token as written (quotes kept)
  bool uses_params = false;                 // a parameter anywhere in the statement
  TriggerTime time = TriggerTime::kBefore;  // default when omitted: BEFORE
  TriggerEvent event = TriggerEvent::kInsert;
  IdList* update_columns = nullptr;  // UPDATE OF a, b
  std::string_view table;
  std::string_view table_schema;  // ON schema.table (parser addition)
  bool for_each_row = false;
  Expr* when = nullptr;
  ArenaVec<Stmt*> body;  // INSERT / UPDATE / DELETE / SELECT statements
};

struct CreateVirtualTableStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kCreateVirtualTable;
  CreateVirtualTableStmt() : Stmt(kKind) {}
  // Source text from the object name as written (after any `schema.`) to
  // where SQLite ends the text it stores: sqlite_schema.sql is
  // "CREATE VIRTUAL TABLE " + body_text
  std::string_view body_text;
  bool if_not_exists = false;
  std::string_view schema, name, module;
  std::string_view name_text;       // the name's token as written (quotes kept)
  ArenaVec<std::string_view> args;  // module arguments, as written
};

enum class ObjectKind : uint8_t { kTable, kIndex, kView, kTrigger };

struct DropStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kDrop;
  DropStmt() : Stmt(kKind) {}
  ObjectKind object = ObjectKind::kTable;
  bool if_exists = false;
  std::string_view schema, name;
};

struct AlterTableStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAlterTable;
  AlterTableStmt() : Stmt(kKind) {}
  enum Action : uint8_t { kRenameTable, kRenameColumn, kAddColumn, kDropColumn } action;
  std::string_view schema, table;
  std::string_view old_name, new_name;  // rename forms; drop: old_name
  bool new_name_quoted = false;         // the new name was written quoted ("x", [x], `x`, 'x')
  ColumnDef* column = nullptr;          // ADD COLUMN
  std::string_view column_text;         // ADD COLUMN: the column definition as written
};

enum class TransactionMode : uint8_t { kDeferred, kImmediate, kExclusive };

struct BeginStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kBegin;
  BeginStmt() : Stmt(kKind) {}
  TransactionMode mode = TransactionMode::kDeferred;
};
struct CommitStmt : Stmt {  // COMMIT / END
  static constexpr StmtKind kKind = StmtKind::kCommit;
  CommitStmt() : Stmt(kKind) {}
};
struct RollbackStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kRollback;
  RollbackStmt() : Stmt(kKind) {}
  std::string_view savepoint;  // ROLLBACK TO [SAVEPOINT] name; empty for a full rollback
};
struct SavepointStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kSavepoint;
  SavepointStmt() : Stmt(kKind) {}
  std::string_view name;
};
struct ReleaseStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kRelease;
  ReleaseStmt() : Stmt(kKind) {}
  std::string_view name;
};

struct PragmaStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kPragma;
  PragmaStmt() : Stmt(kKind) {}
  std::string_view schema, name;
  Expr* value = nullptr;   // PRAGMA x = value / PRAGMA x(value); identifiers and keywords
                           // (ON, FULL, ...) come as kString with their text; signed
                           // numbers as kInteger/kReal (a leading '-' folded in)
  bool call_form = false;  // PRAGMA x(value)
};

struct VacuumStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kVacuum;
  VacuumStmt() : Stmt(kKind) {}
  std::string_view schema;
  Expr* into = nullptr;
};

struct ReindexStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kReindex;
  ReindexStmt() : Stmt(kKind) {}
  std::string_view schema, name;  // both empty: everything
};

struct AnalyzeStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAnalyze;
  AnalyzeStmt() : Stmt(kKind) {}
  std::string_view schema, name;
};

struct AttachStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAttach;
  AttachStmt() : Stmt(kKind) {}
  Expr* file = nullptr;
  Expr* name = nullptr;
  Expr* key = nullptr;
};

struct DetachStmt : Stmt {
  static constexpr StmtKind kKind = StmtKind::kDetach;
  DetachStmt() : Stmt(kKind) {}
  Expr* name = nullptr;
};

}  // namespace ast
}  // namespace basalt
