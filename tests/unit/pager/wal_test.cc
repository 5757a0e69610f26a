// FilePager in WAL mode: switching in and out, snapshots, checkpoints,
// recovery, and sharing the -wal / -shm files with a running sqlite3.
#include <gtest/gtest.h>

#include "file_pager_test_util.h"
#include "os/mem_vfs.h"
#include "os/unix_vfs.h"
#include "pager/db_header.h"

namespace basalt::testing {
namespace {

std::string Val(int64_t k, int round) {
  return "w" + std::to_string(k) + "." + std::to_string(round) + std::string(size_t(k % 30), 'y');
}

void Put(Btree& bt, Pgno root, int64_t from, int64_t to, int round) {
  ASSERT_OK(bt.BeginTransaction(true));
  for (int64_t k = from; k <= to; ++k) ASSERT_OK(PutText(bt, root, k, Val(k, round)));
  ASSERT_OK(bt.Commit());
}

std::map<int64_t, std::string> Rows(Btree& bt, Pgno root) {
  std::map<int64_t, std::string> m;
  EXPECT_OK(ReadTextRows(bt, root, &m));
  return m;
}

uint64_t FileSize(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 ? uint64_t(st.st_size) : 0;
}

TEST(Wal, NewDatabaseInWalMode) {
  TempDir dir;
  std::string db = dir.File("w.db");
  FilePager* fp = nullptr;
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  auto bt = OpenBtree(DefaultVfs(), db, opt, &fp);
  ASSERT_TRUE(bt);
  EXPECT_EQ(fp->journal_mode(), JournalMode::kWal);
  Pgno root = 0;
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*bt, "t", &root));
  ASSERT_OK(bt->Commit());
  // Page 1 went to the file through a rollback journal, marked WAL.
  std::string head = ReadWholeFile(db).substr(0, 100);
  ASSERT_EQ(head.size(), 100u);
  EXPECT_EQ(head[dbhdr::kWriteVersion], 2);
  EXPECT_EQ(head[dbhdr::kReadVersion], 2);
  Put(*bt, root, 1, 300, 0);
  EXPECT_TRUE(FileExists(db + "-wal"));
  EXPECT_TRUE(FileExists(db + "-shm"));
  EXPECT_GT(fp->wal_frames(), 0u);
  EXPECT_EQ(Rows(*bt, root).size(), 300u);
  if (HaveSqlite()) {
    // sqlite3 reads through the live WAL and our wal-index.
    EXPECT_EQ(RunSqlite(db, "SELECT count(*) FROM t;"), "300");
    EXPECT_EQ(RunSqlite(db, "PRAGMA journal_mode;"), "wal");
  }
  bt.reset();
  EXPECT_FALSE(FileExists(db + "-wal"));
  EXPECT_FALSE(FileExists(db + "-shm"));
  if (HaveSqlite()) {
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT count(*), max(rowid) FROM t;"), "300|300");
  }
}

TEST(Wal, SwitchInAndOut) {
  MemVfs vfs;
  FilePager* fp = nullptr;
  auto bt = OpenBtree(&vfs, "/s.db", PagerOptions(), &fp);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*bt, "t", &root));
  ASSERT_OK(bt->Commit());
  Put(*bt, root, 1, 100, 0);
  JournalMode got;
  ASSERT_OK(fp->SetJournalMode(JournalMode::kWal, &got));
  EXPECT_EQ(got, JournalMode::kWal);
  Put(*bt, root, 50, 150, 1);
  std::string f;
  ASSERT_TRUE(vfs.GetFile("/s.db-wal", &f));
  EXPECT_GT(f.size(), 32u);
  // Another connection follows into WAL mode and sees the data.
  auto other = OpenBtree(&vfs, "/s.db");
  ASSERT_TRUE(other);
  EXPECT_EQ(other->pager()->journal_mode(), JournalMode::kWal);
  EXPECT_EQ(Rows(*other, root), Rows(*bt, root));
  // Leaving WAL mode needs the only connection.
  EXPECT_EQ(fp->SetJournalMode(JournalMode::kDelete, &got).code(), kBusy);
  other.reset();
  ASSERT_OK(fp->SetJournalMode(JournalMode::kDelete, &got));
  EXPECT_EQ(got, JournalMode::kDelete);
  EXPECT_FALSE(vfs.GetFile("/s.db-wal", &f));
  ASSERT_TRUE(vfs.GetFile("/s.db", &f));
  EXPECT_EQ(f[dbhdr::kReadVersion], 1);
  Put(*bt, root, 1, 10, 2);
  auto m = Rows(*bt, root);
  EXPECT_EQ(m.size(), 150u);
  EXPECT_EQ(m[5], Val(5, 2));
  EXPECT_EQ(m[60], Val(60, 1));
  EXPECT_TRUE(CheckIntegrity(*bt, {1, root}).empty());
}

