#include "main/connection.h"

#include "func/builtins.h"
#include "main/statement.h"
#include "pager/file_pager.h"
#include "parser/parser.h"

namespace basalt {

namespace {
// A reloaded schema only matters to compiled statements.
Status IgnoreSchemaReload(Status st) { return st.code() == kSchema ? Status() : st; }
}  // namespace

Connection::~Connection() {
  if (main_ && main_->in_transaction()) (void)main_->Rollback();
}

Result<std::unique_ptr<Statement>> Connection::Prepare(std::string_view sql, size_t* tail) {
  auto arena = std::make_unique<Arena>();
  // Copy only the first statement (and whatever leads up to it): copying the
  // whole remaining script would make long scripts quadratic.
  // (A short text is copied whole: cheaper than scanning it.)
  size_t first_end = sql.size() <= 4096 ? sql.size() : Parser::StatementEnd(sql);
  // Empty statements (";;") end early: keep scanning until a real one.
  while (sql.size() > 4096 && first_end < sql.size()) {
    std::string_view head = sql.substr(0, first_end);
    bool only_blank = true;
    for (char c : head) {
      if (c != ';' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') {
        only_blank = false;
        break;
      }
    }
    if (!only_blank) break;
    size_t more = Parser::StatementEnd(sql.substr(first_end));
    first_end += more;
  }
  std::string_view text = arena->CopyString(sql.substr(0, first_end));
  Parser parser(arena.get(), text);
  Result<ast::Stmt*> r = parser.ParseStatement();
  *tail = parser.offset();
  last_error_offset_ = -1;
  if (!r.ok()) {
    last_error_offset_ = parser.error_offset();
    return r.status();
  }
  if (*r == nullptr) return std::unique_ptr<Statement>();
  // The statement's own text: from its first token to the end of the statement.
  std::string stmt_text(text.substr(0, *tail));
  auto st = std::make_unique<Statement>(this, std::string((*r)->span));
  st->arena_ = std::move(arena);
  st->ast_ = *r;
  st->sql_ = stmt_text;
  st->parsed_text_ = text;
  const ParamTable& pt = parser.params();
  for (int i = 0; i < pt.count; ++i) {
    st->param_names_.emplace_back(i < static_cast<int>(pt.names.size())
                                      ? std::string(pt.names[static_cast<size_t>(i)])
                                      : std::string());
  }
  // An interrupt stops statements already running, and those started
  // before none is left (interrupt.html); with none running it is over.
  if (active_ == 0) interrupted_.store(0, std::memory_order_relaxed);
  // The schema of a file database is read at the first prepare. When that
  // fails (not a database, locked, ...) only statements that need the
  // database report it.
  Status schema_st = EnsureSchema();
  Status cs = st->Compile();
  if (!schema_st.ok()) {
    if (!cs.ok() || st->uses_db()) return schema_st;
    return st;
  }
  if (!cs.ok() && is_file_ && (cs.code() & 0xff) == kError && !main_->in_transaction()) {
    // The error may come from a schema another connection has changed.
    Status rs = main_->BeginTransaction(false);
    if (rs.ok()) {
      rs = CheckSchemaCookie();
      (void)main_->Commit();
    }
    if (rs.code() == kSchema) {
      last_error_offset_ = -1;
      st->ast_ = nullptr;
      st->prog_.reset();
      st->vm_.reset();
      cs = st->Compile();
    }
  }
  TRY(cs);
  return st;
}

Status Connection::EnsureTransaction(bool write) {
  if (!open_error_.ok()) return open_error_;
  if (write && read_only_) return Status(kReadOnly, "attempt to write a readonly database");
  bool fresh = !main_->in_transaction();
  if (write) {
    if (!main_->in_write_transaction()) TRY(main_->BeginTransaction(true));
  } else if (fresh) {
    TRY(main_->BeginTransaction(false));
  }
  // A new transaction on a file may see another connection's schema change.
  if (fresh && is_file_) return CheckSchemaCookie();
  return Status();
}

Status Connection::BeginStatement(bool writes, bool uses_db, bool stmt_journal,
                                  int* stmt_savepoint) {
  if (active_ == 0) interrupted_.store(0, std::memory_order_relaxed);
  *stmt_savepoint = -1;
  if (uses_db || writes) TRY(EnsureTransaction(writes));
  // A statement journal is needed only when a failure could leave part of
  // the statement's changes behind inside a longer transaction; in
  // autocommit mode the transaction itself is rolled back instead.
  if (writes && (!stmt_journal || (autocommit_ && active_ == 0))) writes = false;
  if (writes) {
    int n = main_->savepoint_count();
    TRY(main_->OpenSavepoints(n + 1));
    *stmt_savepoint = n;
  }
  ++active_;
  return Status();
}

Status Connection::CommitIfAutocommit() {
  if (!autocommit_ || active_ > 0) return Status();
  if (main_->in_transaction()) {
    Status st = main_->Commit();
    if (!st.ok()) {
      (void)main_->Rollback();
      if (schema_changed_in_txn_) (void)LoadSchema();
      schema_changed_in_txn_ = false;
      return st;
    }
  }
  schema_changed_in_txn_ = false;
  return Status();
}

void Connection::RecoverAfterException() {
  if (active_ > 0) return;  // running statements still use the transaction and schema
  if (open_error_.ok()) schema_loaded_ = false;
  if (!autocommit_ || main_->in_transaction()) (void)RollbackAll();
}

Status Connection::RollbackAll() {
  Status st;
  if (main_->in_transaction()) st = main_->Rollback();
  autocommit_ = true;
  savepoint_names_.clear();
  explicit_savepoints_ = 0;
  savepoint_txn_ = false;
  if (schema_changed_in_txn_) {
    Status ls = LoadSchema();
    if (st.ok()) st = ls;
  }
  schema_changed_in_txn_ = false;
  return st;
}

Status Connection::EndStatement(bool writes, int stmt_savepoint, bool ok, int action,
                                int error_code, int64_t changes, bool counts_changes,
                                int64_t total) {
  --active_;
  if (ok) {
    if (stmt_savepoint >= 0 && main_->savepoint_count() > stmt_savepoint) {
      TRY(main_->ReleaseSavepoint(stmt_savepoint));
    }
    if (counts_changes) changes_ = changes;
    total_changes_ += total;
    return CommitIfAutocommit();
  }
  // Failure. Conflict actions: 1 ROLLBACK, 3 FAIL keep/undo differently.
  if (action == static_cast<int>(OnConflict::kRollback)) {
    if (active_ == 0) return RollbackAll();
  }
  bool fail = action == static_cast<int>(OnConflict::kFail);
  if (writes && main_->in_write_transaction()) {
    // As in SQLite: an I/O error, or an interrupted write, rolls back the
    // whole transaction; so does any failure of a statement that ran
    // without a statement journal where undoing it needs one.
    int primary = error_code & 0xff;
    bool no_journal = stmt_savepoint < 0;
    bool rollback_all = primary == kIoErr || primary == kInterrupt ||
                        ((primary == kNoMem || primary == kFull) && no_journal) ||
                        (no_journal && autocommit_ && active_ == 0 && !fail);
    if (!rollback_all && !no_journal && main_->savepoint_count() > stmt_savepoint) {
      Status rs;
      if (!fail) rs = main_->RollbackToSavepoint(stmt_savepoint);
      if (rs.ok()) rs = main_->ReleaseSavepoint(stmt_savepoint);
      rollback_all = !rs.ok();
    }
    if (rollback_all) return RollbackAll();
  } else if (stmt_savepoint >= 0 && main_->savepoint_count() > stmt_savepoint) {
    if (!fail) (void)main_->RollbackToSavepoint(stmt_savepoint);
    (void)main_->ReleaseSavepoint(stmt_savepoint);
  }
  if (action == static_cast<int>(OnConflict::kFail) && counts_changes) {
    changes_ = changes;
    total_changes_ += total;
  }
  bool reload = schema_changed_in_txn_ && action != static_cast<int>(OnConflict::kFail);
  Status st = CommitIfAutocommit();
  if (reload) (void)LoadSchema();
  return st;
}

Status Connection::ExecTransaction(ast::Stmt* st) {
  switch (st->kind) {
    case ast::StmtKind::kBegin: {
      if (!autocommit_) {
        return Status(kError, "cannot start a transaction within a transaction");
      }
      auto* b = st->As<ast::BeginStmt>();
      autocommit_ = false;
      if (b->mode != ast::TransactionMode::kDeferred) {
        Status s = IgnoreSchemaReload(EnsureTransaction(true));
        if (s.ok() && b->mode == ast::TransactionMode::kExclusive && is_file_) {
          s = static_cast<FilePager*>(main_->pager())->BeginWriteExclusive();
          if (!s.ok()) (void)main_->Rollback();
        }
        if (!s.ok()) {
          autocommit_ = true;
          return s;
        }
      }
      return Status();
    }
    case ast::StmtKind::kCommit: {
      if (autocommit_) return Status(kError, "cannot commit - no transaction is active");
      if (active_ > 0) {
        return Status(kBusy, "cannot commit transaction - SQL statements in progress");
      }
      autocommit_ = true;
      savepoint_names_.clear();
      explicit_savepoints_ = 0;
      savepoint_txn_ = false;
      return CommitIfAutocommit();
    }
    case ast::StmtKind::kRollback: {
      auto* rb = st->As<ast::RollbackStmt>();
      if (rb->savepoint.empty()) {
        if (autocommit_) return Status(kError, "cannot rollback - no transaction is active");
        return RollbackAll();
      }
      // ROLLBACK TO name.
      for (size_t i = savepoint_names_.size(); i-- > 0;) {
        if (EqualsIgnoreCase(savepoint_names_[i], rb->savepoint)) {
          savepoint_names_.resize(i + 1);
          explicit_savepoints_ = static_cast<int>(i + 1);
          if (main_->in_write_transaction() && main_->savepoint_count() > static_cast<int>(i)) {
            TRY(main_->RollbackToSavepoint(static_cast<int>(i)));
          }
          if (schema_changed_in_txn_) TRY(LoadSchema());
          return Status();
        }
      }
      return Status(kError, "no such savepoint: " + std::string(rb->savepoint));
    }
    case ast::StmtKind::kSavepoint: {
      auto* sp = st->As<ast::SavepointStmt>();
      if (autocommit_) {
        autocommit_ = false;
        savepoint_txn_ = true;
      }
      TRY(IgnoreSchemaReload(EnsureTransaction(true)));
      savepoint_names_.emplace_back(sp->name);
      explicit_savepoints_ = static_cast<int>(savepoint_names_.size());
      return main_->OpenSavepoints(explicit_savepoints_);
    }
    case ast::StmtKind::kRelease: {
      auto* rl = st->As<ast::ReleaseStmt>();
      for (size_t i = savepoint_names_.size(); i-- > 0;) {
        if (EqualsIgnoreCase(savepoint_names_[i], rl->name)) {
          if (main_->savepoint_count() > static_cast<int>(i)) {
            TRY(main_->ReleaseSavepoint(static_cast<int>(i)));
          }
          savepoint_names_.resize(i);
          explicit_savepoints_ = static_cast<int>(i);
          if (i == 0 && savepoint_txn_) {
            savepoint_txn_ = false;
            autocommit_ = true;
            return CommitIfAutocommit();
          }
          return Status();
        }
      }
      return Status(kError, "no such savepoint: " + std::string(rl->name));
    }
    default:
      return Status(kInternal, "not a transaction statement");
  }
}

}  // namespace basalt
