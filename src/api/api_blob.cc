// Incremental BLOB I/O: sqlite3_blob_open / reopen / bytes / read / write /
// close.
//
// A blob handle is built on two statements of its connection (they are in
// the connection's statement list, so, as in SQLite, an open blob keeps
// sqlite3_close busy):
//   read:  SELECT "col", * FROM "db"."tbl" WHERE rowid = ?
//   write: UPDATE "db"."tbl" SET "col" = ? WHERE rowid = ?   (writable only)
// The handle keeps the row as the read statement last saw it (the blob
// column first, then every column).
//
// Expiry (SQLite: a handle whose row is updated or deleted by anything but
// the handle itself is expired, and its reads and writes fail with
// SQLITE_ABORT): before each read or write, when the connection's total
// change count or the database's data version moved since the last look,
// the row is read again; if it is gone or any column differs, the handle
// is expired for good. (A write that stores the very same values is not
// noticed; SQLite would expire the handle.) A write through a handle runs
// the UPDATE above inside a QuietScope, so, as SQLite's in-place write, it
// asks the authorizer nothing, fires no trigger and no update hook, and
// counts no change (the preupdate hook does fire, so sessions record it);
// other handles on the connection then read the row again and keep going.
// Invariant: row[0] is TEXT or BLOB, and its size never changes while the
// handle points at the same row (writes keep the size).
#include <cstring>
#include <string>
#include <vector>

#include "api/guard.h"
#include "api/handles.h"
#include "exec/change_hooks.h"

using basalt::Value;
using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::SetError;

struct sqlite3_blob {
  sqlite3* db = nullptr;
  int db_index = 0;
  sqlite3_stmt* read = nullptr;
  sqlite3_stmt* write = nullptr;  // null for a read-only handle
  sqlite3_int64 rowid = 0;
  std::vector<Value> row;
  bool expired = false;
  int64_t seen_changes = 0;
  uint64_t seen_version = 0;
  uint64_t seen_blob_writes = 0;
};

namespace {

std::string QuoteId(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out.push_back('"');
    out.push_back(c);
  }
  out.push_back('"');
  return out;
}

uint64_t DataVersion(sqlite3_blob* b) {
  basalt::Database* d = b->db->conn->dbs().at(b->db_index);
  return d->bt != nullptr ? d->bt->pager()->data_version() : 0;
}

void NoteSeen(sqlite3_blob* b) {
  b->seen_changes = b->db->conn->TotalChanges();
  b->seen_version = DataVersion(b);
  b->seen_blob_writes = b->db->blob_writes;
}

// While a handle runs its statements: no authorizer, no triggers, no
// update hook, and the change counters left as they were.
class QuietScope {
 public:
  explicit QuietScope(sqlite3* db)
      : db_(db),
        auth_(db->conn->auth()),
        triggers_(db->conn->options().enable_trigger),
        changes_(db->conn->Changes()),
        total_(db->conn->TotalChanges()) {
    basalt::ChangeHooks& h = db->conn->env()->hook_state;
    has_update_ = h.has_update;
    h.has_update = false;  // the VM fires the update hook only when set
    db->conn->auth() = basalt::AuthHook{};
    db->conn->options().enable_trigger = false;
  }
  ~QuietScope() {
    db_->conn->auth() = auth_;
    db_->conn->options().enable_trigger = triggers_;
    db_->conn->env()->hook_state.has_update = has_update_;
    db_->conn->RestoreChanges(changes_, total_);
  }
  QuietScope(const QuietScope&) = delete;
  QuietScope& operator=(const QuietScope&) = delete;

 private:
  sqlite3* db_;
  basalt::AuthHook auth_;
  bool triggers_;
  int64_t changes_, total_;
  bool has_update_;
};

// Reads row `rowid` into *row. SQLITE_OK, or an error code with the
// message SQLite gives (missing row, value that is not TEXT or BLOB).
int LoadRow(sqlite3_blob* b, sqlite3_int64 rowid, std::vector<Value>* row, std::string* err) {
  sqlite3_stmt* s = b->read;
  sqlite3_reset(s);
  sqlite3_bind_int64(s, 1, rowid);
  int rc = sqlite3_step(s);
  if (rc != SQLITE_ROW) {
    sqlite3_reset(s);
    if (rc == SQLITE_DONE) {
      *err = "no such rowid: " + std::to_string(rowid);
      return SQLITE_ERROR;
    }
    *err = sqlite3_errmsg(b->db);
    return rc;
  }
  int n = sqlite3_column_count(s);
  row->assign(static_cast<size_t>(n), Value());
  for (int i = 0; i < n; ++i) (*row)[static_cast<size_t>(i)].CopyFrom(s->row[i]);
  sqlite3_reset(s);
  const Value& v = (*row)[0];
  if (!v.is_string_like()) {
    static const char* const kNames[] = {"null", "integer", "real", "text", "blob"};
    *err = std::string("cannot open value of type ") + kNames[static_cast<int>(v.type())];
    return SQLITE_ERROR;
  }
  return SQLITE_OK;
}

