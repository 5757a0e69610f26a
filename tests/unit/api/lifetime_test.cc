// Connection and statement lifetimes, compared with the system libsqlite3:
// sqlite3_close with unfinalized statements (SQLITE_BUSY, still usable),
// sqlite3_close_v2 (a zombie whose statements keep working until the last
// is finalized), sqlite3_next_stmt. Run under AddressSanitizer too: closing
// with close_v2 and then finalizing must touch no freed memory.
#include <gtest/gtest.h>

#include <string>

#include "engines.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

constexpr int kRwc = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

TEST(Lifetime, CloseWithStatementsIsBusyAndKeepsConnection) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    t->Int("open", a.open_v2(":memory:", &db, kRwc, nullptr));
    a.exec(db, "CREATE TABLE t(a); INSERT INTO t VALUES(1),(2),(3)", nullptr, nullptr, nullptr);
    sqlite3_stmt* s1 = nullptr;
    sqlite3_stmt* s2 = nullptr;
    a.prepare_v2(db, "SELECT a FROM t ORDER BY a", -1, &s1, nullptr);
    a.prepare_v2(db, "SELECT count(*) FROM t", -1, &s2, nullptr);
    t->Bool("next_stmt(db, NULL) is the newest", a.next_stmt(db, nullptr) == s2);
    t->Bool("then the older", a.next_stmt(db, s2) == s1);
    t->Bool("then none", a.next_stmt(db, s1) == nullptr);
    t->Int("step", a.step(s1));
    t->Int("close", a.close(db));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("  errcode", a.errcode(db));
    t->Int("exec still works", a.exec(db, "INSERT INTO t VALUES(4)", nullptr, nullptr, nullptr));
    t->Int("step", a.step(s1));
    t->Int("  column", a.column_int(s1, 0));
    t->Int("finalize s1", a.finalize(s1));
    t->Bool("next_stmt(db, NULL) is s2", a.next_stmt(db, nullptr) == s2);
    t->Int("close still busy", a.close(db));
    t->Int("step s2", a.step(s2));
    t->Int("  count", a.column_int(s2, 0));
    t->Int("finalize s2", a.finalize(s2));
    t->Bool("no statements", a.next_stmt(db, nullptr) == nullptr);
    t->Int("close", a.close(db));
  });
}

TEST(Lifetime, CloseV2MakesAZombieFreedByTheLastFinalize) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2(":memory:", &db, kRwc, nullptr);
    a.exec(db, "CREATE TABLE t(a); INSERT INTO t VALUES(1),(2),(3)", nullptr, nullptr, nullptr);
    sqlite3_stmt* s = nullptr;
    sqlite3_stmt* s2 = nullptr;
    a.prepare_v2(db, "SELECT a FROM t ORDER BY a", -1, &s, nullptr);
    a.prepare_v2(db, "SELECT count(*) FROM t", -1, &s2, nullptr);
    t->Int("step", a.step(s));
    t->Int("close_v2", a.close_v2(db));
    t->Str("zombie errmsg", a.errmsg(db));
    t->Int("zombie errcode", a.errcode(db));
    t->Bool("zombie next_stmt sees its statements", a.next_stmt(db, nullptr) == s2);
    t->Bool("  and the older one", a.next_stmt(db, s2) == s);
    t->Int("zombie exec", a.exec(db, "SELECT 1", nullptr, nullptr, nullptr));
    sqlite3_stmt* s3 = reinterpret_cast<sqlite3_stmt*>(&s3);
    t->Int("zombie prepare", a.prepare_v2(db, "SELECT 1", -1, &s3, nullptr));
    t->Bool("  *stmt NULL", s3 == nullptr);
    t->Int("zombie step", a.step(s));
    t->Int("  column", a.column_int(s, 0));
    t->Int("zombie step", a.step(s));
    t->Int("zombie step", a.step(s));
    t->Int("zombie reset", a.reset(s));
    t->Int("zombie step after reset", a.step(s));
    t->Int("  column", a.column_int(s, 0));
    t->Int("zombie get_autocommit", a.get_autocommit(db));
    t->Bool("zombie db_handle", a.db_handle(s) == db);
    t->Int("zombie close", a.close(db));
    t->Int("zombie close_v2", a.close_v2(db));
    t->Int("zombie busy_timeout", a.busy_timeout(db, 5));
    t->Int("finalize s2", a.finalize(s2));
    t->Int("step s (last statement)", a.step(s));
    t->Int("finalize s (frees the connection)", a.finalize(s));
  });
}

