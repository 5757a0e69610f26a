// The online backup API: sqlite3_backup_init / step / remaining /
// pagecount / finish.
//
// How a backup runs (Basalt's shape of SQLite's backup.c contract):
//   1. init resolves both database names, checks the destination has no
//      transaction open ("destination database is in use"), and counts one
//      more backup on each connection (neither may close meanwhile).
//   2. The first step locks the destination as SQLite does: a write
//      transaction with the EXCLUSIVE lock (WAL: the write lock), held
//      until the backup is done or finished, so that other connections
//      reading (rollback mode) or writing the destination meanwhile get
//      SQLITE_BUSY; its schema cookie is remembered. A destination in WAL
//      mode whose page size differs from the source's is SQLITE_READONLY
//      (the lock stays until finish, as in SQLite).
//   3. Each step(n) opens a read transaction on the source (unless its
//      connection already has one), and copies the next n source pages
//      (all when n < 0) into a staging image. When another connection
//      changed the source since the previous step (its data version moved,
//      or its page size), the staging restarts from page 1 ("the backup is
//      automatically restarted"); when the source's own connection wrote
//      a source file, the pages staged so far are read again in place
//      (SQLite updates the copied pages of the destination as they are
//      written), so the backup goes on -- an in-memory source restarts.
//   4. The step that stages the last page writes the destination inside
//      the held transaction (Btree::CopyContentFrom: page size, encoding
//      and header adopted, journaled like any write; the schema cookie is
//      the destination's old one plus one, so other connections reload
//      their schema), commits, reloads the destination's schema and
//      returns SQLITE_DONE. An in-memory destination cannot take a
//      different page size: SQLITE_READONLY, as in SQLite.
//   5. finish rolls back a destination transaction still held, reports the
//      first error (SQLITE_OK after DONE) on the destination connection and
//      frees the object.
// Invariant B1: staged.size() == (next - 1) * page_size.
#include <cstring>
#include <memory>
#include <string>

#include "api/guard.h"
#include "api/handles.h"
#include "common/coding.h"
#include "pager/file_pager.h"

using basalt::Btree;
using basalt::Database;
using basalt::Pgno;
using basalt::Status;
using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::MutexLock;
using basalt::api::SetError;

struct sqlite3_backup {
  sqlite3* dest = nullptr;
  std::string dest_name;
  sqlite3* src = nullptr;
  std::string src_name;
  std::string staged;  // B1
  Pgno next = 1;       // the next source page to stage
  uint32_t page_size = 0;
  Pgno page_count = 0;        // source pages at the last step
  uint64_t data_version = 0;  // the source's, as of the last step
  uint64_t own_commits = 0;   // the source connection's commits, likewise
  bool fresh = true;          // no step staged anything yet
  bool dest_locked = false;   // the destination write transaction is held
  uint32_t dest_cookie = 0;   // its schema cookie when locked
  int rc = SQLITE_OK;         // sticky: the first error, or SQLITE_DONE
};

