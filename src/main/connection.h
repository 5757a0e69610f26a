// A database connection: its databases (SchemaStore: main, TEMP, attached),
// the transaction controller, the DDL executor, the function registry and
// the settings statements compile with; and statement preparation.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "btree/btree.h"
#include "catalog/function.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/vm.h"
#include "main/ddl.h"
#include "main/limits.h"
#include "main/pragma.h"
#include "main/schema_store.h"
#include "main/transaction.h"
#include "main/vtab_manager.h"
#include "planner/context.h"
#include "record/collation_set.h"

namespace basalt {

class Statement;
class Vfs;

class Connection : public ConnectionHooks {
 public:
  // Opens `filename` (":memory:" or "" for a private in-memory database).
  // `vfs`: where files live (null: the process's unix VFS; tests pass an
  // in-memory or fault-injecting one).
  static Result<std::unique_ptr<Connection>> Open(std::string_view filename, int flags,
                                                  Vfs* vfs = nullptr);
  ~Connection() override;

  // Prepares the first statement of `sql`; *tail is set to the offset just
  // past it. A null statement (OK status) means `sql` held no statement.
  Result<std::unique_ptr<Statement>> Prepare(std::string_view sql, size_t* tail);

  // ConnectionHooks
  int64_t LastInsertRowid() override { return env_.last_insert_rowid; }
  int64_t Changes() override { return changes_; }
  int64_t TotalChanges() override { return total_changes_; }
  // Puts back counts saved before work that must not count (blob I/O).
  void RestoreChanges(int64_t changes, int64_t total) {
    changes_ = changes;
    total_changes_ = total;
  }
  Status VtabBegin(Vtab* vt) override { return vtabs_.Join(vt, txn_.savepoint_depth()); }
  int Limit(int id) override { return limits_.Set(id, -1); }
  void set_last_insert_rowid(int64_t v) { env_.last_insert_rowid = v; }

  Btree* main_db() { return store_.main()->bt.get(); }
  // The main database's schema (its generation feeds schema_generation()).
  Schema& schema() { return store_.main()->schema; }
  SchemaStore& dbs() { return store_; }
  TransactionController& txn() { return txn_; }
  VtabManager& vtabs() { return vtabs_; }
  // Disconnects every connected virtual table when no statement is running
  // (sqlite3_close does so before it looks for unfinalized statements, so
  // a module's own prepared statements go with it). Statements compiled
  // against them are expired and reconnect when run again.
  void DisconnectVtabsIfIdle();
  FunctionRegistry& funcs() { return funcs_; }
  CompileOptions& options() { return options_; }
  VmEnv* env() { return &env_; }
  // sqlite3_limit.
  Limits& limits() { return limits_; }
  // sqlite3_create_collation: user collations (installed as the current
  // CollationScope while this connection prepares and steps statements).
  CollationSet& collations() { return collations_; }
  // sqlite3_set_authorizer (asked while statements compile).
  AuthHook& auth() { return auth_; }
  // Compiled statements compile again before their next run.
  void ExpireStatements() { store_.Invalidate(); }
  bool autocommit() const { return txn_.autocommit(); }
  const std::string& filename() const { return filename_; }
  void set_api_handle(void* db) { env_.api_db = db; }
  void Interrupt() { interrupted_.store(1, std::memory_order_relaxed); }
  bool read_only() const { return store_.main()->read_only; }
  // Moves whenever a statement compiled earlier may be out of date.
  uint64_t schema_generation() const { return store_.generation(); }

  // A compile context over this connection's databases and functions.
  void InitCompileContext(CompileContext* ctx, Arena* arena, std::string_view sql) const;

  // ---- statement lifecycle (called by Statement) ----
  // Before the first step: transactions on the databases the statement
  // reads and writes, and its statement savepoint. kSchema: a schema was
  // reloaded (the transactions stay open); compile again and call once
  // more, or EndFailedBegin().
  Status BeginStatement(DbMask read_mask, DbMask write_mask, bool stmt_journal, int* stmt_savepoint,
                        bool writes_vtab = false);
  void EndFailedBegin() { txn_.EndFailedBegin(); }
  // After the last step: `ok` false means the statement failed with an
  // error whose conflict action is `action` (OnConflict numbering).
  Status EndStatement(DbMask write_mask, int stmt_savepoint, bool ok, int action, int error_code,
                      int64_t changes, bool counts_changes, int64_t total_changes);

