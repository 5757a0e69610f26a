// Threads against the C API, run clean under ThreadSanitizer
// (-DBASALT_SANITIZE=thread):
//   * 8 threads sharing one serialized connection;
//   * 8 threads each with its own connection to one WAL-mode file, waiting
//     for each other through sqlite3_busy_timeout.
// Every thread runs kStatements statements (10,000; the environment
// variable BASALT_STRESS_STATEMENTS may scale that down, e.g. in a slow
// sanitizer build), a mix of INSERT, SELECT and UPDATE on rows only it
// writes, so every count it reads back and the final totals are exact.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "engines.h"
#include "sqlite3.h"

namespace basalt::apitest {
namespace {

constexpr int kThreads = 8;

int Statements() {
  const char* env = std::getenv("BASALT_STRESS_STATEMENTS");
  int n = env != nullptr ? std::atoi(env) : 0;
  return n > 0 ? n : 10000;
}

// What one thread did, for the final checks.
struct Tally {
  int64_t inserts = 0;
  int64_t updates = 0;
  int64_t selects = 0;
  std::string error;  // the first failure, if any
};

class Worker {
 public:
  Worker(sqlite3* db, int id, Tally* tally) : db_(db), id_(id), tally_(tally) {}

  // Runs n statements; stops at the first failure (kept in tally->error).
  void Run(int n) {
    if (!Prepare(&insert_, "INSERT INTO t(thread, seq, n) VALUES(?1, ?2, 0)") ||
        !Prepare(&select_, "SELECT n FROM t WHERE thread = ?1 AND seq = ?2") ||
        !Prepare(&count_, "SELECT count(*), total(n) FROM t WHERE thread = ?1") ||
        !Prepare(&update_, "UPDATE t SET n = n + 1 WHERE thread = ?1 AND seq = ?2")) {
      return;
    }
    uint64_t rng = 0x9e3779b97f4a7c15ull * static_cast<uint64_t>(id_ + 1);
    for (int i = 0; i < n && tally_->error.empty(); ++i) {
      rng ^= rng << 13;
      rng ^= rng >> 7;
      rng ^= rng << 17;
      int kind = static_cast<int>(rng % 10);
      int64_t seq = tally_->inserts > 0
                        ? static_cast<int64_t>((rng >> 8) % static_cast<uint64_t>(tally_->inserts))
                        : 0;
      if (kind < 4 || tally_->inserts == 0) {
        Insert();
      } else if (kind < 7) {
        if (i % 101 == 0) {
          Count();  // all of this thread's rows
        } else {
          Select(seq);
        }
      } else if (i % 97 == 0) {
        Exec();  // a statement prepared and finalized on the spot
      } else {
        Update(seq);
      }
    }
    sqlite3_finalize(insert_);
    sqlite3_finalize(select_);
    sqlite3_finalize(count_);
    sqlite3_finalize(update_);
  }

 private:
  bool Fail(const std::string& what, int rc) {
    if (tally_->error.empty()) {
      tally_->error = "thread " + std::to_string(id_) + ": " + what + " -> " + std::to_string(rc);
    }
    return false;
  }

  bool Prepare(sqlite3_stmt** s, const char* sql) {
    int rc = sqlite3_prepare_v2(db_, sql, -1, s, nullptr);
    return rc == SQLITE_OK || Fail(std::string("prepare ") + sql, rc);
  }

  void Insert() {
    sqlite3_bind_int(insert_, 1, id_);
    sqlite3_bind_int64(insert_, 2, tally_->inserts);
    int rc = sqlite3_step(insert_);
    sqlite3_reset(insert_);
    if (rc != SQLITE_DONE) {
      Fail("insert", rc);
      return;
    }
    ++tally_->inserts;
    n_.push_back(0);
  }

  // One row: its n must be the number of updates this thread made to it.
  void Select(int64_t seq) {
    sqlite3_bind_int(select_, 1, id_);
    sqlite3_bind_int64(select_, 2, seq);
    int rc = sqlite3_step(select_);
    if (rc != SQLITE_ROW) {
      sqlite3_reset(select_);
      Fail("select", rc);
      return;
    }
    int64_t n = sqlite3_column_int64(select_, 0);
    rc = sqlite3_step(select_);
    sqlite3_reset(select_);
    if (rc != SQLITE_DONE) {
      Fail("select end", rc);
    } else if (n != n_[static_cast<size_t>(seq)]) {
      Fail("select saw n = " + std::to_string(n) + " for seq " + std::to_string(seq), 0);
    }
    ++tally_->selects;
  }

  // All rows of this thread: their number and the sum of their n.
  void Count() {
    sqlite3_bind_int(count_, 1, id_);
    int rc = sqlite3_step(count_);
    if (rc != SQLITE_ROW) {
      sqlite3_reset(count_);
      Fail("count", rc);
      return;
    }
    int64_t count = sqlite3_column_int64(count_, 0);
    double total = sqlite3_column_double(count_, 1);
    rc = sqlite3_step(count_);
    sqlite3_reset(count_);
    if (rc != SQLITE_DONE) {
      Fail("count end", rc);
    } else if (count != tally_->inserts || total != static_cast<double>(tally_->updates)) {
      Fail("count saw " + std::to_string(count) + " rows, " + std::to_string(total) +
               " updates; expected " + std::to_string(tally_->inserts) + ", " +
               std::to_string(tally_->updates),
           0);
    }
    ++tally_->selects;
  }

