// Pragmas about a database's header and size: user_version, schema_version,
// application_id, data_version, encoding, freelist_count, page_count,
// max_page_count and page_size.
#include "common/assert.h"
#include "main/connection.h"
#include "main/pragma_families.h"

namespace basalt {

namespace {

Meta CookieField(std::string_view name) {
  if (name == "user_version") return Meta::kUserVersion;
  if (name == "schema_version") return Meta::kSchemaCookie;
  BASALT_DCHECK(name == "application_id");
  return Meta::kApplicationId;
}

// SQLite's MAX_PAGE_COUNT in the reference build, the largest limit
// max_page_count takes (0xfffffffe).
constexpr int64_t kLargestPageLimit = 0xfffffffe;

}  // namespace

Status RunHeaderCookie(PragmaCall* call) {
  const Meta field = CookieField(call->def->name);
  const int dbi = call->target_db();
  if (call->set) {
    const uint32_t v = static_cast<uint32_t>(PragmaAtoi(call->arg));
    TRY(PragmaWrite(call->conn, dbi, [&](Database* db) { return db->bt->SetMeta(field, v); }));
    // A new schema cookie makes compiled statements compile again.
    if (field == Meta::kSchemaCookie) call->conn->dbs().Invalidate();
    return Status();
  }
  PragmaReadScope scope(call->conn, dbi);
  TRY(scope.status());
  Database* db = call->conn->dbs().at(dbi);
  uint32_t v = 0;
  if (db->bt->page_count() > 0) TRY(db->bt->GetMeta(field, &v));
  call->Row(Value::Int(static_cast<int32_t>(v)));
  return Status();
}

Status RunDataVersion(PragmaCall* call) {
  const int dbi = call->target_db();
  PragmaReadScope scope(call->conn, dbi);
  TRY(scope.status());
  Database* db = call->conn->dbs().at(dbi);
  call->Row(Value::Int(static_cast<int64_t>(db->bt->pager()->data_version())));
  return Status();
}

namespace {

struct EncodingName {
  const char* name;
  uint8_t enc;
};
constexpr EncodingName kEncodings[] = {
    {"utf-8", kUtf8},       {"utf8", kUtf8},       {"utf-16le", kUtf16le}, {"utf16le", kUtf16le},
    {"utf-16be", kUtf16be}, {"utf16be", kUtf16be}, {"utf-16", kUtf16le},   {"utf16", kUtf16le}};

// The encoding named `v`, or -1.
int FindEncoding(std::string_view v) {
  for (const EncodingName& n : kEncodings) {
    if (EqualsIgnoreCase(v, n.name)) return n.enc;
  }
  return -1;
}

}  // namespace

// Only a database not yet created takes an encoding; others ignore the
// request, even for an unknown name.
Status CheckEncoding(PragmaCall* call) {
  Connection* conn = call->conn;
  if (!call->set || conn->main_db()->page_count() != 0) return Status();
  if (FindEncoding(call->arg) < 0) return Status(kError, "unsupported encoding: " + call->arg);
  return Status();
}

// The main database's text encoding; setting it takes effect only while
// the database has no pages yet (it is then written into page 1 when the
// database is created).
Status RunEncoding(PragmaCall* call) {
  Connection* conn = call->conn;
  SchemaStore& store = conn->dbs();
  if (conn->is_file() && conn->open_error().ok()) (void)conn->EnsureSchema();
  if (call->set) {
    if (conn->main_db()->page_count() != 0) return Status();
    TRY(CheckEncoding(call));
    store.main()->SetTextEncoding(static_cast<uint8_t>(FindEncoding(call->arg)));
    store.SyncEncoding();
    return Status();
  }
  const uint8_t enc = store.main()->enc;
  call->Row(Value::Text(enc == kUtf16le ? "UTF-16le" : enc == kUtf16be ? "UTF-16be" : "UTF-8"));
  return Status();
}

Status RunFreelistCount(PragmaCall* call) {
  const int dbi = call->target_db();
  PragmaReadScope scope(call->conn, dbi);
  TRY(scope.status());
  Database* db = call->conn->dbs().at(dbi);
  uint32_t n = 0;
  if (db->bt->page_count() > 0) TRY(db->bt->FreelistCount(&n));
  call->Row(Value::Int(n));
  return Status();
}

// page_count, and max_page_count: the largest number of pages the database
// may grow to. A new limit is never below the current page count; 0 or a
// negative value only reads it.
Status RunPageCount(PragmaCall* call) {
  const int dbi = call->target_db();
  PragmaReadScope scope(call->conn, dbi);
  TRY(scope.status());
  Database* db = call->conn->dbs().at(dbi);
  if (std::string_view(call->def->name) == "page_count") {
    call->Row(Value::Int(db->bt->page_count()));
    return Status();
  }
  int64_t limit = 0;
  if (call->set && PragmaInt64(call->arg, &limit)) {
    limit = std::clamp<int64_t>(limit, 0, kLargestPageLimit);
    if (limit > 0) {
      db->max_page_count = static_cast<uint32_t>(std::max<int64_t>(limit, db->bt->page_count()));
      db->bt->pager()->SetMaxPageCount(db->max_page_count);
    }
  }
  call->Row(Value::Int(db->max_page_count));
  return Status();
}

// A database with pages takes a new page size at the next VACUUM; sizes
// that are not a power of two from 512 to 65536 are ignored.
Status RunPageSize(PragmaCall* call) {
  Database* db = call->conn->dbs().at(call->target_db());
  if (call->set) {
    const int32_t n = PragmaAtoi(call->arg);
    if (!IsValidPageSize(static_cast<uint32_t>(n)) || n <= 0) return Status();
    db->vacuum_page_size = static_cast<uint32_t>(n);
    (void)db->bt->SetPageSize(db->vacuum_page_size);
    return Status();
  }
  if (db->is_file && db->open_error.ok()) (void)call->conn->dbs().EnsureSchema(call->target_db());
  call->Row(Value::Int(db->bt->page_size()));
  return Status();
}

}  // namespace basalt
