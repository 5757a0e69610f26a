// sqlite3_interrupt from another thread stops a running statement with
// SQLITE_INTERRUPT; an interrupt with nothing running has no effect, and
// an interrupted write inside a transaction rolls the transaction back.
// Compared with the system libsqlite3.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>

#include "engines.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

constexpr int kRwc = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
constexpr const char* kEndless =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

// Steps `s` while another thread interrupts db after `delay_ms`; returns
// the step's result. Fails the test if the statement ran past 10 s.
int StepInterrupted(const Api& a, sqlite3* db, sqlite3_stmt* s, int delay_ms) {
  std::atomic<bool> done{false};
  std::thread other([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    // Keep interrupting until the step returns: an interrupt that lands
    // before the statement starts is (correctly) a no-op.
    while (!done.load()) {
      a.interrupt(db);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  auto start = std::chrono::steady_clock::now();
  int rc = a.step(s);
  done.store(true);
  other.join();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(secs, 10.0) << a.name;
  return rc;
}

TEST(Interrupt, FromAnotherThreadStopsALongQuery) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2(":memory:", &db, kRwc, nullptr);
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, kEndless, -1, &s, nullptr);
    t->Int("step", StepInterrupted(a, db, s, 100));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("  errcode", a.errcode(db));
    t->Int("reset", a.reset(s));
    t->Int("finalize", a.finalize(s));
    sqlite3_stmt* q = nullptr;
    a.prepare_v2(db, "SELECT 41 + 1", -1, &q, nullptr);
    t->Int("next statement runs", a.step(q));
    t->Int("  column", a.column_int(q, 0));
    a.finalize(q);
    a.close(db);
  });
}

TEST(Interrupt, WithNothingRunningIsANoOp) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2(":memory:", &db, kRwc, nullptr);
    a.interrupt(db);
    t->Int("exec after an idle interrupt", a.exec(db, "SELECT 1", nullptr, nullptr, nullptr));
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db, "SELECT 1 UNION ALL SELECT 2", -1, &s, nullptr);
    a.interrupt(db);
    t->Int("step of a statement prepared after it", a.step(s));
    t->Int("step", a.step(s));
    a.interrupt(db);
    t->Int("step after an interrupt between steps", a.step(s));
    t->Str("  errmsg", a.errmsg(db));
    t->Int("reset", a.reset(s));
    t->Int("step after reset", a.step(s));
    a.finalize(s);
    a.close(db);
  });
}

TEST(Interrupt, InterruptedWriteRollsBackTheTransaction) {
  SameAsSqlite([](const Api& a, Transcript* t) {
    sqlite3* db = nullptr;
    a.open_v2(":memory:", &db, kRwc, nullptr);
    a.exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES(0); BEGIN; INSERT INTO t VALUES(1)",
           nullptr, nullptr, nullptr);
    t->Int("in a transaction", a.get_autocommit(db) == 0);
    sqlite3_stmt* s = nullptr;
    a.prepare_v2(db,
                 "INSERT INTO t WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                 "SELECT x FROM c",
                 -1, &s, nullptr);
    t->Int("endless insert", StepInterrupted(a, db, s, 100));
    a.finalize(s);
    t->Int("autocommit again (rolled back)", a.get_autocommit(db));
    sqlite3_stmt* q = nullptr;
    a.prepare_v2(db, "SELECT count(*) FROM t", -1, &q, nullptr);
    a.step(q);
    t->Int("rows", a.column_int(q, 0));
    a.finalize(q);
    a.close(db);
  });
}

}  // namespace
}  // namespace basalt::apitest
