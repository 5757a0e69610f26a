#include "pager/mem_pager.h"

#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace basalt {
namespace {

std::unique_ptr<MemPager> NewPager(uint32_t page_size = 1024,
                                   JournalMode mode = JournalMode::kMemory) {
  auto r = MemPager::Create(page_size, mode);
  EXPECT_TRUE(r.ok());
  return std::move(r).value();
}

// Fills page pgno with byte v.
void Fill(MemPager& p, Pgno pgno, uint8_t v) {
  PageRef ref;
  ASSERT_TRUE(p.Get(pgno, &ref).ok());
  ASSERT_TRUE(p.Write(ref).ok());
  ASSERT_TRUE(ref.writable());
  std::memset(ref.data(), v, p.page_size());
}

uint8_t Byte(MemPager& p, Pgno pgno, uint32_t at = 0) {
  PageRef ref;
  EXPECT_TRUE(p.Get(pgno, &ref).ok());
  return ref ? ref.data()[at] : 0xEE;
}

void AppendN(MemPager& p, int n, uint8_t v) {
  for (int i = 0; i < n; ++i) {
    PageRef ref;
    ASSERT_TRUE(p.Append(&ref).ok());
    EXPECT_EQ(ref.data()[0], 0);
    std::memset(ref.data(), v, p.page_size());
  }
}

TEST(MemPager, CreateRejectsBadPageSizes) {
  EXPECT_FALSE(MemPager::Create(1000).ok());
  EXPECT_FALSE(MemPager::Create(256).ok());
  EXPECT_FALSE(MemPager::Create(131072).ok());
  EXPECT_TRUE(MemPager::Create(512).ok());
  EXPECT_TRUE(MemPager::Create(65536).ok());
  EXPECT_FALSE(MemPager::Create(4096, JournalMode::kWal).ok());
}

TEST(MemPager, StateMachine) {
  auto p = NewPager();
  PageRef ref;
  EXPECT_EQ(p->Get(1, &ref).code(), kMisuse);  // no transaction
  EXPECT_EQ(p->Append(&ref).code(), kMisuse);
  ASSERT_TRUE(p->BeginRead().ok());
  EXPECT_EQ(p->txn(), PagerTxn::kRead);
  EXPECT_EQ(p->Append(&ref).code(), kMisuse);  // read transaction
  EXPECT_EQ(p->OpenSavepoints(1).code(), kMisuse);
  ASSERT_TRUE(p->BeginWrite().ok());
  EXPECT_EQ(p->txn(), PagerTxn::kWrite);
  AppendN(*p, 3, 7);
  EXPECT_EQ(p->page_count(), 3u);
  EXPECT_EQ(p->Get(4, &ref).code(), kCorrupt);
  EXPECT_EQ(p->Get(0, &ref).code(), kCorrupt);
  ASSERT_TRUE(p->Commit().ok());
  EXPECT_EQ(p->txn(), PagerTxn::kNone);
  // Pages are not writable outside a write transaction.
  ASSERT_TRUE(p->BeginRead().ok());
  ASSERT_TRUE(p->Get(2, &ref).ok());
  EXPECT_FALSE(ref.writable());
  EXPECT_EQ(p->Write(ref).code(), kMisuse);
  EXPECT_EQ(ref.data()[5], 7);
  ref.Reset();
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, PageSizeChangesOnlyWhenEmpty) {
  auto p = NewPager(4096);
  EXPECT_TRUE(p->SetPageSize(8192).ok());
  EXPECT_EQ(p->page_size(), 8192u);
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 1, 1);
  ASSERT_TRUE(p->Commit().ok());
  EXPECT_EQ(p->SetPageSize(1024).code(), kMisuse);
}

