// Basalt and a running sqlite3 process on the same database: locks in both
// directions (rollback and WAL mode), and each recovering the other's crash
// (a hot journal / a WAL left by a killed process).
#include <gtest/gtest.h>

#include "file_pager_test_util.h"
#include "os/unix_vfs.h"
#include "sqlite_process.h"

namespace basalt::testing {
namespace {

bool Contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

const char* kFill =
    "CREATE TABLE t(v); WITH RECURSIVE c(i) AS (VALUES(1) UNION ALL SELECT i+1 FROM c WHERE "
    "i<2000) INSERT INTO t SELECT 'row'||i||printf('%.*c', i%60, 'x') FROM c;";

std::map<int64_t, std::string> Rows(Btree& bt) {
  Pgno root = 0;
  EXPECT_OK(FindTable(bt, "t", &root));
  std::map<int64_t, std::string> m;
  if (root != 0) EXPECT_OK(ReadTextRows(bt, root, &m));
  return m;
}

class SqliteInterop : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveSqlite()) GTEST_SKIP() << "no sqlite3";
  }
  TempDir dir_;
};

TEST_F(SqliteInterop, LocksInRollbackMode) {
  std::string db = dir_.File("l.db");
  ASSERT_EQ(RunSqlite(db, "CREATE TABLE t(v); INSERT INTO t VALUES('a');"), "");
  auto bt = OpenBtree(DefaultVfs(), db);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  ASSERT_OK(FindTable(*bt, "t", &root));
  SqliteProcess sq(db);
  // sqlite3 RESERVED: we may read but not write.
  ASSERT_EQ(sq.Run("BEGIN IMMEDIATE; INSERT INTO t VALUES('s1');"), "");
  EXPECT_EQ(bt->BeginTransaction(true).code(), kBusy);
  ASSERT_OK(bt->BeginTransaction(false));
  EXPECT_EQ(Rows(*bt).size(), 1u);
  // Our SHARED lock stops its commit.
  EXPECT_TRUE(Contains(sq.Run("COMMIT;"), "locked"));
  ASSERT_OK(bt->Commit());
  ASSERT_EQ(sq.Run("COMMIT;"), "");
  EXPECT_EQ(Rows(*bt).size(), 2u);
  // sqlite3 EXCLUSIVE: we cannot even read; a busy handler can wait it out.
  ASSERT_EQ(sq.Run("BEGIN EXCLUSIVE;"), "");
  EXPECT_EQ(bt->BeginTransaction(false).code(), kBusy);
  int calls = 0;
  bt->pager()->SetBusyHandler([&](int) {
    if (++calls == 2) {
      EXPECT_EQ(sq.Run("COMMIT;"), "");
    }
    return calls < 10;
  });
  ASSERT_OK(bt->BeginTransaction(false));
  EXPECT_EQ(calls, 2);
  ASSERT_OK(bt->Commit());
  bt->pager()->SetBusyHandler(nullptr);
  // Our write transaction: sqlite3 cannot write.
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(PutText(*bt, root, 10, "ours"));
  EXPECT_TRUE(Contains(sq.Run("INSERT INTO t VALUES('x');"), "locked"));
  ASSERT_OK(bt->Commit());
  EXPECT_EQ(sq.Run("SELECT v FROM t WHERE rowid=10;"), "ours");
  ASSERT_EQ(sq.Run("INSERT INTO t VALUES('x');"), "");
  EXPECT_EQ(Rows(*bt).size(), 4u);
}

