// State shared by name resolution, planning and code generation while one
// statement is compiled.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "catalog/catalog.h"
#include "catalog/function.h"
#include "catalog/schema.h"
#include "common/arena.h"
#include "common/status.h"
#include "parser/ast.h"
#include "planner/passes.h"
#include "record/value.h"

namespace basalt {

// Connection settings that change how statements compile: the boolean
// PRAGMAs (main/pragma_flags.cc sets them; a change makes compiled
// statements compile again). Defaults are those of SQLite's reference build.
struct CompileOptions {
  // Passes switched off (PassBit mask; passes.h).
  uint32_t disabled_passes = 0;
  // SQLITE_LIMIT_COLUMN: result columns, ORDER BY / GROUP BY terms (api_limits.cc
  // keeps it equal to the connection's limit).
  int max_columns = 2000;
  // SQLITE_LIMIT_EXPR_DEPTH, for the sum of heights of nested expressions
  // (api_limits.cc keeps it equal to the connection's limit).
  int max_expr_depth = 1000;
  bool PassOn(Pass p) const { return (disabled_passes & PassBit(p)) == 0; }

  bool case_sensitive_like = false;
  bool recursive_triggers = false;
  bool foreign_keys = false;
  bool reverse_unordered_selects = false;
  bool short_column_names = true;
  bool full_column_names = false;
  bool automatic_index = true;
  bool cell_size_check = false;
  bool checkpoint_fullfsync = false;
  bool count_changes = false;
  // Cleared when a transaction ends (main/connection.cc).
  bool defer_foreign_keys = false;
  bool empty_result_callbacks = false;
  bool fullfsync = false;
  bool ignore_check_constraints = false;
  bool legacy_alter_table = false;
  // Writes fail with SQLITE_READONLY (main/transaction.cc).
  bool query_only = false;
  bool read_uncommitted = false;
  bool trusted_schema = true;
  bool writable_schema = false;
  // A preupdate hook is set (sqlite3_preupdate_hook): no DELETE truncates.
  bool preupdate_hook = false;
  // sqlite3_db_config switches (api/api_config.cc). Without enable_trigger
  // only TEMP triggers fire; without enable_view only TEMP views may be
  // used. A double-quoted name that matches no column becomes a string
  // when the statement's kind allows it: dqs_dml for the statement's own
  // expressions, dqs_schema for expressions parsed from stored schema text
  // (the DDL executor sets both from DQS_DDL while it checks a CREATE).
  bool enable_trigger = true;
  bool enable_view = true;
  bool dqs_dml = true;
  bool dqs_schema = true;
  bool dqs_ddl = true;  // SQLITE_DBCONFIG_DQS_DDL, read by the DDL executor
};

// What ALTER TABLE learns from compiling one view or trigger (main/ddl_alter):
// where, in its schema text, names resolved to columns and where
// double-quoted names fell back to strings. Offsets are into `source`.
struct NameWatch {
  struct ColumnRef {
    size_t offset;  // the start of the reference (its qualifier, if any)
    const Table* table;
    int column;  // -1: the rowid
  };
  std::string_view source;  // the watched text (the catalog's string, by address)
  std::string_view copy;    // its parsed copy (set by ParseStmt)
  std::vector<ColumnRef> columns;
  std::vector<size_t> dq_strings;

  // Offset of `span` in the source, or npos when it lies in other text
  // (another view's or trigger's body met while compiling).
  size_t OffsetOf(std::string_view span) const {
    if (copy.empty() || span.data() < copy.data() || span.data() >= copy.data() + copy.size()) {
      return std::string_view::npos;
    }
    return static_cast<size_t>(span.data() - copy.data());
  }
};

// sqlite3_set_authorizer: fn(arg, action, arg1, arg2, database, trigger)
// answers SQLITE_OK (0), SQLITE_DENY (1) or SQLITE_IGNORE (2) for each
// action a statement is compiled to perform (the SQLITE_* action codes of
// sqlite3.h). fn null: everything is allowed.
struct AuthHook {
  int (*fn)(void*, int, const char*, const char*, const char*, const char*) = nullptr;
  void* arg = nullptr;
};
// The action codes (sqlite3.h SQLITE_CREATE_INDEX ... SQLITE_RECURSIVE).
enum AuthAction : int {
  kAuthCreateIndex = 1,
  kAuthCreateTable = 2,
  kAuthCreateTempIndex = 3,
  kAuthCreateTempTable = 4,
  kAuthCreateTempTrigger = 5,
  kAuthCreateTempView = 6,
  kAuthCreateTrigger = 7,
  kAuthCreateView = 8,
  kAuthDelete = 9,
  kAuthDropIndex = 10,
  kAuthDropTable = 11,
  kAuthDropTempIndex = 12,
  kAuthDropTempTable = 13,
  kAuthDropTempTrigger = 14,
  kAuthDropTempView = 15,
  kAuthDropTrigger = 16,
  kAuthDropView = 17,
  kAuthInsert = 18,
  kAuthPragma = 19,
  kAuthRead = 20,
  kAuthSelect = 21,
  kAuthTransaction = 22,
  kAuthUpdate = 23,
  kAuthAttach = 24,
  kAuthDetach = 25,
  kAuthAlterTable = 26,
  kAuthReindex = 27,
  kAuthAnalyze = 28,
  kAuthCreateVtable = 29,
  kAuthDropVtable = 30,
  kAuthFunction = 31,
  kAuthSavepoint = 32,
  kAuthRecursive = 33,
};
// The answers Authorize returns.
enum class AuthResult : uint8_t { kOk, kIgnore, kDenied };
// Asks `hook` about one action; a denial ("not authorized", SQLITE_AUTH) or
// an answer other than OK/DENY/IGNORE ("authorizer malfunction") is
// returned in *error.
AuthResult Authorize(const AuthHook& hook, int action, const char* arg1, const char* arg2,
                     const char* db, Status* error);

struct CompileContext {
  Arena* arena = nullptr;
  const Catalog* catalog = nullptr;  // the connection's databases
  VtabHost* vtabs = nullptr;         // virtual tables (may be null: none)
  // While compiling the body of a view or trigger of a non-TEMP database:
  // that database's index, to which unqualified names bind; else -1.
  int fixed_db = -1;
  // > 0 while compiling the body of a view or trigger (any database): what
  // SQLite calls a FROM item "from DDL", where risky virtual tables are
  // refused (see Resolver::ConnectVirtual).
  int schema_depth = 0;
  // Functions in schema expressions (Resolver::ResolveFunction): set while
  // resolving generated columns of a new table, which are "from DDL" too;
  // and while resolving CHECK constraints, which SQLite exempts.
  bool schema_exprs = false;
  bool check_exprs = false;
  const FunctionRegistry* funcs = nullptr;
  CompileOptions options;
  std::string_view sql;  // the statement's text
  AuthHook auth;         // asked about SELECTs and column reads while binding

