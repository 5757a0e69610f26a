// Lock contention between two connections to one file: sqlite3_busy_timeout
// waits (sleeping) while another connection, on another thread, holds the
// write lock; without a timeout the writer gets SQLITE_BUSY at once; a
// sqlite3_busy_handler callback sees its retry count and can give up; the
// two replace each other and PRAGMA busy_timeout reads what was set. Each
// scenario runs on Basalt and on the system libsqlite3 (each engine's
// connections among themselves) and the answers are compared.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "engines.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

constexpr int kRwc = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

int Exec(const Api& a, sqlite3* db, const char* sql) {
  return a.exec(db, sql, nullptr, nullptr, nullptr);
}

int64_t QueryInt(const Api& a, sqlite3* db, const char* sql) {
  sqlite3_stmt* s = nullptr;
  if (a.prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) return -1;
  int64_t v = a.step(s) == SQLITE_ROW ? a.column_int64(s, 0) : -2;
  a.finalize(s);
  return v;
}

// A file with table t, and the holder connection (with a timeout of its
// own, so that its COMMIT can wait out the other writer's brief read locks).
sqlite3* OpenHolder(const Api& a, const std::string& path) {
  sqlite3* db = nullptr;
  a.open_v2(path.c_str(), &db, kRwc, nullptr);
  a.busy_timeout(db, 10000);
  Exec(a, db, "CREATE TABLE IF NOT EXISTS t(a)");
  return db;
}

TEST(Busy, TimeoutWaitsForTheOtherWritersCommit) {
  std::string dir = TempDir("busy");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/wait-" + a.name + ".db";
    sqlite3* holder = OpenHolder(a, path);
    t->Int("holder BEGIN IMMEDIATE", Exec(a, holder, "BEGIN IMMEDIATE; INSERT INTO t VALUES(1)"));

    sqlite3* writer = nullptr;
    a.open_v2(path.c_str(), &writer, kRwc, nullptr);
    t->Int("writer busy_timeout(5000)", a.busy_timeout(writer, 5000));
    int writer_rc = -1;
    std::atomic<bool> started{false};
    auto writer_end = std::chrono::steady_clock::now();
    std::thread th([&] {
      started.store(true);
      writer_rc = Exec(a, writer, "INSERT INTO t VALUES(2)");
      writer_end = std::chrono::steady_clock::now();
    });
    while (!started.load()) std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    auto commit_start = std::chrono::steady_clock::now();
    t->Int("holder COMMIT", Exec(a, holder, "COMMIT"));
    th.join();
    t->Int("writer INSERT after the wait", writer_rc);
    // The writer was kept waiting until the holder committed, and then not
    // much longer.
    EXPECT_GE(writer_end.time_since_epoch().count(), commit_start.time_since_epoch().count())
        << a.name << ": the writer did not wait for the commit";
    EXPECT_LT(std::chrono::duration<double>(writer_end - commit_start).count(), 4.0) << a.name;
    t->Int("rows", QueryInt(a, writer, "SELECT count(*) FROM t"));
    a.close(writer);
    a.close(holder);
  });
}

TEST(Busy, WithoutTimeoutBusyAtOnce) {
  std::string dir = TempDir("busy");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/now-" + a.name + ".db";
    sqlite3* holder = OpenHolder(a, path);
    Exec(a, holder, "BEGIN IMMEDIATE; INSERT INTO t VALUES(1)");
    sqlite3* writer = nullptr;
    a.open_v2(path.c_str(), &writer, kRwc, nullptr);
    auto start = std::chrono::steady_clock::now();
    t->Int("writer INSERT", Exec(a, writer, "INSERT INTO t VALUES(2)"));
    EXPECT_LT(Seconds(start), 0.5) << a.name;
    t->Str("  errmsg", a.errmsg(writer));
    t->Int("  reading still works", QueryInt(a, writer, "SELECT count(*) FROM t"));
    Exec(a, holder, "COMMIT");
    t->Int("writer INSERT after commit", Exec(a, writer, "INSERT INTO t VALUES(2)"));
    t->Int("rows", QueryInt(a, writer, "SELECT count(*) FROM t"));
    a.close(writer);
    a.close(holder);
  });
}

struct HandlerLog {
  std::vector<int> counts;
  int give_up_at = 0;
  std::atomic<int> calls{0};
};

int RecordingHandler(void* arg, int count) {
  auto* log = static_cast<HandlerLog*>(arg);
  log->counts.push_back(count);
  log->calls.fetch_add(1);
  return count < log->give_up_at ? 1 : 0;
}