TEST_F(SqliteInterop, LocksInWalMode) {
  std::string db = dir_.File("w.db");
  ASSERT_EQ(RunSqlite(db, "PRAGMA journal_mode=WAL; CREATE TABLE t(v); INSERT INTO t VALUES(1);"),
            "wal");
  auto bt = OpenBtree(DefaultVfs(), db);
  ASSERT_TRUE(bt);
  EXPECT_EQ(bt->pager()->journal_mode(), JournalMode::kWal);
  Pgno root = 0;
  ASSERT_OK(FindTable(*bt, "t", &root));
  SqliteProcess sq(db);
  ASSERT_EQ(sq.Run("BEGIN IMMEDIATE; INSERT INTO t VALUES('s1');"), "");
  EXPECT_EQ(bt->BeginTransaction(true).code(), kBusy);
  // Readers are never blocked: and they keep their snapshot.
  ASSERT_OK(bt->BeginTransaction(false));
  EXPECT_EQ(Rows(*bt).size(), 1u);
  ASSERT_EQ(sq.Run("COMMIT;"), "");
  EXPECT_EQ(Rows(*bt).size(), 1u);
  // A checkpoint cannot reset the log under our snapshot.
  std::string ck = sq.Run("PRAGMA wal_checkpoint(TRUNCATE);");
  EXPECT_EQ(ck.substr(0, 2), "1|") << ck;
  ASSERT_OK(bt->Commit());
  EXPECT_EQ(Rows(*bt).size(), 2u);
  ck = sq.Run("PRAGMA wal_checkpoint(TRUNCATE);");
  EXPECT_EQ(ck, "0|0|0");
  // Our writer blocks theirs.
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(PutText(*bt, root, 7, "ours"));
  EXPECT_TRUE(Contains(sq.Run("INSERT INTO t VALUES('x');"), "locked"));
  ASSERT_OK(bt->Commit());
  EXPECT_EQ(sq.Run("SELECT v FROM t WHERE rowid=7;"), "ours");
  ASSERT_EQ(sq.Run("INSERT INTO t VALUES('x');"), "");
  EXPECT_EQ(Rows(*bt).size(), 4u);
  // Its open connection keeps us from leaving WAL mode.
  JournalMode got;
  EXPECT_EQ(bt->pager()->SetJournalMode(JournalMode::kDelete, &got).primary(), kBusy);
}

TEST_F(SqliteInterop, WeRollBackAJournalLeftByAKilledSqlite) {
  for (std::string mode : {"delete", "persist", "truncate"}) {
    SCOPED_TRACE(mode);
    std::string db = dir_.File("hot_" + mode + ".db");
    ASSERT_EQ(RunSqlite(db, "PRAGMA journal_mode=" + mode + ";" + kFill), mode);
    std::string want = RunSqlite(db, "SELECT rowid, v FROM t;");
    std::string before = ReadWholeFile(db);
    {
      SqliteProcess sq(db);
      // A small cache makes sqlite3 spill pages into the database file
      // long before its commit.
      ASSERT_EQ(sq.Run("PRAGMA journal_mode=" + mode +
                       "; PRAGMA cache_size=5; BEGIN; UPDATE t SET v = v || 'zzzzzzzz';"
                       " INSERT INTO t SELECT v FROM t;"),
                mode);
      ASSERT_NE(ReadWholeFile(db), before);  // the file already holds changes
      sq.Kill();
    }
    ASSERT_TRUE(FileExists(db + "-journal"));
    FilePager* fp = nullptr;
    auto bt = OpenBtree(DefaultVfs(), db, PagerOptions(), &fp);
    ASSERT_TRUE(bt);
    EXPECT_EQ(fp->stats().hot_rollbacks, 1u);
    EXPECT_EQ(FormatRows(Rows(*bt)), want);
    EXPECT_FALSE(FileExists(db + "-journal"));
    bt.reset();
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT rowid, v FROM t;"), want);
  }
}

