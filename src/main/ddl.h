// The DDL executor: CREATE / DROP of tables, indexes, views and triggers,
// REINDEX, ANALYZE, ATTACH and DETACH. It changes a database's
// sqlite_schema rows and B-trees directly, inside the statement's
// transaction and savepoint (opened by the caller on the databases
// Access() names), and keeps the in-memory Schema in step.
//
// Each statement runs twice through the same code: once as a dry run at
// prepare time (Validate: the checks only, as SQLite reports "table t
// already exists" when preparing), then for real at its first step (Exec).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "catalog/function.h"
#include "common/arena.h"
#include "common/status.h"
#include "exec/program.h"
#include "exec/vm.h"
#include "main/alter_rows.h"
#include "main/limits.h"
#include "main/schema_store.h"
#include "main/transaction.h"
#include "main/vtab_manager.h"
#include "parser/ast.h"
#include "planner/context.h"

namespace basalt {

namespace alter {
struct Resolution;
}  // namespace alter

class Vfs;

class DdlExecutor {
 public:
  DdlExecutor(SchemaStore* store, TransactionController* txn, VtabManager* vtabs,
              const FunctionRegistry* funcs, const CompileOptions* options, VmEnv* env)
      : store_(store), txn_(txn), vtabs_(vtabs), funcs_(funcs), options_(options), env_(env) {}

  // The checks of Exec without changing anything; *error_offset is set for
  // errors SQLite locates in the text.
  Status Validate(ast::Stmt* st, std::string_view text, Arena* arena, int* error_offset);
  Status Exec(ast::Stmt* st, Arena* arena);

  // The databases the statement reads and writes (transactions the caller
  // opens before Exec). Valid after a successful Validate.
  void Access(ast::Stmt* st, DbMask* read_mask, DbMask* write_mask) const;

  // How ATTACH opens files: the connection's open flags and VFS.
  void SetOpenDefaults(int flags, Vfs* vfs) {
    open_flags_ = flags;
    vfs_ = vfs;
  }
  // The connection's limits (sqlite3_limit; ATTACH checks kAttached).
  void SetLimits(const Limits* limits) { limits_ = limits; }
  // The connection's authorizer: CREATE TABLE ... AS SELECT asks it about
  // its query (and the schema row it then fills in) when validated.
  void SetAuth(const AuthHook* auth) { auth_ = auth; }
  // SQLITE_TESTCTRL_IMPOSTER. While on, CREATE TABLE in database db (0 main,
  // 1 temp, ...) makes an imposter: a table only in the in-memory schema
  // whose rows are B-tree `root` (an index's or a WITHOUT ROWID table's),
  // nothing written to the file. Off with a root > 0 drops the imposters
  // again (SQLite resets the schemas, which forgets them).
  void SetImposter(int db, bool on, uint32_t root);
  // Bound parameters (1-based) of the statement Exec runs (ATTACH ? AS ?).
  void SetParams(const std::vector<Value>* params) { params_ = params; }

  // A compile context over this connection's databases and functions.
  void InitContext(CompileContext* ctx, Arena* arena) const;
  void UseDdlQuoting(CompileContext* ctx) const;
  // Runs a program to its end (index builds, CREATE TABLE ... AS SELECT).
  Status Run(Program* prog);