TEST(MemPager, RollbackRestoresPagesAndCount) {
  auto p = NewPager();
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 5, 1);
  ASSERT_TRUE(p->Commit().ok());

  ASSERT_TRUE(p->BeginWrite().ok());
  Fill(*p, 2, 9);
  Fill(*p, 4, 9);
  AppendN(*p, 3, 9);
  EXPECT_EQ(p->page_count(), 8u);
  EXPECT_TRUE(p->has_changes());
  // Only the two pre-existing pages that were written were copied.
  EXPECT_EQ(p->saved_image_count(), 2u);
  ASSERT_TRUE(p->Rollback().ok());
  EXPECT_EQ(p->page_count(), 5u);
  ASSERT_TRUE(p->BeginRead().ok());
  for (Pgno i = 1; i <= 5; ++i) EXPECT_EQ(Byte(*p, i, 100), 1) << i;
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, WriteTwiceSavesOnce) {
  auto p = NewPager();
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 2, 1);
  ASSERT_TRUE(p->Commit().ok());
  ASSERT_TRUE(p->BeginWrite().ok());
  for (int i = 0; i < 10; ++i) Fill(*p, 1, uint8_t(i));
  EXPECT_EQ(p->saved_image_count(), 1u);
  ASSERT_TRUE(p->OpenSavepoints(1).ok());
  for (int i = 0; i < 10; ++i) Fill(*p, 1, uint8_t(20 + i));
  EXPECT_EQ(p->saved_image_count(), 2u);
  ASSERT_TRUE(p->ReleaseSavepoint(0).ok());
  // Merged into the transaction level, which already had page 1.
  EXPECT_EQ(p->saved_image_count(), 1u);
  Fill(*p, 1, 50);
  EXPECT_EQ(p->saved_image_count(), 1u);
  ASSERT_TRUE(p->Rollback().ok());
  ASSERT_TRUE(p->BeginRead().ok());
  EXPECT_EQ(Byte(*p, 1), 1);
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, NestedSavepoints) {
  auto p = NewPager();
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 3, 1);
  ASSERT_TRUE(p->Commit().ok());

  ASSERT_TRUE(p->BeginWrite().ok());
  Fill(*p, 1, 2);
  ASSERT_TRUE(p->OpenSavepoints(1).ok());  // savepoint 0
  Fill(*p, 2, 3);
  AppendN(*p, 1, 3);
  ASSERT_TRUE(p->OpenSavepoints(2).ok());  // savepoint 1
  Fill(*p, 1, 4);
  Fill(*p, 3, 4);
  AppendN(*p, 1, 4);
  EXPECT_EQ(p->savepoint_count(), 2);
  EXPECT_EQ(p->page_count(), 5u);

  ASSERT_TRUE(p->RollbackToSavepoint(1).ok());
  EXPECT_EQ(p->savepoint_count(), 2);
  EXPECT_EQ(p->page_count(), 4u);
  EXPECT_EQ(Byte(*p, 1), 2);
  EXPECT_EQ(Byte(*p, 2), 3);
  EXPECT_EQ(Byte(*p, 3), 1);
  EXPECT_EQ(Byte(*p, 4), 3);

  // Savepoint 1 is still open and works again.
  Fill(*p, 3, 5);
  ASSERT_TRUE(p->RollbackToSavepoint(1).ok());
  EXPECT_EQ(Byte(*p, 3), 1);

  ASSERT_TRUE(p->RollbackToSavepoint(0).ok());
  EXPECT_EQ(p->savepoint_count(), 1);
  EXPECT_EQ(p->page_count(), 3u);
  EXPECT_EQ(Byte(*p, 1), 2);
  EXPECT_EQ(Byte(*p, 2), 1);

  Fill(*p, 2, 6);
  ASSERT_TRUE(p->ReleaseSavepoint(0).ok());
  EXPECT_EQ(p->savepoint_count(), 0);
  ASSERT_TRUE(p->Commit().ok());
  ASSERT_TRUE(p->BeginRead().ok());
  EXPECT_EQ(Byte(*p, 1), 2);
  EXPECT_EQ(Byte(*p, 2), 6);
  EXPECT_EQ(Byte(*p, 3), 1);
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, TruncateThenAppendInNewerSavepoint) {
  auto p = NewPager();
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 6, 1);
  ASSERT_TRUE(p->Commit().ok());

  ASSERT_TRUE(p->BeginWrite().ok());
  ASSERT_TRUE(p->Truncate(3).ok());
  ASSERT_TRUE(p->OpenSavepoints(1).ok());
  AppendN(*p, 2, 9);  // pages 4 and 5 again, zeroed then filled
  EXPECT_EQ(Byte(*p, 4), 9);
  ASSERT_TRUE(p->ReleaseSavepoint(0).ok());
  ASSERT_TRUE(p->Rollback().ok());
  ASSERT_TRUE(p->BeginRead().ok());
  EXPECT_EQ(p->page_count(), 6u);
  for (Pgno i = 1; i <= 6; ++i) EXPECT_EQ(Byte(*p, i), 1) << i;
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, TruncateRefusesPinnedPages) {
  auto p = NewPager();
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 4, 1);
  PageRef ref;
  ASSERT_TRUE(p->Get(4, &ref).ok());
  EXPECT_EQ(p->Truncate(2).code(), kMisuse);
  ref.Reset();
  EXPECT_TRUE(p->Truncate(2).ok());
  EXPECT_EQ(p->page_count(), 2u);
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, JournalOffKeepsChangesOnRollback) {
  auto p = NewPager(1024, JournalMode::kOff);
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 2, 1);
  Fill(*p, 1, 5);
  EXPECT_EQ(p->saved_image_count(), 0u);
  ASSERT_TRUE(p->OpenSavepoints(1).ok());
  Fill(*p, 2, 6);
  ASSERT_TRUE(p->RollbackToSavepoint(0).ok());
  ASSERT_TRUE(p->Rollback().ok());
  ASSERT_TRUE(p->BeginRead().ok());
  EXPECT_EQ(p->page_count(), 2u);
  EXPECT_EQ(Byte(*p, 1), 5);
  EXPECT_EQ(Byte(*p, 2), 6);
  ASSERT_TRUE(p->Commit().ok());
}