TEST(Wal, ReadersKeepTheirSnapshot) {
  MemVfs vfs;
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  auto w = OpenBtree(&vfs, "/r.db", opt);
  auto r = OpenBtree(&vfs, "/r.db", opt);
  ASSERT_TRUE(w && r);
  Pgno root = 0;
  ASSERT_OK(w->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*w, "t", &root));
  ASSERT_OK(w->Commit());
  Put(*w, root, 1, 100, 0);
  ASSERT_OK(r->BeginTransaction(false));
  auto before = Rows(*r, root);
  EXPECT_EQ(before.size(), 100u);
  // The writer is not blocked by the reader and commits twice.
  Put(*w, root, 1, 200, 1);
  Put(*w, root, 300, 300, 2);
  EXPECT_EQ(Rows(*r, root), before);
  // A checkpoint cannot pass the reader's snapshot.
  CheckpointResult cr;
  ASSERT_OK(w->pager()->Checkpoint(CheckpointMode::kPassive, &cr));
  EXPECT_EQ(cr.busy, 0);
  EXPECT_LT(cr.checkpointed_frames, cr.log_frames);
  ASSERT_OK(w->pager()->Checkpoint(CheckpointMode::kFull, &cr));
  EXPECT_EQ(cr.busy, 1);
  // Upgrading the stale snapshot to a write fails.
  EXPECT_EQ(r->BeginTransaction(true).code(), kBusySnapshot);
  ASSERT_OK(r->Commit());
  auto after = Rows(*r, root);
  EXPECT_EQ(after.size(), 201u);
  EXPECT_EQ(after[150], Val(150, 1));
  ASSERT_OK(w->pager()->Checkpoint(CheckpointMode::kTruncate, &cr));
  EXPECT_EQ(cr.busy, 0);
  EXPECT_EQ(cr.log_frames, 0);
  std::string f;
  ASSERT_TRUE(vfs.GetFile("/r.db-wal", &f));
  EXPECT_EQ(f.size(), 0u);
  // Writing after the reset: a new log, new salts.
  Put(*w, root, 1, 5, 3);
  EXPECT_EQ(Rows(*r, root)[3], Val(3, 3));
  EXPECT_TRUE(CheckIntegrity(*r, {1, root}).empty());
}

TEST(Wal, AutoCheckpointBoundsTheLog) {
  TempDir dir;
  std::string db = dir.File("a.db");
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  opt.wal_autocheckpoint = 50;
  opt.page_size = 1024;
  auto bt = OpenBtree(DefaultVfs(), db, opt);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*bt, "t", &root));
  ASSERT_OK(bt->Commit());
  for (int i = 0; i < 200; ++i) Put(*bt, root, i * 10 + 1, i * 10 + 10, i);
  // The log is reset after each full checkpoint instead of growing.
  EXPECT_LT(FileSize(db + "-wal"), 120u * (1024 + 24));
  EXPECT_EQ(Rows(*bt, root).size(), 2000u);
  if (HaveSqlite()) {
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT count(*) FROM t;"), "2000");
  }
}

TEST(Wal, ManyFramesSpanSeveralHashTables) {
  TempDir dir;
  std::string db = dir.File("m.db");
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  opt.wal_autocheckpoint = 0;
  opt.page_size = 512;
  opt.cache_size = 20;  // spills: uncommitted frames too
  FilePager* fp = nullptr;
  auto bt = OpenBtree(DefaultVfs(), db, opt, &fp);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*bt, "t", &root));
  ASSERT_OK(bt->Commit());
  // Rows of ~400 bytes: about one 512-byte page (one frame) per row.
  auto big = [](int64_t k, int round) { return Val(k, round) + std::string(380, 'z'); };
  for (int i = 0; i < 30; ++i) {
    ASSERT_OK(bt->BeginTransaction(true));
    for (int64_t k = i * 300 + 1; k <= i * 300 + 300; ++k)
      ASSERT_OK(PutText(*bt, root, k, big(k, i)));
    ASSERT_OK(bt->Commit());
  }
  EXPECT_GT(fp->wal_frames(), 2u * 4096);
  auto rows = Rows(*bt, root);
  EXPECT_EQ(rows.size(), 9000u);
  EXPECT_EQ(rows[4500], big(4500, 14));
  if (HaveSqlite()) {
    // sqlite3 finds every page through our hash tables while we are open.
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT count(*), v FROM t WHERE rowid=4500;"), "1|" + big(4500, 14));
  }
  // A rolled-back transaction with spilled frames leaves no trace.
  ASSERT_OK(bt->BeginTransaction(true));
  for (int64_t k = 1; k <= 3000; ++k) ASSERT_OK(PutText(*bt, root, k, "gone"));
  ASSERT_OK(bt->Rollback());
  EXPECT_EQ(Rows(*bt, root), rows);
  Put(*bt, root, 1, 1, 99);
  bt.reset();
  if (HaveSqlite()) {
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT count(*), sum(v='gone') FROM t;"), "9000|0");
  }
}

