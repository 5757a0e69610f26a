// sqlite3_update_hook and the preupdate hook: the same statements on both
// libraries must make the same calls with the same arguments and values.
#include "session_test_util.h"

namespace basalt::sessiontest {
namespace {

struct HookLog {
  const Lib* lib;
  std::string text;
};

void OnUpdate(void* arg, int op, const char* db, const char* table, sqlite3_int64 rowid) {
  auto* log = static_cast<HookLog*>(arg);
  log->text +=
      "U " + std::to_string(op) + " " + db + "." + table + " " + std::to_string(rowid) + "\n";
}

void OnPreUpdate(void* arg, sqlite3* db, int op, const char* zdb, const char* table,
                 sqlite3_int64 k1, sqlite3_int64 k2) {
  auto* log = static_cast<HookLog*>(arg);
  const Lib* L = log->lib;
  std::string line = "P " + std::to_string(op) + " " + zdb + "." + table;
  // The rowids are documented only for rowid tables (both say 0 otherwise).
  line += " " + std::to_string(k1) + " " + std::to_string(k2);
  int n = L->preupdate_count(db);
  line += " n=" + std::to_string(n) + " d=" + std::to_string(L->preupdate_depth(db)) +
          " bw=" + std::to_string(L->preupdate_blobwrite(db));
  for (int i = 0; i <= n; ++i) {
    sqlite3_value* v = nullptr;
    if (op != SQLITE_INSERT) {
      int rc = L->preupdate_old(db, i, &v);
      line += " o" + std::to_string(i) + "=" + (rc ? "rc" + std::to_string(rc) : ValueText(L, v));
    }
    if (op != SQLITE_DELETE) {
      int rc = L->preupdate_new(db, i, &v);
      line += " n" + std::to_string(i) + "=" + (rc ? "rc" + std::to_string(rc) : ValueText(L, v));
    }
  }
  sqlite3_value* v = nullptr;
  line += " misuse=" + std::to_string(op == SQLITE_INSERT
                                          ? L->preupdate_old(db, 0, &v)
                                          : (op == SQLITE_DELETE ? L->preupdate_new(db, 0, &v)
                                                                 : L->preupdate_new(db, -1, &v)));
  log->text += line + "\n";
}

const char* kAfter = "INSERT INTO t VALUES(100, 'after', 1000)";

const std::vector<std::string> kRowidScript = {
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c UNIQUE)",
    "INSERT INTO t VALUES(1,'x',10),(2,'y',20)",
    "INSERT INTO t(b,c) VALUES('z',30)",
    "UPDATE t SET b='q' WHERE a=2",
    "UPDATE t SET a=5 WHERE a=1",
    "REPLACE INTO t VALUES(2,'r',99)",
    "INSERT OR REPLACE INTO t VALUES(7,'s',30)",
    "UPDATE OR REPLACE t SET c=99 WHERE a=7",
    "INSERT INTO t VALUES(7,'u',1) ON CONFLICT(a) DO UPDATE SET b=excluded.b",
    "DELETE FROM t WHERE a=5",
    "CREATE TABLE s(id INTEGER PRIMARY KEY AUTOINCREMENT, v)",
    "INSERT INTO s(v) VALUES(1),(2)",
    "DELETE FROM sqlite_sequence WHERE name='s'",
    "CREATE TABLE lg(x, y)",
    "CREATE TRIGGER tr AFTER INSERT ON s BEGIN INSERT INTO lg VALUES(new.id, new.v); "
    "UPDATE lg SET y=y+1; END",
    "INSERT INTO s(v) VALUES(3)",
    "DELETE FROM lg",
    "DELETE FROM s",
    "DELETE FROM t RETURNING a",
    "CREATE TABLE g(a, b AS (a*2), c AS (a+1) STORED, d)",
    "INSERT INTO g(a,d) VALUES(3,'d')",
    "UPDATE g SET a=4",
    "DELETE FROM g WHERE a=4",
};

const std::vector<std::string> kOtherScript = {
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)",
    "CREATE TABLE w(k TEXT, x, y REAL, PRIMARY KEY(y,k)) WITHOUT ROWID",
    "INSERT INTO w VALUES('a',1,2),('b',3,4)",
    "UPDATE w SET x=9 WHERE k='a'",
    "UPDATE w SET k='c' WHERE k='b'",
    "DELETE FROM w WHERE k='a'",
    "REPLACE INTO w VALUES('c',5,4)",
    "PRAGMA foreign_keys=ON",
    "CREATE TABLE p(id INTEGER PRIMARY KEY, v)",
    "CREATE TABLE c(id INTEGER PRIMARY KEY, pid REFERENCES p(id) ON DELETE CASCADE "
    "ON UPDATE SET NULL, w)",
    "INSERT INTO p VALUES(1,'a'),(2,'b')",
    "INSERT INTO c VALUES(10,1,'x'),(11,1,'y'),(12,2,'z')",
    "DELETE FROM p WHERE id=1",
    "UPDATE p SET id=3 WHERE id=2",
    "DELETE FROM c",
    "CREATE TABLE a(x INTEGER PRIMARY KEY, y)",
    "CREATE TABLE b(x, y)",
    "CREATE TRIGGER ta BEFORE INSERT ON a BEGIN INSERT INTO b VALUES(new.x, 'before'); END",
    "CREATE TRIGGER tb AFTER INSERT ON b BEGIN UPDATE b SET y='nested' WHERE rowid=new.rowid; END",
    "INSERT INTO a VALUES(1,'q')",
    "INSERT INTO b SELECT x, y FROM a",
    "DELETE FROM b",
    "ATTACH ':memory:' AS aux",
    "CREATE TABLE aux.t2(k PRIMARY KEY, v)",
    "INSERT INTO aux.t2 VALUES(1, x'0102'), (2.5, NULL)",
    "UPDATE aux.t2 SET v = 'text' WHERE k = 2.5",
    "DELETE FROM aux.t2",
};