TEST_F(SqliteInterop, WeRecoverAWalLeftByAKilledSqlite) {
  std::string db = dir_.File("kw.db");
  std::string want;
  {
    SqliteProcess sq(db);
    ASSERT_EQ(sq.Run(std::string("PRAGMA journal_mode=WAL;") + kFill), "wal");
    ASSERT_EQ(sq.Run("UPDATE t SET v = 'second ' || v WHERE rowid % 2 = 0;"), "");
    want = sq.Run("SELECT rowid, v FROM t;");
    // An uncommitted, spilled transaction at the end of the WAL.
    ASSERT_EQ(sq.Run("PRAGMA cache_size=5; BEGIN; UPDATE t SET v = v || 'never';"), "");
    sq.Kill();
  }
  ASSERT_TRUE(FileExists(db + "-wal"));
  auto bt = OpenBtree(DefaultVfs(), db);
  ASSERT_TRUE(bt);
  EXPECT_EQ(bt->pager()->journal_mode(), JournalMode::kWal);
  EXPECT_EQ(FormatRows(Rows(*bt)), want);
  bt.reset();
  EXPECT_FALSE(FileExists(db + "-wal"));
  EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
  EXPECT_EQ(RunSqlite(db, "SELECT rowid, v FROM t;"), want);
}

// Runs `body` in a child process that then dies without cleaning up.
void CrashingChild(const std::function<void()>& body) {
  pid_t pid = fork();
  if (pid == 0) {
    body();
    _exit(0);
  }
  int status = 0;
  waitpid(pid, &status, 0);
}

TEST_F(SqliteInterop, SqliteRollsBackAJournalLeftByUs) {
  std::string db = dir_.File("ours.db");
  ASSERT_EQ(RunSqlite(db, kFill), "");
  std::string want = RunSqlite(db, "SELECT rowid, v FROM t;");
  std::string before = ReadWholeFile(db);
  CrashingChild([&] {
    PagerOptions opt;
    opt.cache_size = 10;
    auto bt = OpenBtree(DefaultVfs(), db, opt);
    if (!bt) _exit(1);
    Pgno root = 0;
    if (!FindTable(*bt, "t", &root).ok() || !bt->BeginTransaction(true).ok()) _exit(2);
    for (int64_t k = 1; k <= 4000; ++k) {
      if (!PutText(*bt, root, k, "crashed " + std::to_string(k)).ok()) _exit(3);
    }
    _exit(0);  // no commit, no cleanup
  });
  ASSERT_TRUE(FileExists(db + "-journal"));
  ASSERT_NE(ReadWholeFile(db), before);
  EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
  EXPECT_EQ(RunSqlite(db, "SELECT rowid, v FROM t;"), want);
  EXPECT_FALSE(FileExists(db + "-journal"));
}

TEST_F(SqliteInterop, SqliteRecoversAWalLeftByUs) {
  std::string db = dir_.File("ourwal.db");
  ASSERT_EQ(RunSqlite(db, std::string("PRAGMA journal_mode=WAL;") + kFill), "wal");
  std::string want;
  CrashingChild([&] {
    PagerOptions opt;
    opt.cache_size = 10;
    opt.wal_autocheckpoint = 0;
    auto bt = OpenBtree(DefaultVfs(), db, opt);
    if (!bt) _exit(1);
    Pgno root = 0;
    if (!FindTable(*bt, "t", &root).ok()) _exit(2);
    for (int round = 0; round < 3; ++round) {
      if (!bt->BeginTransaction(true).ok()) _exit(3);
      for (int64_t k = 1 + round; k <= 2000; k += 3) {
        if (!PutText(*bt, root, k, "committed " + std::to_string(round)).ok()) _exit(4);
      }
      if (!bt->Commit().ok()) _exit(5);
    }
    if (!bt->BeginTransaction(true).ok()) _exit(6);
    for (int64_t k = 1; k <= 3000; ++k) {
      if (!PutText(*bt, root, k, "never").ok()) _exit(7);
    }
    _exit(0);
  });
  ASSERT_TRUE(FileExists(db + "-wal"));
  EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
  EXPECT_EQ(RunSqlite(db, "SELECT count(*), sum(v='never'), sum(v LIKE 'committed%') FROM t;"),
            "2000|0|2000");
}

}  // namespace
}  // namespace basalt::testing
