// Questions about a connection's databases: sqlite3_db_filename / db_name /
// db_readonly / txn_state, sqlite3_table_column_metadata,
// sqlite3_db_cacheflush / db_release_memory, sqlite3_file_control, and the
// legacy no-ops SQLite keeps for compatibility (expired, aggregate_count,
// global_recover, thread_cleanup, memory_alarm, transfer_bindings).
#include <algorithm>
#include <cstring>
#include <string>

#include "api/filename.h"
#include "api/guard.h"
#include "api/handles.h"
#include "api/vfs_adapter.h"
#include "os/unix_vfs.h"
#include "record/affinity.h"

using basalt::Database;
using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::SetError;

namespace {

// Database `name` (null: main) of db, or null.
Database* Named(sqlite3* db, const char* name) {
  int i = db->conn->dbs().Find(name != nullptr ? name : "main");
  return i >= 0 ? db->conn->dbs().at(i) : nullptr;
}

int MetadataImpl(sqlite3* db, const char* zdb, const char* ztable, const char* zcol,
                 const char** decl, const char** coll, int* not_null, int* pk, int* autoinc) {
  basalt::SchemaStore& dbs = db->conn->dbs();
  for (int i = 0; i < dbs.size(); ++i) {
    basalt::Status st = dbs.EnsureSchema(i);
    if (!st.ok() && i != basalt::Catalog::kTemp) return SetError(db, st);
  }
  basalt::Table* t = dbs.catalog().FindTable(zdb != nullptr ? zdb : "", ztable);
  if (t == nullptr || t->is_view) {
    return SetError(
        db, SQLITE_ERROR,
        std::string("no such table column: ") + ztable + "." + (zcol != nullptr ? zcol : ""));
  }
  const char* d = nullptr;
  const char* c = "BINARY";
  bool nn = false, is_pk = false, ai = false;
  if (zcol != nullptr) {
    int col = t->FindColumn(zcol);
    bool rowid = col < 0 && t->HasRowid() &&
                 (sqlite3_stricmp(zcol, "rowid") == 0 || sqlite3_stricmp(zcol, "oid") == 0 ||
                  sqlite3_stricmp(zcol, "_rowid_") == 0);
    if (col < 0 && !rowid) {
      return SetError(db, SQLITE_ERROR,
                      std::string("no such table column: ") + ztable + "." + zcol);
    }
    if (rowid) col = t->rowid_alias;
    if (col >= 0) {
      const basalt::Column& column = t->columns[static_cast<size_t>(col)];
      d = column.decl_type.empty() ? nullptr : column.decl_type.c_str();
      if (!column.collation.empty()) c = column.collation.c_str();
      nn = column.not_null;
      is_pk = column.primary_key;
      ai = is_pk && t->autoincrement;
    } else {
      d = "INTEGER";  // the implicit rowid
      is_pk = true;
    }
  }
  if (decl) *decl = d;
  if (coll) *coll = c;
  if (not_null) *not_null = nn ? 1 : 0;
  if (pk) *pk = is_pk ? 1 : 0;
  if (autoinc) *autoinc = ai ? 1 : 0;
  basalt::api::ClearError(db);
  return SQLITE_OK;
}

}  // namespace

// SQLITE_FCNTL_RESERVE_BYTES: answers the reserve requested so far (the
// file's, or a larger one asked for before, which SQLite applies at the next
// VACUUM); sets it at once only while the database is empty.
static int ReserveBytes(sqlite3* db, Database* d, int* v) {
  const int actual = static_cast<int>(d->bt->page_size() - d->bt->usable_size());
  int& wanted = db->reserve_wanted[d];
  const int before = std::max(wanted, actual);
  if (*v >= 0 && *v <= 255) {
    if (*v != actual && d->bt->page_count() == 0) {
      (void)d->bt->SetReservedBytes(static_cast<uint8_t>(*v));
    }
    wanted = *v;
  }
  *v = before;
  return SQLITE_OK;
}

extern "C" {

sqlite3_filename sqlite3_db_filename(sqlite3* db, const char* name) {
  if (!HasConnection(db)) return nullptr;
  return Guard(db, static_cast<sqlite3_filename>(nullptr), [&]() -> sqlite3_filename {
    Database* d = Named(db, name);
    if (d == nullptr) return nullptr;
    return basalt::api::FilenameOf(db, d);  // "" for in-memory and temporary databases
  });
}

const char* sqlite3_db_name(sqlite3* db, int n) {
  if (!HasConnection(db)) return nullptr;
  return Guard(db, static_cast<const char*>(nullptr), [&]() -> const char* {
    if (n < 0 || n >= db->conn->dbs().size()) return nullptr;
    return db->conn->dbs().at(n)->name.c_str();
  });
}

int sqlite3_db_readonly(sqlite3* db, const char* name) {
  if (!HasConnection(db)) return -1;
  return Guard(db, -1, [&] {
    Database* d = Named(db, name);
    if (d == nullptr) return -1;
    return d->read_only ? 1 : 0;
  });
}

int sqlite3_txn_state(sqlite3* db, const char* name) {
  if (!HasConnection(db)) return -1;
  return Guard(db, -1, [&] {
    auto state = [](const Database* d) {
      if (d->bt == nullptr || !d->bt->in_transaction()) return SQLITE_TXN_NONE;
      return d->bt->in_write_transaction() ? SQLITE_TXN_WRITE : SQLITE_TXN_READ;
    };
    if (name != nullptr) {
      Database* d = Named(db, name);
      return d != nullptr ? state(d) : -1;
    }
    int most = SQLITE_TXN_NONE;
    for (int i = 0; i < db->conn->dbs().size(); ++i) {
      most = std::max(most, state(db->conn->dbs().at(i)));
    }
    return most;
  });
}

int sqlite3_table_column_metadata(sqlite3* db, const char* zdb, const char* ztable,
                                  const char* zcol, const char** decl, const char** coll,
                                  int* not_null, int* pk, int* autoinc) {
  if (!HasConnection(db) || ztable == nullptr) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    return MetadataImpl(db, zdb, ztable, zcol, decl, coll, not_null, pk, autoinc);
  });
}

