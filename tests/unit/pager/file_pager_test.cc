// FilePager in the rollback-journal modes: round trips through the B-tree,
// files checked by sqlite3, rollback (with and without cache spills),
// savepoints, and databases written by sqlite3.
#include <gtest/gtest.h>

#include "file_pager_test_util.h"
#include "os/mem_vfs.h"
#include "os/unix_vfs.h"

namespace basalt::testing {
namespace {

std::string Value(int64_t k, int round = 0) {
  return "row" + std::to_string(k) + "_" + std::to_string(round) + std::string(size_t(k % 50), 'x');
}

// Creates table t with rows 1..n in one transaction.
void Populate(Btree& bt, int n, Pgno* root, int round = 0) {
  ASSERT_OK(bt.BeginTransaction(true));
  ASSERT_OK(CreateTextTable(bt, "t", root));
  for (int64_t k = 1; k <= n; ++k) ASSERT_OK(PutText(bt, *root, k, Value(k, round)));
  ASSERT_OK(bt.Commit());
}

std::map<int64_t, std::string> Expected(int n, int round = 0) {
  std::map<int64_t, std::string> m;
  for (int64_t k = 1; k <= n; ++k) m[k] = Value(k, round);
  return m;
}

const char* ModeName(JournalMode m) {
  switch (m) {
    case JournalMode::kDelete:
      return "delete";
    case JournalMode::kTruncate:
      return "truncate";
    case JournalMode::kPersist:
      return "persist";
    case JournalMode::kMemory:
      return "memory";
    case JournalMode::kWal:
      return "wal";
    case JournalMode::kOff:
      return "off";
  }
  return "?";
}

TEST(FilePager, RoundTripEveryJournalMode) {
  for (JournalMode mode : {JournalMode::kDelete, JournalMode::kTruncate, JournalMode::kPersist,
                           JournalMode::kMemory, JournalMode::kOff}) {
    for (Synchronous sync :
         {Synchronous::kOff, Synchronous::kNormal, Synchronous::kFull, Synchronous::kExtra}) {
      SCOPED_TRACE(std::string(ModeName(mode)) + " sync " + std::to_string(int(sync)));
      TempDir dir;
      std::string db = dir.File("a.db");
      PagerOptions opt;
      opt.journal_mode = mode;
      opt.synchronous = sync;
      Pgno root = 0;
      {
        auto bt = OpenBtree(DefaultVfs(), db, opt);
        ASSERT_TRUE(bt);
        Populate(*bt, 500, &root);
        // A second transaction changing and deleting rows.
        ASSERT_OK(bt->BeginTransaction(true));
        for (int64_t k = 1; k <= 500; k += 7) ASSERT_OK(PutText(*bt, root, k, "changed"));
        for (int64_t k = 2; k <= 500; k += 11) ASSERT_OK(DeleteRow(*bt, root, k));
        ASSERT_OK(bt->Commit());
      }
      std::map<int64_t, std::string> want = Expected(500);
      for (int64_t k = 1; k <= 500; k += 7) want[k] = "changed";
      for (int64_t k = 2; k <= 500; k += 11) want.erase(k);
      std::string jpath = db + "-journal";
      if (mode == JournalMode::kDelete || mode == JournalMode::kMemory ||
          mode == JournalMode::kOff) {
        EXPECT_FALSE(FileExists(jpath));
      } else if (mode == JournalMode::kTruncate) {
        EXPECT_EQ(ReadWholeFile(jpath).size(), 0u);
      } else {
        std::string j = ReadWholeFile(jpath);
        ASSERT_GE(j.size(), 28u);
        EXPECT_EQ(j.substr(0, 28), std::string(28, '\0'));
      }
      auto bt = OpenBtree(DefaultVfs(), db, opt);
      ASSERT_TRUE(bt);
      std::map<int64_t, std::string> got;
      ASSERT_OK(ReadTextRows(*bt, root, &got));
      EXPECT_EQ(got, want);
      EXPECT_TRUE(CheckIntegrity(*bt, {1, root}).empty());
      bt.reset();
      if (HaveSqlite()) {
        EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
        EXPECT_EQ(RunSqlite(db, "SELECT rowid, v FROM t;"), FormatRows(want));
      }
    }
  }
}

TEST(FilePager, RollbackRestoresTheFile) {
  for (int cache : {10, 2000}) {
    SCOPED_TRACE(cache);
    TempDir dir;
    std::string db = dir.File("r.db");
    PagerOptions opt;
    opt.cache_size = cache;
    FilePager* fp = nullptr;
    auto bt = OpenBtree(DefaultVfs(), db, opt, &fp);
    ASSERT_TRUE(bt);
    Pgno root = 0;
    Populate(*bt, 300, &root);
    std::string before = ReadWholeFile(db);
    ASSERT_OK(bt->BeginTransaction(true));
    for (int64_t k = 1; k <= 3000; ++k) ASSERT_OK(PutText(*bt, root, k, Value(k, 9)));
    Pgno t2 = 0;
    ASSERT_OK(CreateTextTable(*bt, "u", &t2));
    if (cache == 10) {
      EXPECT_GT(fp->stats().spills, 0u);
    }
    ASSERT_OK(bt->Rollback());
    EXPECT_EQ(ReadWholeFile(db), before);
    EXPECT_FALSE(FileExists(db + "-journal"));
    std::map<int64_t, std::string> got;
    ASSERT_OK(ReadTextRows(*bt, root, &got));
    EXPECT_EQ(got, Expected(300));
    EXPECT_TRUE(CheckIntegrity(*bt, {1, root}).empty());
  }
}

TEST(FilePager, BigTransactionWithSmallCache) {
  TempDir dir;
  std::string db = dir.File("big.db");
  PagerOptions opt;
  opt.cache_size = 10;
  opt.page_size = 1024;
  FilePager* fp = nullptr;
  auto bt = OpenBtree(DefaultVfs(), db, opt, &fp);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  Populate(*bt, 5000, &root);
  EXPECT_GT(fp->stats().spills, 0u);
  EXPECT_LE(fp->cached_pages(), 64u);
  std::map<int64_t, std::string> got;
  ASSERT_OK(ReadTextRows(*bt, root, &got));
  EXPECT_EQ(got, Expected(5000));
  bt.reset();
  if (HaveSqlite()) {
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT count(*), sum(length(v)) FROM t;"),
              "5000|" + std::to_string([] {
                int64_t s = 0;
                for (auto& [k, v] : Expected(5000)) s += int64_t(v.size());
                return s;
              }()));
  }
}

TEST(FilePager, SavepointsOnFile) {
  MemVfs vfs;
  PagerOptions opt;
  opt.cache_size = 12;
  auto bt = OpenBtree(&vfs, "/s.db", opt);
  ASSERT_TRUE(bt);
  Pgno root = 0;
  Populate(*bt, 200, &root);
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(bt->OpenSavepoints(1));
  for (int64_t k = 1; k <= 200; ++k) ASSERT_OK(PutText(*bt, root, k, Value(k, 1)));
  ASSERT_OK(bt->OpenSavepoints(2));
  for (int64_t k = 201; k <= 2000; ++k) ASSERT_OK(PutText(*bt, root, k, Value(k, 2)));
  ASSERT_OK(bt->RollbackToSavepoint(1));
  std::map<int64_t, std::string> got;
  ASSERT_OK(ReadTextRows(*bt, root, &got));
  EXPECT_EQ(got, Expected(200, 1));
  ASSERT_OK(bt->RollbackToSavepoint(0));
  ASSERT_OK(ReadTextRows(*bt, root, &got));
  EXPECT_EQ(got, Expected(200, 0));
  for (int64_t k = 1; k <= 50; ++k) ASSERT_OK(DeleteRow(*bt, root, k));
  ASSERT_OK(bt->ReleaseSavepoint(0));
  ASSERT_OK(bt->Commit());
  ASSERT_OK(ReadTextRows(*bt, root, &got));
  std::map<int64_t, std::string> want = Expected(200);
  for (int64_t k = 1; k <= 50; ++k) want.erase(k);
  EXPECT_EQ(got, want);
  EXPECT_TRUE(CheckIntegrity(*bt, {1, root}).empty());
}

TEST(FilePager, ReadsDatabaseWrittenBySqlite) {
  if (!HaveSqlite()) GTEST_SKIP() << "no sqlite3";
  for (int page_size : {512, 4096, 65536}) {
    SCOPED_TRACE(page_size);
    TempDir dir;
    std::string db = dir.File("s.db");
    std::string out = RunSqlite(
        db, "PRAGMA page_size=" + std::to_string(page_size) +
                "; CREATE TABLE t(v); WITH RECURSIVE c(i) AS (VALUES(1) UNION ALL SELECT i+1 "
                "FROM c WHERE i<2000) INSERT INTO t SELECT 'v'||i||hex(randomblob(i%40)) FROM c;"
                " DELETE FROM t WHERE rowid % 3 = 0;");
    ASSERT_EQ(out, "");
    std::string rows = RunSqlite(db, "SELECT rowid, v FROM t;");
    auto bt = OpenBtree(DefaultVfs(), db);
    ASSERT_TRUE(bt);
    EXPECT_EQ(bt->page_size(), uint32_t(page_size));
    Pgno root = 0;
    ASSERT_OK(FindTable(*bt, "t", &root));
    ASSERT_NE(root, 0u);
    std::map<int64_t, std::string> got;
    ASSERT_OK(ReadTextRows(*bt, root, &got));
    EXPECT_EQ(FormatRows(got), rows);
    // Write through Basalt, read back with sqlite3.
    ASSERT_OK(bt->BeginTransaction(true));
    ASSERT_OK(PutText(*bt, root, 5000, "from basalt"));
    ASSERT_OK(bt->Commit());
    bt.reset();
    EXPECT_EQ(RunSqlite(db, "PRAGMA integrity_check;"), "ok");
    EXPECT_EQ(RunSqlite(db, "SELECT v FROM t WHERE rowid=5000;"), "from basalt");
  }
}

TEST(FilePager, ChangesByAnotherConnectionAreSeen) {
  MemVfs vfs;
  auto a = OpenBtree(&vfs, "/c.db");
  auto b = OpenBtree(&vfs, "/c.db");
  ASSERT_TRUE(a && b);
  Pgno root = 0;
  Populate(*a, 10, &root);
  Pgno broot = 0;
  ASSERT_OK(FindTable(*b, "t", &broot));
  EXPECT_EQ(broot, root);
  std::map<int64_t, std::string> got;
  ASSERT_OK(ReadTextRows(*b, root, &got));
  EXPECT_EQ(got, Expected(10));
  ASSERT_OK(a->BeginTransaction(true));
  ASSERT_OK(PutText(*a, root, 3, "new"));
  ASSERT_OK(a->Commit());
  ASSERT_OK(ReadTextRows(*b, root, &got));
  EXPECT_EQ(got[3], "new");
}

TEST(FilePager, WritersLockEachOtherOut) {
  MemVfs vfs;
  auto a = OpenBtree(&vfs, "/l.db");
  auto b = OpenBtree(&vfs, "/l.db");
  ASSERT_TRUE(a && b);
  Pgno root = 0;
  Populate(*a, 10, &root);
  ASSERT_OK(a->BeginTransaction(true));
  ASSERT_OK(PutText(*a, root, 1, "a"));
  EXPECT_EQ(b->BeginTransaction(true).code(), kBusy);
  // A reader may still read (RESERVED lets SHARED in).
  ASSERT_OK(b->BeginTransaction(false));
  // The writer cannot commit while b reads: PENDING, then busy.
  EXPECT_EQ(a->Commit().code(), kBusy);
  // PENDING keeps new readers out.
  auto c = OpenBtree(&vfs, "/l.db");
  EXPECT_EQ(c, nullptr);
  ASSERT_OK(b->Commit());
  ASSERT_OK(a->Commit());
  std::map<int64_t, std::string> got;
  ASSERT_OK(ReadTextRows(*b, root, &got));
  EXPECT_EQ(got[1], "a");
}

TEST(FilePager, BusyHandlerIsCalled) {
  MemVfs vfs;
  FilePager* fb = nullptr;
  auto a = OpenBtree(&vfs, "/h.db");
  auto b = OpenBtree(&vfs, "/h.db", PagerOptions(), &fb);
  ASSERT_TRUE(a && b);
  Pgno root = 0;
  Populate(*a, 3, &root);
  ASSERT_OK(a->BeginTransaction(true));
  int calls = 0;
  fb->SetBusyHandler([&](int n) {
    EXPECT_EQ(n, calls);
    ++calls;
    if (calls == 3) (void)a->Rollback();  // the other side gives way
    return calls < 5;
  });
  ASSERT_OK(b->BeginTransaction(true));
  EXPECT_EQ(calls, 3);
  ASSERT_OK(b->Commit());
}

}  // namespace
}  // namespace basalt::testing
