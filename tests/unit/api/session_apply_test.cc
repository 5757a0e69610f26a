// sqlite3changeset_apply / _v2 / _strm, the conflict handler, the rebaser
// and sqlite3session_diff: the same changeset applied to the same database
// on both libraries must call the handler the same way, leave the same
// rows and produce the same rebase buffer.
#include "session_test_util.h"

namespace basalt::sessiontest {
namespace {

const char* kSchema =
    "CREATE TABLE t1(a INTEGER PRIMARY KEY, b, c);"
    "CREATE TABLE t2(k TEXT PRIMARY KEY, v UNIQUE);"
    "CREATE TABLE p(id INTEGER PRIMARY KEY);"
    "CREATE TABLE ch(id INTEGER PRIMARY KEY, pid REFERENCES p(id));";
const char* kSeed =
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<10) "
    "INSERT INTO t1 SELECT i, 'b' || i, i FROM n;"
    "INSERT INTO t2 VALUES('a', 1), ('b', 2), ('c', 3);"
    "INSERT INTO p VALUES(1);";
const char* kRemote =
    "UPDATE t1 SET b = 'new' WHERE a IN (1, 2, 3);"
    "DELETE FROM t1 WHERE a IN (4, 5, 6);"
    "INSERT INTO t1 VALUES(11, 'x', 1), (12, 'y', 2), (13, 'z', 3);"
    "INSERT INTO t2 VALUES('d', 4), ('e', 5);"
    "UPDATE t2 SET v = 30 WHERE k = 'c';"
    "DELETE FROM t2 WHERE k = 'a';"
    "INSERT INTO ch VALUES(1, 99);"
    "INSERT INTO extra VALUES(1, 'no such table on the target');"
    "INSERT INTO wide VALUES(1, 'a', 'b');"
    "INSERT INTO pkdiff VALUES(1, 'x');";
// Tables only the source has, or has with another shape.
const char* kSourceOnly =
    "CREATE TABLE extra(id INTEGER PRIMARY KEY, v);"
    "CREATE TABLE wide(id INTEGER PRIMARY KEY, a, b);"
    "CREATE TABLE pkdiff(id INTEGER PRIMARY KEY, v);";
const char* kTargetOnly =
    "CREATE TABLE wide(id INTEGER PRIMARY KEY, a);"
    "CREATE TABLE pkdiff(id INTEGER, v PRIMARY KEY);";
// What the target did meanwhile (recorded too: the local changes to rebase).
const char* kLocal =
    "UPDATE t1 SET b = 'mine' WHERE a = 1;"
    "DELETE FROM t1 WHERE a = 2;"
    "UPDATE t1 SET c = 40 WHERE a = 4;"
    "DELETE FROM t1 WHERE a = 5;"
    "INSERT INTO t1 VALUES(11, 'local', 0);"
    "INSERT INTO t2 VALUES('z', 4);"
    "UPDATE t2 SET v = 5 WHERE k = 'a';";

std::string Changeset(const Lib* L, const char* sql, bool patchset) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db, kSchema);
  Exec(L, db, kSourceOnly);
  Exec(L, db, kSeed);
  sqlite3_session* s = nullptr;
  L->session_create(db, "main", &s);
  L->session_attach(s, nullptr);
  Exec(L, db, sql);
  int n = 0;
  void* p = nullptr;
  if (patchset) {
    L->session_patchset(s, &n, &p);
  } else {
    L->session_changeset(s, &n, &p);
  }
  L->session_delete(s);
  L->close(db);
  return Take(L, n, p);
}

struct Handler {
  const Lib* lib;
  // 0: REPLACE where allowed, 1: OMIT, 2: ABORT at the first CONFLICT,
  // 3: REPLACE always (a misuse for NOTFOUND), 4: an invalid answer.
  int policy;
  std::string log;
};