 private:
  // ddl_create.cc
  Status CreateTable(ast::CreateTableStmt* st, Arena* arena);
  Status CreateImposter(ast::CreateTableStmt* st, Arena* arena);
  Status CreateTableAs(ast::CreateTableStmt* st, Arena* arena, struct BuiltTable* built);
  Status FillTableAs(Database* db, const Table* t, ast::CreateTableStmt* st);
  Status CheckTableExprs(ast::CreateTableStmt* st, const Table* t, Arena* arena);
  Status CreateIndex(ast::CreateIndexStmt* st, Arena* arena);
  Status CreateView(ast::CreateViewStmt* st, Arena* arena);
  Status CreateTrigger(ast::CreateTriggerStmt* st, Arena* arena);
  Status CreateVirtualTable(ast::CreateVirtualTableStmt* st);
  Status BuildIndexRows(Index* idx, Arena* arena);
  // ddl_drop.cc
  Status Drop(ast::DropStmt* st);
  Status DropTable(ast::DropStmt* st);
  // With foreign keys on: the DELETE of every row DROP TABLE runs first
  // (foreignkeys.html section 5), which fails on an immediate violation.
  Status DeleteBeforeDrop(const Table* t);
  Status Reindex(ast::ReindexStmt* st);
  // ddl_alter.cc, ddl_alter_add.cc
  Status AlterTable(ast::AlterTableStmt* st, Arena* arena);
  Status RenameTable(ast::AlterTableStmt* st, Table* t);
  Status RenameColumn(ast::AlterTableStmt* st, Table* t);
  Status AddColumn(ast::AlterTableStmt* st, Table* t, Arena* arena);
  Status DropColumn(ast::AlterTableStmt* st, Table* t);
  Status DropColumnRows(Database* db, const Table* t, int col);
  Status DropColumnKeyedRows(Database* db, const Table* t, int field);
  Status CheckRowsAfterAdd(int dbi, std::string_view table);
  Status CheckAddedTable(const std::string& table_sql, const std::string& name, Arena* arena);
  // "table sqlite_master may not be altered" for system tables.
  Status CheckAlterable(const Table* t);
  // Whether an unqualified `name` in TEMP's views and triggers finds the
  // table of database dbi.
  bool TempSeesTable(int dbi, std::string_view name) const;
  // Every view and trigger of database dbi (and TEMP's) still compiles.
  // `when` follows the object's name in the message (" after rename").
  Status CheckViews(int dbi, bool temp, std::string_view when = "");
  Status CheckView(Database* db, const std::string& name, CompileContext* ctx, Arena* arena);
  Status CheckTrigger(Database* db, const std::string& name, CompileContext* ctx);
  // alter_resolve.cc: what resolving schema row `row` of db says about
  // column `col` of `t` (col < 0: only its double-quoted strings).
  Status ResolveNames(Database* db, const SchemaRowText& row, const Table* t, int col,
                      alter::Resolution* res);
  // Bumps the cookie and reads the edited schemas again.
  Status FinishAlter(int dbi, bool temp_changed);
  // ddl_analyze.cc
  Status Analyze(ast::AnalyzeStmt* st);
  Status AnalyzeTable(Database* db, const Table& t);
  Status EnsureStatTable(Database* db);
  // Compiles and runs one statement of SQL (ANALYZE's sqlite_stat1 rows).
  Status RunSql(const std::string& sql);
  // ddl_attach.cc
  Status Attach(ast::AttachStmt* st);
  Status Detach(ast::DetachStmt* st);
  Status EvalName(ast::Expr* e, std::string* out, bool* is_null);

  // The database a CREATE puts its object in: `schema` as written, the TEMP
  // keyword (`temp`), or main. Errors: an unknown database, a qualified
  // name with TEMP ("temporary <what> name must be unqualified").
  Status TargetDb(std::string_view schema, bool temp, const char* what, int* db);
  // A name that is free in database db for a new table, view or index;
  // `written` is the name's token as written (for the message).
  Status CheckNameFree(Database* db, std::string_view name, std::string_view written,
                       bool if_not_exists, bool* exists, std::string_view text);
  // Records the offset of `where` for sqlite3_error_offset (dry runs).
  void SetErrorOffset(std::string_view where);
  // "db.name" as SQLite's messages spell a qualified object.
  std::string Qualified(int db, std::string_view name) const;

  SchemaStore* store_;
  TransactionController* txn_;
  VtabManager* vtabs_;
  const FunctionRegistry* funcs_;
  const CompileOptions* options_;
  VmEnv* env_;
  int open_flags_ = 0x6;  // SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
  Vfs* vfs_ = nullptr;
  const std::vector<Value>* params_ = nullptr;
  bool dry_run_ = false;
  const AuthHook* auth_ = nullptr;
  std::string_view text_;  // the statement text during Validate
  int* error_offset_ = nullptr;
  const Limits* limits_ = nullptr;
  // SetImposter: the database and root while on (-1 / 0 when off), and the
  // imposters made, by database and name.
  int imposter_db_ = -1;
  uint32_t imposter_root_ = 0;
  std::vector<std::pair<int, std::string>> imposters_;
};

}  // namespace basalt
