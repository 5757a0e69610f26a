// %_data and %_idx access (store.h).
#include "ext/fts5/store.h"

namespace basalt::fts5 {

int DataStore::Prep(Stmt* s, const std::string& sql) {
  if (*s) {
    sqlite3_reset(*s);
    return SQLITE_OK;
  }
  return s->Prepare(cfg_->db, sql);
}

void DataStore::Reset() {
  read_.Finalize();
  write_.Finalize();
  del_range_.Finalize();
  idx_write_.Finalize();
  idx_del_.Finalize();
  idx_lookup_.Finalize();
}

int DataStore::ReadOptional(int64_t id, std::string* out, bool* found) {
  int rc = Prep(&read_, "SELECT block FROM " + cfg_->Shadow("_data") + " WHERE id=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(read_, 1, id);
  ++reads_;
  rc = sqlite3_step(read_);
  *found = rc == SQLITE_ROW;
  if (*found) {
    const void* p = sqlite3_column_blob(read_, 0);
    int n = sqlite3_column_bytes(read_, 0);
    out->assign(static_cast<const char*>(p ? p : ""), n);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  sqlite3_reset(read_);
  return rc;
}

int DataStore::Read(int64_t id, std::string* out) {
  bool found;
  int rc = ReadOptional(id, out, &found);
  if (rc == SQLITE_OK && !found) rc = SQLITE_CORRUPT_VTAB;
  return rc;
}

int DataStore::Write(int64_t id, std::string_view blob) {
  int rc = Prep(&write_, "REPLACE INTO " + cfg_->Shadow("_data") + "(id, block) VALUES(?,?)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(write_, 1, id);
  sqlite3_bind_blob(write_, 2, blob.data(), static_cast<int>(blob.size()), SQLITE_STATIC);
  sqlite3_step(write_);
  return sqlite3_reset(write_);
}

int DataStore::DeleteRange(int64_t lo, int64_t hi) {
  int rc = Prep(&del_range_, "DELETE FROM " + cfg_->Shadow("_data") + " WHERE id>=? AND id<=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(del_range_, 1, lo);
  sqlite3_bind_int64(del_range_, 2, hi);
  sqlite3_step(del_range_);
  return sqlite3_reset(del_range_);
}

int DataStore::WriteIdx(int segid, std::string_view term, int64_t pgno) {
  int rc =
      Prep(&idx_write_, "INSERT INTO " + cfg_->Shadow("_idx") + "(segid,term,pgno) VALUES(?,?,?)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int(idx_write_, 1, segid);
  sqlite3_bind_blob(idx_write_, 2, term.empty() ? "" : term.data(), static_cast<int>(term.size()),
                    SQLITE_STATIC);
  sqlite3_bind_int64(idx_write_, 3, pgno);
  sqlite3_step(idx_write_);
  return sqlite3_reset(idx_write_);
}

int DataStore::DeleteIdx(int segid) {
  int rc = Prep(&idx_del_, "DELETE FROM " + cfg_->Shadow("_idx") + " WHERE segid=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int(idx_del_, 1, segid);
  sqlite3_step(idx_del_);
  return sqlite3_reset(idx_del_);
}

int DataStore::LookupIdx(int segid, std::string_view term, int64_t* pgno) {
  int rc = Prep(&idx_lookup_, "SELECT pgno FROM " + cfg_->Shadow("_idx") +
                                  " WHERE segid=? AND term<=? ORDER BY term DESC LIMIT 1");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int(idx_lookup_, 1, segid);
  sqlite3_bind_blob(idx_lookup_, 2, term.data(), static_cast<int>(term.size()), SQLITE_STATIC);
  *pgno = 0;
  rc = sqlite3_step(idx_lookup_);
  if (rc == SQLITE_ROW) *pgno = sqlite3_column_int64(idx_lookup_, 0);
  rc = sqlite3_reset(idx_lookup_);
  return rc;
}

int DataStore::IdxRows(int segid, std::vector<std::pair<std::string, int64_t>>* out) {
  Stmt s;
  int rc = s.Prepare(
      cfg_->db, "SELECT term, pgno FROM " + cfg_->Shadow("_idx") + " WHERE segid=? ORDER BY term");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int(s, 1, segid);
  out->clear();
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    const void* p = sqlite3_column_blob(s, 0);
    int n = sqlite3_column_bytes(s, 0);
    out->emplace_back(std::string(static_cast<const char*>(p ? p : ""), n),
                      sqlite3_column_int64(s, 1));
  }
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

}  // namespace basalt::fts5
