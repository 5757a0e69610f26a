// A prepared statement: either a compiled Program run by the VM, or a
// directly executed statement (DDL, transaction control, PRAGMA) whose result
// rows, if any, are materialized at the first step.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/arena.h"
#include "common/status.h"
#include "exec/program.h"
#include "exec/vm.h"
#include "main/transaction.h"
#include "parser/ast.h"

namespace basalt {

class Connection;

class Statement {
 public:
  Statement(Connection* conn, std::string sql);
  ~Statement();

  // kRow, kDone, or an error code (message in status()).
  int Step();
  void Reset();

  int column_count() const;
  const std::string& column_name(int i) const;
  const std::string& column_decltype(int i) const;
  const std::string& column_table(int i) const;
  const std::string& column_origin(int i) const;
  // The current row (valid after Step() returned kRow).
  Value* column(int i);
  int data_count() const { return has_row_ ? column_count() : 0; }

  int param_count() const { return static_cast<int>(param_names_.size()); }
  const std::string& param_name(int i) const { return param_names_[static_cast<size_t>(i - 1)]; }
  int ParamIndex(std::string_view name) const;
  // 1-based; kRange if out of range.
  int Bind(int i, const Value& v);
  Value* MutableParam(int i);
  // The value bound to parameter i (1-based), null when out of range.
  const Value* param(int i) const {
    return i >= 1 && i <= param_count() ? &params_[static_cast<size_t>(i)] : nullptr;
  }
  void ClearBindings();

  const std::string& sql() const { return sql_; }
  const Status& status() const { return status_; }
  bool read_only() const;
  bool busy() const { return active_; }
  int explain_mode() const { return explain_; }
  bool is_explain() const { return explain_ != 0; }
  // True when running the statement reads or writes the database file (a
  // "SELECT 1" does not).
  bool uses_db() const { return uses_db_; }
  // sqlite3_stmt_status: the VM's counters (null for a direct statement),
  // and how many times the statement compiled again after a schema change.
  VmStats* vm_stats() { return vm_ != nullptr ? &vm_->stats() : nullptr; }
  int64_t& reprepares() { return reprepares_; }
  // Bytes held by the compiled statement (AST arena and program).
  int64_t MemoryUsed() const;

 private:
  friend class Connection;
  Status Compile();
  int StepProgram();
  int StepDirect();
  int StepExplain();
  // Recompiles after the schema changed; false (status_ set) on failure.
  bool Recompile();
  void Finish(bool ok, int action);
  bool CompleteWhenStopped() const;

  Connection* conn_;
  std::string sql_;
  std::string_view parsed_text_;  // the text the AST points into
  std::unique_ptr<Arena> arena_;
  ast::Stmt* ast_ = nullptr;
  std::unique_ptr<Program> prog_;
  std::unique_ptr<Vm> vm_;
  uint64_t schema_gen_ = 0;
  int explain_ = 0;
  bool uses_db_ = true;
  // The databases running the statement reads and writes.
  DbMask read_mask_ = 0;
  DbMask write_mask_ = 0;

  // Direct statements and EXPLAIN: materialized rows.
  std::vector<std::string> names_;
  std::vector<std::string> empty_decltypes_;
  std::vector<std::vector<Value>> rows_;
  size_t row_pos_ = 0;
  bool direct_done_ = false;
  bool auth_noop_ = false;  // the authorizer's IGNORE made it a no-op (AuthorizeStatement)
  bool reparse_ = false;    // a direct statement re-parses before running again

  std::vector<std::string> param_names_;
  std::vector<Value> params_;  // 1-based; index 0 unused
  Status status_;
  // An error to answer once the rows already made are read: integrity_check
  // and quick_check return what they found before the damage that stopped
  // them (SQLite's program has emitted those rows by then).
  Status after_rows_;
  bool active_ = false;
  bool has_row_ = false;
  bool done_ = false;
  int stmt_savepoint_ = -1;
  // The deferred foreign key counters when the statement began: a failed
  // statement puts them back (unless its conflict action is FAIL).
  FkCounters fk_at_start_;
  int64_t reprepares_ = 0;
};

}  // namespace basalt
