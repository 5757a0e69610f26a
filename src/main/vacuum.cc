// VACUUM [schema] [INTO filename] (lang_vacuum): the database rebuilt
// compactly, either over itself or into a new file.
//
// How the rebuild goes (see also src/btree/vacuum_copy.cc):
//   1. The new database is built apart: in memory for VACUUM, in the target
//      file (without a journal) for VACUUM INTO. Its page size is the
//      current one, or the one a pending `PRAGMA page_size=N` asked for
//      (not in WAL mode, not for in-memory databases); its auto-vacuum mode
//      is the one a `PRAGMA auto_vacuum` asked for, else the current one.
//   2. For every sqlite_schema row, in rowid order, a tree of the same kind
//      is created (so that in an auto-vacuum database the roots come first,
//      in order, and nothing needs moving); then each tree's entries are
//      copied in order (rowids kept, index keys appended) and the row is
//      stored under its old rowid with the new root page.
//   3. The meta values that describe the content are carried over: schema
//      format, default cache size, text encoding, user version,
//      application id; the schema cookie goes up by one.
//   4. VACUUM: inside a write transaction of this database, every page is
//      replaced by the new database's (Btree::CopyContentFrom, journaled),
//      the in-memory schema is read again, and the transaction commits. A
//      failure anywhere rolls the whole transaction back: the old database
//      stays as it was.
#include "main/connection.h"
#include "main/statement.h"
#include "os/vfs.h"
#include "pager/file_pager.h"
#include "parser/parser.h"
#include "record/record.h"

namespace basalt {

namespace {

// One row of sqlite_schema, as stored.
struct SchemaRecord {
  int64_t rowid = 0;
  std::vector<Value> fields;  // type, name, tbl_name, rootpage, sql (copied)
  Pgno root = 0;
};

Status ReadSchemaRecords(Btree* db, std::vector<SchemaRecord>* out) {
  BtCursor cur;
  TRY(db->OpenCursor(1, false, &cur));
  TRY(cur.First());
  std::string buf;
  while (!cur.eof()) {
    const uint32_t n = cur.payload_size();
    buf.resize(n);
    TRY(cur.ReadPayload(0, n, reinterpret_cast<uint8_t*>(buf.data())));
    const auto* data = reinterpret_cast<const uint8_t*>(buf.data());
    std::vector<uint32_t> types, offsets;
    Result<int> nf = ParseRecordHeader(data, n, &types, &offsets);
    if (!nf.ok()) return nf.status();
    if (*nf < 5) return CORRUPT();
    SchemaRecord rec;
    rec.rowid = cur.rowid();
    rec.fields.resize(static_cast<size_t>(*nf));
    for (size_t f = 0; f < rec.fields.size(); ++f) {
      DecodeSerial(data + offsets[f], types[f], &rec.fields[f], false);
    }
    const Value& root = rec.fields[3];
    if (root.is_int() && root.int_value() > 0) {
      if (root.int_value() > static_cast<int64_t>(db->page_count())) return CORRUPT();
      rec.root = static_cast<Pgno>(root.int_value());
    }
    out->push_back(std::move(rec));
    TRY(cur.Next());
  }
  return Status();
}

// Fills the empty database `to` (not in a transaction) with a compact copy
// of `from` (which must be inside a transaction) and commits it.
Status BuildCopy(Btree* from, Btree* to, int auto_vacuum) {
  TRY(to->SetAutoVacuum(auto_vacuum));
  TRY(to->SetReservedBytes(static_cast<uint8_t>(from->page_size() - from->usable_size())));
  std::vector<SchemaRecord> rows;
  TRY(ReadSchemaRecords(from, &rows));
  TRY(to->BeginTransaction(true));
  Status st = [&]() -> Status {
    // Every tree first: auto-vacuum roots then sit at the start, in order.
    std::vector<Pgno> roots(rows.size(), 0);
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].root == 0) continue;
      BtCursor probe;
      TRY(from->OpenCursor(rows[i].root, false, &probe));
      const TreeKind kind = probe.is_table() ? TreeKind::kTable : TreeKind::kIndex;
      probe.Close();
      ASSIGN_OR_RETURN(roots[i], to->CreateTree(kind));
    }
    BtCursor schema;
    TRY(to->OpenCursor(1, true, &schema));
    std::string rec;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (roots[i] != 0) {
        TRY(to->CopyTree(from, rows[i].root, roots[i]));
        rows[i].fields[3].SetInt(roots[i]);
      }
      rec.clear();
      EncodeRecord(rows[i].fields.data(), static_cast<int>(rows[i].fields.size()), &rec);
      TRY(schema.InsertRow(rows[i].rowid, reinterpret_cast<const uint8_t*>(rec.data()),
                           static_cast<uint32_t>(rec.size())));
    }
    schema.Close();
    uint32_t v = 0;
    TRY(from->GetMeta(Meta::kSchemaCookie, &v));
    TRY(to->SetMeta(Meta::kSchemaCookie, v + 1));
    for (Meta m : {Meta::kSchemaFormat, Meta::kDefaultCacheSize, Meta::kTextEncoding,
                   Meta::kUserVersion, Meta::kApplicationId}) {
      TRY(from->GetMeta(m, &v));
      TRY(to->SetMeta(m, v));
    }
    return to->Commit();
  }();
  if (!st.ok() && to->in_transaction()) (void)to->Rollback();
  return st;
}

}  // namespace