// What Python's sqlite3 module does: close_v2 while a cursor's statement
// is open inside a transaction, then finalize it later. The transaction is
// rolled back when the connection finally goes.
TEST(Lifetime, CloseV2InsideTransactionThenFinalize) {
  std::string dir = TempDir("lifetime");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/" + a.name + ".db";
    sqlite3* db = nullptr;
    a.open_v2(path.c_str(), &db, kRwc, nullptr);
    a.exec(db, "CREATE TABLE t(a); INSERT INTO t VALUES(1)", nullptr, nullptr, nullptr);
    t->Int("begin", a.exec(db, "BEGIN; INSERT INTO t VALUES(2)", nullptr, nullptr, nullptr));
    sqlite3_stmt* ins = nullptr;
    sqlite3_stmt* sel = nullptr;
    a.prepare_v2(db, "INSERT INTO t VALUES(3)", -1, &ins, nullptr);
    a.prepare_v2(db, "SELECT a FROM t ORDER BY a", -1, &sel, nullptr);
    t->Int("step select", a.step(sel));
    t->Int("close_v2", a.close_v2(db));
    t->Int("zombie step insert", a.step(ins));
    t->Int("zombie step select", a.step(sel));
    t->Int("  column", a.column_int(sel, 0));
    t->Int("finalize select", a.finalize(sel));
    t->Int("finalize insert (closes, rolls back)", a.finalize(ins));

    sqlite3* again = nullptr;
    a.open_v2(path.c_str(), &again, kRwc, nullptr);
    sqlite3_stmt* q = nullptr;
    a.prepare_v2(again, "SELECT group_concat(a) FROM t", -1, &q, nullptr);
    t->Int("reopened step", a.step(q));
    t->Str("  rows", a.column_text(q, 0));
    a.finalize(q);
    t->Int("close", a.close(again));
  });
}

// Many connections opened and closed, some through zombies, with stale
// handles used in between: handles are reused, never freed.
TEST(Lifetime, HandlesAreReusedNotFreed) {
  for (int round = 0; round < 50; ++round) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
    sqlite3_stmt* s = nullptr;
    ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT 1", -1, &s, nullptr), SQLITE_OK);
    if (round % 2 == 0) {
      ASSERT_EQ(sqlite3_close_v2(db), SQLITE_OK);
      EXPECT_EQ(sqlite3_step(s), SQLITE_ROW);
      EXPECT_EQ(sqlite3_finalize(s), SQLITE_OK);
    } else {
      EXPECT_EQ(sqlite3_close(db), SQLITE_BUSY);
      EXPECT_EQ(sqlite3_finalize(s), SQLITE_OK);
      EXPECT_EQ(sqlite3_close(db), SQLITE_OK);
    }
    EXPECT_EQ(sqlite3_errcode(db), SQLITE_MISUSE);  // stale: closed, not freed
  }
}

// An INSERT/UPDATE/DELETE with RETURNING makes all its changes before the
// first row: reset or finalized after one row, the changes stand; the
// result columns report the table's declared types.
TEST(Lifetime, ReturningStoppedEarlyKeepsItsChanges) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2(":memory:", &db, kRwc, nullptr);
    a.exec(db, "CREATE TABLE t(a INTEGER PRIMARY KEY, b VARCHAR(10), c)", nullptr, nullptr,
           nullptr);
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, "INSERT INTO t(b) VALUES(1),(2),(3) RETURNING a, b, c, b + 1, *", -1, &s,
                 nullptr);
    t->Int("stmt_readonly", a.stmt_readonly(s));
    t->Int("column_count", a.column_count(s));
    for (int i = 0; i < a.column_count(s); ++i) {
      t->Str("  name", a.column_name(s, i));
      t->Str("  decltype", a.column_decltype(s, i));
    }
    t->Int("step", a.step(s));
    t->Int("  column", a.column_int(s, 0));
    t->Int("reset", a.reset(s));
    t->Int("changes", a.changes(db));
    t->Int("finalize", a.finalize(s));
    a.prepare_v2(db, "SELECT count(*) FROM t", -1, &s, nullptr);
    t->Int("step", a.step(s));
    t->Int("  count", a.column_int(s, 0));
    a.finalize(s);
    a.prepare_v2(db, "DELETE FROM t WHERE a < 3 RETURNING a", -1, &s, nullptr);
    t->Int("step", a.step(s));
    t->Int("finalize", a.finalize(s));
    t->Int("changes", a.changes(db));
    t->Int("total_changes", a.total_changes(db));
    a.prepare_v2(db, "SELECT count(*) FROM t", -1, &s, nullptr);
    t->Int("step", a.step(s));
    t->Int("  count", a.column_int(s, 0));
    a.finalize(s);
    t->Int("close", a.close(db));
  });
}

}  // namespace
}  // namespace basalt::apitest
