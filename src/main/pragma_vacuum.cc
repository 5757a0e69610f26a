// Pragmas about how a file is kept and where temporary data lives:
// auto_vacuum, incremental_vacuum, default_cache_size, temp_store and
// temp_store_directory.
#include <mutex>

#include "main/connection.h"
#include "main/pragma_families.h"
#include "os/vfs.h"

namespace basalt {

namespace {

// SQLite's getAutoVacuum: a name, or 0..2 (anything else is 0).
int AutoVacuumMode(std::string_view v) {
  if (EqualsIgnoreCase(v, "none")) return 0;
  if (EqualsIgnoreCase(v, "full")) return 1;
  if (EqualsIgnoreCase(v, "incremental")) return 2;
  const int32_t n = PragmaAtoi(v);
  return n >= 0 && n <= 2 ? n : 0;
}

// SQLite's getTempStore: only the first character of a number counts.
int TempStoreMode(std::string_view v) {
  if (!v.empty() && v[0] >= '0' && v[0] <= '2') return v[0] - '0';
  if (EqualsIgnoreCase(v, "file")) return 1;
  if (EqualsIgnoreCase(v, "memory")) return 2;
  return 0;
}

// The process's temp_store_directory (sqlite3_temp_directory): shared by
// every connection, as in SQLite.
struct TempDirectory {
  std::mutex mu;
  std::string path;
};
TempDirectory& SharedTempDirectory() {
  static TempDirectory* d = new TempDirectory();
  return *d;
}

}  // namespace

Status RunAutoVacuum(PragmaCall* call) {
  SchemaStore& store = call->conn->dbs();
  const int dbi = call->target_db();
  Database* db = store.at(dbi);
  if (!db->open_error.ok()) return db->open_error;
  if (call->set) {
    const int mode = AutoVacuumMode(call->arg);
    db->vacuum_auto_vacuum = mode;  // what the next VACUUM builds
    Status st = db->bt->SetAutoVacuum(mode);
    // Switching auto-vacuum on or off in a database with pages needs a
    // VACUUM; SQLite ignores the request until then.
    if (!st.ok() && st.primary() != kReadOnly) return st;
    return Status();
  }
  if (db->is_file && !db->bt->in_transaction()) {
    // Another connection's VACUUM may have changed the mode.
    PragmaReadScope scope(call->conn, dbi);
    TRY(scope.status());
  }
  call->Row(Value::Int(db->bt->auto_vacuum()));
  return Status();
}

Status RunIncrementalVacuum(PragmaCall* call) {
  const int64_t n = call->set ? PragmaAtoi(call->arg) : 0;
  return PragmaWrite(call->conn, call->target_db(), [&](Database* db) {
    return db->bt->IncrementalVacuum(n > 0 ? static_cast<uint32_t>(n) : 0);
  });
}

// The cache size stored in the header (a database opened later starts with
// it); setting it also sets the connection's cache_size. 0 reads as the
// built-in default.
Status RunDefaultCacheSize(PragmaCall* call) {
  const int dbi = call->target_db();
  if (call->set) {
    const int32_t n = PragmaAtoi(call->arg);
    const int32_t size = n == INT32_MIN ? INT32_MAX : n < 0 ? -n : n;
    TRY(PragmaWrite(call->conn, dbi, [&](Database* db) {
      return db->bt->SetMeta(Meta::kDefaultCacheSize, static_cast<uint32_t>(size));
    }));
    Database* db = call->conn->dbs().at(dbi);
    db->cache_size = size;
    db->bt->pager()->SetCacheSize(size);
    return Status();
  }
  PragmaReadScope scope(call->conn, dbi);
  TRY(scope.status());
  Database* db = call->conn->dbs().at(dbi);
  uint32_t raw = 0;
  if (db->bt->page_count() > 0) TRY(db->bt->GetMeta(Meta::kDefaultCacheSize, &raw));
  const int32_t v = static_cast<int32_t>(raw);
  call->Row(Value::Int(v > 0 ? v : v == 0 ? -2000 : -static_cast<int64_t>(v)));
  return Status();
}

// A new mode closes the TEMP database: its tables are gone, as in SQLite
// (refused while TEMP is in a transaction). Basalt keeps TEMP in memory
// whatever the mode.
Status RunTempStore(PragmaCall* call) {
  PragmaSettings& settings = call->conn->pragma_settings();
  if (!call->set) {
    call->Row(Value::Int(settings.temp_store));
    return Status();
  }
  const int mode = TempStoreMode(call->arg);
  if (mode == settings.temp_store) return Status();
  TRY(CheckTempStore(call));
  SchemaStore& store = call->conn->dbs();
  store.CloseTemp();
  // The TEMP database made at the next use starts with the defaults.
  Database* temp = store.temp();
  const Database fresh("temp", /*temp=*/true);
  temp->synchronous = fresh.synchronous;
  temp->cache_size = fresh.cache_size;
  temp->journal_size_limit = fresh.journal_size_limit;
  temp->exclusive_locking = fresh.exclusive_locking;
  temp->max_page_count = fresh.max_page_count;
  temp->secure_delete = fresh.secure_delete;
  temp->cache_spill = fresh.cache_spill;
  temp->mmap_size = fresh.mmap_size;
  temp->temp_file_journal_mode = fresh.temp_file_journal_mode;
  settings.temp_store = mode;
  return Status();
}

Status CheckTempStore(PragmaCall* call) {
  if (!call->set || TempStoreMode(call->arg) == call->conn->pragma_settings().temp_store) {
    return Status();
  }
  const Database* temp = call->conn->dbs().temp();
  if (temp->is_open() && (!call->conn->autocommit() || temp->bt->in_transaction())) {
    return Status(kError, "temporary storage cannot be changed from within a transaction");
  }
  return Status();
}

Status RunTempStoreDirectory(PragmaCall* call) {
  TempDirectory& dir = SharedTempDirectory();
  std::lock_guard<std::mutex> lock(dir.mu);
  if (!call->set) {
    if (!dir.path.empty()) call->Row(Value::Text(dir.path));
    return Status();
  }
  TRY(CheckTempStoreDirectory(call));
  dir.path = call->arg;
  return Status();
}

Status CheckTempStoreDirectory(PragmaCall* call) {
  if (!call->set || call->arg.empty()) return Status();
  bool writable = false;
  Status st = DefaultVfs()->Access(call->arg, AccessMode::kReadWrite, &writable);
  if (!st.ok() || !writable) return Status(kError, "not a writable directory");
  return Status();
}

}  // namespace basalt