// False when the handle's row changed under it (marks it expired).
bool StillCurrent(sqlite3_blob* b) {
  if (b->expired) return false;
  if (b->seen_changes == b->db->conn->TotalChanges() && b->seen_version == DataVersion(b)) {
    if (b->seen_blob_writes == b->db->blob_writes) return true;
    // Only blob writes happened since: read the row again, not expired.
    std::vector<Value> now;
    std::string err;
    if (LoadRow(b, b->rowid, &now, &err) == SQLITE_OK && now[0].size() == b->row[0].size()) {
      b->row = std::move(now);
      NoteSeen(b);
      return true;
    }
  }
  std::vector<Value> now;
  std::string err;
  bool same = LoadRow(b, b->rowid, &now, &err) == SQLITE_OK && now.size() == b->row.size();
  for (size_t i = 0; same && i < now.size(); ++i) {
    const Value &x = now[i], &y = b->row[i];
    same = x.type() == y.type() && (x.is_string_like() ? x.text() == y.text()
                                    : x.is_int()       ? x.int_value() == y.int_value()
                                    : x.is_real()      ? x.real_value() == y.real_value()
                                                       : true);
  }
  if (!same) {
    b->expired = true;
    return false;
  }
  NoteSeen(b);
  return true;
}

// Checks the table and column as SQLite's blob_open does; "" when fine.
std::string CheckTarget(sqlite3* db, const char* zdb, const char* ztable, const char* zcol,
                        bool writable, int* db_index) {
  basalt::SchemaStore& dbs = db->conn->dbs();
  int i = dbs.Find(zdb);
  if (i >= 0) {
    basalt::Status st = dbs.EnsureSchema(i);
    if (!st.ok()) return st.message();
  }
  basalt::Table* t = i >= 0 ? dbs.catalog().FindTable(zdb, ztable) : nullptr;
  if (t == nullptr) return std::string("no such table: ") + zdb + "." + ztable;
  if (t->is_view) return std::string("cannot open view: ") + ztable;
  if (t->is_virtual) return std::string("cannot open virtual table: ") + ztable;
  if (t->without_rowid) return std::string("cannot open table without rowid: ") + ztable;
  int col = t->FindColumn(zcol);
  if (col < 0) return std::string("no such column: \"") + zcol + "\"";
  if (writable) {
    for (const basalt::Index* idx : t->indexes) {
      for (int c : idx->columns) {
        if (c == col || c == basalt::kExprColumn) return "cannot open indexed column for writing";
      }
    }
  }
  *db_index = i;
  return std::string();
}

int OpenImpl(sqlite3* db, const char* zdb, const char* ztable, const char* zcol,
             sqlite3_int64 rowid, int flags, sqlite3_blob** out) {
  const bool writable = flags != 0;
  int db_index = 0;
  std::string err = CheckTarget(db, zdb, ztable, zcol, writable, &db_index);
  if (!err.empty()) return SetError(db, SQLITE_ERROR, err);
  auto b = std::make_unique<sqlite3_blob>();
  b->db = db;
  b->db_index = db_index;
  std::string from = QuoteId(zdb) + "." + QuoteId(ztable);
  std::string sql = "SELECT " + QuoteId(zcol) + ", * FROM " + from + " WHERE rowid = ?";
  int rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &b->read, nullptr);
  if (rc == SQLITE_OK && writable) {
    sql = "UPDATE " + from + " SET " + QuoteId(zcol) + " = ?1 WHERE rowid = ?2";
    rc = sqlite3_prepare_v2(db, sql.c_str(), -1, &b->write, nullptr);
  }
  if (rc == SQLITE_OK) rc = LoadRow(b.get(), rowid, &b->row, &err);
  if (rc != SQLITE_OK) {
    if (err.empty()) err = sqlite3_errmsg(db);
    sqlite3_finalize(b->read);
    sqlite3_finalize(b->write);
    return SetError(db, rc, err);
  }
  b->rowid = rowid;
  NoteSeen(b.get());
  *out = b.release();
  basalt::api::ClearError(db);
  return SQLITE_OK;
}

}  // namespace

