// The session object (session.cc) and what the other parts of the
// extension share.
//
// Invariants:
//   S1. A SessionTable's buckets hold every change of the table exactly
//       once; a change is in bucket Hash(key) % buckets.size(), newest
//       first, as SQLite keeps them (the changeset is written in bucket
//       order, so this order is part of the output format).
//   S2. buckets is empty (no change yet) or its size is 256 * 2^k, and
//       n_entry < buckets.size() / 2 + 1 after each growth step.
//   S3. The sessions of a connection form one list, newest first; the head
//       is the connection's preupdate hook argument.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ext/session/session_api.h"
#include "ext/session/session_format.h"

namespace basalt::session {

struct SessionChange {
  int op = 0;                     // the first operation on the row
  bool indirect = false;          // every change to the row was indirect
  std::string record;             // the row before the first change (INSERT: after), every column
  int64_t max_size = 0;           // its largest changeset size so far (OBJCONFIG_SIZE)
  SessionChange* next = nullptr;  // S1: bucket chain
};

struct SessionTable {
  std::string name;
  bool loaded = false;  // columns read (PRAGMA table_info)
  int n_col = 0;
  std::vector<std::string> cols;
  std::vector<uint8_t> pk;  // per column: 0, or its position in the key
  std::vector<SessionChange*> buckets;
  int n_entry = 0;
  std::vector<std::unique_ptr<SessionChange>> owned;
  bool has_pk() const {
    for (uint8_t b : pk) {
      if (b) return true;
    }
    return false;
  }
};

// Reads the columns of db.table: n_col 0 when the table does not exist.
int LoadTableInfo(sqlite3* db, const std::string& db_name, SessionTable* t);
// SQL quoting of an identifier ("x" with doubled quotes).
std::string QuoteId(const std::string& s);

}  // namespace basalt::session

struct sqlite3_session;
namespace basalt::session {
// The session's table called `name` (attaching it if the session attaches
// every table and the filter agrees), or null.
SessionTable* FindTable(sqlite3_session* s, const char* name);
// Reads the table's columns if needed and checks a row of n_col values
// fits; grows its buckets (S2). False: nothing is to be recorded.
bool PrepareTable(sqlite3_session* s, SessionTable* t, int n_col);
// Records one change of a row: rec holds every column (old values; INSERT:
// new); new_rec the new values (null for DELETE; needed only for the size
// estimate, NeedsNewRecord).
void RecordRow(sqlite3_session* s, SessionTable* t, int op, std::string rec, bool indirect,
               const std::string* new_rec);
inline bool NeedsNewRecord(const sqlite3_session* s, int op);
}  // namespace basalt::session

struct sqlite3_session {
  sqlite3* db = nullptr;
  std::string db_name;
  bool enabled = true;
  bool indirect = false;
  bool auto_attach = false;
  bool size_on = false;  // SQLITE_SESSION_OBJCONFIG_SIZE
  int64_t max_size = 0;  // the changeset size estimate: sum of the largest sizes
  SessionFilter filter = nullptr;
  void* filter_ctx = nullptr;
  int rc = SQLITE_OK;  // a failure while recording, reported by the next changeset call
  std::vector<std::unique_ptr<basalt::session::SessionTable>> tables;  // attach order
  sqlite3_session* next = nullptr;                                     // S3
};

#include "record/value.h"

// An iterator over a changeset (changeset_iter.cc), also the handle the
// conflict handler of sqlite3changeset_apply receives.
struct sqlite3_changeset_iter {
  std::string owned;  // the changeset when the iterator copied it (_strm)
  const uint8_t* p = nullptr;
  const uint8_t* end = nullptr;
  bool invert = false;
  int rc = SQLITE_OK;  // sticky error
  bool started = false;
  basalt::session::TableHeader table;
  basalt::session::Change change;  // as read (before inversion)
  int op = 0;                      // after inversion
  // Values of the current change (after inversion); `has_*` false where the
  // changeset holds no value (undefined field).
  std::vector<basalt::Value> old_vals, new_vals;
  std::vector<bool> has_old, has_new;
  // Set while a conflict handler runs: the conflicting row (DATA /
  // CONFLICT), or the number of foreign key violations (FOREIGN_KEY).
  sqlite3_stmt* conflict = nullptr;
  int fk_conflicts = -1;
};

namespace basalt::session {
// Loads the values of it->change into the value arrays (honouring invert).
void LoadValues(sqlite3_changeset_iter* it);
// A new iterator over n bytes at data (copied when `copy`).
sqlite3_changeset_iter* NewIter(const void* data, int n, bool copy, bool invert);
}  // namespace basalt::session

namespace basalt::session {
inline bool NeedsNewRecord(const sqlite3_session* s, int op) {
  return s->size_on && op != kOpDelete;
}
}  // namespace basalt::session
