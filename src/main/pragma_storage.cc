// Pragmas about how each database file is journaled, cached, locked and
// synced: journal_mode, synchronous, cache_size, busy_timeout, locking_mode,
// wal_checkpoint, wal_autocheckpoint, journal_size_limit, cache_spill,
// mmap_size, secure_delete; and database_list.
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

// Bytes SQLite's page cache adds to each page in the reference build: a
// cache of -N KiB holds N * 1024 / (page size + 136) pages.
constexpr int64_t kPageCacheOverhead = 136;

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

bool ParseJournalMode(std::string_view v, JournalMode* out) {
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

// Whether SQLite would keep TEMP in a file: temp_store DEFAULT or FILE (the
// reference build's SQLITE_TEMP_STORE is 1).
bool TempInFile(Connection* conn) { return conn->pragma_settings().temp_store != 2; }

// Sets database dbi's journal mode (the caller checked it is open).
Status SetJournalMode(Connection* conn, int dbi, JournalMode mode) {
  Database* db = conn->dbs().at(dbi);
  if (!db->open_error.ok()) return db->open_error;
  Pager* pager = db->bt->pager();
  if (!conn->autocommit() &&
      (mode == JournalMode::kWal || pager->journal_mode() == JournalMode::kWal) &&
      mode != pager->journal_mode()) {
    return Status(kError, "cannot change into wal mode from within a transaction");
  }
  JournalMode result = pager->journal_mode();
  if (dbi == Catalog::kTemp && TempInFile(conn)) {
    if (mode == JournalMode::kWal) return Status();  // TEMP never runs WAL
    db->temp_file_journal_mode = mode;
    mode = mode == JournalMode::kOff ? JournalMode::kOff : JournalMode::kMemory;
  }
  return pager->SetJournalMode(mode, &result);
}

// The mode database dbi shows.
JournalMode ShownJournalMode(Connection* conn, int dbi) {
  const Database* db = conn->dbs().at(dbi);
  if (dbi == Catalog::kTemp && TempInFile(conn)) return db->temp_file_journal_mode;
  return db->bt->pager()->journal_mode();
}

// Databases that keep no file of their own (":memory:", TEMP) are always
// locked exclusively, as SQLite's pagers for them are.
bool ExclusiveLocking(const Database* db) { return !db->is_file || db->exclusive_locking; }

}  // namespace

// Without a schema, a new mode applies to every open database (the result
// is main's); an unknown mode only reads.
Status RunJournalMode(PragmaCall* call) {
  Connection* conn = call->conn;
  SchemaStore& store = conn->dbs();
  JournalMode mode;
  const bool setting = call->set && ParseJournalMode(call->arg, &mode);
  const int dbi = call->target_db();
  if (setting && !call->has_schema()) {
    for (int i = store.size() - 1; i >= 0; --i) {
      if (store.at(i)->is_open()) TRY(SetJournalMode(conn, i, mode));
    }
  } else if (setting) {
    TRY(SetJournalMode(conn, dbi, mode));
  } else {
    Database* db = store.at(dbi);
    // The mode of a database another connection put into WAL shows once
    // the file has been read.
    if (db->is_file && db->open_error.ok() && db->bt->page_count() == 0) {
      (void)store.EnsureSchema(dbi);
    }
  }
  call->Row(Value::Text(JournalModeName(ShownJournalMode(conn, dbi))));
  return Status();
}

Status CheckSynchronous(PragmaCall* call) {
  if (call->set && !call->conn->autocommit()) {
    return Status(kError, "Safety level may not be changed inside a transaction");
  }
  return Status();
}

// The level is stored plus one in three bits (0 reads as NORMAL), as
// SQLite keeps it: 4 and 5 read back as set, 7 reads as 0.
Status RunSynchronous(PragmaCall* call) {
  Database* db = call->conn->dbs().at(call->target_db());
  if (!call->set) {
    call->Row(Value::Int(db->synchronous));
    return Status();
  }
  TRY(CheckSynchronous(call));
  int stored = (PragmaSafetyLevel(call->arg, false, 1) + 1) & 7;
  if (stored == 0) stored = 1;
  db->synchronous = stored - 1;
  db->bt->pager()->SetSynchronous(static_cast<Synchronous>(std::min(db->synchronous, 3)));
  return Status();
}

