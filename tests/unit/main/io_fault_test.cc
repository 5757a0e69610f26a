// I/O errors under SQL statements: the n-th VFS operation of a transaction
// fails (EIO, disk full, short write), for every n. The statement must fail
// with SQLite's code (SQLITE_IOERR_*, SQLITE_FULL, or SQLITE_CANTOPEN when a
// journal cannot be created); the same connection must stay usable and see
// either the state before the transaction or after it (never a mix); the
// database must pass integrity_check, there and after reopening.
#include <gtest/gtest.h>

#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

constexpr const char* kPath = "/fault.db";

constexpr const char* kSetup =
    "CREATE TABLE t(id INTEGER PRIMARY KEY, a, b);"
    "CREATE INDEX ta ON t(a);"
    "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150)"
    "  INSERT INTO t SELECT i, i % 13, zeroblob(i * 9) FROM n;";

constexpr const char* kWork =
    "PRAGMA cache_size = 8;"
    "BEGIN;"
    "INSERT INTO t(a, b) SELECT a + 100, zeroblob(2500) FROM t WHERE id % 4 = 0;"
    "UPDATE t SET b = zeroblob(50) WHERE id % 3 = 0;"
    "DELETE FROM t WHERE id % 5 = 0;"
    "CREATE INDEX tb ON t(b);"
    "COMMIT;";

constexpr const char* kCheck =
    "SELECT count(*), sum(a), sum(length(b)) FROM t; SELECT count(*) FROM sqlite_schema;";

struct Mode {
  const char* name;
  const char* pragma;
};

std::string Setup(Vfs* vfs, const Mode& m) {
  auto c = OpenDb(vfs, kPath);
  if (!c) return "open failed";
  ExecResult r = Exec(c.get(), std::string(m.pragma) + kSetup);
  if (r.code != 0) return "setup failed: " + r.error;
  return Exec(c.get(), kCheck).output;
}

bool Acceptable(int code) {
  int primary = code & 0xff;
  return primary == kIoErr || primary == kFull || primary == kCantOpen;
}

void Sweep(const Mode& m, FaultKind kind) {
  // The states the database may be in afterwards.
  std::string before, after;
  {
    MemVfs mem;
    before = Setup(&mem, m);
    auto c = OpenDb(&mem, kPath);
    ASSERT_TRUE(c);
    ExecResult r = Exec(c.get(), kWork);
    ASSERT_EQ(r.code, 0) << r.error;
    after = Exec(c.get(), kCheck).output;
  }
  ASSERT_NE(before, after);
  int trials = 0, failed = 0, old_state = 0;
  for (int64_t n = 1; n < 100000; ++n) {
    SCOPED_TRACE(std::string(m.name) + " fault at operation " + std::to_string(n));
    MemVfs mem;
    ASSERT_EQ(Setup(&mem, m), before);
    FaultVfs fv(&mem);
    auto c = OpenDb(&fv, kPath);
    ASSERT_TRUE(c);
    fv.InjectFault(kind, n);
    ExecResult r = Exec(c.get(), kWork);
    bool fired = fv.fault_fired();
    fv.ClearFault();
    if (!fired) {
      EXPECT_EQ(r.code, 0) << r.error;
      break;
    }
    ++trials;
    if (r.code != 0) {
      ++failed;
      EXPECT_TRUE(Acceptable(r.code)) << "code " << r.code << ": " << r.error;
      // The failed transaction is gone (as in SQLite after an I/O error),
      // or, if the error came from a single statement, it can be ended.
      (void)Exec(c.get(), "ROLLBACK");
    }
    ExecResult now = Exec(c.get(), kCheck);
    ASSERT_EQ(now.code, 0) << now.error;
    if (r.code == 0) {
      EXPECT_EQ(now.output, after);
    } else {
      EXPECT_TRUE(now.output == before || now.output == after) << now.output;
      old_state += now.output == before;
    }
    EXPECT_EQ(Exec(c.get(), "PRAGMA integrity_check").output, "ok\n");
    c.reset();
    auto again = OpenDb(&mem, kPath);
    ASSERT_TRUE(again);
    EXPECT_EQ(Exec(again.get(), kCheck).output, now.output);
    EXPECT_EQ(Exec(again.get(), "PRAGMA integrity_check").output, "ok\n");
    if (::testing::Test::HasFailure()) break;
  }
  // The sweep must have hit failing statements that were rolled back.
  EXPECT_GT(trials, 20);
  EXPECT_GT(failed, 10);
  EXPECT_GT(old_state, 10);
  std::printf("[ info ] %s: %d fault points, %d failed statements, %d rolled back\n", m.name,
              trials, failed, old_state);
}

const Mode kDelete{"delete", ""};
const Mode kWal{"wal", "PRAGMA journal_mode=WAL;"};
const Mode kTruncate{"truncate", "PRAGMA journal_mode=TRUNCATE;"};
const Mode kPersist{"persist", "PRAGMA journal_mode=PERSIST;"};

TEST(SqlIoFault, EioDeleteJournal) { Sweep(kDelete, FaultKind::kIoError); }
TEST(SqlIoFault, EioWal) { Sweep(kWal, FaultKind::kIoError); }
TEST(SqlIoFault, EioTruncateJournal) { Sweep(kTruncate, FaultKind::kIoError); }
TEST(SqlIoFault, EioPersistJournal) { Sweep(kPersist, FaultKind::kIoError); }
TEST(SqlIoFault, DiskFullDeleteJournal) { Sweep(kDelete, FaultKind::kDiskFull); }
TEST(SqlIoFault, DiskFullWal) { Sweep(kWal, FaultKind::kDiskFull); }
TEST(SqlIoFault, ShortWriteDeleteJournal) { Sweep(kDelete, FaultKind::kShortWrite); }
TEST(SqlIoFault, ShortWriteWal) { Sweep(kWal, FaultKind::kShortWrite); }

}  // namespace
}  // namespace basalt::testing
