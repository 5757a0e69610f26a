// xUpdate: INSERT, UPDATE and DELETE of documents, and the special INSERTs
// into the table-named column ('optimize', 'rebuild', 'integrity-check',
// 'merge=X,Y', 'automerge=N').
//
// A write reads the old document (if any) and tokenizes it into the pending
// terms as deletion markers, removes its %_content and %_docsize rows, then
// for an INSERT or UPDATE stores the new document and tokenizes it. FTS4
// then adjusts the totals in %_stat row 0. Deleting the last document
// clears the whole index.
#include "ext/fts3/fts_update.h"

#include <cstring>

namespace basalt::fts {
namespace {

// Reads the document `docid`: its column texts (SQL NULL as found=false
// entries left empty) and language. Returns SQLITE_OK with *found false
// when there is none.
int ReadDoc(FtsTable* t, int64_t docid, std::vector<std::string>* vals, int* langid, bool* found) {
  *found = false;
  if (t->contentless) return SQLITE_OK;
  Stmt s;
  int rc = Prep(t, &s, ContentSelect(t));
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, docid);
  rc = sqlite3_step(s);
  if (rc == SQLITE_DONE) return SQLITE_OK;
  if (rc != SQLITE_ROW) return sqlite3_reset(s);
  vals->assign(t->ncol(), std::string());
  for (int c = 0; c < t->ncol(); ++c) {
    const char* z = reinterpret_cast<const char*>(sqlite3_column_text(s, c));
    if (z) (*vals)[c].assign(z, sqlite3_column_bytes(s, c));
  }
  *langid = t->langid_col.empty() ? 0 : sqlite3_column_int(s, t->ncol());
  *found = true;
  return SQLITE_OK;
}

int StepDone(sqlite3_stmt* s) {
  int rc = sqlite3_step(s);
  return rc == SQLITE_DONE || rc == SQLITE_ROW ? SQLITE_OK : sqlite3_reset(s);
}

int DeleteDoc(FtsTable* t, int64_t docid, int* changes, std::vector<int>* del) {
  std::vector<std::string> vals;
  int langid = 0;
  bool found = false;
  int rc = ReadDoc(t, docid, &vals, &langid, &found);
  if (rc != SQLITE_OK || !found) return rc;
  if ((rc = PrepareDocid(t, docid, true, langid)) != SQLITE_OK) return rc;
  if ((rc = AddDocTerms(t, docid, langid, vals, -1, del)) != SQLITE_OK) return rc;
  if (!t->external_content) {
    Stmt c;
    rc = Prep(t, &c, "SELECT EXISTS(SELECT 1 FROM " + t->Shadow("_content") + " WHERE rowid!=?)");
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int64(c, 1, docid);
    sqlite3_step(c);
    if (sqlite3_column_int64(c, 0) == 0) {
      del->assign(t->ncol() + 1, 0);
      *changes = 0;
      return DeleteAll(t, true);
    }
  }
  --*changes;
  Stmt s;
  if (!t->external_content) {
    rc = Prep(t, &s, "DELETE FROM " + t->Shadow("_content") + " WHERE rowid=?");
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int64(s, 1, docid);
    if ((rc = StepDone(s)) != SQLITE_OK) return rc;
  }
  if (t->has_docsize) {
    rc = Prep(t, &s, "DELETE FROM " + t->Shadow("_docsize") + " WHERE docid=?");
    if (rc != SQLITE_OK) return rc;
    sqlite3_bind_int64(s, 1, docid);
    rc = StepDone(s);
  }
  return rc;
}

// Stores the new document; sets *docid to its docid.
int InsertContent(FtsTable* t, int argc, sqlite3_value** argv, int64_t* docid) {
  sqlite3_value* id = argv[3 + t->ncol()];
  if (t->external_content) {
    if (sqlite3_value_type(id) == SQLITE_NULL) id = argv[1];
    if (sqlite3_value_type(id) != SQLITE_INTEGER) return SQLITE_CONSTRAINT;
    *docid = sqlite3_value_int64(id);
    return SQLITE_OK;
  }
  if (sqlite3_value_type(id) != SQLITE_NULL) {
    if (sqlite3_value_type(argv[0]) == SQLITE_NULL && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
      return SQLITE_ERROR;
    }
  } else {
    id = argv[1];
  }
  std::string sql = "INSERT INTO " + t->Shadow("_content") + " VALUES(?";
  for (int c = 0; c < t->ncol(); ++c) sql += ",?";
  if (!t->langid_col.empty()) sql += ",?";
  sql += ")";
  Stmt s;
  int rc = Prep(t, &s, sql);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_value(s, 1, id);
  for (int c = 0; c < t->ncol(); ++c) sqlite3_bind_value(s, c + 2, argv[2 + c]);
  if (!t->langid_col.empty()) sqlite3_bind_value(s, t->ncol() + 2, argv[4 + t->ncol()]);
  (void)argc;
  rc = sqlite3_step(s);
  if (rc != SQLITE_DONE) return sqlite3_reset(s);
  *docid = sqlite3_last_insert_rowid(t->db);
  return SQLITE_OK;
}

}  // namespace