Status RunCacheSize(PragmaCall* call) {
  Database* db = call->conn->dbs().at(call->target_db());
  if (call->set) {
    db->cache_size = PragmaAtoi(call->arg);
    db->bt->pager()->SetCacheSize(db->cache_size);
    return Status();
  }
  call->Row(Value::Int(db->cache_size));
  return Status();
}

Status RunBusyTimeout(PragmaCall* call) {
  if (call->set) call->conn->SetBusyTimeout(PragmaAtoi(call->arg));
  call->Row(Value::Int(call->conn->busy_timeout()));
  return Status();
}

// Exclusive locking keeps the file locked between transactions; Basalt
// takes the request but keeps normal locking (allowed: the mode is a hint
// that only changes how long locks are held). Without a schema a new mode
// applies to the attached databases and those attached later, and `PRAGMA
// locking_mode` reads that default.
Status RunLockingMode(PragmaCall* call) {
  SchemaStore& store = call->conn->dbs();
  PragmaSettings& settings = call->conn->pragma_settings();
  int mode = -1;  // -1 query, 0 normal, 1 exclusive
  if (call->set && EqualsIgnoreCase(call->arg, "exclusive")) mode = 1;
  if (call->set && EqualsIgnoreCase(call->arg, "normal")) mode = 0;
  if (!call->has_schema() && mode < 0) {
    call->Row(Value::Text(settings.exclusive_locking ? "exclusive" : "normal"));
    return Status();
  }
  if (!call->has_schema()) {
    for (int i = Catalog::kTemp + 1; i < store.size(); ++i) {
      store.at(i)->exclusive_locking = mode == 1;
    }
    settings.exclusive_locking = mode == 1;
  }
  Database* db = store.at(call->target_db());
  if (mode >= 0) db->exclusive_locking = mode == 1;
  call->Row(Value::Text(ExclusiveLocking(db) ? "exclusive" : "normal"));
  return Status();
}

// Without a schema every database is checkpointed; the frame counts are
// main's, busy is set if any database was busy.
Status RunWalCheckpoint(PragmaCall* call) {
  Connection* conn = call->conn;
  SchemaStore& store = conn->dbs();
  CheckpointMode mode = CheckpointMode::kPassive;
  if (EqualsIgnoreCase(call->arg, "full")) mode = CheckpointMode::kFull;
  if (EqualsIgnoreCase(call->arg, "restart")) mode = CheckpointMode::kRestart;
  if (EqualsIgnoreCase(call->arg, "truncate")) mode = CheckpointMode::kTruncate;
  CheckpointResult first;
  bool have_first = false;
  int busy = 0;
  for (int i = 0; i < store.size(); ++i) {
    if (call->has_schema() && i != call->db) continue;
    Database* db = store.at(i);
    if (!db->is_open()) continue;
    Pager* pager = db->bt->pager();
    CheckpointResult r;
    if (db->open_error.ok() && conn->active_statements() == 0 && conn->autocommit()) {
      TRY(pager->Checkpoint(mode, &r));
    } else if (db->open_error.ok() && pager->journal_mode() == JournalMode::kWal) {
      r.busy = 1;
    }
    busy |= r.busy;
    if (!have_first) first = r;
    have_first = true;
  }
  call->AddRow(
      {Value::Int(busy), Value::Int(first.log_frames), Value::Int(first.checkpointed_frames)});
  return Status();
}

// A connection-wide setting: every open database takes it.
Status RunWalAutocheckpoint(PragmaCall* call) {
  SchemaStore& store = call->conn->dbs();
  if (call->set) {
    const int frames = std::max(PragmaAtoi(call->arg), 0);
    for (int i = 0; i < store.size(); ++i) {
      Database* db = store.at(i);
      db->wal_autocheckpoint = frames;
      if (db->is_open()) db->bt->pager()->SetWalAutoCheckpoint(frames);
    }
  }
  call->Row(Value::Int(store.main()->wal_autocheckpoint));
  return Status();
}