int OnConflict(void* arg, int kind, sqlite3_changeset_iter* it) {
  auto* h = static_cast<Handler*>(arg);
  const Lib* L = h->lib;
  std::string line = "conflict " + std::to_string(kind);
  if (kind == SQLITE_CHANGESET_FOREIGN_KEY) {
    int n = -1;
    int rc = L->cs_fk_conflicts(it, &n);
    line += " fk rc" + std::to_string(rc) + " n" + std::to_string(n);
  } else {
    const char* tab = nullptr;
    int ncol = 0, op = 0;
    L->cs_op(it, &tab, &ncol, &op, nullptr);
    line += std::string(" ") + tab + " op" + std::to_string(op);
    for (int i = 0; i < ncol; ++i) {
      sqlite3_value* v = nullptr;
      if (L->cs_old(it, i, &v) == SQLITE_OK) line += " o" + ValueText(L, v);
      if (L->cs_new(it, i, &v) == SQLITE_OK) line += " n" + ValueText(L, v);
      int rc = L->cs_conflict(it, i, &v);
      line += " c" + (rc ? "rc" + std::to_string(rc) : ValueText(L, v));
    }
  }
  h->log += line + "\n";
  if (h->policy == 2 && kind == SQLITE_CHANGESET_CONFLICT) return SQLITE_CHANGESET_ABORT;
  if (h->policy == 3) return SQLITE_CHANGESET_REPLACE;
  if (h->policy == 4) return 42;
  if (h->policy == 0 && (kind == SQLITE_CHANGESET_DATA || kind == SQLITE_CHANGESET_CONFLICT)) {
    return SQLITE_CHANGESET_REPLACE;
  }
  return SQLITE_CHANGESET_OMIT;
}

int SkipCh(void*, const char* table) { return std::string(table) != "ch"; }

struct Result {
  std::string text;
  std::string rebase;
};

// Applies `cs` to a target that made the local changes; how: 0 apply,
// 1 apply_v2 (rebase buffer), 2 apply_strm, 3 apply_v2_strm inverted
// without savepoint.
Result ApplyOn(const Lib* L, const std::string& cs, int policy, int how) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db, kSchema);
  Exec(L, db, kTargetOnly);
  Exec(L, db, kSeed);
  Exec(L, db, kLocal);
  Exec(L, db, "PRAGMA foreign_keys = ON");
  Handler h{L, policy, ""};
  std::string data = cs;
  StreamIn in{&data};
  void* rebase = nullptr;
  int nrebase = 0;
  int rc;
  switch (how) {
    case 0:
      rc = L->cs_apply(db, static_cast<int>(data.size()), data.data(), &SkipCh, &OnConflict, &h);
      break;
    case 1:
      rc = L->cs_apply_v2(db, static_cast<int>(data.size()), data.data(), nullptr, &OnConflict, &h,
                          &rebase, &nrebase, 0);
      break;
    case 2:
      rc = L->cs_apply_strm(db, &ReadStream, &in, nullptr, &OnConflict, &h);
      break;
    default:
      rc = L->cs_apply_v2_strm(db, &ReadStream, &in, nullptr, &OnConflict, &h, &rebase, &nrebase,
                               SQLITE_CHANGESETAPPLY_INVERT | SQLITE_CHANGESETAPPLY_NOSAVEPOINT);
      break;
  }
  Result r;
  r.rebase = Take(L, nrebase, rebase);
  r.text = "rc " + std::to_string(rc) + "\n" + h.log;
  for (const char* t : {"t1", "t2", "ch", "wide", "pkdiff"}) {
    r.text += std::string("== ") + t + "\n" + Dump(L, db, std::string("SELECT * FROM ") + t);
  }
  L->close(db);
  return r;
}