TEST(Wal, RecoveryAfterACrash) {
  // A process that dies leaves the -wal (and a stale -shm): copy the files
  // while the connection is open and open the copy.
  TempDir dir;
  std::string db = dir.File("c.db");
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  opt.wal_autocheckpoint = 0;
  auto bt = OpenBtree(DefaultVfs(), db, opt);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*bt, "t", &root));
  ASSERT_OK(bt->Commit());
  Put(*bt, root, 1, 500, 0);
  Put(*bt, root, 100, 200, 1);
  // An uncommitted tail: spilled frames of an open transaction.
  ASSERT_OK(bt->BeginTransaction(true));
  for (int64_t k = 1; k <= 50; ++k) ASSERT_OK(PutText(*bt, root, k, "uncommitted"));
  std::string copy = dir.File("copy.db");
  WriteWholeFile(copy, ReadWholeFile(db));
  WriteWholeFile(copy + "-wal", ReadWholeFile(db + "-wal"));
  WriteWholeFile(copy + "-shm", ReadWholeFile(db + "-shm"));
  ASSERT_OK(bt->Rollback());
  auto want = Rows(*bt, root);
  bt.reset();
  auto c = OpenBtree(DefaultVfs(), copy, PagerOptions());
  ASSERT_TRUE(c);
  EXPECT_EQ(c->pager()->journal_mode(), JournalMode::kWal);
  EXPECT_EQ(Rows(*c, root), want);
  c.reset();
  if (HaveSqlite()) {
    WriteWholeFile(copy, ReadWholeFile(db));  // the pre-checkpoint file again is fine too
    EXPECT_EQ(RunSqlite(copy, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(copy, "SELECT count(*), sum(v='uncommitted') FROM t;"), "500|0");
  }
}

TEST(Wal, SqliteWritesWeRead) {
  if (!HaveSqlite()) GTEST_SKIP() << "no sqlite3";
  TempDir dir;
  std::string db = dir.File("x.db");
  ASSERT_EQ(RunSqlite(db, "PRAGMA journal_mode=WAL; CREATE TABLE t(v);"), "wal");
  PagerOptions opt;
  auto bt = OpenBtree(DefaultVfs(), db, opt);
  ASSERT_TRUE(bt);
  EXPECT_EQ(bt->pager()->journal_mode(), JournalMode::kWal);
  Pgno root = 0;
  ASSERT_OK(FindTable(*bt, "t", &root));
  ASSERT_NE(root, 0u);
  // sqlite3 appends to the WAL we have open (and must not checkpoint it
  // away under us: we hold SHARED, so it cannot delete the WAL either).
  ASSERT_EQ(RunSqlite(db,
                      "WITH RECURSIVE c(i) AS (VALUES(1) UNION ALL SELECT i+1 FROM c WHERE "
                      "i<3000) INSERT INTO t SELECT 'q'||i FROM c;"),
            "");
  auto rows = Rows(*bt, root);
  ASSERT_EQ(rows.size(), 3000u);
  EXPECT_EQ(rows[1234], "q1234");
  Put(*bt, root, 1, 10, 5);
  EXPECT_EQ(RunSqlite(db, "SELECT v FROM t WHERE rowid=7;"), Val(7, 5));
  // sqlite3 checkpoints (and later resets) the WAL while we are attached.
  std::string ck = RunSqlite(db, "DELETE FROM t WHERE rowid > 2000; PRAGMA wal_checkpoint;");
  EXPECT_EQ(ck.substr(0, 2), "0|") << ck;
  EXPECT_EQ(Rows(*bt, root).size(), 2000u);
  ASSERT_EQ(RunSqlite(db, "INSERT INTO t VALUES('after reset');"), "");
  rows = Rows(*bt, root);
  EXPECT_EQ(rows.size(), 2001u);
  EXPECT_EQ(rows.rbegin()->second, "after reset");
  Put(*bt, root, 2, 2, 6);
  EXPECT_EQ(RunSqlite(db, "SELECT v FROM t WHERE rowid=2;"), Val(2, 6));
  bt.reset();
  EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
}