// Basalt's pagers write dirty pages only at commit: nothing is pending
// outside a transaction, and a transaction keeps its pages (SQLite may
// write them early; either way the result is SQLITE_OK).
int sqlite3_db_cacheflush(sqlite3* db) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  return SQLITE_OK;
}

int sqlite3_db_release_memory(sqlite3* db) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  return SQLITE_OK;
}

// As SQLite: FILE_POINTER, VFS_POINTER, JOURNAL_POINTER, DATA_VERSION,
// RESERVE_BYTES and RESET_CACHE are answered by the library; every other
// operation goes to the database file's VFS -- a VFS the program registered
// gets it in its xFileControl (its answer is the result), Basalt's own
// files answer as SQLite's unix VFS does (UnixFileControl), and anything
// unknown is SQLITE_NOTFOUND. A database not open (temp before first use,
// an unknown name) is SQLITE_ERROR.
int sqlite3_file_control(sqlite3* db, const char* name, int op, void* arg) {
  if (!HasConnection(db)) return SQLITE_MISUSE;
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    Database* d = Named(db, name);
    if (d == nullptr || d->bt == nullptr) return SQLITE_ERROR;
    basalt::Pager* pager = d->bt->pager();
    basalt::VfsFile* file = d->is_file ? pager->db_file() : nullptr;
    switch (op) {
      case SQLITE_FCNTL_FILE_POINTER: {
        sqlite3_file* f = nullptr;
        if (file != nullptr) {
          f = file->ForeignFile() != nullptr ? static_cast<sqlite3_file*>(file->ForeignFile())
                                             : basalt::api::NativeFileView(file);
        }
        *static_cast<sqlite3_file**>(arg) = f;
        return SQLITE_OK;
      }
      case SQLITE_FCNTL_VFS_POINTER:
        *static_cast<sqlite3_vfs**>(arg) = db->vfs;
        return SQLITE_OK;
      case SQLITE_FCNTL_JOURNAL_POINTER: {
        // The open rollback journal; else an unopened file object (no
        // methods), as SQLite's pager always has one.
        basalt::VfsFile* j = pager->journal_file();
        sqlite3_file* f = &db->closed_journal;
        if (j != nullptr) {
          f = j->ForeignFile() != nullptr ? static_cast<sqlite3_file*>(j->ForeignFile())
                                          : basalt::api::NativeFileView(j);
        }
        *static_cast<sqlite3_file**>(arg) = f;
        return SQLITE_OK;
      }
      case SQLITE_FCNTL_DATA_VERSION:
        *static_cast<unsigned*>(arg) = static_cast<unsigned>(pager->file_data_version());
        return SQLITE_OK;
      case SQLITE_FCNTL_RESERVE_BYTES:
        return ReserveBytes(db, d, static_cast<int*>(arg));
      case SQLITE_FCNTL_RESET_CACHE:
        return SQLITE_OK;
      default:
        break;
    }
    if (file == nullptr) {
      // No file (an in-memory database): what sqlite3's shell then shows
      // for HAS_MOVED is 0.
      if (op == SQLITE_FCNTL_HAS_MOVED) *static_cast<int*>(arg) = 0;
      return SQLITE_NOTFOUND;
    }
    bool persist = pager->persist_wal();
    int rc = file->ForeignFile() != nullptr
                 ? file->FileControl(op, arg)
                 : basalt::api::UnixFileControl(file, op, arg, &persist, &db->psow);
    // The pager keeps the WAL file when asked to, whichever VFS answered.
    if (op == SQLITE_FCNTL_PERSIST_WAL && rc == SQLITE_OK) {
      pager->set_persist_wal(*static_cast<int*>(arg) != 0);
    }
    return rc;
  });
}

// Deprecated interfaces, kept with SQLite's documented behaviour.
int sqlite3_expired(sqlite3_stmt* s) { return s == nullptr ? 1 : 0; }
int sqlite3_global_recover(void) { return SQLITE_OK; }
void sqlite3_thread_cleanup(void) {}
int sqlite3_memory_alarm(void (*)(void*, sqlite3_int64, int), void*, sqlite3_int64) {
  return SQLITE_OK;
}

int sqlite3_transfer_bindings(sqlite3_stmt* from, sqlite3_stmt* to) {
  if (from == nullptr || to == nullptr) return SQLITE_MISUSE;
  int n = sqlite3_bind_parameter_count(from);
  if (n != sqlite3_bind_parameter_count(to)) return SQLITE_ERROR;
  return Guard(from->db, basalt::api::kCodeOnThrow, [&] {
    for (int i = 1; i <= n; ++i) {
      const basalt::Value* v = from->stmt->param(i);
      if (v != nullptr) to->stmt->Bind(i, *v);
    }
    return SQLITE_OK;
  });
}

}  // extern "C"
