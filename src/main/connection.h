// A database connection: the main (and temp) database, its schema, the
// function registry, transaction state, and statement preparation.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "btree/btree.h"
#include "catalog/function.h"
#include "catalog/schema.h"
#include "common/status.h"
#include "exec/vm.h"
#include "planner/context.h"

namespace basalt {

class Statement;
class Vfs;

// Result column names of a PRAGMA (known before it runs).
std::vector<std::string> PragmaColumnNames(const ast::PragmaStmt* st);
// False for the setting forms of pragmas that change only the connection
// (busy_timeout, synchronous, ...): they work while the file is locked or
// not yet readable.
bool PragmaUsesDb(const ast::PragmaStmt* st);

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
  void set_last_insert_rowid(int64_t v) { env_.last_insert_rowid = v; }

  Btree* main_db() { return main_.get(); }
  Schema& schema() { return schema_; }
  FunctionRegistry& funcs() { return funcs_; }
  CompileOptions& options() { return options_; }
  VmEnv* env() { return &env_; }
  bool autocommit() const { return autocommit_; }
  const std::string& filename() const { return filename_; }
  void set_api_handle(void* db) { env_.api_db = db; }
  // sqlite3_interrupt: safe from any thread (the running step polls the
  // flag with relaxed loads).
  void Interrupt() { interrupted_.store(1, std::memory_order_relaxed); }
  bool read_only() const { return read_only_; }

  // ---- statement lifecycle (called by Statement) ----
  // Before the first step: opens the transaction and statement savepoint.
  // kSchema: the schema was reloaded (the transaction is open); compile
  // again and call once more, or EndFailedBegin().
  Status BeginStatement(bool writes, bool uses_db, bool stmt_journal, int* stmt_savepoint);
  // Ends the transaction a BeginStatement that returned kSchema left open.
  void EndFailedBegin() { (void)CommitIfAutocommit(); }
  // After the last step: `ok` false means the statement failed with an
  // error whose conflict action is `action` (OnConflict numbering).
  Status EndStatement(bool writes, int stmt_savepoint, bool ok, int action, int error_code,
                      int64_t changes, bool counts_changes, int64_t total_changes);
  void StatementReset() {}

  // ---- direct statements (ddl.cc, transaction.cc, pragma.cc) ----
  Status ExecTransaction(ast::Stmt* st);
  // VACUUM [INTO ...]; params: the statement's bound values (1-based).
  Status ExecVacuum(ast::VacuumStmt* st, const std::vector<Value>& params);
  Status ExecDdl(ast::Stmt* st, std::string_view sql, Arena* arena);
  // The checks of ExecDdl without changing anything (at prepare time, as
  // SQLite reports "table t already exists" and the like when preparing).
  Status ValidateDdl(ast::Stmt* st, std::string_view text, Arena* arena);
  // PRAGMA: result rows into *rows, column names into *names.
  Status ExecPragma(ast::PragmaStmt* st, std::vector<std::string>* names,
                    std::vector<std::vector<Value>>* rows);
  // A read-only PRAGMA as the table-valued function pragma_<name>(arg).
  Status PragmaRows(std::string_view name, std::string_view arg, std::vector<std::string>* names,
                    std::vector<std::vector<Value>>* rows);

  // Rebuilds the in-memory schema from sqlite_schema.
  Status LoadSchema();
  // Loads the schema if it has not been read yet (a file database is read
  // lazily, at the first prepare). An error is kept in *deferred when the
  // file cannot be read: statements that never touch the database still
  // work, as in SQLite ("SELECT 1" on a file that is not a database).
  Status EnsureSchema();
  // True when the database is a file (not ":memory:" or a temporary).
  bool is_file() const { return is_file_; }
  // sqlite3_busy_timeout: ms <= 0 turns the handler off.
  void SetBusyTimeout(int ms);
  int busy_timeout() const { return busy_timeout_ms_; }
  // sqlite3_busy_handler: what every pager of the connection calls when a
  // lock is busy (null: none). Replaces the busy timeout (which reads 0).
  void SetBusyHandler(BusyHandler handler);
  // sqlite3_close: rolls back the open transaction, if any, so that the
  // destructor has nothing left to undo (and no failure to meet).
  Status RollbackForClose() { return active_ == 0 ? RollbackAll() : Status(); }
  // After an exception (out of memory) escaped preparing or running a
  // statement, whatever it was doing may be half done: with no statement
  // running, the transaction is rolled back (as SQLite does after
  // SQLITE_NOMEM) and the schema is read again at the next prepare.
  void RecoverAfterException();
  // The error that makes the database unusable (file not a database, ...),
  // OK when there is none.
  const Status& open_error() const { return open_error_; }
  // Status kSchema: the schema was reloaded because another connection
  // changed it; the statement must be compiled again.
  Status CheckSchemaCookie();
  int active_statements() const { return active_; }
  // Byte offset of the error of the last failed prepare (or -1).
  int last_error_offset() const { return last_error_offset_; }
  void set_last_error_offset(int v) { last_error_offset_ = v; }