extern "C" {

int sqlite3_blob_open(sqlite3* db, const char* zdb, const char* ztable, const char* zcol,
                      sqlite3_int64 rowid, int flags, sqlite3_blob** out) {
  if (out == nullptr) return SQLITE_MISUSE;
  *out = nullptr;
  if (!basalt::api::IsOpen(db) || ztable == nullptr || zcol == nullptr) return SQLITE_MISUSE;
  if (zdb == nullptr) zdb = "main";
  return Guard(db, basalt::api::kCodeOnThrow, [&] {
    QuietScope quiet(db);
    return OpenImpl(db, zdb, ztable, zcol, rowid, flags, out);
  });
}

int sqlite3_blob_reopen(sqlite3_blob* b, sqlite3_int64 rowid) {
  if (b == nullptr) return SQLITE_MISUSE;
  return Guard(b->db, basalt::api::kCodeOnThrow, [&] {
    if (b->expired) return SQLITE_ABORT;
    QuietScope quiet(b->db);
    std::string err;
    std::vector<Value> row;
    int rc = LoadRow(b, rowid, &row, &err);
    if (rc != SQLITE_OK) {
      b->expired = true;  // SQLite: the handle is aborted after a failed reopen
      return SetError(b->db, rc, err);
    }
    b->row = std::move(row);
    b->rowid = rowid;
    NoteSeen(b);
    return SQLITE_OK;
  });
}

int sqlite3_blob_bytes(sqlite3_blob* b) {
  if (b == nullptr) return 0;
  return Guard(b->db, 0, [&] { return b->expired ? 0 : static_cast<int>(b->row[0].size()); });
}

int sqlite3_blob_read(sqlite3_blob* b, void* z, int n, int offset) {
  if (b == nullptr) return SQLITE_MISUSE;
  return Guard(b->db, basalt::api::kCodeOnThrow, [&] {
    const Value& v = b->row[0];
    if (n < 0 || offset < 0 || static_cast<int64_t>(offset) + n > v.size()) {
      return SetError(b->db, SQLITE_ERROR, "SQL logic error");
    }
    QuietScope quiet(b->db);
    if (!StillCurrent(b)) return SetError(b->db, SQLITE_ABORT, "query aborted");
    if (n > 0) std::memcpy(z, b->row[0].data() + offset, static_cast<size_t>(n));
    return SQLITE_OK;
  });
}

int sqlite3_blob_write(sqlite3_blob* b, const void* z, int n, int offset) {
  if (b == nullptr) return SQLITE_MISUSE;
  return Guard(b->db, basalt::api::kCodeOnThrow, [&] {
    if (b->write == nullptr) {
      return SetError(b->db, SQLITE_READONLY, "attempt to write a readonly database");
    }
    const Value& v = b->row[0];
    if (n < 0 || offset < 0 || static_cast<int64_t>(offset) + n > v.size()) {
      return SetError(b->db, SQLITE_ERROR, "SQL logic error");
    }
    QuietScope quiet(b->db);
    if (!StillCurrent(b)) return SetError(b->db, SQLITE_ABORT, "query aborted");
    std::string bytes(v.data(), v.size());
    if (n > 0) std::memcpy(bytes.data() + offset, z, static_cast<size_t>(n));
    sqlite3_stmt* w = b->write;
    sqlite3_reset(w);
    if (v.is_text()) {
      sqlite3_bind_text(w, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_STATIC);
    } else {
      sqlite3_bind_blob(w, 1, bytes.data(), static_cast<int>(bytes.size()), SQLITE_STATIC);
    }
    sqlite3_bind_int64(w, 2, b->rowid);
    int rc = sqlite3_step(w);
    sqlite3_reset(w);
    sqlite3_clear_bindings(w);
    if (rc != SQLITE_DONE) return rc;
    std::string err;
    std::vector<Value> row;
    if (LoadRow(b, b->rowid, &row, &err) != SQLITE_OK) {
      b->expired = true;
      return SetError(b->db, SQLITE_ABORT, "query aborted");
    }
    b->row = std::move(row);
    ++b->db->blob_writes;
    NoteSeen(b);
    basalt::api::ClearError(b->db);
    return SQLITE_OK;
  });
}

int sqlite3_blob_close(sqlite3_blob* b) {
  if (b == nullptr) return SQLITE_OK;
  sqlite3* db = b->db;
  // Finalizing the last statement of a zombie connection frees it: nothing
  // of db may be touched after the second finalize.
  sqlite3_stmt* r = b->read;
  sqlite3_stmt* w = b->write;
  delete b;
  (void)db;
  sqlite3_finalize(w);
  sqlite3_finalize(r);
  return SQLITE_OK;
}

}  // extern "C"