  // ---- direct statements ----
  Status ExecTransaction(ast::Stmt* st);
  // VACUUM [schema] [INTO ...]; params: the statement's bound values (1-based).
  Status ExecVacuum(ast::VacuumStmt* st, const std::vector<Value>& params);
  DdlExecutor& ddl() { return ddl_; }
  // PRAGMA (the table of main/pragma.h): result rows into *rows, column
  // names into *names.
  Status ExecPragma(ast::PragmaStmt* st, std::vector<std::string>* names,
                    std::vector<std::vector<Value>>* rows);
  // Connection state of pragmas that do not change how statements compile.
  PragmaSettings& pragma_settings() { return pragma_settings_; }

  // Reads the main database's schema if not done yet (see Database).
  Status EnsureSchema() { return store_.EnsureSchema(Catalog::kMain); }
  // True when the main database is a file (not ":memory:" or a temporary).
  bool is_file() const { return store_.main()->is_file; }
  // sqlite3_busy_timeout: ms <= 0 turns the handler off.
  void SetBusyTimeout(int ms);
  int busy_timeout() const { return busy_timeout_ms_; }
  // sqlite3_busy_handler: what every database's pager calls when a lock is
  // busy (null: none). Replaces the busy timeout (which then reads 0).
  void SetBusyHandler(BusyHandler handler);
  // sqlite3_close: rolls back the open transaction, if any, so that the
  // destructor has nothing left to undo (and no failure to meet).
  Status RollbackForClose() { return txn_.active() == 0 ? txn_.RollbackAll() : Status(); }
  // After an exception (out of memory) escaped preparing or running a
  // statement, whatever it was doing may be half done: with no statement
  // running, the transaction is rolled back (as SQLite does after
  // SQLITE_NOMEM) and the main schema is read again at the next prepare.
  void RecoverAfterException();
  // The error that makes the main database unusable, OK when there is none.
  const Status& open_error() const { return store_.main()->open_error; }
  int active_statements() const { return txn_.active(); }
  // Byte offset of the error of the last failed prepare (or -1).
  int last_error_offset() const { return last_error_offset_; }
  void set_last_error_offset(int v) { last_error_offset_ = v; }

 private:
  Connection();
  // After a failed prepare: true if a file database's schema changed under
  // us (so the statement should compile again).
  bool SchemaMayHaveChanged();

  // After a statement or COMMIT / ROLLBACK: resets what lasts only until
  // the end of a transaction (defer_foreign_keys).
  void TransactionMayHaveEnded();
  // pragma.cc: at prepare, a PRAGMA naming an unknown database fails
  // (text: the statement's text, for the error offset).
  Status ValidatePragma(const ast::PragmaStmt* st, std::string_view text);
  // vacuum.cc
  // Checks the database name at prepare (its offset for sqlite3_error_offset).
  Status ValidateVacuum(ast::VacuumStmt* st, std::string_view text);
  void VacuumTargetFormat(Database* db, uint32_t* page_size, int* auto_vacuum);
  Status AuthorizeVacuum(const std::string& into);
  Status VacuumInPlace(int dbi);
  Status VacuumInto(int dbi, const std::string& target);
  Status VacuumIntoName(ast::Expr* e, const std::vector<Value>& params, std::string* out);

  friend class Statement;

  std::string filename_;
  int open_flags_ = 0;
  Vfs* vfs_ = nullptr;  // the VFS files are opened through
  VmEnv env_;
  SchemaStore store_;
  VtabManager vtabs_;
  TransactionController txn_;
  FunctionRegistry funcs_;
  CompileOptions options_;
  PragmaSettings pragma_settings_;
  // A statement used a database since the last transaction ended.
  bool used_db_in_txn_ = false;
  DdlExecutor ddl_;
  int busy_timeout_ms_ = 0;
  int64_t changes_ = 0;
  int64_t total_changes_ = 0;
  std::atomic<int> interrupted_{0};
  int last_error_offset_ = -1;
  Limits limits_;
  CollationSet collations_;
  AuthHook auth_;
};

}  // namespace basalt
