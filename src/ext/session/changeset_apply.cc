// sqlite3changeset_apply and _v2: applies a changeset to the main database
// through ordinary SQL statements, calling the conflict handler where a
// change does not fit (sessionintro.html, "conflicts"):
//   DELETE / UPDATE  no row changed: a row with the key exists -> DATA,
//                    else NOTFOUND; a constraint fails -> CONSTRAINT
//   INSERT           a constraint fails: the key exists -> CONFLICT, else
//                    the change is retried after the rest of the table's
//                    changes (while that makes progress), then CONSTRAINT
// REPLACE re-runs a DATA change matching the key only, or deletes the row
// in the way of a CONFLICT insert first. Foreign keys are deferred for the
// whole apply; violations left at the end go to the handler as one
// FOREIGN_KEY conflict.
#include "api/handles.h"
#include "ext/session/session_internal.h"

namespace basalt::session {
namespace {

struct ApplyCtx {
  sqlite3* db = nullptr;
  SessionConflict conflict = nullptr;
  void* ctx = nullptr;
  SessionTable tab;  // the current table as the database has it
  TableHeader hdr;   // its header in the changeset
  bool invert = false;
  sqlite3_stmt* del = nullptr;
  sqlite3_stmt* upd = nullptr;
  sqlite3_stmt* ins = nullptr;
  sqlite3_stmt* sel = nullptr;
  bool defer = true;     // CONSTRAINT failures of inserts wait for a retry
  std::string deferred;  // their changes, raw
  bool rebase = false;   // collect the rebase buffer
  bool rebase_started = false;
  std::string rebase_buf;
  void Finalize() {
    for (sqlite3_stmt** s : {&del, &upd, &ins, &sel}) {
      sqlite3_finalize(*s);
      *s = nullptr;
    }
  }
};

int Prepare(sqlite3* db, const std::string& sql, sqlite3_stmt** out) {
  return sqlite3_prepare_v2(db, sql.c_str(), -1, out, nullptr);
}

int PrepareTable(ApplyCtx* a) {
  const SessionTable& t = a->tab;
  const std::string name = "main." + QuoteId(t.name);
  std::string key_eq, key_is, rest_del, rest_upd, sets;
  bool has_rest = false;
  for (int i = 0; i < t.n_col; ++i) {
    const std::string col = QuoteId(t.cols[static_cast<size_t>(i)]);
    const std::string n = std::to_string(i + 1);
    if (t.pk[static_cast<size_t>(i)]) {
      key_eq += (key_eq.empty() ? "" : " AND ") + col + " = ?" + n;
      key_is += (key_is.empty() ? "" : " AND ") + col + " = ?" + n;
    } else {
      rest_del += (has_rest ? " AND " : "") + col + " IS ?" + n;
      has_rest = true;
    }
  }
  std::string del = "DELETE FROM " + name + " WHERE " + key_eq;
  if (has_rest) del += " AND (?" + std::to_string(t.n_col + 1) + " OR " + rest_del + ")";
  // UPDATE: per column i, ?(3i+1) old, ?(3i+2) whether it changes, ?(3i+3) new.
  std::string ukey, ucheck;
  for (int i = 0; i < t.n_col; ++i) {
    const std::string col = QuoteId(t.cols[static_cast<size_t>(i)]);
    const std::string o = std::to_string(3 * i + 1), c = std::to_string(3 * i + 2),
                      w = std::to_string(3 * i + 3);
    sets += (i ? ", " : "") + col + " = CASE WHEN ?" + c + " THEN ?" + w + " ELSE " + col + " END";
    if (t.pk[static_cast<size_t>(i)]) {
      ukey += (ukey.empty() ? "" : " AND ") + col + " = ?" + o;
    } else {
      ucheck += (ucheck.empty() ? "" : " AND ") + ("(?" + c + " = 0 OR " + col + " IS ?" + o + ")");
    }
  }
  std::string upd = "UPDATE " + name + " SET " + sets + " WHERE " + ukey;
  if (!ucheck.empty()) upd += " AND (?" + std::to_string(3 * t.n_col + 1) + " OR " + ucheck + ")";
  std::string ins = "INSERT INTO " + name + " VALUES(";
  for (int i = 0; i < t.n_col; ++i) ins += i ? ", ?" : "?";
  ins += ")";
  // (Key values are never NULL: "=" finds the row by its key, as IS would.)
  std::string sel = "SELECT * FROM " + name + " WHERE " + key_is;
  int rc = Prepare(a->db, del, &a->del);
  if (rc == SQLITE_OK) rc = Prepare(a->db, upd, &a->upd);
  if (rc == SQLITE_OK) rc = Prepare(a->db, ins, &a->ins);
  if (rc == SQLITE_OK) rc = Prepare(a->db, sel, &a->sel);
  return rc;
}

sqlite3_value* OldVal(sqlite3_changeset_iter* it, int i) {
  size_t k = static_cast<size_t>(i);
  return it->has_old[k] ? reinterpret_cast<sqlite3_value*>(&it->old_vals[k]) : nullptr;
}
sqlite3_value* NewVal(sqlite3_changeset_iter* it, int i) {
  size_t k = static_cast<size_t>(i);
  return it->has_new[k] ? reinterpret_cast<sqlite3_value*>(&it->new_vals[k]) : nullptr;
}

// Binds the old (or new) values to parameters 1..n; key_only: key columns.
int BindRow(sqlite3_changeset_iter* it, bool old_side, const SessionTable& t, bool key_only,
            sqlite3_stmt* st) {
  sqlite3_clear_bindings(st);
  for (int i = 0; i < t.n_col; ++i) {
    if (key_only && !t.pk[static_cast<size_t>(i)]) continue;
    sqlite3_value* v = old_side ? OldVal(it, i) : NewVal(it, i);
    if (v == nullptr) continue;
    int rc = sqlite3_bind_value(st, i + 1, v);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

// Steps a write statement; returns its result code (after reset).
int Run(sqlite3_stmt* st) {
  sqlite3_step(st);
  return sqlite3_reset(st);
}

void AddRebase(ApplyCtx* a, int res, sqlite3_changeset_iter* it) {
  if (!a->rebase) return;
  const SessionTable& t = a->tab;
  if (!a->rebase_started) {
    TableHeader h;
    h.n_col = t.n_col;
    h.pk = t.pk;
    h.name = it->table.name;
    PutTableHeader(&a->rebase_buf, h);
    a->rebase_started = true;
  }
  const int op = it->op;
  a->rebase_buf.push_back(static_cast<char>(op == kOpDelete ? kOpDelete : kOpInsert));
  a->rebase_buf.push_back(res == SQLITE_CHANGESET_REPLACE ? 1 : 0);
  for (int i = 0; i < t.n_col; ++i) {
    bool old_side = op == kOpDelete || (op == kOpUpdate && t.pk[static_cast<size_t>(i)]);
    PutValue(&a->rebase_buf, old_side ? OldVal(it, i) : NewVal(it, i));
  }
}

// kind: SQLITE_CHANGESET_DATA or _CONFLICT. With `replace` the key is
// looked up (found: kind, else kind + 1); without, kind + 1 directly.
int Conflict(ApplyCtx* a, int kind, sqlite3_changeset_iter* it, bool* replace) {
  int res = SQLITE_CHANGESET_OMIT;
  int rc = SQLITE_OK;
  bool found = false;
  if (replace != nullptr) {
    BindRow(it, it->op != kOpInsert, a->tab, true, a->sel);
    rc = sqlite3_step(a->sel);
    if (rc == SQLITE_ROW) {
      found = true;
      rc = SQLITE_OK;
    } else {
      rc = sqlite3_reset(a->sel);
    }
  }
  if (rc != SQLITE_OK) return rc;
  if (found) {
    it->conflict = a->sel;
    res = a->conflict(a->ctx, kind, it);
    it->conflict = nullptr;
    rc = sqlite3_reset(a->sel);
  } else if (a->defer && kind == SQLITE_CHANGESET_CONFLICT) {
    a->deferred.append(it->change.raw);
    return SQLITE_OK;
  } else {
    res = a->conflict(a->ctx, kind + 1, it);
    if (res == SQLITE_CHANGESET_REPLACE) rc = SQLITE_MISUSE;
  }
  if (rc != SQLITE_OK) return rc;
  switch (res) {
    case SQLITE_CHANGESET_REPLACE:
      *replace = true;
      break;
    case SQLITE_CHANGESET_OMIT:
      break;
    case SQLITE_CHANGESET_ABORT:
      return SQLITE_ABORT;
    default:
      return SQLITE_MISUSE;
  }
  AddRebase(a, res, it);
  return SQLITE_OK;
}

// One change; `replace` / `retry` null on the second attempt.
int ApplyOne(ApplyCtx* a, sqlite3_changeset_iter* it, bool* replace, bool* retry) {
  const SessionTable& t = a->tab;
  const bool patch = it->table.patchset;
  int rc;
  if (it->op == kOpDelete) {
    rc = BindRow(it, true, t, false, a->del);
    if (rc != SQLITE_OK) return rc;
    if (sqlite3_bind_parameter_count(a->del) > t.n_col) {
      sqlite3_bind_int(a->del, t.n_col + 1, retry == nullptr || patch);
    }
    rc = Run(a->del);
    if (rc == SQLITE_OK && sqlite3_changes(a->db) == 0) {
      return Conflict(a, SQLITE_CHANGESET_DATA, it, retry);
    }
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
      return Conflict(a, SQLITE_CHANGESET_CONFLICT, it, nullptr);
    return rc;
  }
  if (it->op == kOpUpdate) {
    sqlite3_clear_bindings(a->upd);
    for (int i = 0; i < t.n_col; ++i) {
      sqlite3_value* o = OldVal(it, i);
      sqlite3_value* w = NewVal(it, i);
      sqlite3_bind_int(a->upd, 3 * i + 2, w != nullptr);
      if (o != nullptr) sqlite3_bind_value(a->upd, 3 * i + 1, o);
      if (w != nullptr) sqlite3_bind_value(a->upd, 3 * i + 3, w);
    }
    if (sqlite3_bind_parameter_count(a->upd) > 3 * t.n_col) {
      sqlite3_bind_int(a->upd, 3 * t.n_col + 1, retry == nullptr || patch);
    }
    rc = Run(a->upd);
    if (rc == SQLITE_OK && sqlite3_changes(a->db) == 0) {
      return Conflict(a, SQLITE_CHANGESET_DATA, it, retry);
    }
    if ((rc & 0xff) == SQLITE_CONSTRAINT)
      return Conflict(a, SQLITE_CHANGESET_CONFLICT, it, nullptr);
    return rc;
  }
  rc = BindRow(it, false, t, false, a->ins);
  if (rc != SQLITE_OK) return rc;
  rc = Run(a->ins);
  if ((rc & 0xff) == SQLITE_CONSTRAINT) return Conflict(a, SQLITE_CHANGESET_CONFLICT, it, replace);
  return rc;
}

int ApplyWithRetry(ApplyCtx* a, sqlite3_changeset_iter* it) {
  bool replace = false, retry = false;
  int rc = ApplyOne(a, it, &replace, &retry);
  if (rc != SQLITE_OK) return rc;
  if (retry) return ApplyOne(a, it, nullptr, nullptr);
  if (!replace) return SQLITE_OK;
  rc = sqlite3_exec(a->db, "SAVEPOINT replace_op", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK) {
    rc = BindRow(it, false, a->tab, true, a->del);
    sqlite3_bind_int(a->del, a->tab.n_col + 1, 1);
  }
  if (rc == SQLITE_OK) rc = Run(a->del);
  if (rc == SQLITE_OK) rc = ApplyOne(a, it, nullptr, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_exec(a->db, "RELEASE replace_op", nullptr, nullptr, nullptr);
  return rc;
}

// The inserts deferred by a CONSTRAINT failure, again and again while a
// round makes progress; in the last round the handler hears of them.
int RetryDeferred(ApplyCtx* a) {
  int rc = SQLITE_OK;
  while (!a->deferred.empty() && rc == SQLITE_OK) {
    std::string round;
    round.swap(a->deferred);
    sqlite3_changeset_iter* it =
        NewIter(round.data(), static_cast<int>(round.size()), false, a->invert);
    if (it == nullptr) return SQLITE_NOMEM;
    it->table = a->hdr;
    it->started = true;
    while (rc == SQLITE_OK && sqlite3changeset_next(it) == SQLITE_ROW) rc = ApplyWithRetry(a, it);
    int rc2 = sqlite3changeset_finalize(it);
    if (rc == SQLITE_OK) rc = rc2;
    if (a->deferred.size() >= round.size()) a->defer = false;
  }
  return rc;
}

// Starts a new table: filter, schema checks, statements. *skip: ignore its changes.
int StartTable(ApplyCtx* a, sqlite3_changeset_iter* it, SessionFilter filter, bool* skip) {
  a->Finalize();
  a->tab = SessionTable();
  a->defer = true;
  a->deferred.clear();
  a->rebase_started = false;
  a->hdr = it->table;
  *skip = filter != nullptr && filter(a->ctx, it->table.name.c_str()) == 0;
  if (*skip) return SQLITE_OK;
  a->tab.name = it->table.name;
  int rc = LoadTableInfo(a->db, "main", &a->tab);
  if (rc != SQLITE_OK) return rc;
  // (SQLite also logs why a table is skipped, through sqlite3_log.)
  if (a->tab.n_col == 0) {
    *skip = true;
  } else if (a->tab.n_col != it->table.n_col) {
    *skip = true;
  } else {
    *skip = a->tab.pk != it->table.pk;  // the same key columns, in the same key order
  }
  if (*skip) return SQLITE_OK;
  return PrepareTable(a);
}

int DeferredFkCount(sqlite3* db) {
  if (!basalt::api::HasConnection(db)) return 0;
  return db->conn->env()->fk.total() > 0 ? 1 : 0;
}

int ApplyIter(sqlite3* db, sqlite3_changeset_iter* it, SessionFilter filter,
              SessionConflict conflict, void* ctx, void** rebase, int* nrebase, int flags) {
  ApplyCtx a;
  a.db = db;
  a.conflict = conflict;
  a.ctx = ctx;
  a.rebase = rebase != nullptr && nrebase != nullptr;
  a.invert = it->invert;
  const bool savepoint = (flags & SQLITE_CHANGESETAPPLY_NOSAVEPOINT) == 0;
  sqlite3_mutex_enter(sqlite3_db_mutex(db));
  int rc = SQLITE_OK;
  if (savepoint) rc = sqlite3_exec(db, "SAVEPOINT changeset_apply", nullptr, nullptr, nullptr);
  if (rc == SQLITE_OK)
    rc = sqlite3_exec(db, "PRAGMA defer_foreign_keys = 1", nullptr, nullptr, nullptr);
  std::string current;
  bool started = false, skip = false;
  while (rc == SQLITE_OK && sqlite3changeset_next(it) == SQLITE_ROW) {
    if (!started || sqlite3_stricmp(current.c_str(), it->table.name.c_str()) != 0) {
      if (started && !skip) rc = RetryDeferred(&a);
      if (rc != SQLITE_OK) break;
      started = true;
      current = it->table.name;
      rc = StartTable(&a, it, filter, &skip);
      if (rc != SQLITE_OK) break;
    }
    if (skip) continue;
    rc = ApplyWithRetry(&a, it);
  }
  const bool patchset = it->table.patchset;
  if (rc == SQLITE_OK) rc = it->rc;
  if (rc == SQLITE_OK && !skip) rc = RetryDeferred(&a);
  if (rc == SQLITE_OK && DeferredFkCount(db) != 0) {
    int res = SQLITE_CHANGESET_ABORT;
    if (conflict != nullptr) {
      sqlite3_changeset_iter fk;
      fk.fk_conflicts = 1;
      res = conflict(ctx, SQLITE_CHANGESET_FOREIGN_KEY, &fk);
    }
    if (res != SQLITE_CHANGESET_OMIT) rc = SQLITE_CONSTRAINT;
  }
  sqlite3_exec(db, "PRAGMA defer_foreign_keys = 0", nullptr, nullptr, nullptr);
  if (savepoint) {
    if (rc == SQLITE_OK) {
      rc = sqlite3_exec(db, "RELEASE changeset_apply", nullptr, nullptr, nullptr);
    } else {
      sqlite3_exec(db, "ROLLBACK TO changeset_apply", nullptr, nullptr, nullptr);
      sqlite3_exec(db, "RELEASE changeset_apply", nullptr, nullptr, nullptr);
    }
  }
  a.Finalize();
  if (rc == SQLITE_OK && !patchset && a.rebase) ReturnBuffer(a.rebase_buf, nrebase, rebase);
  sqlite3_mutex_leave(sqlite3_db_mutex(db));
  return rc;
}

int Apply(sqlite3* db, const void* data, int n, bool copy, SessionFilter filter,
          SessionConflict conflict, void* ctx, void** rebase, int* nrebase, int flags) {
  sqlite3_changeset_iter* it = NewIter(data, n, copy, (flags & SQLITE_CHANGESETAPPLY_INVERT) != 0);
  if (it == nullptr) return SQLITE_NOMEM;
  int rc = ApplyIter(db, it, filter, conflict, ctx, rebase, nrebase, flags);
  delete it;
  return rc;
}

}  // namespace
}  // namespace basalt::session

using basalt::session::Apply;
using basalt::session::ReadAll;

extern "C" {

int sqlite3changeset_apply(sqlite3* db, int n, void* data, SessionFilter filter,
                           SessionConflict conflict, void* ctx) {
  return Apply(db, data, n, false, filter, conflict, ctx, nullptr, nullptr, 0);
}

int sqlite3changeset_apply_v2(sqlite3* db, int n, void* data, SessionFilter filter,
                              SessionConflict conflict, void* ctx, void** rebase, int* nrebase,
                              int flags) {
  return Apply(db, data, n, false, filter, conflict, ctx, rebase, nrebase, flags);
}

int sqlite3changeset_apply_strm(sqlite3* db, SessionInput input, void* in, SessionFilter filter,
                                SessionConflict conflict, void* ctx) {
  return sqlite3changeset_apply_v2_strm(db, input, in, filter, conflict, ctx, nullptr, nullptr, 0);
}

int sqlite3changeset_apply_v2_strm(sqlite3* db, SessionInput input, void* in, SessionFilter filter,
                                   SessionConflict conflict, void* ctx, void** rebase, int* nrebase,
                                   int flags) {
  std::string data;
  int rc = ReadAll(input, in, &data);
  if (rc != SQLITE_OK) return rc;
  return Apply(db, data.data(), static_cast<int>(data.size()), true, filter, conflict, ctx, rebase,
               nrebase, flags);
}

}  // extern "C"
