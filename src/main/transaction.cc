#include "main/transaction.h"

#include <algorithm>

#include "common/assert.h"
#include "os/vfs.h"
#include "pager/file_pager.h"

#include <cstdio>

namespace basalt {

namespace {
// A reloaded schema only matters to compiled statements.
Status IgnoreSchemaReload(Status st) { return st.code() == kSchema ? Status() : st; }

constexpr int kActionRollback = static_cast<int>(OnConflict::kRollback);
constexpr int kActionFail = static_cast<int>(OnConflict::kFail);
}  // namespace

bool TransactionController::writing(int i) const {
  const Database* db = store_->at(i);
  return db->bt != nullptr && db->bt->in_write_transaction();
}

Status TransactionController::EnsureTransaction(int i, bool write) {
  if (i == Catalog::kTemp) TRY(store_->OpenTemp());
  Database* db = store_->at(i);
  if (!db->open_error.ok()) return db->open_error;
  if (write && (db->read_only || (query_only_ != nullptr && *query_only_))) {
    return Status(kReadOnly, "attempt to write a readonly database");
  }
  Btree* bt = db->bt.get();
  const bool fresh = !bt->in_transaction();
  if (write) {
    if (!bt->in_write_transaction()) TRY(bt->BeginTransaction(true));
    // The SAVEPOINT levels opened before this database started writing
    // (invariant 3).
    const int want = static_cast<int>(savepoints_.size());
    if (bt->savepoint_count() < want) TRY(bt->OpenSavepoints(want));
  } else if (fresh) {
    TRY(bt->BeginTransaction(false));
  }
  // A new transaction on a file may see another connection's schema change.
  if (fresh && db->is_file) return store_->CheckSchemaCookie(i);
  return Status();
}

int TransactionController::StatementLevel(DbMask write_mask) const {
  int level = static_cast<int>(savepoints_.size());
  for (int i = 0; i < store_->size(); ++i) {
    if ((write_mask & DbBit(i)) != 0 && writing(i)) {
      level = std::max(level, store_->at(i)->bt->savepoint_count());
    }
  }
  return level;
}

Status TransactionController::BeginStatement(DbMask read_mask, DbMask write_mask, bool stmt_journal,
                                             int* stmt_savepoint, bool writes_vtab) {
  *stmt_savepoint = -1;
  const DbMask used = read_mask | write_mask;
  for (int i = 0; i < store_->size() && (used >> i) != 0; ++i) {
    if ((used & DbBit(i)) != 0) TRY(EnsureTransaction(i, (write_mask & DbBit(i)) != 0));
  }
  // A statement journal is needed only when a failure could leave part of
  // the statement's changes behind inside a longer transaction; in
  // autocommit mode the transaction itself is rolled back instead.
  const bool journal =
      (write_mask != 0 || writes_vtab) && stmt_journal && !(autocommit_ && active_ == 0);
  if (journal) {
    const int level = StatementLevel(write_mask);
    // Virtual tables first: their xSavepoint may write (an R*Tree flushes
    // its node cache), and those writes must come before the savepoint.
    TRY(vtabs_->Savepoint(0, level));
    for (int i = 0; i < store_->size(); ++i) {
      if ((write_mask & DbBit(i)) != 0) TRY(store_->at(i)->bt->OpenSavepoints(level + 1));
    }
    *stmt_savepoint = level;
    ++stmt_levels_;
  }
  ++active_;
  if (write_mask != 0) ++active_writers_;
  return Status();
}

Status TransactionController::EndStatement(DbMask write_mask, int stmt_savepoint, bool ok,
                                           int action, int error_code) {
  BASALT_DCHECK(active_ > 0);
  --active_;
  if (write_mask != 0 && active_writers_ > 0) --active_writers_;
  if (stmt_savepoint >= 0) --stmt_levels_;
  const int n = store_->size();
  if (ok) {
    if (stmt_savepoint >= 0) {
      TRY(vtabs_->Savepoint(1, stmt_savepoint));
      for (int i = 0; i < n; ++i) {
        Btree* bt = store_->at(i)->bt.get();
        if (bt != nullptr && bt->savepoint_count() > stmt_savepoint) {
          TRY(bt->ReleaseSavepoint(stmt_savepoint));
        }
      }
    }
    if (autocommit_ && active_ == 0 && FkViolated()) {
      (void)RollbackAll();
      return Status(kConstraintForeignKey, "FOREIGN KEY constraint failed");
    }
    return CommitIfAutocommit();
  }
  // Failure. Conflict actions: ROLLBACK ends the transaction, FAIL keeps
  // what the statement did so far, the others undo the statement.
  if (action == kActionRollback && active_ == 0) return RollbackAll();
  const bool fail = action == kActionFail;
  // A virtual table changed by a statement that had no statement savepoint
  // (autocommit) is undone with the transaction.
  if (stmt_savepoint < 0 && vtabs_->any_joined() && autocommit_ && active_ == 0 && !fail) {
    return RollbackAll();
  }
  if (stmt_savepoint >= 0) {
    if (!fail) (void)vtabs_->Savepoint(2, stmt_savepoint);
    (void)vtabs_->Savepoint(1, stmt_savepoint);
  }
  bool any_writing = false;
  for (int i = 0; i < n; ++i) any_writing |= (write_mask & DbBit(i)) != 0 && writing(i);
  if (any_writing) {
    // As in SQLite: an I/O error, or an interrupted write, rolls back the
    // whole transaction; so does any failure of a statement that ran
    // without a statement journal where undoing it needs one.
    const int primary = error_code & 0xff;
    const bool no_journal = stmt_savepoint < 0;
    bool rollback_all = primary == kIoErr || primary == kInterrupt ||
                        ((primary == kNoMem || primary == kFull) && no_journal) ||
                        (no_journal && autocommit_ && active_ == 0 && !fail);
    for (int i = 0; i < n && !rollback_all && !no_journal; ++i) {
      Btree* bt = store_->at(i)->bt.get();
      if (!writing(i) || bt->savepoint_count() <= stmt_savepoint) continue;
      Status rs;
      if (!fail) rs = bt->RollbackToSavepoint(stmt_savepoint);
      if (rs.ok()) rs = bt->ReleaseSavepoint(stmt_savepoint);
      rollback_all = !rs.ok();
    }
    if (rollback_all) return RollbackAll();
  } else if (stmt_savepoint >= 0) {
    for (int i = 0; i < n; ++i) {
      Btree* bt = store_->at(i)->bt.get();
      if (bt == nullptr || bt->savepoint_count() <= stmt_savepoint) continue;
      if (!fail) (void)bt->RollbackToSavepoint(stmt_savepoint);
      (void)bt->ReleaseSavepoint(stmt_savepoint);
    }
  }
  // DDL the statement did may have been undone: read those schemas again
  // (only of databases it wrote: a read stopped early undoes nothing, and
  // a reload would destroy tables the caller may be using, such as a
  // virtual table whose module ran the read).
  std::vector<int> reload;
  if (!fail) {
    for (int i = 0; i < n; ++i) {
      if (store_->at(i)->schema_changed_in_txn && (write_mask & DbBit(i)) != 0) reload.push_back(i);
    }
  }
  Status st = CommitIfAutocommit();
  for (int i : reload) (void)store_->Reload(i);
  return st;
}

// SQLite keeps a read transaction for statements still reading when a
// COMMIT ends the write transaction. Basalt's pager has no downgrade step:
// the commit ends the transaction and a read transaction starts at once.
// (A file database may be written by another connection in between; the
// readers then go on over the pages they hold.)
Status TransactionController::CommitUnderReaders() {
  std::vector<int> open;
  for (int i = 0; i < store_->size(); ++i) {
    const Database* db = store_->at(i);
    if (db->bt != nullptr && db->bt->in_transaction()) open.push_back(i);
  }
  Status st = CommitAll();
  if (!st.ok()) return st;
  for (int i : open) {
    Btree* bt = store_->at(i)->bt.get();
    if (!bt->in_transaction()) TRY(bt->BeginTransaction(false));
  }
  return Status();
}

Status TransactionController::CommitIfAutocommit() {
  if (!autocommit_ || active_ > 0 || committing_) return Status();
  committing_ = true;
  Status st = CommitAll();
  committing_ = false;
  return st;
}

namespace {
// Databases whose changes go through a rollback journal file: those a
// commit over several databases must tie together with a super-journal.
bool NeedsSuperJournal(const Database& db) {
  if (!db.is_file || db.bt == nullptr || !db.bt->in_write_transaction()) return false;
  const Pager* p = db.bt->pager();
  if (!p->has_changes() || p->wal_open()) return false;
  const JournalMode m = p->journal_mode();
  return m == JournalMode::kDelete || m == JournalMode::kTruncate || m == JournalMode::kPersist;
}
}  // namespace

// Commits each database in turn; when two or more file databases with a
// rollback journal changed, as one atomic unit (CommitWithSuperJournal). A
// failure rolls back every database still in its transaction.
bool TransactionController::AnyWriting() const {
  for (int i = 0; i < store_->size(); ++i) {
    const Database* db = store_->at(i);
    if (db->bt != nullptr && db->bt->in_write_transaction()) return true;
  }
  return false;
}

Status TransactionController::CommitAll() {
  ClearFk();
  Status result;
  if (hooks_.commit != nullptr && AnyWriting() && hooks_.commit(hooks_.commit_arg) != 0) {
    (void)RollbackAll();
    return Status(kConstraintCommitHook, "constraint failed");
  }
  // Virtual tables first make their changes durable (xSync); a failure
  // there rolls everything back.
  if (vtabs_->any_joined()) {
    // xSync may run SQL (FTS writes its pending terms): those statements
    // belong to the transaction being committed, and must neither commit
    // nor roll it back when they end.
    ++active_;
    result = vtabs_->SyncAll();
    --active_;
    if (!result.ok()) {
      (void)RollbackAll();
      return result;
    }
  }
  int journaled = 0;
  for (int i = 0; i < store_->size(); ++i) journaled += NeedsSuperJournal(*store_->at(i)) ? 1 : 0;
  if (journaled >= 2 && store_->main()->is_file) {
    result = CommitWithSuperJournal();
    if (!result.ok()) {
      (void)RollbackAll();
      return result;
    }
    vtabs_->CommitAll();
    return result;
  }
  for (int i = 0; i < store_->size(); ++i) {
    Database* db = store_->at(i);
    if (db->bt == nullptr || !db->bt->in_transaction()) continue;
    if (result.ok()) {
      result = db->bt->Commit();
      if (result.ok()) {
        db->schema_changed_in_txn = false;
        continue;
      }
    }
    (void)db->bt->Rollback();
    if (db->schema_changed_in_txn) (void)store_->Reload(i);
    db->schema_changed_in_txn = false;
  }
  if (result.ok()) {
    vtabs_->CommitAll();
  } else {
    vtabs_->RollbackAll();
  }
  return result;
}

// The commit of atomiccommit section 5:
//   1. a super-journal file `<main database>-mjXXXXXXXX` lists the journal of
//      every database with changes, and is made durable;
//   2. each database's phase one: its journal names the super-journal and is
//      synced, its pages are written and synced (a crash from here on leaves
//      hot journals that roll back while the super-journal exists);
//   3. deleting the super-journal is the commit point of the whole
//      transaction (journals naming a missing super-journal are stale);
//   4. each database's phase two removes its journal.
Status TransactionController::CommitWithSuperJournal() {
  Database* main = store_->main();
  Vfs* vfs = main->vfs;
  std::string super;
  for (int attempt = 0;; ++attempt) {
    uint32_t r = 0;
    vfs->Randomness(&r, sizeof r);
    char hex[16];
    std::snprintf(hex, sizeof hex, "-mj%08X", r);
    super = main->path + hex;
    bool exists = true;
    TRY(vfs->Access(super, AccessMode::kExists, &exists));
    if (!exists) break;
    if (attempt > 100) return Status(kFull, "database or disk is full");
  }
  std::string content;
  bool sync = false;
  for (int i = 0; i < store_->size(); ++i) {
    const Database* db = store_->at(i);
    if (!NeedsSuperJournal(*db)) continue;
    content += db->bt->pager()->journal_path();
    content.push_back('\0');
    sync |= db->synchronous != 0;
  }
  {
    std::unique_ptr<VfsFile> f;
    TRY(vfs->Open(super, kOpenReadWrite | kOpenCreate | kOpenExclusive | kOpenSuperJournal, &f));
    Status st = f->Write(content.data(), content.size(), 0);
    if (st.ok() && sync) st = f->Sync(kSyncNormal);
    f.reset();
    if (!st.ok()) {
      (void)vfs->Delete(super, false);
      return st;
    }
  }
  for (int i = 0; i < store_->size(); ++i) {
    Database* db = store_->at(i);
    if (db->bt == nullptr || !db->bt->in_write_transaction()) continue;
    Status st = db->bt->CommitPhaseOne(NeedsSuperJournal(*db) ? std::string_view(super)
                                                              : std::string_view());
    if (!st.ok()) {
      (void)vfs->Delete(super, false);
      return st;
    }
  }
  // The commit point.
  TRY(vfs->Delete(super, sync));
  Status result;
  for (int i = 0; i < store_->size(); ++i) {
    Database* db = store_->at(i);
    if (db->bt == nullptr || !db->bt->in_transaction()) continue;
    Status st = db->bt->CommitPhaseTwo();
    if (result.ok()) result = st;
    db->schema_changed_in_txn = false;
  }
  return result;
}

Status TransactionController::ReloadChangedSchemas() {
  Status st;
  for (int i = 0; i < store_->size(); ++i) {
    Database* db = store_->at(i);
    if (!db->schema_changed_in_txn) continue;
    Status ls = store_->Reload(i);
    if (st.ok()) st = ls;
  }
  return st;
}

Status TransactionController::RollbackAll() {
  if (hooks_.rollback != nullptr && (!autocommit_ || AnyWriting())) {
    hooks_.rollback(hooks_.rollback_arg);
  }
  ClearFk();
  savepoint_fk_.clear();
  vtabs_->RollbackAll();
  Status st;
  for (int i = 0; i < store_->size(); ++i) {
    Btree* bt = store_->at(i)->bt.get();
    if (bt == nullptr || !bt->in_transaction()) continue;
    Status rs = bt->Rollback();
    if (st.ok()) st = rs;
  }
  autocommit_ = true;
  savepoints_.clear();
  savepoint_txn_ = false;
  Status ls = ReloadChangedSchemas();
  if (st.ok()) st = ls;
  for (int i = 0; i < store_->size(); ++i) store_->at(i)->schema_changed_in_txn = false;
  return st;
}

Status TransactionController::Begin(const ast::BeginStmt* b) {
  if (!autocommit_) return Status(kError, "cannot start a transaction within a transaction");
  autocommit_ = false;
  if (b->mode == ast::TransactionMode::kDeferred) return Status();
  // IMMEDIATE / EXCLUSIVE: a write transaction on every open database now.
  Status s;
  for (int i = 0; i < store_->size() && s.ok(); ++i) {
    Database* db = store_->at(i);
    if (db->bt == nullptr) continue;
    s = IgnoreSchemaReload(EnsureTransaction(i, true));
    if (s.ok() && b->mode == ast::TransactionMode::kExclusive && db->is_file) {
      s = static_cast<FilePager*>(db->bt->pager())->BeginWriteExclusive();
    }
  }
  if (!s.ok()) {
    (void)RollbackAll();
    return s;
  }
  return Status();
}

Status TransactionController::RollbackTo(std::string_view name) {
  for (size_t i = savepoints_.size(); i-- > 0;) {
    if (!EqualsIgnoreCase(savepoints_[i], name)) continue;
    savepoints_.resize(i + 1);
    savepoint_fk_.resize(i + 1);
    if (fk_ != nullptr) *fk_ = savepoint_fk_[i];
    const int level = static_cast<int>(i);
    TRY(vtabs_->Savepoint(2, level));
    for (int d = 0; d < store_->size(); ++d) {
      if (writing(d) && store_->at(d)->bt->savepoint_count() > level) {
        TRY(store_->at(d)->bt->RollbackToSavepoint(level));
      }
    }
    return ReloadChangedSchemas();
  }
  return Status(kError, "no such savepoint: " + std::string(name));
}

Status TransactionController::Release(std::string_view name) {
  for (size_t i = savepoints_.size(); i-- > 0;) {
    if (!EqualsIgnoreCase(savepoints_[i], name)) continue;
    const int level = static_cast<int>(i);
    // Releasing the savepoint that began the transaction commits it.
    if (i == 0 && savepoint_txn_ && FkViolated()) {
      return Status(kConstraintForeignKey, "FOREIGN KEY constraint failed");
    }
    TRY(vtabs_->Savepoint(1, level));
    for (int d = 0; d < store_->size(); ++d) {
      Btree* bt = store_->at(d)->bt.get();
      if (bt != nullptr && bt->savepoint_count() > level) TRY(bt->ReleaseSavepoint(level));
    }
    savepoints_.resize(i);
    savepoint_fk_.resize(std::min(savepoint_fk_.size(), i));
    if (i == 0 && savepoint_txn_) {
      savepoint_txn_ = false;
      autocommit_ = true;
      return CommitIfAutocommit();
    }
    return Status();
  }
  return Status(kError, "no such savepoint: " + std::string(name));
}

Status TransactionController::Exec(ast::Stmt* st) {
  switch (st->kind) {
    case ast::StmtKind::kBegin:
      return Begin(st->As<ast::BeginStmt>());
    case ast::StmtKind::kCommit:
      if (autocommit_) return Status(kError, "cannot commit - no transaction is active");
      if (active_writers_ > 0) {
        return Status(kBusy, "cannot commit transaction - SQL statements in progress");
      }
      if (FkViolated()) return Status(kConstraintForeignKey, "FOREIGN KEY constraint failed");
      autocommit_ = true;
      savepoints_.clear();
      savepoint_fk_.clear();
      savepoint_txn_ = false;
      return active_ > 0 ? CommitUnderReaders() : CommitIfAutocommit();
    case ast::StmtKind::kRollback: {
      auto* rb = st->As<ast::RollbackStmt>();
      if (!rb->savepoint.empty()) return RollbackTo(rb->savepoint);
      if (autocommit_) return Status(kError, "cannot rollback - no transaction is active");
      return RollbackAll();
    }
    case ast::StmtKind::kSavepoint:
      // Virtual tables first, as for a statement savepoint (BeginStatement).
      TRY(vtabs_->Savepoint(0, static_cast<int>(savepoints_.size())));
      if (autocommit_) {
        autocommit_ = false;
        savepoint_txn_ = true;
      }
      savepoints_.emplace_back(st->As<ast::SavepointStmt>()->name);
      savepoint_fk_.resize(savepoints_.size() - 1);
      savepoint_fk_.push_back(fk_ != nullptr ? *fk_ : FkCounters());
      return Status();
    case ast::StmtKind::kRelease:
      return Release(st->As<ast::ReleaseStmt>()->name);
    default:
      return Status(kInternal, "not a transaction statement");
  }
}

}  // namespace basalt