TEST(Busy, HandlerSeesRetryCountsAndCanGiveUp) {
  std::string dir = TempDir("busy");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/handler-" + a.name + ".db";
    sqlite3* holder = OpenHolder(a, path);
    Exec(a, holder, "BEGIN IMMEDIATE; INSERT INTO t VALUES(1)");
    sqlite3* writer = nullptr;
    a.open_v2(path.c_str(), &writer, kRwc, nullptr);
    HandlerLog log;
    log.give_up_at = 4;
    t->Int("busy_handler", a.busy_handler(writer, RecordingHandler, &log));
    t->Int("writer INSERT", Exec(a, writer, "INSERT INTO t VALUES(2)"));
    std::string counts;
    for (int c : log.counts) counts += std::to_string(c) + " ";
    t->Str("  handler calls", counts.c_str());
    EXPECT_EQ(counts, "0 1 2 3 4 ") << a.name;

    // A handler that waits for the holder: the write succeeds. (The holder
    // commits once the handler has been called.)
    log.counts.clear();
    log.calls.store(0);
    log.give_up_at = 1000000;
    std::thread th([&] {
      while (log.calls.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      Exec(a, holder, "COMMIT");
    });
    int rc = Exec(a, writer, "INSERT INTO t VALUES(2)");
    th.join();
    t->Int("writer INSERT with a patient handler", rc);
    t->Bool("  handler called", !log.counts.empty());
    t->Int("rows", QueryInt(a, writer, "SELECT count(*) FROM t"));
    a.close(writer);
    a.close(holder);
  });
}

TEST(Busy, HandlerAndTimeoutReplaceEachOther) {
  std::string dir = TempDir("busy");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/replace-" + a.name + ".db";
    sqlite3* holder = OpenHolder(a, path);
    sqlite3* db = nullptr;
    a.open_v2(path.c_str(), &db, kRwc, nullptr);
    t->Int("PRAGMA busy_timeout at open", QueryInt(a, db, "PRAGMA busy_timeout"));
    a.busy_timeout(db, 1234);
    t->Int("after busy_timeout(1234)", QueryInt(a, db, "PRAGMA busy_timeout"));
    HandlerLog log;
    log.give_up_at = 2;
    a.busy_handler(db, RecordingHandler, &log);
    t->Int("after busy_handler", QueryInt(a, db, "PRAGMA busy_timeout"));
    t->Int("PRAGMA busy_timeout=150", QueryInt(a, db, "PRAGMA busy_timeout=150"));
    t->Int("reads", QueryInt(a, db, "PRAGMA busy_timeout"));

    // The pragma's timeout replaced the handler: it is not called, and the
    // writer waits about 150 ms before SQLITE_BUSY.
    Exec(a, holder, "BEGIN IMMEDIATE; INSERT INTO t VALUES(1)");
    auto start = std::chrono::steady_clock::now();
    t->Int("INSERT while locked", Exec(a, db, "INSERT INTO t VALUES(2)"));
    double waited = Seconds(start);
    EXPECT_GE(waited, 0.1) << a.name;
    EXPECT_LT(waited, 2.0) << a.name;
    t->Int("  handler calls", static_cast<long long>(log.counts.size()));

    a.busy_handler(db, RecordingHandler, &log);
    t->Int("INSERT with the handler again", Exec(a, db, "INSERT INTO t VALUES(2)"));
    t->Int("  handler calls", static_cast<long long>(log.counts.size()));
    t->Int("busy_timeout(0)", a.busy_timeout(db, 0));
    t->Int("reads", QueryInt(a, db, "PRAGMA busy_timeout"));
    t->Int("busy_timeout(-5)", a.busy_timeout(db, -5));
    t->Int("reads", QueryInt(a, db, "PRAGMA busy_timeout"));
    log.counts.clear();
    t->Int("INSERT with nothing installed", Exec(a, db, "INSERT INTO t VALUES(2)"));
    t->Int("  handler calls", static_cast<long long>(log.counts.size()));
    Exec(a, holder, "COMMIT");
    a.close(db);
    a.close(holder);
  });
}

// A connection opened while another holds an exclusive lock: the first
// statement that reads meets the lock (SQLITE_BUSY without a timeout, a
// wait with one), and once the lock is gone everything works -- the busy
// open is not remembered as an error.
TEST(Busy, OpenWhileLockedIsBusyOnlyWhileLocked) {
  std::string dir = TempDir("busy");
  SameAsSqlite([&](const Api& a, Transcript* t) {
    std::string path = dir + "/open-" + a.name + ".db";
    sqlite3* holder = OpenHolder(a, path);
    Exec(a, holder, "INSERT INTO t VALUES(1)");
    t->Int("holder BEGIN EXCLUSIVE", Exec(a, holder, "BEGIN EXCLUSIVE; INSERT INTO t VALUES(2)"));
    sqlite3* db = nullptr;
    t->Int("open while locked", a.open_v2(path.c_str(), &db, kRwc, nullptr));
    t->Int("count while locked", QueryInt(a, db, "SELECT count(*) FROM t"));
    t->Int("  errcode", a.errcode(db));
    t->Int("busy_timeout(5000)", a.busy_timeout(db, 5000));
    std::thread th([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(200));
      Exec(a, holder, "COMMIT");
    });
    t->Int("count, waiting for the commit", QueryInt(a, db, "SELECT count(*) FROM t"));
    th.join();
    t->Int("count again", QueryInt(a, db, "SELECT count(*) FROM t"));
    t->Int("write", Exec(a, db, "INSERT INTO t VALUES(3)"));
    t->Int("count after the write", QueryInt(a, holder, "SELECT count(*) FROM t"));
    a.close(db);
    a.close(holder);
  });
}

}  // namespace
}  // namespace basalt::apitest