const std::vector<std::string> kMoreScript = {
    "CREATE TABLE t(a INTEGER PRIMARY KEY, b, c)",
    "CREATE TABLE lg(x, y)",
    "CREATE TABLE s(id INTEGER PRIMARY KEY, v)",
    "CREATE TRIGGER tr AFTER INSERT ON s BEGIN DELETE FROM lg; "
    "INSERT INTO lg VALUES(new.id, new.v); END",
    "INSERT INTO s VALUES(1, 'a')",
    "INSERT INTO s VALUES(2, 'b')",
    "CREATE VIEW vv AS SELECT * FROM s",
    "CREATE TRIGGER iv INSTEAD OF UPDATE ON vv BEGIN UPDATE s SET v = new.v WHERE id = old.id; END",
    "UPDATE vv SET v = 'z' WHERE id = 2",
    "INSERT OR IGNORE INTO s VALUES(1, 'dup')",
    "INSERT INTO s VALUES(1, 'x') ON CONFLICT DO NOTHING",
    "INSERT INTO s VALUES(1, 'x') ON CONFLICT(id) DO UPDATE SET v = 'upd'",
    "CREATE TABLE big(a INTEGER PRIMARY KEY, b UNIQUE, c CHECK(c > 0))",
    "INSERT INTO big VALUES(1, 1, 1), (2, 2, 2)",
    "UPDATE OR IGNORE big SET b = 2 WHERE a = 1",
    "UPDATE OR REPLACE big SET b = 2 WHERE a = 1",
    "INSERT INTO big VALUES(5, 5, -1)",
    "INSERT INTO big SELECT a + 10, b + 10, c FROM big",
    "UPDATE big SET a = a + 100",
    "DELETE FROM big WHERE rowid IN (SELECT a FROM big WHERE a > 105)",
    "ALTER TABLE big ADD COLUMN d DEFAULT 7",
    "UPDATE big SET c = c + 1",
    "DELETE FROM big WHERE a > 0",
    "CREATE TABLE r(x REAL, y INTEGER PRIMARY KEY)",
    "INSERT INTO r VALUES(1, 1), (2.5, 2)",
    "UPDATE r SET x = 3 WHERE y = 1",
    "DELETE FROM r WHERE y = 1",
    "CREATE TABLE w(k PRIMARY KEY, a, b, c, d) WITHOUT ROWID",
    "CREATE INDEX wa ON w(a)",
    "INSERT INTO w VALUES(1, 9, 0, 0, 0), (2, 4, 0, 0, 0), (3, 8, 0, 0, 0), (4, 2, 0, 0, 0)",
    "UPDATE w SET b = 1 WHERE a % 2 = 0",
    "DELETE FROM w WHERE a % 2 = 0",
    "CREATE TABLE q(a INTEGER PRIMARY KEY, b, c)",
    "CREATE INDEX qb ON q(b)",
    "INSERT INTO q VALUES(1, 9, 0), (2, 4, 0), (3, 8, 0), (4, 2, 0)",
    "UPDATE q SET c = 1 WHERE b > 3",
    "UPDATE q SET c = 2 WHERE b % 2 = 0",
    "DELETE FROM q WHERE b > 3",
};

TEST(SessionHooks, TriggersViewsUpsertAlterMatchSqlite) {
  BASALT_REQUIRE_LIBS();
  for (int mode : {1, 2, 3}) {
    EXPECT_EQ(HookTranscript(B, kMoreScript, mode, kAfter),
              HookTranscript(S, kMoreScript, mode, kAfter))
        << "mode " << mode;
  }
}

TEST(SessionHooks, RowidTablesCallsMatchSqlite) {
  BASALT_REQUIRE_LIBS();
  for (int mode : {1, 2, 3}) {
    EXPECT_EQ(HookTranscript(B, kRowidScript, mode, kAfter),
              HookTranscript(S, kRowidScript, mode, kAfter))
        << "mode " << mode;
  }
}

TEST(SessionHooks, WithoutRowidForeignKeysTriggersAttachMatchSqlite) {
  BASALT_REQUIRE_LIBS();
  for (int mode : {1, 2, 3}) {
    EXPECT_EQ(HookTranscript(B, kOtherScript, mode, kAfter),
              HookTranscript(S, kOtherScript, mode, kAfter))
        << "mode " << mode;
  }
}

}  // namespace

// Runs each statement with the hooks `mode` selects (1 update, 2 preupdate).
std::string HookTranscript(const Lib* L, const std::vector<std::string>& script, int mode,
                           const std::string& after) {
  sqlite3* db = OpenMemory(L);
  HookLog log{L, ""};
  if (mode & 1) L->update_hook(db, &OnUpdate, &log);
  if (mode & 2) L->preupdate_hook(db, &OnPreUpdate, &log);
  for (const std::string& sql : script) {
    log.text += "-- " + sql + "\n";
    log.text += Exec(L, db, sql);
  }
  // Removing the hooks returns their argument; nothing is called after.
  if (mode & 1) EXPECT_EQ(L->update_hook(db, nullptr, nullptr), &log);
  if (mode & 2) EXPECT_EQ(L->preupdate_hook(db, nullptr, nullptr), &log);
  Exec(L, db, after);
  L->close(db);
  return log.text;
}

}  // namespace basalt::sessiontest
