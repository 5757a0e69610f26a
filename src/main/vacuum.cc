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

Status Connection::ValidateVacuum(ast::VacuumStmt* st) {
  if (!st->schema.empty() && !EqualsIgnoreCase(st->schema, "main") &&
      !EqualsIgnoreCase(st->schema, "temp")) {
    SetDdlErrorOffset(st->schema);
    return Status(kError, "unknown database " + std::string(st->schema));
  }
  return Status();
}

// The page size and auto-vacuum mode the rebuilt database gets.
void Connection::VacuumTargetFormat(uint32_t* page_size, int* auto_vacuum) {
  *page_size = main_->page_size();
  if (is_file_ && main_->pager()->journal_mode() == JournalMode::kWal) {
    vacuum_page_size_ = 0;  // WAL mode keeps its page size; the request is dropped
  }
  if (is_file_ && IsValidPageSize(vacuum_page_size_)) *page_size = vacuum_page_size_;
  *auto_vacuum = vacuum_auto_vacuum_ >= 0 ? vacuum_auto_vacuum_ : main_->auto_vacuum();
}

Status Connection::ExecVacuum(ast::VacuumStmt* st, const std::vector<Value>& params) {
  if (!autocommit_) return Status(kError, "cannot VACUUM from within a transaction");
  if (active_ > 0) return Status(kError, "cannot VACUUM - SQL statements in progress");
  std::string into;
  if (st->into != nullptr) TRY(VacuumIntoName(st->into, params, &into));
  // The temp database holds nothing that needs compacting.
  if (EqualsIgnoreCase(st->schema, "temp")) return Status();
  if (!open_error_.ok()) return open_error_;
  const bool writes = st->into == nullptr;
  int savepoint = -1;
  Status s = BeginStatement(writes, true, false, &savepoint);
  if (s.code() == kSchema) s = BeginStatement(writes, true, false, &savepoint);
  if (!s.ok()) {
    (void)CommitIfAutocommit();
    return s;
  }
  s = writes ? VacuumMain() : VacuumInto(into);
  Status end = EndStatement(writes, savepoint, s.ok(), static_cast<int>(OnConflict::kAbort),
                            s.code(), 0, false, 0);
  return s.ok() ? end : s;
}

Status Connection::VacuumMain() {
  // An empty database (no page written yet) has nothing to rebuild.
  if (main_->page_count() == 0) return Status();
  uint32_t page_size = 0;
  int auto_vacuum = 0;
  VacuumTargetFormat(&page_size, &auto_vacuum);
  ASSIGN_OR_RETURN(std::unique_ptr<Btree> fresh, Btree::OpenInMemory(page_size));
  TRY(BuildCopy(main_.get(), fresh.get(), auto_vacuum));
  schema_changed_in_txn_ = true;
  TRY(main_->CopyContentFrom(fresh.get()));
  fresh.reset();
  return LoadSchema();
}

Status Connection::VacuumInto(const std::string& target) {
  uint32_t page_size = 0;
  int auto_vacuum = 0;
  VacuumTargetFormat(&page_size, &auto_vacuum);
  std::unique_ptr<Btree> out;
  if (target.empty() || target == ":memory:") {
    // Built and thrown away, as SQLite does with such a target.
    ASSIGN_OR_RETURN(out, Btree::OpenInMemory(page_size));
  } else {
    Vfs* vfs = vfs_ != nullptr ? vfs_ : DefaultVfs();
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
    opt.synchronous = static_cast<Synchronous>(synchronous_);
    opt.page_size = page_size;
    Result<std::unique_ptr<Pager>> pager = OpenFilePager(vfs, target, opt);
    if (!pager.ok()) return Status(kCantOpen, "unable to open database: " + target);
    ASSIGN_OR_RETURN(out, Btree::Open(std::move(pager).value()));
    if (out->page_count() != 0) return Status(kError, "output file already exists");
    if (out->page_size() != page_size) TRY(out->SetPageSize(page_size));
  }
  if (main_->page_count() == 0) return Status();
  TRY(BuildCopy(main_.get(), out.get(), auto_vacuum));
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