TEST(MemPager, ImageRoundTrip) {
  auto p = NewPager(512);
  ASSERT_TRUE(p->BeginWrite().ok());
  AppendN(*p, 3, 0);
  Fill(*p, 1, 'a');
  Fill(*p, 2, 'b');
  Fill(*p, 3, 'c');
  ASSERT_TRUE(p->Commit().ok());
  std::string img;
  p->CopyImage(&img);
  ASSERT_EQ(img.size(), 3u * 512);
  EXPECT_EQ(img[0], 'a');
  EXPECT_EQ(img[1023], 'b');
  EXPECT_EQ(img[1024], 'c');
  auto q = MemPager::FromImage(img.substr(0, 1100), 512);  // partial last page
  ASSERT_TRUE(q.ok());
  MemPager& m = **q;
  ASSERT_TRUE(m.BeginRead().ok());
  EXPECT_EQ(m.page_count(), 3u);
  EXPECT_EQ(Byte(m, 2, 511), 'b');
  EXPECT_EQ(Byte(m, 3, 75), 'c');
  EXPECT_EQ(Byte(m, 3, 76), 0);
  ASSERT_TRUE(m.Commit().ok());
}

// Random operations against a model: the database is a vector of page
// images; each savepoint level keeps a snapshot of it.
TEST(MemPager, RandomAgainstModel) {
  std::mt19937 rng(12345);
  auto p = NewPager(512);
  using Db = std::vector<uint8_t>;  // one byte stands for each page's content
  Db committed;
  for (int round = 0; round < 300; ++round) {
    ASSERT_TRUE(p->BeginWrite().ok());
    Db cur = committed;
    std::vector<Db> snapshots;  // snapshots[i]: when savepoint i opened
    Db txn_start = committed;
    int ops = 1 + int(rng() % 40);
    for (int op = 0; op < ops; ++op) {
      int kind = int(rng() % 10);
      if (kind <= 3 && !cur.empty()) {
        Pgno pg = Pgno(1 + rng() % cur.size());
        uint8_t v = uint8_t(rng());
        Fill(*p, pg, v);
        cur[pg - 1] = v;
      } else if (kind == 4) {
        int n = 1 + int(rng() % 3);
        uint8_t v = uint8_t(rng());
        AppendN(*p, n, v);
        cur.insert(cur.end(), n, v);
      } else if (kind == 5 && !cur.empty()) {
        Pgno n = Pgno(rng() % (cur.size() + 1));
        ASSERT_TRUE(p->Truncate(n).ok());
        cur.resize(n);
      } else if (kind == 6 && snapshots.size() < 70) {
        int n = int(snapshots.size()) + 1 + int(rng() % 2);
        ASSERT_TRUE(p->OpenSavepoints(n).ok());
        while (int(snapshots.size()) < n) snapshots.push_back(cur);
      } else if (kind == 7 && !snapshots.empty()) {
        int i = int(rng() % snapshots.size());
        ASSERT_TRUE(p->ReleaseSavepoint(i).ok());
        snapshots.resize(i);
      } else if (kind == 8 && !snapshots.empty()) {
        int i = int(rng() % snapshots.size());
        ASSERT_TRUE(p->RollbackToSavepoint(i).ok());
        cur = snapshots[i];
        snapshots.resize(i + 1);
      }
      ASSERT_EQ(p->page_count(), cur.size());
      ASSERT_EQ(p->savepoint_count(), int(snapshots.size()));
      for (Pgno i = 1; i <= cur.size(); ++i) {
        ASSERT_EQ(Byte(*p, i, i % 512), cur[i - 1]) << "round " << round << " op " << op;
      }
    }
    if (rng() % 3 == 0) {
      ASSERT_TRUE(p->Rollback().ok());
    } else {
      ASSERT_TRUE(p->Commit().ok());
      committed = cur;
    }
    ASSERT_TRUE(p->BeginRead().ok());
    ASSERT_EQ(p->page_count(), committed.size());
    for (Pgno i = 1; i <= committed.size(); ++i) ASSERT_EQ(Byte(*p, i), committed[i - 1]);
    ASSERT_TRUE(p->Commit().ok());
    EXPECT_EQ(p->saved_image_count(), 0u);
  }
}

}  // namespace
}  // namespace basalt