namespace {

// Database `name` of `db`, or null with an "unknown database" error on
// `report`.
Database* FindDb(sqlite3* db, const std::string& name, sqlite3* report) {
  int i = db->conn->dbs().Find(name);
  if (i < 0) {
    SetError(report, SQLITE_ERROR, "unknown database " + name);
    return nullptr;
  }
  return db->conn->dbs().at(i);
}

// Stages source pages b->next .. up to n more (step 2). *done: all staged.
// `file`: the source is a file (an in-memory source restarts on any change,
// as SQLite's does).
Status StageSource(sqlite3_backup* b, Btree* bt, int n, bool file, bool* done) {
  bool own_txn = !bt->in_transaction();
  if (own_txn) TRY(bt->BeginTransaction(false));
  Status st = [&]() -> Status {
    basalt::Pager* pager = bt->pager();
    const Pgno count = bt->page_count();
    const uint64_t own = pager->file_data_version() - pager->data_version();
    if (b->fresh || pager->data_version() != b->data_version ||
        pager->page_size() != b->page_size || (!file && own != b->own_commits)) {
      b->staged.clear();
      b->next = 1;
      b->fresh = false;
      b->page_size = pager->page_size();
    } else if (own != b->own_commits) {
      // Written through the source's own connection: the staged pages are
      // refreshed in place (those past its new end dropped).
      if (b->next > count + 1) b->next = count + 1;
      b->staged.resize(static_cast<size_t>(b->next - 1) * b->page_size);
      for (Pgno pg = 1; pg < b->next; ++pg) {
        basalt::PageRef page;
        TRY(pager->Get(pg, &page));
        std::memcpy(&b->staged[static_cast<size_t>(pg - 1) * b->page_size], page.data(),
                    b->page_size);
      }
    }
    b->data_version = pager->data_version();
    b->own_commits = own;
    b->page_count = count;
    Pgno last = count;
    if (n >= 0 && static_cast<uint64_t>(b->next) + static_cast<uint64_t>(n) - 1 < count) {
      last = b->next + static_cast<Pgno>(n) - 1;
    }
    for (; b->next <= last; ++b->next) {
      basalt::PageRef page;
      TRY(pager->Get(b->next, &page));
      b->staged.append(reinterpret_cast<const char*>(page.data()), b->page_size);
    }
    *done = b->next > count;
    return Status();
  }();
  if (own_txn) {
    Status cs = bt->Commit();
    if (st.ok()) st = cs;
  }
  return st;
}

// Writes the staged image into the destination (step 3).
Status WriteDestination(sqlite3_backup* b, int dest_index) {
  basalt::SchemaStore& dbs = b->dest->conn->dbs();
  if (dest_index == basalt::Catalog::kTemp) TRY(dbs.OpenTemp());
  Database* d = dbs.at(dest_index);
  std::unique_ptr<Btree> image;
  Btree* bt = d->bt.get();
  if (b->staged.empty()) {
    // An empty source: the destination becomes a new, empty database (of
    // its own page size).
    auto r = Btree::OpenInMemory(bt->page_size());
    TRY(r.status());
    image = std::move(r).value();
    TRY(image->BeginTransaction(true));
    TRY(image->Commit());
  } else {
    auto r = Btree::OpenImage(b->staged);
    TRY(r.status());
    image = std::move(r).value();
  }
  if (!d->is_file && bt->page_count() > 0 && image->page_size() != bt->page_size()) {
    return Status(basalt::kReadOnly, "attempt to write a readonly database");
  }
  if (!d->is_file && bt->page_count() == 0 && image->page_size() != bt->page_size()) {
    TRY(bt->SetPageSize(image->page_size()));
  }
  if (!bt->in_write_transaction()) {
    TRY(bt->BeginTransaction(true));
    TRY(bt->GetMeta(basalt::Meta::kSchemaCookie, &b->dest_cookie));
  }
  b->dest_locked = false;  // committed or rolled back below
  Status st = bt->CopyContentFrom(image.get());
  if (st.ok()) st = bt->SetMeta(basalt::Meta::kSchemaCookie, b->dest_cookie + 1);
  if (st.ok()) st = bt->Commit();
  if (!st.ok()) (void)bt->Rollback();
  Status rs = dbs.Reload(dest_index);
  b->dest->conn->ExpireStatements();
  return st.ok() ? rs : st;
}

// Step 2: the destination's EXCLUSIVE write transaction, taken once.
Status LockDestination(sqlite3_backup* b, int dest_index, Database* s) {
  Database* d = b->dest->conn->dbs().at(dest_index);
  if (!b->dest_locked && d->is_file && d->bt != nullptr) {
    Btree* bt = d->bt.get();
    TRY(bt->BeginTransaction(true));
    Status st = static_cast<basalt::FilePager*>(bt->pager())->BeginWriteExclusive();
    if (st.ok()) st = bt->GetMeta(basalt::Meta::kSchemaCookie, &b->dest_cookie);
    if (!st.ok()) {
      (void)bt->Rollback();
      return st;
    }
    b->dest_locked = true;
  }
  if (b->dest_locked && s->bt != nullptr &&
      d->bt->pager()->journal_mode() == basalt::JournalMode::kWal &&
      d->bt->page_size() != s->bt->page_size()) {
    return Status(basalt::kReadOnly, "attempt to write a readonly database");
  }
  return Status();
}

// The destination transaction held by an unfinished backup is rolled back.
void UnlockDestination(sqlite3_backup* b) {
  if (!b->dest_locked) return;
  b->dest_locked = false;
  int i = b->dest->conn->dbs().Find(b->dest_name);
  if (i < 0) return;
  Database* d = b->dest->conn->dbs().at(i);
  if (d->bt != nullptr && d->bt->in_write_transaction()) (void)d->bt->Rollback();
}

int StepImpl(sqlite3_backup* b, int n) {
  if (b->rc != SQLITE_OK && b->rc != SQLITE_BUSY && b->rc != SQLITE_LOCKED) return b->rc;
  MutexLock src_lock(b->src->mutex);
  if (!HasConnection(b->src) || !HasConnection(b->dest)) return SQLITE_MISUSE;
  int dest_index = b->dest->conn->dbs().Find(b->dest_name);
  int src_index = b->src->conn->dbs().Find(b->src_name);
  if (dest_index < 0 || src_index < 0) return b->rc = SQLITE_ERROR;
  Database* s = b->src->conn->dbs().at(src_index);
  bool done = true;
  Status st = LockDestination(b, dest_index, s);
  if (st.ok() && s->bt != nullptr) st = StageSource(b, s->bt.get(), n, s->is_file, &done);
  if (st.ok() && done) st = WriteDestination(b, dest_index);
  if (!st.ok()) {
    int code = st.code() & 0xff;
    if (code != SQLITE_BUSY && code != SQLITE_LOCKED) b->rc = st.code();
    return code;
  }
  if (done) b->rc = SQLITE_DONE;
  return done ? SQLITE_DONE : SQLITE_OK;
}

}  // namespace

