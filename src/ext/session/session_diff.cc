// sqlite3session_diff: the changes that turn a table of another attached
// database into the session's table, recorded as if they had been made:
// rows only in the session's database are INSERTs, rows only in the other
// are DELETEs, rows in both with other values are UPDATEs.
#include "ext/session/session_internal.h"

namespace basalt::session {
namespace {

// "a.pk1 = b.pk1 AND ..." over the key columns of t.
std::string KeyMatch(const SessionTable& t, const std::string& a, const std::string& b) {
  std::string e;
  for (int i = 0; i < t.n_col; ++i) {
    if (!t.pk[static_cast<size_t>(i)]) continue;
    const std::string c = QuoteId(t.cols[static_cast<size_t>(i)]);
    e += std::string(e.empty() ? "" : " AND ") + a + "." + c + " = " + b + "." + c;
  }
  return e;
}

// Rows of `from_db` with no row of the same key in `other`: each recorded
// as `op` with its values.
int FindNew(sqlite3_session* s, SessionTable* t, int op, const std::string& from_db,
            const std::string& other) {
  const std::string a = QuoteId(from_db) + "." + QuoteId(t->name);
  const std::string b = QuoteId(other) + "." + QuoteId(t->name);
  std::string sql = "SELECT * FROM " + a + " AS l WHERE NOT EXISTS (SELECT 1 FROM " + b +
                    " AS r WHERE " + KeyMatch(*t, "l", "r") + ")";
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(s->db, sql.c_str(), -1, &st, nullptr);
  if (rc != SQLITE_OK) return rc;
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string rec;
    for (int i = 0; i < t->n_col; ++i) PutColumn(&rec, st, i);
    std::string new_rec = NeedsNewRecord(s, op) ? rec : std::string();
    if (PrepareTable(s, t, t->n_col)) RecordRow(s, t, op, std::move(rec), s->indirect, &new_rec);
  }
  return sqlite3_finalize(st);
}

int FindModified(sqlite3_session* s, SessionTable* t, const std::string& from_db) {
  const std::string a = QuoteId(s->db_name) + "." + QuoteId(t->name);
  const std::string b = QuoteId(from_db) + "." + QuoteId(t->name);
  std::string differ;
  for (int i = 0; i < t->n_col; ++i) {
    if (t->pk[static_cast<size_t>(i)]) continue;
    const std::string c = QuoteId(t->cols[static_cast<size_t>(i)]);
    differ += std::string(differ.empty() ? "" : " OR ") + "l." + c + " IS NOT r." + c;
  }
  if (differ.empty()) return SQLITE_OK;
  // (Aliases: the two tables have the same name.)
  std::string sql = "SELECT * FROM " + a + " AS l, " + b + " AS r WHERE " + KeyMatch(*t, "l", "r") +
                    " AND (" + differ + ")";
  sqlite3_stmt* st = nullptr;
  int rc = sqlite3_prepare_v2(s->db, sql.c_str(), -1, &st, nullptr);
  if (rc != SQLITE_OK) return rc;
  while (sqlite3_step(st) == SQLITE_ROW) {
    std::string rec, new_rec;  // old values: the other database's; new: the session's
    for (int i = 0; i < t->n_col; ++i) PutColumn(&rec, st, t->n_col + i);
    if (NeedsNewRecord(s, kOpUpdate)) {
      for (int i = 0; i < t->n_col; ++i) PutColumn(&new_rec, st, i);
    }
    if (PrepareTable(s, t, t->n_col)) {
      RecordRow(s, t, kOpUpdate, std::move(rec), s->indirect, &new_rec);
    }
  }
  return sqlite3_finalize(st);
}

}  // namespace
}  // namespace basalt::session

using basalt::session::SessionTable;

extern "C" int sqlite3session_diff(sqlite3_session* s, const char* zFrom, const char* zTbl,
                                   char** pzErrMsg) {
  if (pzErrMsg != nullptr) *pzErrMsg = nullptr;
  sqlite3_mutex_enter(sqlite3_db_mutex(s->db));
  int rc = SQLITE_OK;
  SessionTable* t = basalt::session::FindTable(s, zTbl);
  if (t != nullptr && !t->loaded) rc = basalt::session::LoadTableInfo(s->db, s->db_name, t);
  if (t != nullptr && rc == SQLITE_OK) {
    SessionTable other;
    other.name = zTbl;
    rc = basalt::session::LoadTableInfo(s->db, zFrom, &other);
    if (rc == SQLITE_OK && (other.cols != t->cols || other.pk != t->pk)) {
      if (pzErrMsg != nullptr) *pzErrMsg = sqlite3_mprintf("table schemas do not match");
      rc = SQLITE_SCHEMA;
    }
    if (rc == SQLITE_OK && t->has_pk()) {
      rc = basalt::session::FindNew(s, t, basalt::session::kOpInsert, s->db_name, zFrom);
      if (rc == SQLITE_OK)
        rc = basalt::session::FindNew(s, t, basalt::session::kOpDelete, zFrom, s->db_name);
      if (rc == SQLITE_OK) rc = basalt::session::FindModified(s, t, zFrom);
    }
  }
  sqlite3_mutex_leave(sqlite3_db_mutex(s->db));
  return rc;
}
