// FilePager through the Pager interface alone (no B-tree): page contents,
// Append/Truncate with commit, rollback and savepoints, the cache limit, and
// the lock levels held in each state.
#include <gtest/gtest.h>

#include <cstring>

#include "os/mem_vfs.h"
#include "pager/file_pager.h"

namespace basalt {
namespace {

#define ASSERT_OK(expr)                                                           \
  do {                                                                            \
    ::basalt::Status _st = (expr);                                                \
    ASSERT_TRUE(_st.ok()) << #expr << ": " << _st.code() << " " << _st.message(); \
  } while (0)

constexpr uint32_t kPage = 1024;

std::unique_ptr<FilePager> Open(Vfs* vfs, JournalMode mode = JournalMode::kDelete,
                                int cache = 2000) {
  PagerOptions o;
  o.page_size = kPage;
  o.journal_mode = mode;
  o.cache_size = cache;
  auto r = FilePager::Open(vfs, "/raw.db", o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : nullptr;
}

// Page p of "version" v: every byte derived from both, except that page 1
// starts with a minimal database header (magic, page size, format bytes;
// no valid in-header size) so that the pager can put it in WAL mode.
uint8_t Byte(Pgno p, int v, uint32_t i) {
  if (p == 1 && i < 100) {
    static const char kMagic[] = "SQLite format 3";
    if (i < 16) return uint8_t(kMagic[i]);
    if (i == 16) return uint8_t(kPage >> 8);
    if (i == 18 || i == 19) return 1;
    if (i == 17 || i >= 20) return 0;
  }
  return uint8_t((p * 31 + uint32_t(v) * 7 + i) % 251 + 1);
}
void Fill(uint8_t* d, Pgno p, int v) {
  for (uint32_t i = 0; i < kPage; ++i) d[i] = Byte(p, v, i);
}
bool Is(const uint8_t* d, Pgno p, int v) {
  for (uint32_t i = 0; i < kPage; ++i) {
    if (p == 1 && (i == 18 || i == 19)) continue;  // the pager's format bytes
    if (d[i] != Byte(p, v, i)) return false;
  }
  return true;
}

void Check(FilePager& pg, const std::vector<int>& versions) {
  ASSERT_OK(pg.BeginRead());
  ASSERT_EQ(pg.page_count(), versions.size());
  for (Pgno p = 1; p <= versions.size(); ++p) {
    PageRef r;
    ASSERT_OK(pg.Get(p, &r));
    EXPECT_TRUE(Is(r.data(), p, versions[p - 1])) << "page " << p;
  }
  ASSERT_OK(pg.Commit());
}

void WritePage(FilePager& pg, Pgno p, int v) {
  PageRef r;
  ASSERT_OK(pg.Get(p, &r));
  ASSERT_OK(pg.Write(r));
  Fill(r.data(), p, v);
}

void AppendPage(FilePager& pg, int v) {
  PageRef r;
  ASSERT_OK(pg.Append(&r));
  Fill(r.data(), r.pgno(), v);
}

TEST(FilePagerRaw, AppendTruncateCommitRollback) {
  for (JournalMode mode : {JournalMode::kDelete, JournalMode::kWal, JournalMode::kMemory}) {
    SCOPED_TRACE(int(mode));
    MemVfs vfs;
    auto pg = Open(&vfs, mode, 10);
    ASSERT_TRUE(pg);
    ASSERT_OK(pg->BeginWrite());
    for (int i = 0; i < 50; ++i) AppendPage(*pg, 0);
    ASSERT_OK(pg->Commit());
    std::vector<int> v(50, 0);
    Check(*pg, v);
    EXPECT_EQ(pg->journal_mode(), mode);
    // Truncate and commit: the file shrinks (rollback mode) / the size is
    // the commit frame's (WAL).
    ASSERT_OK(pg->BeginWrite());
    WritePage(*pg, 3, 1);
    ASSERT_OK(pg->Truncate(20));
    ASSERT_OK(pg->Commit());
    v.resize(20);
    v[2] = 1;
    Check(*pg, v);
    if (mode != JournalMode::kWal) {
      std::string f;
      ASSERT_TRUE(vfs.GetFile("/raw.db", &f));
      EXPECT_EQ(f.size(), 20u * kPage);
    }
    // Write, truncate, append again, spill (cache of 10), then roll back.
    ASSERT_OK(pg->BeginWrite());
    for (Pgno p = 1; p <= 20; ++p) WritePage(*pg, p, 5);
    ASSERT_OK(pg->Truncate(8));
    for (int i = 0; i < 30; ++i) AppendPage(*pg, 6);
    EXPECT_GT(pg->stats().spills, 0u);
    ASSERT_OK(pg->Rollback());
    {
      SCOPED_TRACE("after rollback");
      Check(*pg, v);
    }
    // Reopen: the same.
    pg.reset();
    pg = Open(&vfs, mode, 10);
    ASSERT_TRUE(pg);
    Check(*pg, v);
  }
}

TEST(FilePagerRaw, SavepointsWithTruncate) {
  MemVfs vfs;
  auto pg = Open(&vfs, JournalMode::kDelete, 10);
  ASSERT_TRUE(pg);
  ASSERT_OK(pg->BeginWrite());
  for (int i = 0; i < 30; ++i) AppendPage(*pg, 0);
  ASSERT_OK(pg->Commit());
  ASSERT_OK(pg->BeginWrite());
  WritePage(*pg, 1, 1);
  ASSERT_OK(pg->OpenSavepoints(1));  // sp0: 30 pages, page 1 at v1
  WritePage(*pg, 2, 2);
  ASSERT_OK(pg->Truncate(10));
  ASSERT_OK(pg->OpenSavepoints(2));  // sp1: 10 pages
  for (int i = 0; i < 25; ++i) AppendPage(*pg, 3);
  WritePage(*pg, 5, 3);
  ASSERT_OK(pg->RollbackToSavepoint(1));
  EXPECT_EQ(pg->page_count(), 10u);
  {
    PageRef r;
    ASSERT_OK(pg->Get(5, &r));
    EXPECT_TRUE(Is(r.data(), 5, 0));
    ASSERT_OK(pg->Get(2, &r));
    EXPECT_TRUE(Is(r.data(), 2, 2));
  }
  ASSERT_OK(pg->RollbackToSavepoint(0));
  EXPECT_EQ(pg->page_count(), 30u);
  for (Pgno p = 1; p <= 30; ++p) {
    PageRef r;
    ASSERT_OK(pg->Get(p, &r));
    EXPECT_TRUE(Is(r.data(), p, p == 1 ? 1 : 0)) << p;
  }
  WritePage(*pg, 30, 4);
  ASSERT_OK(pg->ReleaseSavepoint(0));
  ASSERT_OK(pg->Commit());
  std::vector<int> v(30, 0);
  v[0] = 1;
  v[29] = 4;
  Check(*pg, v);
}

TEST(FilePagerRaw, CacheLimitAndLockLevels) {
  MemVfs vfs;
  auto pg = Open(&vfs, JournalMode::kDelete, 16);
  ASSERT_TRUE(pg);
  EXPECT_EQ(pg->cache_limit(), 16u);
  EXPECT_EQ(pg->lock_level(), LockLevel::kNone);
  ASSERT_OK(pg->BeginWrite());
  EXPECT_EQ(pg->lock_level(), LockLevel::kReserved);
  for (int i = 0; i < 200; ++i) AppendPage(*pg, 0);
  EXPECT_EQ(pg->lock_level(), LockLevel::kExclusive);  // spilled
  EXPECT_LE(pg->cached_pages(), 17u);
  ASSERT_OK(pg->Commit());
  EXPECT_EQ(pg->lock_level(), LockLevel::kNone);
  ASSERT_OK(pg->BeginRead());
  EXPECT_EQ(pg->lock_level(), LockLevel::kShared);
  for (Pgno p = 1; p <= 200; ++p) {
    PageRef r;
    ASSERT_OK(pg->Get(p, &r));
  }
  EXPECT_LE(pg->cached_pages(), 16u);
  ASSERT_OK(pg->Commit());
  // BEGIN EXCLUSIVE.
  ASSERT_OK(pg->BeginWriteExclusive());
  EXPECT_EQ(pg->lock_level(), LockLevel::kExclusive);
  ASSERT_OK(pg->Rollback());
  EXPECT_EQ(pg->lock_level(), LockLevel::kNone);
  // Misuse is reported, not crashed on.
  PageRef r;
  EXPECT_EQ(pg->Get(1, &r).code(), kMisuse);
  ASSERT_OK(pg->BeginRead());
  EXPECT_EQ(pg->Get(201, &r).code(), kCorrupt);
  EXPECT_EQ(pg->Append(&r).code(), kMisuse);
  ASSERT_OK(pg->Commit());
}

TEST(FilePagerRaw, ExclusiveLockingModeKeepsTheLock) {
  MemVfs vfs;
  PagerOptions o;
  o.page_size = kPage;
  o.exclusive_locking = true;
  auto r = FilePager::Open(&vfs, "/x.db", o);
  ASSERT_TRUE(r.ok());
  auto& pg = *r;
  ASSERT_OK(pg->BeginWrite());
  AppendPage(*pg, 0);
  ASSERT_OK(pg->Commit());
  EXPECT_EQ(pg->lock_level(), LockLevel::kExclusive);
  // Opening takes no lock (as in SQLite); the first transaction is refused.
  auto other = FilePager::Open(&vfs, "/x.db", PagerOptions());
  ASSERT_TRUE(other.ok());
  EXPECT_EQ((*other)->BeginRead().code(), kBusy);
}

}  // namespace
}  // namespace basalt