int ReadStat(FtsTable* t, std::vector<int64_t>* a) {
  a->assign(t->ncol() + 2, 0);
  Stmt s;
  int rc = Prep(t, &s, "SELECT value FROM " + t->Shadow("_stat") + " WHERE id=0");
  if (rc != SQLITE_OK) return rc;
  if (sqlite3_step(s) != SQLITE_ROW) return SQLITE_OK;
  auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(s, 0));
  const uint8_t* end = p + sqlite3_column_bytes(s, 0);
  for (auto& v : *a) {
    uint64_t x = 0;
    if (p == nullptr || !GetVarint(&p, end, &x)) break;
    v = static_cast<int64_t>(x);
  }
  return SQLITE_OK;
}

int WriteDocsize(FtsTable* t, int64_t docid, const std::vector<int>& sz) {
  std::string blob;
  for (int c = 0; c < t->ncol(); ++c) PutVarint(&blob, static_cast<uint64_t>(sz[c]));
  Stmt s;
  int rc = Prep(t, &s, "REPLACE INTO " + t->Shadow("_docsize") + " VALUES(?,?)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, docid);
  sqlite3_bind_blob(s, 2, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  return StepDone(s);
}

int UpdateTotals(FtsTable* t, const std::vector<int>& ins, const std::vector<int>& del,
                 int changes) {
  std::vector<int64_t> a;
  int rc = ReadStat(t, &a);
  if (rc != SQLITE_OK) return rc;
  a[0] = std::max<int64_t>(0, a[0] + changes);
  for (int i = 0; i <= t->ncol(); ++i) {
    int64_t x = a[i + 1] + (i < static_cast<int>(ins.size()) ? ins[i] : 0) -
                (i < static_cast<int>(del.size()) ? del[i] : 0);
    a[i + 1] = x < 0 ? 0 : x;
  }
  std::string blob;
  for (auto v : a) PutVarint(&blob, static_cast<uint64_t>(v));
  Stmt s;
  rc = Prep(t, &s, "REPLACE INTO " + t->Shadow("_stat") + " VALUES(0,?)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_blob(s, 1, blob.data(), static_cast<int>(blob.size()), SQLITE_TRANSIENT);
  return StepDone(s);
}

int UpdateRow(FtsTable* t, int argc, sqlite3_value** argv, sqlite3_int64* rowid) {
  int ncol = t->ncol();
  if (argc > 1 && sqlite3_value_type(argv[0]) == SQLITE_NULL &&
      sqlite3_value_type(argv[2 + ncol]) != SQLITE_NULL) {
    return SpecialInsert(t, reinterpret_cast<const char*>(sqlite3_value_text(argv[2 + ncol])));
  }
  if (argc > 1 && sqlite3_value_int(argv[4 + ncol]) < 0) return SQLITE_CONSTRAINT;
  std::vector<int> del(ncol + 1, 0), ins(ncol + 1, 0);
  int changes = 0;
  int rc = SQLITE_OK;
  bool inserted = false;
  int64_t docid = 0;
  // An UPDATE that changes the rowid, or an INSERT with an explicit one,
  // replaces or conflicts with the row at the new rowid.
  if (argc > 1 && sqlite3_value_type(argv[1]) == SQLITE_INTEGER) {
    sqlite3_value* nv =
        sqlite3_value_type(argv[3 + ncol]) != SQLITE_NULL ? argv[3 + ncol] : argv[1];
    int64_t newid = sqlite3_value_int64(nv);
    bool changed =
        sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_int64(argv[0]) != newid;
    if (changed && sqlite3_vtab_on_conflict(t->db) == SQLITE_REPLACE) {
      rc = DeleteDoc(t, newid, &changes, &del);
    } else if (changed && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
      rc = InsertContent(t, argc, argv, &docid);
      inserted = true;
    }
  }
  if (rc == SQLITE_OK && sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    if (t->contentless) return SQLITE_ERROR;  // SQLite: "SQL logic error"
    rc = DeleteDoc(t, sqlite3_value_int64(argv[0]), &changes, &del);
  }
  if (rc == SQLITE_OK && argc > 1) {
    int langid = sqlite3_value_int(argv[4 + ncol]);
    if (!inserted) {
      rc = InsertContent(t, argc, argv, &docid);
    }
    if (rc == SQLITE_OK) rc = PrepareDocid(t, docid, false, langid);
    if (rc == SQLITE_OK) {
      std::vector<std::string> vals(ncol);
      for (int c = 0; c < ncol; ++c) {
        const char* z = reinterpret_cast<const char*>(sqlite3_value_text(argv[2 + c]));
        if (z) vals[c].assign(z, sqlite3_value_bytes(argv[2 + c]));
      }
      rc = AddDocTerms(t, docid, langid, vals, 1, &ins);
    }
    if (rc == SQLITE_OK && t->has_docsize) rc = WriteDocsize(t, docid, ins);
    ++changes;
    *rowid = docid;
  }
  if (rc == SQLITE_OK && t->fts4) rc = UpdateTotals(t, ins, del, changes);
  return rc;
}

}  // namespace basalt::fts