extern "C" {

sqlite3_backup* sqlite3_backup_init(sqlite3* dest, const char* dest_name, sqlite3* src,
                                    const char* src_name) {
  if (!HasConnection(dest) || !HasConnection(src) || dest_name == nullptr || src_name == nullptr) {
    return nullptr;
  }
  return Guard(dest, static_cast<sqlite3_backup*>(nullptr), [&]() -> sqlite3_backup* {
    MutexLock src_lock(src->mutex);
    if (src == dest) {
      SetError(dest, SQLITE_ERROR, "source and destination must be distinct");
      return nullptr;
    }
    Database* s = FindDb(src, src_name, dest);
    if (s == nullptr) return nullptr;
    Database* d = FindDb(dest, dest_name, dest);
    if (d == nullptr) return nullptr;
    if (d->bt != nullptr && d->bt->in_transaction()) {
      SetError(dest, SQLITE_ERROR, "destination database is in use");
      return nullptr;
    }
    auto b = std::make_unique<sqlite3_backup>();
    b->dest = dest;
    b->dest_name = dest_name;
    b->src = src;
    b->src_name = src_name;
    ++dest->active_backups;
    ++src->active_backups;
    basalt::api::ClearError(dest);
    return b.release();
  });
}

int sqlite3_backup_step(sqlite3_backup* b, int n) {
  if (b == nullptr) return SQLITE_MISUSE;
  return Guard(b->dest, basalt::api::kCodeOnThrow, [&] { return StepImpl(b, n); });
}

int sqlite3_backup_finish(sqlite3_backup* b) {
  if (b == nullptr) return SQLITE_OK;
  sqlite3* dest = b->dest;
  return Guard(dest, basalt::api::kCodeOnThrow, [&] {
    int rc = b->rc == SQLITE_DONE ? SQLITE_OK : b->rc;
    UnlockDestination(b);
    {
      MutexLock src_lock(b->src->mutex);
      --b->src->active_backups;
    }
    --dest->active_backups;
    delete b;
    if (rc == SQLITE_OK) {
      basalt::api::ClearError(dest);
    } else {
      SetError(dest, rc, sqlite3_errstr(rc));
    }
    return rc & 0xff;
  });
}

int sqlite3_backup_remaining(sqlite3_backup* b) {
  if (b == nullptr) return 0;
  return static_cast<int>(b->page_count >= b->next ? b->page_count - b->next + 1 : 0);
}

int sqlite3_backup_pagecount(sqlite3_backup* b) {
  return b != nullptr ? static_cast<int>(b->page_count) : 0;
}

}  // extern "C"