 private:
  Connection() = default;
  Status EnsureTransaction(bool write);
  Status CommitIfAutocommit();
  Status RollbackAll();
  Status CreateTable(ast::CreateTableStmt* st, std::string_view sql, Arena* arena);
  Status CreateIndex(ast::CreateIndexStmt* st, std::string_view sql, Arena* arena);
  Status CreateView(ast::CreateViewStmt* st, std::string_view sql);
  Status CreateTrigger(ast::CreateTriggerStmt* st, std::string_view sql);
  Status Drop(ast::DropStmt* st);
  Status AlterTable(ast::AlterTableStmt* st, Arena* arena);
  Status BuildIndex(Index* idx, Arena* arena);
  Status CheckTableExprs(ast::CreateTableStmt* st, const Table* t, Arena* arena);
  Status RunProgram(Program* prog);
  Status InsertSchemaRow(std::string_view type, std::string_view name, std::string_view tbl,
                         uint32_t root, std::string_view sql);
  Status DeleteSchemaRows(std::string_view name);
  Status DeleteRowsNamed(uint32_t root, std::string_view name);
  Status DropTrees(std::vector<uint32_t> roots);
  Status MoveSchemaRoot(uint32_t from, uint32_t to);
  Status CreateSequenceTable();
  Status BumpSchemaCookie();
  // sqlite_schema records through a B-tree cursor, in UTF-8 whatever the
  // database's text encoding (schema_rows.cc).
  // Reads the row under `cur` into *rec and decodes its first n fields into
  // v (NULL past the end; text borrows from *rec); *nfields: fields stored.
  Status ReadSchemaFields(BtCursor* cur, std::string* rec, Value* v, int n, int* nfields);
  Status WriteSchemaRecord(BtCursor* cur, int64_t rowid, const std::string& rec);
  // The main database's text encoding (record.h TextEncoding): from page 1,
  // or the one PRAGMA encoding chose for a database not yet created.
  void SetTextEncoding(uint8_t enc);
  // Row-level integrity checks of table t (integrity_rows.cc): NOT NULL,
  // and with `full` index entries and counts; stops at max_errors messages.
  void CheckTableRows(const Table& t, bool full, size_t max_errors, std::vector<std::string>* msgs);
  Status ExecEncodingPragma(ast::PragmaStmt* st, std::vector<std::string>* names,
                            std::vector<std::vector<Value>>* rows);

  friend class Statement;

  Status OpenMainFile(Vfs* vfs, const std::string& path, int flags);
  Status RetryBusyOpen();
  Status ExecStoragePragma(const std::string& name, ast::PragmaStmt* st, bool* handled,
                           std::vector<std::string>* names, std::vector<std::vector<Value>>* rows);
  // vacuum.cc
  Status ValidateVacuum(ast::VacuumStmt* st);
  void VacuumTargetFormat(uint32_t* page_size, int* auto_vacuum);
  Status VacuumMain();
  Status VacuumInto(const std::string& target);
  Status VacuumIntoName(ast::Expr* e, const std::vector<Value>& params, std::string* out);

  std::string filename_;
  std::string path_;  // the file (empty for in-memory databases)
  int open_flags_ = 0;
  Vfs* vfs_ = nullptr;  // where the file lives (null: in-memory database)
  // What the next VACUUM builds: PRAGMA page_size / auto_vacuum requests
  // the database could not take at once (0 / -1: none).
  uint32_t vacuum_page_size_ = 0;
  int vacuum_auto_vacuum_ = -1;
  bool is_file_ = false;
  bool schema_loaded_ = false;
  uint64_t schema_epoch_ = ~uint64_t{0};  // pager cache epoch at the last cookie check
  Status open_error_;
  int busy_timeout_ms_ = 0;
  BusyHandler busy_handler_;  // applied to each pager (SetBusyHandler)
  int synchronous_ = 2;
  int cache_size_ = -2000;
  int wal_autocheckpoint_ = 1000;
  int64_t journal_size_limit_ = -1;
  bool exclusive_locking_ = false;
  uint8_t enc_ = 1;  // TextEncoding of the main database
  std::unique_ptr<Btree> main_;
  Schema schema_;
  FunctionRegistry funcs_;
  CompileOptions options_;
  VmEnv env_;
  bool autocommit_ = true;
  bool read_only_ = false;
  int active_ = 0;               // statements between first step and completion
  int explicit_savepoints_ = 0;  // btree savepoint levels used by SAVEPOINT
  std::vector<std::string> savepoint_names_;
  bool savepoint_txn_ = false;  // the transaction was started by SAVEPOINT
  bool schema_changed_in_txn_ = false;
  int64_t changes_ = 0;
  int64_t total_changes_ = 0;
  std::atomic<int> interrupted_{0};  // set by Interrupt() from any thread
  int last_error_offset_ = -1;
  bool ddl_dry_run_ = false;
  std::string_view ddl_text_;
  void SetDdlErrorOffset(std::string_view where);
};

}  // namespace basalt
