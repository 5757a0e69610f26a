// sqlite3_serialize / sqlite3_deserialize: a database as one byte image.
//
// Serialize reads every page of the named database in a read transaction
// (the connection's own, when one is open) and returns a copy. Basalt
// keeps no database as one contiguous buffer, so SQLITE_SERIALIZE_NOCOPY
// always gets NULL (which the interface allows). A database without pages
// serializes to NULL, as in SQLite (a zero-byte allocation).
//
// Deserialize replaces the named database (not TEMP) by an in-memory copy
// of the image: the connection then reads and writes that copy.
// SQLITE_DESERIALIZE_READONLY makes it read-only; FREEONCLOSE frees the
// caller's buffer at once (Basalt owns a copy); RESIZEABLE changes nothing
// (the copy grows as needed). An image that is not a database is accepted,
// and the first statement needing the schema fails ("file is not a
// database"), as in SQLite.
#include <cstring>
#include <memory>
#include <string>

#include "api/guard.h"
#include "api/handles.h"

using basalt::Btree;
using basalt::Database;
using basalt::Status;
using basalt::api::Guard;
using basalt::api::HasConnection;
using basalt::api::SetError;

namespace {

Status ReadImage(Btree* bt, std::string* out) {
  bool own_txn = !bt->in_transaction();
  if (own_txn) TRY(bt->BeginTransaction(false));
  Status st = [&]() -> Status {
    basalt::Pager* pager = bt->pager();
    const uint32_t ps = pager->page_size();
    out->reserve(static_cast<size_t>(pager->page_count()) * ps);
    for (basalt::Pgno p = 1; p <= pager->page_count(); ++p) {
      basalt::PageRef page;
      TRY(pager->Get(p, &page));
      out->append(reinterpret_cast<const char*>(page.data()), ps);
    }
    return Status();
  }();
  if (own_txn) {
    Status cs = bt->Commit();
    if (st.ok()) st = cs;
  }
  return st;
}

unsigned char* SerializeImpl(sqlite3* db, const char* schema, sqlite3_int64* size, unsigned flags) {
  basalt::SchemaStore& dbs = db->conn->dbs();
  int i = dbs.Find(schema != nullptr ? schema : "main");
  if (i < 0) return nullptr;
  Database* d = dbs.at(i);
  if (d->bt == nullptr || !d->open_error.ok()) {
    if (size != nullptr) *size = 0;
    return nullptr;
  }
  std::string image;
  Status st = ReadImage(d->bt.get(), &image);
  if (!st.ok()) return nullptr;
  if (size != nullptr) *size = static_cast<sqlite3_int64>(image.size());
  if ((flags & SQLITE_SERIALIZE_NOCOPY) != 0 || image.empty()) return nullptr;
  auto* out = static_cast<unsigned char*>(sqlite3_malloc64(image.size()));
  if (out == nullptr) return nullptr;
  std::memcpy(out, image.data(), image.size());
  return out;
}

int DeserializeImpl(sqlite3* db, const char* schema, const unsigned char* data, sqlite3_int64 size,
                    unsigned flags) {
  basalt::SchemaStore& dbs = db->conn->dbs();
  int i = dbs.Find(schema != nullptr ? schema : "main");
  if (i < 0 || i == basalt::Catalog::kTemp) {
    return SetError(db, SQLITE_ERROR, "not an error");
  }
  if (db->conn->active_statements() > 0 || !db->conn->autocommit()) {
    return SetError(db, SQLITE_BUSY, "database is locked");
  }
  Database* d = dbs.at(i);
  std::string_view bytes(reinterpret_cast<const char*>(data),
                         static_cast<size_t>(size > 0 && data != nullptr ? size : 0));
  auto image = Btree::OpenImage(bytes);
  Status bad;
  if (!image.ok()) {
    bad = Status(basalt::kNotADb, "file is not a database");
    image = Btree::OpenInMemory();
    if (!image.ok()) return SetError(db, image.status());
  }
  d->bt = std::move(image).value();
  d->is_file = false;
  d->path.clear();
  d->read_only = (flags & SQLITE_DESERIALIZE_READONLY) != 0;
  d->open_error = Status();
  d->schema_changed_in_txn = false;
  Status rs = dbs.Reload(i);  // reads the schema, points the VM at the new tree
  d->schema_loaded = rs.ok() && bad.ok();
  if (!bad.ok()) {
    d->open_error = bad;
  } else if (!rs.ok()) {
    d->open_error = rs;
  }
  db->conn->ExpireStatements();
  basalt::api::ClearError(db);
  return SQLITE_OK;
}

}  // namespace

extern "C" {

unsigned char* sqlite3_serialize(sqlite3* db, const char* schema, sqlite3_int64* size,
                                 unsigned int flags) {
  if (size != nullptr) *size = -1;
  if (!HasConnection(db)) return nullptr;
  return Guard(db, static_cast<unsigned char*>(nullptr),
               [&] { return SerializeImpl(db, schema, size, flags); });
}

int sqlite3_deserialize(sqlite3* db, const char* schema, unsigned char* data, sqlite3_int64 size,
                        sqlite3_int64 buf_size, unsigned flags) {
  (void)buf_size;
  if (!HasConnection(db)) return SQLITE_MISUSE;
  int rc = Guard(db, basalt::api::kCodeOnThrow,
                 [&] { return DeserializeImpl(db, schema, data, size, flags); });
  if ((flags & SQLITE_DESERIALIZE_FREEONCLOSE) != 0) sqlite3_free(data);
  return rc;
}

}  // extern "C"