Status Connection::ValidateVacuum(ast::VacuumStmt* st, std::string_view text) {
  if (!st->schema.empty() && store_.Find(st->schema) < 0) {
    if (st->schema.data() >= text.data() && st->schema.data() < text.data() + text.size()) {
      last_error_offset_ = static_cast<int>(st->schema.data() - text.data());
    }
    return Status(kError, "unknown database " + std::string(st->schema));
  }
  return Status();
}

// The page size and auto-vacuum mode the rebuilt database gets.
void Connection::VacuumTargetFormat(Database* db, uint32_t* page_size, int* auto_vacuum) {
  *page_size = db->bt->page_size();
  if (db->is_file && db->bt->pager()->journal_mode() == JournalMode::kWal) {
    db->vacuum_page_size = 0;  // WAL mode keeps its page size; the request is dropped
  }
  if (db->is_file && IsValidPageSize(db->vacuum_page_size)) *page_size = db->vacuum_page_size;
  *auto_vacuum = db->vacuum_auto_vacuum >= 0 ? db->vacuum_auto_vacuum : db->bt->auto_vacuum();
}

Status Connection::ExecVacuum(ast::VacuumStmt* st, const std::vector<Value>& params) {
  if (!txn_.autocommit()) return Status(kError, "cannot VACUUM from within a transaction");
  if (txn_.active() > 0) return Status(kError, "cannot VACUUM - SQL statements in progress");
  std::string into;
  if (st->into != nullptr) TRY(VacuumIntoName(st->into, params, &into));
  TRY(AuthorizeVacuum(into));
  const int dbi = st->schema.empty() ? Catalog::kMain : store_.Find(st->schema);
  if (dbi < 0) return Status(kError, "unknown database " + std::string(st->schema));
  Database* db = store_.at(dbi);
  // A TEMP database not yet used holds nothing to compact or copy.
  if (dbi == Catalog::kTemp && !db->is_open()) return Status();
  if (!db->open_error.ok()) return db->open_error;
  const bool writes = st->into == nullptr;
  const DbMask mask = DbBit(dbi);
  int savepoint = -1;
  Status s = BeginStatement(writes ? 0 : mask, writes ? mask : 0, false, &savepoint);
  if (s.code() == kSchema)
    s = BeginStatement(writes ? 0 : mask, writes ? mask : 0, false, &savepoint);
  if (!s.ok()) {
    (void)txn_.CommitIfAutocommit();
    return s;
  }
  try {
    s = writes ? VacuumInPlace(dbi) : VacuumInto(dbi, into);
  } catch (...) {
    // Out of memory (std::bad_alloc) part way through the copy: the
    // statement ends here, rolled back, before the exception travels on to
    // the API boundary; left open, a later commit would keep half a copy.
    try {
      (void)EndStatement(writes ? mask : 0, savepoint, false, static_cast<int>(OnConflict::kAbort),
                         kNoMem, 0, false, 0);
    } catch (...) {
    }
    throw;
  }
  Status end = EndStatement(writes ? mask : 0, savepoint, s.ok(),
                            static_cast<int>(OnConflict::kAbort), s.code(), 0, false, 0);
  return s.ok() ? end : s;
}