  int n_cursors = 0;
  bool explain_plan = false;  // collect EXPLAIN QUERY PLAN lines
  // Compiling the DELETE that DROP TABLE runs first when foreign keys are
  // on: no triggers fire, and keys whose parent is missing are no error.
  bool fk_drop_delete = false;
  NameWatch* name_watch = nullptr;  // ALTER TABLE's checks only
  Status error;                     // first error seen

  int AllocCursor() { return n_cursors++; }
  bool failed() const { return !error.ok(); }
  // Records the first error; returns false so callers can `return Error(..)`.
  bool Error(int code, std::string msg) {
    if (error.ok()) error = Status(code, msg);
    return false;
  }
  bool Error(std::string msg) { return Error(kError, std::move(msg)); }
  // An error about the text `where` (a span of `sql`): records its offset
  // for sqlite3_error_offset().
  bool ErrorAt(std::string_view where, std::string msg) {
    if (error.ok() && where.data() >= sql.data() && where.data() < sql.data() + sql.size()) {
      error_offset = static_cast<int>(where.data() - sql.data());
    }
    return Error(kError, std::move(msg));
  }
  int error_offset = -1;

  // Looks a table or view (index) up by SQLite's rules (catalog.h).
  Table* FindTable(std::string_view schema_name, std::string_view name) const {
    return catalog->FindTable(schema_name, name, fixed_db);
  }
  Index* FindIndex(std::string_view schema_name, std::string_view name) const {
    return catalog->FindIndex(schema_name, name, fixed_db);
  }
  // "no such table: NAME" (false), qualified as SQLite shows it: with the
  // schema the SQL named, or inside a view or trigger of a database other
  // than TEMP with that database (where unqualified names bind).
  bool NoSuchTable(std::string_view schema_name, std::string_view name) {
    std::string shown;
    if (!schema_name.empty()) {
      shown = std::string(schema_name) + ".";
    } else if (fixed_db >= 0) {
      shown = catalog->name(fixed_db) + ".";
    }
    return Error("no such table: " + shown + std::string(name));
  }
  // The views whose bodies are being resolved, innermost last: a view met
  // again inside its own expansion is circularly defined.
  std::vector<const Table*> expanding_views;
  class ViewExpansion {
   public:
    ViewExpansion(CompileContext* ctx, const Table* view) : ctx_(ctx) {
      ctx->expanding_views.push_back(view);
    }
    ~ViewExpansion() { ctx_->expanding_views.pop_back(); }
    ViewExpansion(const ViewExpansion&) = delete;
    ViewExpansion& operator=(const ViewExpansion&) = delete;

   private:
    CompileContext* ctx_;
  };

  // Makes unqualified names bind to the database of a view or trigger
  // (owner) while the guard lives; a TEMP owner keeps the search order.
  class FixedDbScope {
   public:
    FixedDbScope(CompileContext* ctx, const Schema* owner) : ctx_(ctx), saved_(ctx->fixed_db) {
      if (owner != nullptr) ctx->fixed_db = owner->is_temp() ? -1 : owner->db_index;
      ++ctx->schema_depth;
    }
    ~FixedDbScope() {
      ctx_->fixed_db = saved_;
      --ctx_->schema_depth;
    }
    FixedDbScope(const FixedDbScope&) = delete;
    FixedDbScope& operator=(const FixedDbScope&) = delete;

   private:
    CompileContext* ctx_;
    int saved_;
  };

  // Parses an expression / a SELECT / a statement from schema text into the
  // arena (views, defaults, checks, triggers). Null with `error` set on failure.
  ast::Expr* ParseExpr(std::string_view text);
  ast::Select* ParseSelect(std::string_view text);
  ast::Stmt* ParseStmt(std::string_view text);
};

}  // namespace basalt
