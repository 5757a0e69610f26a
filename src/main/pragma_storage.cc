// PRAGMAs about the database file: journal_mode, synchronous, cache_size,
// busy_timeout, locking_mode, wal_checkpoint, wal_autocheckpoint and the
// read-only facts (database_list, mmap_size, ...).
#include "main/connection.h"
#include "parser/parser.h"

namespace basalt {

namespace {

const char* JournalModeName(JournalMode m) {
  switch (m) {
    case JournalMode::kDelete:
      return "delete";
    case JournalMode::kTruncate:
      return "truncate";
    case JournalMode::kPersist:
      return "persist";
    case JournalMode::kMemory:
      return "memory";
    case JournalMode::kWal:
      return "wal";
    case JournalMode::kOff:
      return "off";
  }
  return "delete";
}

bool ParseJournalMode(const std::string& v, JournalMode* out) {
  static const JournalMode kAll[] = {JournalMode::kDelete,  JournalMode::kTruncate,
                                     JournalMode::kPersist, JournalMode::kMemory,
                                     JournalMode::kWal,     JournalMode::kOff};
  for (JournalMode m : kAll) {
    if (EqualsIgnoreCase(v, JournalModeName(m))) {
      *out = m;
      return true;
    }
  }
  return false;
}

// A pragma's integer argument: leading sign and digits, like SQLite's atoi.
int64_t PragmaInt(const std::string& v) {
  size_t i = 0;
  while (i < v.size() && (v[i] == ' ' || v[i] == '\t')) ++i;
  bool neg = false;
  if (i < v.size() && (v[i] == '-' || v[i] == '+')) neg = v[i++] == '-';
  int64_t n = 0;
  for (; i < v.size() && v[i] >= '0' && v[i] <= '9'; ++i) {
    if (n < (int64_t{1} << 58)) n = n * 10 + (v[i] - '0');
  }
  return neg ? -n : n;
}

void Row1(std::vector<std::string>* names, std::vector<std::vector<Value>>* rows, const char* name,
          Value v) {
  names->assign(1, name);
  std::vector<Value> row;
  row.push_back(std::move(v));
  rows->push_back(std::move(row));
}

}  // namespace

Status Connection::ExecStoragePragma(const std::string& name, ast::PragmaStmt* st, int dbi,
                                     bool* handled, std::vector<std::string>* names,
                                     std::vector<std::vector<Value>>* rows) {
  *handled = true;
  Database* db = store_.at(dbi);
  bool set = st->value != nullptr;
  std::string arg;
  if (set) {
    const ast::Expr* e = st->value;
    if (e->kind == ast::ExprKind::kInteger) {
      arg = std::to_string(e->ival);
    } else if (e->kind == ast::ExprKind::kString || e->kind == ast::ExprKind::kColumn) {
      arg = std::string(e->text);
    } else {
      arg = std::string(e->span);
    }
  }
  Pager* pager = db->bt->pager();
  if (name == "journal_mode") {
    JournalMode mode;
    if (set && ParseJournalMode(arg, &mode)) {
      if (!db->open_error.ok()) return db->open_error;
      if (!txn_.autocommit() &&
          (mode == JournalMode::kWal || pager->journal_mode() == JournalMode::kWal) &&
          mode != pager->journal_mode()) {
        return Status(kError, "cannot change into wal mode from within a transaction");
      }
      JournalMode result = pager->journal_mode();
      TRY(pager->SetJournalMode(mode, &result));
    } else if (db->is_file && db->open_error.ok() && pager->page_count() == 0) {
      // The mode of a database another connection put into WAL shows once
      // the file has been read.
      (void)store_.EnsureSchema(dbi);
    }
    Row1(names, rows, "journal_mode", Value::Text(JournalModeName(pager->journal_mode())));
    return Status();
  }
  if (name == "synchronous") {
    if (set) {
      int level = 1;
      if (EqualsIgnoreCase(arg, "off")) {
        level = 0;
      } else if (EqualsIgnoreCase(arg, "normal")) {
        level = 1;
      } else if (EqualsIgnoreCase(arg, "full")) {
        level = 2;
      } else if (EqualsIgnoreCase(arg, "extra")) {
        level = 3;
      } else if (!arg.empty() && (arg[0] == '-' || (arg[0] >= '0' && arg[0] <= '9'))) {
        level = static_cast<int>(PragmaInt(arg) & 3);
      }
      db->synchronous = level;
      pager->SetSynchronous(static_cast<Synchronous>(level));
      return Status();
    }
    Row1(names, rows, "synchronous", Value::Int(db->synchronous));
    return Status();
  }
  if (name == "cache_size") {
    if (set) {
      db->cache_size = static_cast<int>(PragmaInt(arg));
      pager->SetCacheSize(db->cache_size);
      return Status();
    }
    Row1(names, rows, "cache_size", Value::Int(db->cache_size));
    return Status();
  }
  if (name == "busy_timeout") {
    if (set) SetBusyTimeout(static_cast<int>(PragmaInt(arg)));
    Row1(names, rows, "timeout", Value::Int(busy_timeout_ms_));
    return Status();
  }
  if (name == "locking_mode") {
    // Exclusive locking keeps the file locked between transactions; Basalt
    // takes the request but keeps normal locking (allowed: the mode is a
    // hint that only changes how long locks are held).
    if (set) {
      if (EqualsIgnoreCase(arg, "exclusive")) db->exclusive_locking = true;
      if (EqualsIgnoreCase(arg, "normal")) db->exclusive_locking = false;
    }
    Row1(names, rows, "locking_mode", Value::Text(db->exclusive_locking ? "exclusive" : "normal"));
    return Status();
  }
  if (name == "wal_checkpoint") {
    CheckpointMode mode = CheckpointMode::kPassive;
    if (EqualsIgnoreCase(arg, "full")) mode = CheckpointMode::kFull;
    if (EqualsIgnoreCase(arg, "restart")) mode = CheckpointMode::kRestart;
    if (EqualsIgnoreCase(arg, "truncate")) mode = CheckpointMode::kTruncate;
    CheckpointResult r;
    if (db->open_error.ok() && txn_.active() == 0 && txn_.autocommit())
      TRY(pager->Checkpoint(mode, &r));
    else if (db->open_error.ok() && pager->journal_mode() == JournalMode::kWal)
      r.busy = 1;
    *names = {"busy", "log", "checkpointed"};
    std::vector<Value> row(3);
    row[0].SetInt(r.busy);
    row[1].SetInt(r.log_frames);
    row[2].SetInt(r.checkpointed_frames);
    rows->push_back(std::move(row));
    return Status();
  }
  if (name == "wal_autocheckpoint") {
    if (set) {
      db->wal_autocheckpoint = static_cast<int>(PragmaInt(arg));
      pager->SetWalAutoCheckpoint(db->wal_autocheckpoint);
    }
    Row1(names, rows, "wal_autocheckpoint", Value::Int(db->wal_autocheckpoint));
    return Status();
  }
  if (name == "database_list") {
    *names = {"seq", "name", "file"};
    for (int i = 0; i < store_.size(); ++i) {
      const Database* d = store_.at(i);
      if (!d->is_open()) continue;  // TEMP before its first use
      std::vector<Value> row(3);
      row[0].SetInt(i);
      row[1].SetText(d->name);
      row[2].SetText(d->path);
      rows->push_back(std::move(row));
    }
    return Status();
  }
  if (name == "auto_vacuum") {
    if (!db->open_error.ok()) return db->open_error;
    if (set) {
      int mode = -1;
      if (EqualsIgnoreCase(arg, "none")) mode = 0;
      if (EqualsIgnoreCase(arg, "full")) mode = 1;
      if (EqualsIgnoreCase(arg, "incremental")) mode = 2;
      if (mode < 0 && !arg.empty() && arg[0] >= '0' && arg[0] <= '9') {
        int64_t n = PragmaInt(arg);
        mode = n >= 0 && n <= 2 ? static_cast<int>(n) : 0;
      }
      if (mode < 0) mode = 0;
      db->vacuum_auto_vacuum = mode;  // what the next VACUUM builds
      if (db->bt->page_count() == 0 && db->is_file) TRY(store_.EnsureSchema(dbi));
      Status st = db->bt->SetAutoVacuum(mode);
      // Switching auto-vacuum on or off in a database with pages needs a
      // VACUUM; SQLite ignores the request until then.
      if (!st.ok() && (st.code() & 0xff) != kReadOnly) return st;
      return Status();
    }
    if (db->is_file) TRY(store_.EnsureSchema(dbi));
    if (db->is_file && !db->bt->in_transaction()) {
      // Another connection's VACUUM may have changed the mode.
      TRY(db->bt->BeginTransaction(false));
      (void)db->bt->Commit();
    }
    Row1(names, rows, "auto_vacuum", Value::Int(db->bt->auto_vacuum()));
    return Status();
  }
  if (name == "incremental_vacuum") {
    if (!db->open_error.ok()) return db->open_error;
    int64_t n = set ? PragmaInt(arg) : 0;
    Status es = txn_.EnsureTransaction(dbi, true);
    if (!es.ok() && es.code() != kSchema) return es;
    Status st = db->bt->IncrementalVacuum(n > 0 ? static_cast<uint32_t>(n) : 0);
    if (!st.ok()) {
      if (txn_.autocommit()) (void)txn_.RollbackAll();
      return st;
    }
    return txn_.CommitIfAutocommit();
  }
  if (name == "mmap_size" || name == "temp_store") {
    if (set) return Status();
    Row1(names, rows, name.c_str(), Value::Int(0));
    return Status();
  }
  if (name == "journal_size_limit") {
    if (set) db->journal_size_limit = PragmaInt(arg);
    Row1(names, rows, "journal_size_limit", Value::Int(db->journal_size_limit));
    return Status();
  }
  *handled = false;
  return Status();
}

}  // namespace basalt