TEST(Wal, RestartCheckpointWaitsForReadersThenTheLogRestarts) {
  MemVfs vfs;
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  opt.wal_autocheckpoint = 0;
  FilePager* fw = nullptr;
  auto w = OpenBtree(&vfs, "/rs.db", opt, &fw);
  auto r = OpenBtree(&vfs, "/rs.db", opt);
  ASSERT_TRUE(w && r);
  Pgno root = 0;
  ASSERT_OK(w->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*w, "t", &root));
  ASSERT_OK(w->Commit());
  for (int i = 0; i < 5; ++i) Put(*w, root, 1, 50, i);
  uint32_t frames = fw->wal_frames();
  EXPECT_GE(frames, 5u);  // at least one frame per commit
  ASSERT_OK(r->BeginTransaction(false));
  (void)Rows(*r, root);
  CheckpointResult cr;
  // The reader's snapshot uses the log: RESTART cannot finish (its busy
  // handler is asked, then gives up).
  int calls = 0;
  fw->SetBusyHandler([&](int) { return ++calls < 3; });
  ASSERT_OK(fw->Checkpoint(CheckpointMode::kRestart, &cr));
  EXPECT_EQ(cr.busy, 1);
  EXPECT_GT(calls, 0);
  ASSERT_OK(r->Commit());
  ASSERT_OK(fw->Checkpoint(CheckpointMode::kRestart, &cr));
  EXPECT_EQ(cr.busy, 0);
  EXPECT_EQ(cr.log_frames, int(frames));
  EXPECT_EQ(cr.checkpointed_frames, int(frames));
  // The next commit starts the log over.
  Put(*w, root, 1, 1, 9);
  EXPECT_LT(fw->wal_frames(), 5u);
  EXPECT_EQ(Rows(*r, root)[1], Val(1, 9));
  EXPECT_EQ(Rows(*r, root)[2], Val(2, 4));
}

TEST(Wal, TwoConnectionsOfOneProcessOnUnix) {
  TempDir dir;
  std::string db = dir.File("two.db");
  PagerOptions opt;
  opt.journal_mode = JournalMode::kWal;
  auto a = OpenBtree(DefaultVfs(), db, opt);
  ASSERT_TRUE(a);
  Pgno root = 0;
  ASSERT_OK(a->BeginTransaction(true));
  ASSERT_OK(CreateTextTable(*a, "t", &root));
  ASSERT_OK(a->Commit());
  Put(*a, root, 1, 100, 0);
  auto b = OpenBtree(DefaultVfs(), db, PagerOptions());
  ASSERT_TRUE(b);
  ASSERT_OK(b->BeginTransaction(false));
  EXPECT_EQ(Rows(*b, root).size(), 100u);
  Put(*a, root, 101, 200, 0);  // not blocked by b's snapshot
  EXPECT_EQ(Rows(*b, root).size(), 100u);
  ASSERT_OK(b->Commit());
  EXPECT_EQ(Rows(*b, root).size(), 200u);
  // b cannot leave WAL mode while a is attached, and stays usable.
  JournalMode got;
  EXPECT_EQ(b->pager()->SetJournalMode(JournalMode::kDelete, &got).code(), kBusy);
  auto c = OpenBtree(DefaultVfs(), db, PagerOptions());
  ASSERT_TRUE(c);
  EXPECT_EQ(Rows(*c, root).size(), 200u);
  c.reset();
  // Closing a connection leaves the WAL to the others.
  a.reset();
  EXPECT_TRUE(FileExists(db + "-wal"));
  Put(*b, root, 1, 1, 9);
  EXPECT_EQ(Rows(*b, root)[1], Val(1, 9));
  b.reset();
  EXPECT_FALSE(FileExists(db + "-wal"));
  if (HaveSqlite()) {
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check; SELECT count(*) FROM t;"), "ok\n200");
  }
}

}  // namespace
}  // namespace basalt::testing