Status RunJournalSizeLimit(PragmaCall* call) {
  Database* db = call->conn->dbs().at(call->target_db());
  if (call->set) {
    int64_t limit = 0;
    (void)PragmaInt64(call->arg, &limit);
    db->journal_size_limit = std::max<int64_t>(limit, -1);
  }
  call->Row(Value::Int(db->journal_size_limit));
  return Status();
}

// Spilling is on or off for the whole connection (PragmaSettings); the
// number read is the spill threshold in pages of the database: its cache
// size in pages, or a larger threshold that was set (negative: KiB).
Status RunCacheSpill(PragmaCall* call) {
  SchemaStore& store = call->conn->dbs();
  PragmaSettings& settings = call->conn->pragma_settings();
  Database* db = store.at(call->target_db());
  if (call->set) {
    int32_t size = 1;
    if (PragmaInt32(call->arg, &size)) {
      if (size < 0) {
        // Kibibytes, as a negative cache_size.
        const int64_t per_page = db->bt->page_size() + kPageCacheOverhead;
        size = static_cast<int32_t>(-1024 * static_cast<int64_t>(size) / per_page);
      }
      if (size != 0) db->cache_spill = size;
    } else {
      size = 1;
    }
    settings.cache_spill = PragmaBool(call->arg, size != 0);
    return Status();
  }
  if (!settings.cache_spill) {
    call->Row(Value::Int(0));
    return Status();
  }
  int64_t pages = db->cache_size;
  if (pages < 0) pages = -1024 * pages / (db->bt->page_size() + kPageCacheOverhead);
  call->Row(Value::Int(std::max<int64_t>(pages, db->cache_spill)));
  return Status();
}

// Memory-mapped I/O: only files have it (other databases return no row).
// Values are clamped to the reference build's limit; without a schema
// every database, and those attached later, take the new size.
Status RunMmapSize(PragmaCall* call) {
  constexpr int64_t kMaxMmapSize = 0x7fff0000;
  SchemaStore& store = call->conn->dbs();
  if (call->set) {
    int64_t size = 0;
    (void)PragmaInt64(call->arg, &size);
    size = std::clamp<int64_t>(size, 0, kMaxMmapSize);
    if (!call->has_schema()) {
      call->conn->pragma_settings().mmap_size = size;
      for (int i = 0; i < store.size(); ++i) store.at(i)->mmap_size = size;
    } else {
      store.at(call->db)->mmap_size = size;
    }
  }
  Database* db = store.at(call->target_db());
  if (db->is_file) call->Row(Value::Int(db->mmap_size));
  return Status();
}

// 0 off, 1 on, 2 fast; without a schema every database takes a new value.
Status RunSecureDelete(PragmaCall* call) {
  SchemaStore& store = call->conn->dbs();
  Database* db = store.at(call->target_db());
  if (call->set) {
    const int v = EqualsIgnoreCase(call->arg, "fast") ? 2 : PragmaBool(call->arg, false) ? 1 : 0;
    if (!call->has_schema()) {
      // Only open databases (TEMP before its first use keeps the default).
      for (int i = 0; i < store.size(); ++i) {
        if (store.at(i)->is_open()) store.at(i)->secure_delete = v;
      }
    } else {
      db->secure_delete = v;
    }
  }
  call->Row(Value::Int(db->secure_delete));
  return Status();
}

Status RunDatabaseList(PragmaCall* call) {
  SchemaStore& store = call->conn->dbs();
  for (int i = 0; i < store.size(); ++i) {
    const Database* d = store.at(i);
    if (!d->is_open()) continue;  // TEMP before its first use
    call->AddRow({Value::Int(i), Value::Text(d->name), Value::Text(d->path)});
  }
  return Status();
}

}  // namespace basalt