// SQLite runs VACUUM as an ATTACH of the new file ("" for a rebuild in
// place) and a BEGIN, which its authorizer sees when the VACUUM runs; a
// denial fails the VACUUM with SQLITE_AUTH "authorization denied".
Status Connection::AuthorizeVacuum(const std::string& into) {
  if (auth_.fn == nullptr) return Status();
  Status error;
  Authorize(auth_, kAuthAttach, into.c_str(), nullptr, nullptr, &error);
  if (error.ok()) Authorize(auth_, kAuthTransaction, "BEGIN", nullptr, nullptr, &error);
  if (error.code() == kAuth) return Status(kAuth, "authorization denied");
  return error;
}

Status Connection::VacuumInPlace(int dbi) {
  Database* db = store_.at(dbi);
  // An empty database (no page written yet) has nothing to rebuild.
  if (db->bt->page_count() == 0) return Status();
  uint32_t page_size = 0;
  int auto_vacuum = 0;
  VacuumTargetFormat(db, &page_size, &auto_vacuum);
  ASSIGN_OR_RETURN(std::unique_ptr<Btree> fresh, Btree::OpenInMemory(page_size));
  TRY(BuildCopy(db->bt.get(), fresh.get(), auto_vacuum));
  db->schema_changed_in_txn = true;
  TRY(db->bt->CopyContentFrom(fresh.get()));
  fresh.reset();
  return store_.Reload(dbi);
}

Status Connection::VacuumInto(int dbi, const std::string& target) {
  Database* db = store_.at(dbi);
  uint32_t page_size = 0;
  int auto_vacuum = 0;
  VacuumTargetFormat(db, &page_size, &auto_vacuum);
  std::unique_ptr<Btree> out;
  if (target.empty() || target == ":memory:") {
    // Built and thrown away, as SQLite does with such a target.
    ASSIGN_OR_RETURN(out, Btree::OpenInMemory(page_size));
  } else {
    Vfs* vfs = vfs_;
    bool exists = false;
    TRY(vfs->Access(target, AccessMode::kExists, &exists));
    if (exists) {
      std::unique_ptr<VfsFile> f;
      uint64_t size = 0;
      if (vfs->Open(target, kOpenReadOnly | kOpenMainDb, &f).ok() && f->FileSize(&size).ok() &&
          size > 0) {
        return Status(kError, "output file already exists");
      }
    }
    PagerOptions opt;
    opt.journal_mode = JournalMode::kOff;
    opt.synchronous = static_cast<Synchronous>(db->synchronous);
    opt.page_size = page_size;
    Result<std::unique_ptr<Pager>> pager = OpenFilePager(vfs, target, opt);
    if (!pager.ok()) return Status(kCantOpen, "unable to open database: " + target);
    ASSIGN_OR_RETURN(out, Btree::Open(std::move(pager).value()));
    if (out->page_count() != 0) return Status(kError, "output file already exists");
    if (out->page_size() != page_size) TRY(out->SetPageSize(page_size));
  }
  if (db->bt->page_count() == 0) return Status();
  TRY(BuildCopy(db->bt.get(), out.get(), auto_vacuum));
  return Status();
}

// The filename of VACUUM INTO: a text value (a literal, a bound parameter,
// or any expression without columns, evaluated here).
Status Connection::VacuumIntoName(ast::Expr* e, const std::vector<Value>& params,
                                  std::string* out) {
  Value v;
  if (e->kind == ast::ExprKind::kString) {
    v.SetText(e->text);
  } else if (e->kind == ast::ExprKind::kParam) {
    const size_t i = static_cast<size_t>(e->param_index);
    if (i < params.size()) v.CopyFrom(params[i]);
  } else if (e->kind != ast::ExprKind::kNull && e->kind != ast::ExprKind::kInteger &&
             e->kind != ast::ExprKind::kReal && e->kind != ast::ExprKind::kBlob) {
    size_t tail = 0;
    ASSIGN_OR_RETURN(std::unique_ptr<Statement> q,
                     Prepare("SELECT " + std::string(e->span), &tail));
    if (q) {
      int rc = q->Step();
      if (rc == kRow && q->column(0) != nullptr)
        v.CopyFrom(*q->column(0));
      else if (rc != kDone)
        return q->status();
    }
  }
  if (!v.is_text()) return Status(kError, "non-text filename");
  *out = std::string(v.text());
  return Status();
}

}  // namespace basalt