TEST(SessionApply, ConflictsAndResultsMatchSqlite) {
  BASALT_REQUIRE_LIBS();
  for (bool patch : {false, true}) {
    std::string from_b = Changeset(B, kRemote, patch), from_s = Changeset(S, kRemote, patch);
    ASSERT_EQ(Hex(from_b.data(), static_cast<int>(from_b.size())),
              Hex(from_s.data(), static_cast<int>(from_s.size())));
    for (int policy = 0; policy < 5; ++policy) {
      for (int how = 0; how < 4; ++how) {
        // Basalt's changeset on SQLite and SQLite's on Basalt.
        Result on_s = ApplyOn(S, from_b, policy, how), on_b = ApplyOn(B, from_s, policy, how);
        EXPECT_EQ(on_b.text, on_s.text)
            << "patch " << patch << " policy " << policy << " how " << how;
        EXPECT_EQ(Hex(on_b.rebase.data(), static_cast<int>(on_b.rebase.size())),
                  Hex(on_s.rebase.data(), static_cast<int>(on_s.rebase.size())));
      }
    }
  }
}

std::string Rebased(const Lib* L, const std::string& rebase, const std::string& local, bool strm) {
  sqlite3_rebaser* r = nullptr;
  L->rb_create(&r);
  int rc = L->rb_configure(r, static_cast<int>(rebase.size()), rebase.data());
  std::string out;
  if (rc == SQLITE_OK && strm) {
    StreamIn in{&local};
    rc = L->rb_rebase_strm(r, &ReadStream, &in, &WriteStream, &out);
  } else if (rc == SQLITE_OK) {
    int n = 0;
    void* p = nullptr;
    rc = L->rb_rebase(r, static_cast<int>(local.size()), local.data(), &n, &p);
    out = Take(L, n, p);
  }
  L->rb_delete(r);
  return std::to_string(rc) + ":" + Hex(out.data(), static_cast<int>(out.size()));
}

TEST(SessionApply, RebaserMatchesSqlite) {
  BASALT_REQUIRE_LIBS();
  std::string remote = Changeset(S, kRemote, false);
  std::string local = Changeset(S, kLocal, false);
  for (int policy = 0; policy < 2; ++policy) {
    std::string rebase = ApplyOn(S, remote, policy, 1).rebase;
    EXPECT_FALSE(rebase.empty());
    for (bool strm : {false, true}) {
      EXPECT_EQ(Rebased(B, rebase, local, strm), Rebased(S, rebase, local, strm))
          << "policy " << policy;
    }
  }
}

std::string Diff(const Lib* L) {
  sqlite3* db = OpenMemory(L);
  Exec(L, db, kSchema);
  Exec(L, db, kSeed);
  Exec(L, db, "ATTACH ':memory:' AS other");
  Exec(L, db,
       "CREATE TABLE other.t1(a INTEGER PRIMARY KEY, b, c);"
       "INSERT INTO other.t1 SELECT * FROM main.t1;"
       "UPDATE other.t1 SET b = 'old' WHERE a % 3 = 0; DELETE FROM other.t1 WHERE a > 8;"
       "INSERT INTO other.t1 VALUES(50, 'only there', 0);"
       "CREATE TABLE other.t2(k TEXT PRIMARY KEY, v, extra);");
  sqlite3_session* s = nullptr;
  L->session_create(db, "main", &s);
  L->session_attach(s, "t1");
  L->session_attach(s, "t2");
  char* err = nullptr;
  std::string out = "rc" + std::to_string(L->session_diff(s, "other", "t1", &err));
  out += err ? std::string(" ") + err : "";
  L->free(err);
  err = nullptr;
  out += " rc" + std::to_string(L->session_diff(s, "other", "t2", &err));
  out += err ? std::string(" ") + err : "";
  L->free(err);
  int n = 0;
  void* p = nullptr;
  L->session_changeset(s, &n, &p);
  std::string cs = Take(L, n, p);
  L->session_delete(s);
  L->close(db);
  return out + " " + Hex(cs.data(), static_cast<int>(cs.size()));
}

TEST(SessionApply, DiffMatchesSqlite) {
  BASALT_REQUIRE_LIBS();
  EXPECT_EQ(Diff(B), Diff(S));
}

}  // namespace
}  // namespace basalt::sessiontest
