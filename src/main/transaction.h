// The transaction controller: autocommit, BEGIN / COMMIT / ROLLBACK,
// SAVEPOINT / RELEASE / ROLLBACK TO, and the statement savepoints that undo
// a failed statement, across all the databases of a connection.
//
// States and transitions:
//   1. Autocommit (autocommit() true, no user transaction). BeginStatement
//      opens a read or write transaction on each database the statement
//      uses (its read and write masks); when the last active statement ends
//      CommitIfAutocommit commits every database in a transaction.
//   2. User transaction (BEGIN, or a SAVEPOINT outside a transaction).
//      Databases join lazily, as statements use them: BEGIN DEFERRED opens
//      nothing, BEGIN IMMEDIATE / EXCLUSIVE open a write transaction on every
//      open database at once. COMMIT / RELEASE of the outermost savepoint
//      commit; ROLLBACK undoes every database.
//   3. Savepoint levels are shared by all databases: level i is the i-th
//      open SAVEPOINT, then one level per statement that needs a statement
//      journal. A database that starts writing opens the levels it missed
//      (empty), so ROLLBACK TO and RELEASE apply to every database alike.
//   4. Several databases written in one transaction commit each in turn, in
//      database order (main, temp, attached); see CommitAll.
// A DDL statement marks its database schema_changed_in_txn; whenever a
// rollback may have undone it, that database's schema is read again.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/status.h"
#include "exec/vm.h"
#include "main/schema_store.h"
#include "main/vtab_manager.h"
#include "parser/ast.h"

namespace basalt {

// One bit per database index (main = bit 0).
using DbMask = uint32_t;
inline constexpr DbMask DbBit(int i) { return DbMask{1} << i; }

// sqlite3_commit_hook / sqlite3_rollback_hook (a null function: none).
// The commit hook runs before a write transaction commits; nonzero turns
// the commit into a rollback (SQLITE_CONSTRAINT_COMMITHOOK). The rollback
// hook runs when a write or user transaction is rolled back.
struct TxnHooks {
  int (*commit)(void*) = nullptr;
  void* commit_arg = nullptr;
  void (*rollback)(void*) = nullptr;
  void* rollback_arg = nullptr;
};

class TransactionController {
 public:
  TransactionController(SchemaStore* store, VtabManager* vtabs) : store_(store), vtabs_(vtabs) {}

  bool autocommit() const { return autocommit_; }
  // PRAGMA query_only: while *flag is set, starting to write any database
  // fails with SQLITE_READONLY.
  void WatchQueryOnly(const bool* flag) { query_only_ = flag; }
  // The connection's deferred foreign key violations (exec/vm.h): a
  // transaction may not commit while there are any (COMMIT fails and the
  // transaction stays open; a statement in autocommit mode fails and is
  // rolled back). Savepoints keep them as they were; the end of the
  // transaction clears them.
  void WatchForeignKeys(FkCounters* fk) { fk_ = fk; }
  TxnHooks& hooks() { return hooks_; }
  // Statements between their first step and their end; those among them
  // that write (COMMIT must wait for these, not for readers).
  int active() const { return active_; }
  int active_writers() const { return active_writers_; }

  // Opens a transaction on database i (or upgrades a read transaction to a
  // write one). kSchema: another connection changed that database's schema
  // and it was read again; the transaction stays open.
  Status EnsureTransaction(int i, bool write);

  // Before a statement's first step: transactions on the databases in
  // read_mask / write_mask, and a statement savepoint when a failure could
  // leave part of its changes behind (*stmt_savepoint = its level, else -1).
  // kSchema as for EnsureTransaction (call again after recompiling, or
  // EndFailedBegin()).
  // writes_vtab: the statement changes virtual tables (which take part in
  // the statement savepoint too).
  Status BeginStatement(DbMask read_mask, DbMask write_mask, bool stmt_journal, int* stmt_savepoint,
                        bool writes_vtab = false);
  // After a statement's last step. ok false: it failed with error_code and
  // conflict action `action` (OnConflict numbering).
  Status EndStatement(DbMask write_mask, int stmt_savepoint, bool ok, int action, int error_code);
  // Ends the transactions a BeginStatement that returned kSchema left open.
  void EndFailedBegin() { (void)CommitIfAutocommit(); }

  // BEGIN, COMMIT, ROLLBACK [TO], SAVEPOINT, RELEASE.
  Status Exec(ast::Stmt* st);

  // Commits every database when in autocommit mode and no statement runs.
  Status CommitIfAutocommit();
  // Rolls every database back and leaves any user transaction.
  Status RollbackAll();

  // True when database i is in a write transaction.
  bool writing(int i) const;
  // Savepoint levels open now, SAVEPOINTs and statement savepoints: a
  // virtual table joining the transaction opens as many.
  int savepoint_depth() const { return static_cast<int>(savepoints_.size()) + stmt_levels_; }

 private:
  Status Begin(const ast::BeginStmt* b);
  Status RollbackTo(std::string_view name);
  Status Release(std::string_view name);
  Status CommitAll();
  Status CommitWithSuperJournal();
  // The savepoint level a new statement journal takes.
  int StatementLevel(DbMask write_mask) const;
  // Re-reads the schemas DDL changed (after a rollback).
  Status ReloadChangedSchemas();

  // True when some database is in a write transaction.
  bool AnyWriting() const;

  SchemaStore* store_;
  VtabManager* vtabs_;
  TxnHooks hooks_;
  bool autocommit_ = true;
  int active_ = 0;
  int active_writers_ = 0;  // active statements with a nonzero write mask
  // COMMIT while only readers run: commits now, then gives the databases
  // that were in a transaction a read transaction again for the readers.
  Status CommitUnderReaders();
  // True while CommitAll runs: statements a virtual table runs from its
  // xSync/xCommit (on its shadow tables) must not start another commit.
  bool committing_ = false;
  std::vector<std::string> savepoints_;  // open SAVEPOINT names, outermost first
  bool savepoint_txn_ = false;           // the transaction was started by SAVEPOINT
  int stmt_levels_ = 0;                  // statement savepoints open now
  const bool* query_only_ = nullptr;
  FkCounters* fk_ = nullptr;
  std::vector<FkCounters> savepoint_fk_;  // fk_ at each open SAVEPOINT (parallel to savepoints_)
  bool FkViolated() const { return fk_ != nullptr && fk_->total() > 0; }
  void ClearFk() {
    if (fk_ != nullptr) *fk_ = FkCounters();
  }
};

}  // namespace basalt