  void Update(int64_t seq) {
    sqlite3_bind_int(update_, 1, id_);
    sqlite3_bind_int64(update_, 2, seq);
    // sqlite3_changes belongs to the connection: hold its mutex so that no
    // other thread's statement runs between the step and the count.
    sqlite3_mutex* m = sqlite3_db_mutex(db_);
    sqlite3_mutex_enter(m);
    int rc = sqlite3_step(update_);
    int changed = sqlite3_changes(db_);
    sqlite3_reset(update_);
    sqlite3_mutex_leave(m);
    if (rc != SQLITE_DONE) {
      Fail("update", rc);
    } else if (changed != 1) {
      Fail("update changed rows", changed);
    } else {
      ++tally_->updates;
      ++n_[static_cast<size_t>(seq)];
    }
  }

  void Exec() {
    std::string sql = "SELECT count(*) FROM t WHERE thread = " + std::to_string(id_);
    int64_t seen = -1;
    int rc = sqlite3_exec(
        db_, sql.c_str(),
        [](void* arg, int, char** vals, char**) {
          *static_cast<int64_t*>(arg) = std::atoll(vals[0]);
          return 0;
        },
        &seen, nullptr);
    if (rc != SQLITE_OK) {
      Fail("exec", rc);
    } else if (seen != tally_->inserts) {
      Fail("exec count", static_cast<int>(seen));
    }
  }

  sqlite3* db_;
  int id_;
  Tally* tally_;
  sqlite3_stmt* insert_ = nullptr;
  sqlite3_stmt* select_ = nullptr;
  sqlite3_stmt* count_ = nullptr;
  sqlite3_stmt* update_ = nullptr;
  std::vector<int64_t> n_;  // per row of this thread: the updates made to it
};

void CreateSchema(sqlite3* db) {
  ASSERT_EQ(sqlite3_exec(db,
                         "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;"
                         "CREATE TABLE t(thread INTEGER, seq INTEGER, n INTEGER,"
                         "               PRIMARY KEY(thread, seq))",
                         nullptr, nullptr, nullptr),
            SQLITE_OK)
      << sqlite3_errmsg(db);
}

// The totals every thread's tally adds up to, read back on `db`.
void CheckTotals(sqlite3* db, const std::vector<Tally>& tallies) {
  int64_t inserts = 0, updates = 0, statements = 0;
  for (const Tally& t : tallies) {
    EXPECT_EQ(t.error, "");
    inserts += t.inserts;
    updates += t.updates;
    statements += t.inserts + t.updates + t.selects;
  }
  sqlite3_stmt* s = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT count(*), total(n) FROM t", -1, &s, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(s), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int64(s, 0), inserts);
  EXPECT_EQ(sqlite3_column_double(s, 1), static_cast<double>(updates));
  sqlite3_finalize(s);
  EXPECT_GT(statements, int64_t{kThreads} * Statements() * 9 / 10);  // few exec() extras
  ::testing::Test::RecordProperty("rows", static_cast<int>(inserts));
}

TEST(Stress, EightThreadsShareOneSerializedConnection) {
  std::string path = TempDir("stress") + "/shared.db";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &db), SQLITE_OK);
  ASSERT_NE(sqlite3_db_mutex(db), nullptr);
  CreateSchema(db);
  std::vector<Tally> tallies(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back(
        [&, i] { Worker(db, i, &tallies[static_cast<size_t>(i)]).Run(Statements()); });
  }
  for (auto& t : threads) t.join();
  CheckTotals(db, tallies);
  EXPECT_EQ(sqlite3_next_stmt(db, nullptr), nullptr);
  EXPECT_EQ(sqlite3_close(db), SQLITE_OK);
}

TEST(Stress, EightConnectionsOnOneWalFile) {
  std::string path = TempDir("stress") + "/wal.db";
  sqlite3* setup = nullptr;
  ASSERT_EQ(sqlite3_open(path.c_str(), &setup), SQLITE_OK);
  CreateSchema(setup);
  std::vector<Tally> tallies(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      Tally* tally = &tallies[static_cast<size_t>(i)];
      sqlite3* db = nullptr;
      int rc = sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr);
      if (rc != SQLITE_OK) {
        tally->error = "open -> " + std::to_string(rc);
      } else {
        sqlite3_busy_timeout(db, 20000);
        sqlite3_exec(db, "PRAGMA synchronous=NORMAL", nullptr, nullptr, nullptr);
        Worker(db, i, tally).Run(Statements());
      }
      rc = sqlite3_close(db);
      if (rc != SQLITE_OK && tally->error.empty()) tally->error = "close -> " + std::to_string(rc);
    });
  }
  for (auto& t : threads) t.join();
  CheckTotals(setup, tallies);
  EXPECT_EQ(sqlite3_close(setup), SQLITE_OK);
}

}  // namespace
}  // namespace basalt::apitest
