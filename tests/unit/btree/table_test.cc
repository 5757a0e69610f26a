// Table B-trees: inserts, deletes, splits and merges against a std::map.
#include <map>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

class TableTest : public ::testing::Test {
 protected:
  void Open(uint32_t page_size = 1024) {
    bt_ = NewDb(page_size);
    ASSERT_OK(bt_->BeginTransaction(true));
    auto r = bt_->CreateTree(TreeKind::kTable);
    ASSERT_TRUE(r.ok());
    root_ = *r;
    ASSERT_OK(bt_->OpenCursor(root_, true, &cur_));
  }

  void Insert(int64_t key, const std::string& v) {
    ASSERT_OK(cur_.InsertRow(key, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
    model_[key] = v;
  }

  bool Remove(int64_t key) {
    int res;
    EXPECT_OK(cur_.SeekRowid(key, &res));
    if (res != 0) return false;
    EXPECT_OK(cur_.Delete());
    model_.erase(key);
    return true;
  }

  // Full forward and backward scans plus a count against the model.
  void Verify() {
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root_, false, &c));
    ASSERT_OK(c.First());
    auto it = model_.begin();
    while (!c.eof()) {
      ASSERT_NE(it, model_.end());
      ASSERT_EQ(c.rowid(), it->first);
      ASSERT_EQ(c.payload_size(), it->second.size());
      ASSERT_EQ(Payload(c), it->second) << "rowid " << it->first;
      ASSERT_OK(c.Next());
      ++it;
    }
    ASSERT_EQ(it, model_.end());
    ASSERT_OK(c.Last());
    auto rit = model_.rbegin();
    while (!c.eof()) {
      ASSERT_NE(rit, model_.rend());
      ASSERT_EQ(c.rowid(), rit->first);
      ASSERT_OK(c.Prev());
      ++rit;
    }
    ASSERT_EQ(rit, model_.rend());
    int64_t n;
    ASSERT_OK(c.Count(&n));
    EXPECT_EQ(n, int64_t(model_.size()));
    std::vector<IntegrityRoot> roots = extra_roots_;
    roots.push_back({root_});
    EXPECT_INTEGRITY(*bt_, roots);
  }

  std::unique_ptr<Btree> bt_;
  std::vector<IntegrityRoot> extra_roots_;
  Pgno root_ = 0;
  BtCursor cur_;
  std::map<int64_t, std::string> model_;
};

TEST_F(TableTest, NewDatabaseHeader) {
  Open(4096);
  ASSERT_OK(bt_->Commit());
  std::string img;
  ASSERT_OK(bt_->CopyImage(&img));
  ASSERT_EQ(img.size(), 2u * 4096);
  const uint8_t* h = reinterpret_cast<const uint8_t*>(img.data());
  EXPECT_EQ(std::memcmp(h, "SQLite format 3\0", 16), 0);
  EXPECT_EQ(h[16], 0x10);
  EXPECT_EQ(h[17], 0x00);
  EXPECT_EQ(h[18], 1);
  EXPECT_EQ(h[19], 1);
  EXPECT_EQ(h[20], 0);
  EXPECT_EQ(h[21], 64);
  EXPECT_EQ(h[22], 32);
  EXPECT_EQ(h[23], 32);
  EXPECT_EQ(Get32(h + 24), 1u);  // change counter
  EXPECT_EQ(Get32(h + 28), 2u);  // pages
  EXPECT_EQ(Get32(h + 44), 4u);  // schema format
  EXPECT_EQ(Get32(h + 56), 1u);  // UTF-8
  EXPECT_EQ(Get32(h + 92), 1u);  // version-valid-for
  EXPECT_EQ(Get32(h + 96), 3040001u);
  EXPECT_EQ(h[100], 13);  // sqlite_schema: empty table leaf
  EXPECT_EQ(h[4096], 13);
  // Another transaction bumps the counter again.
  ASSERT_OK(bt_->BeginTransaction(true));
  ASSERT_OK(bt_->SetMeta(Meta::kUserVersion, 42));
  ASSERT_OK(bt_->Commit());
  uint32_t v;
  ASSERT_OK(bt_->GetMeta(Meta::kUserVersion, &v));
  EXPECT_EQ(v, 42u);
  img.clear();
  ASSERT_OK(bt_->CopyImage(&img));
  h = reinterpret_cast<const uint8_t*>(img.data());
  EXPECT_EQ(Get32(h + 24), 2u);
  EXPECT_EQ(Get32(h + 92), 2u);
  EXPECT_EQ(Get32(h + 60), 42u);
}

TEST_F(TableTest, EmptyTree) {
  Open();
  ASSERT_OK(cur_.First());
  EXPECT_TRUE(cur_.eof());
  ASSERT_OK(cur_.Last());
  EXPECT_TRUE(cur_.eof());
  int res = 0;
  ASSERT_OK(cur_.SeekRowid(5, &res));
  EXPECT_TRUE(cur_.eof());
  EXPECT_EQ(res, -1);
  int64_t n;
  ASSERT_OK(cur_.Count(&n));
  EXPECT_EQ(n, 0);
}

TEST_F(TableTest, SeekSemantics) {
  Open();
  for (int64_t k = 10; k <= 10000; k += 10) Insert(k, MakeValue(k, 20));
  int res;
  ASSERT_OK(cur_.SeekRowid(500, &res));
  EXPECT_EQ(res, 0);
  EXPECT_EQ(cur_.rowid(), 500);
  ASSERT_OK(cur_.SeekRowid(505, &res));
  ASSERT_FALSE(cur_.eof());
  if (res < 0) {
    EXPECT_EQ(cur_.rowid(), 500);
  } else {
    EXPECT_GT(res, 0);
    EXPECT_EQ(cur_.rowid(), 510);
  }
  ASSERT_OK(cur_.SeekRowid(5, &res));
  EXPECT_GT(res, 0);
  EXPECT_EQ(cur_.rowid(), 10);
  ASSERT_OK(cur_.SeekRowid(20000, &res));
  EXPECT_LT(res, 0);
  EXPECT_EQ(cur_.rowid(), 10000);
  // Every gap: the cursor lands on a neighbour on the side res says.
  for (int64_t k = 11; k < 10000; k += 10) {
    ASSERT_OK(cur_.SeekRowid(k, &res));
    ASSERT_NE(res, 0);
    EXPECT_EQ(cur_.rowid(), res < 0 ? k - 1 : k + 9);
  }
  Verify();
}

TEST_F(TableTest, SequentialAppendKeepsPagesFull) {
  Open(1024);
  const int kRows = 20000;
  for (int64_t k = 1; k <= kRows; ++k) Insert(k, MakeValue(k, 30));
  Verify();
  // Each row takes 2 + 1 + 2 + 30 bytes plus a 2-byte pointer: 37; a 1024
  // page holds 27 of them. Leaves should be nearly full.
  double leaves = double(kRows) / 27.0;
  EXPECT_LT(bt_->page_count(), Pgno(leaves * 1.1 + 20)) << bt_->page_count();
}

TEST_F(TableTest, NegativeAndHugeRowids) {
  Open();
  std::vector<int64_t> keys = {INT64_MIN, INT64_MIN + 1, -1000000000000LL, -1,       0, 1, 127, 128,
                               16383,     16384,         INT64_MAX - 1,    INT64_MAX};
  for (int64_t k : keys) Insert(k, MakeValue(k, 5));
  Verify();
  int res;
  ASSERT_OK(cur_.SeekRowid(INT64_MIN, &res));
  EXPECT_EQ(res, 0);
  ASSERT_OK(cur_.SeekRowid(-5, &res));
  EXPECT_NE(res, 0);
}

TEST_F(TableTest, ReplaceExistingRow) {
  Open();
  for (int64_t k = 0; k < 500; ++k) Insert(k, MakeValue(k, 10));
  for (int64_t k = 0; k < 500; k += 3) Insert(k, MakeValue(k + 1, 10));  // same size
  for (int64_t k = 1; k < 500; k += 3) Insert(k, MakeValue(k, 200));     // larger
  for (int64_t k = 2; k < 500; k += 3) Insert(k, std::string());         // empty
  Verify();
}

TEST_F(TableTest, RandomInsertDelete) {
  for (uint32_t page_size : {512u, 1024u, 4096u}) {
    SCOPED_TRACE(page_size);
    model_.clear();
    Open(page_size);
    std::mt19937_64 rng(page_size);
    for (int phase = 0; phase < 6; ++phase) {
      for (int i = 0; i < 3000; ++i) {
        int64_t key = int64_t(rng() % 20000);
        if (rng() % 3 == 0) {
          Remove(key);
        } else {
          size_t len = rng() % 8 == 0 ? rng() % 3000 : rng() % 60;
          Insert(key, MakeValue(key, len));
        }
      }
      Verify();
    }
    // Delete everything, in random order.
    std::vector<int64_t> keys;
    for (auto& kv : model_) keys.push_back(kv.first);
    std::shuffle(keys.begin(), keys.end(), rng);
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(Remove(keys[i]));
      if (i % 500 == 0) Verify();
    }
    Verify();
    uint32_t free_pages;
    ASSERT_OK(bt_->FreelistCount(&free_pages));
    // Only page 1 and the (empty) root remain in use.
    EXPECT_EQ(free_pages + 2, bt_->page_count());
    ASSERT_OK(bt_->Commit());
    EXPECT_INTEGRITY(*bt_, {{root_}});
    cur_.Close();
  }
}

TEST_F(TableTest, MixedHugeAndTinyCells) {
  // Cells close to a whole page next to tiny ones: splits into many pages.
  Open(512);
  std::mt19937 rng(3);
  for (int i = 0; i < 4000; ++i) {
    int64_t key = int64_t(rng() % 3000);
    size_t len = rng() % 2 ? 440 + rng() % 37 : rng() % 4;
    if (rng() % 4 == 0) {
      Remove(key);
    } else {
      Insert(key, MakeValue(key, len));
    }
    if (i % 1000 == 0) Verify();
  }
  Verify();
}

TEST_F(TableTest, DeletesMergePages) {
  Open(1024);
  for (int64_t k = 0; k < 5000; ++k) Insert(k, MakeValue(k, 40));
  Pgno full = bt_->page_count();
  // Delete 9 of every 10 rows: pages must merge rather than stay 10% full.
  for (int64_t k = 0; k < 5000; ++k) {
    if (k % 10 != 0) {
      ASSERT_TRUE(Remove(k));
    }
  }
  Verify();
  uint32_t free_pages;
  ASSERT_OK(bt_->FreelistCount(&free_pages));
  Pgno used = bt_->page_count() - free_pages;
  EXPECT_LT(used, full / 4) << "used " << used << " of " << full;
}

TEST_F(TableTest, FreelistPagesAreReused) {
  Open(1024);
  for (int64_t k = 0; k < 3000; ++k) Insert(k, MakeValue(k, 100 + k % 700));
  Pgno high = bt_->page_count();
  for (int64_t k = 0; k < 3000; ++k) ASSERT_TRUE(Remove(k));
  uint32_t free_pages;
  ASSERT_OK(bt_->FreelistCount(&free_pages));
  EXPECT_GT(free_pages, high / 2);
  for (int64_t k = 0; k < 3000; ++k) Insert(k, MakeValue(k, 100 + k % 700));
  Verify();
  EXPECT_LE(bt_->page_count(), high + high / 20);
}

TEST_F(TableTest, OverflowPayloads) {
  Open(512);
  std::mt19937 rng(7);
  for (int64_t k = 0; k < 300; ++k) {
    size_t len = k % 5 == 0 ? 100000 + rng() % 50000 : rng() % 2000;
    Insert(k, MakeValue(k, len));
  }
  Verify();
  // Partial reads across page boundaries.
  int res;
  ASSERT_OK(cur_.SeekRowid(5, &res));
  ASSERT_EQ(res, 0);
  const std::string& v = model_[5];
  for (uint32_t off : {0u, 1u, 400u, 477u, 478u, 5000u, uint32_t(v.size() - 10)}) {
    std::string part(10, '\0');
    ASSERT_OK(cur_.ReadPayload(off, 10, reinterpret_cast<uint8_t*>(part.data())));
    EXPECT_EQ(part, v.substr(off, 10)) << off;
  }
  // Random ranges, in any order (the cursor caches the overflow chain).
  for (int i = 0; i < 300; ++i) {
    uint32_t off = uint32_t(rng() % v.size());
    uint32_t len = std::min<uint32_t>(uint32_t(rng() % 3000), uint32_t(v.size()) - off);
    std::string part(len, '\0');
    ASSERT_OK(cur_.ReadPayload(off, len, reinterpret_cast<uint8_t*>(part.data())));
    ASSERT_EQ(part, v.substr(off, len)) << off << "+" << len;
  }
  uint8_t b;
  EXPECT_EQ(cur_.ReadPayload(uint32_t(v.size()), 1, &b).code(), kCorrupt);
  auto local = cur_.local_payload();
  EXPECT_LT(local.size(), v.size());
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(local.data()), local.size()),
            v.substr(0, local.size()));
  for (int64_t k = 0; k < 300; k += 2) ASSERT_TRUE(Remove(k));
  Verify();
}

TEST_F(TableTest, LocalSizeRulesMatchSpec) {
  // Payloads around the X/M/K thresholds of a 1024-byte page (U = 1024):
  // X = 989, M = ((1012 * 32) / 255) - 23 = 103.
  Open(1024);
  for (int64_t len : {0, 1, 103, 104, 988, 989, 990, 1019, 1020, 1021, 1100, 2000, 2040}) {
    Insert(len, MakeValue(len, size_t(len)));
    int res;
    ASSERT_OK(cur_.SeekRowid(len, &res));
    ASSERT_EQ(res, 0);
    uint32_t local = uint32_t(cur_.local_payload().size());
    uint32_t expect;
    if (len <= 989) {
      expect = uint32_t(len);
    } else {
      uint32_t k = 103 + uint32_t(len - 103) % 1020;
      expect = k <= 989 ? k : 103;
    }
    EXPECT_EQ(local, expect) << len;
  }
  Verify();
}

TEST_F(TableTest, ClearAndDropTree) {
  Open(1024);
  for (int64_t k = 0; k < 2000; ++k) Insert(k, MakeValue(k, k % 10 == 0 ? 3000 : 50));
  auto other = bt_->CreateTree(TreeKind::kTable);
  ASSERT_TRUE(other.ok());
  extra_roots_.push_back({*other});
  int64_t n;
  ASSERT_OK(bt_->ClearTree(root_, &n));
  EXPECT_EQ(n, 2000);
  model_.clear();
  Verify();
  EXPECT_INTEGRITY(*bt_, {{root_}, {*other}});
  ASSERT_OK(cur_.First());
  EXPECT_TRUE(cur_.eof());
  for (int64_t k = 0; k < 500; ++k) Insert(k, MakeValue(k, 50));
  Verify();
  cur_.Close();
  ASSERT_OK(bt_->DropTree(root_));
  EXPECT_INTEGRITY(*bt_, {{*other}});
  uint32_t free_pages;
  ASSERT_OK(bt_->FreelistCount(&free_pages));
  EXPECT_EQ(free_pages + 2, bt_->page_count());
}

// Statement-level rollback as the engine does it: each statement runs in
// savepoint 0; a failing statement undoes only its own changes.
TEST_F(TableTest, StatementSavepoints) {
  Open(512);
  std::mt19937 rng(17);
  for (int stmt = 0; stmt < 300; ++stmt) {
    ASSERT_OK(bt_->OpenSavepoints(1));
    auto before = model_;
    int n = 1 + int(rng() % 60);
    for (int i = 0; i < n; ++i) {
      int64_t key = int64_t(rng() % 3000);
      if (rng() % 3 == 0) {
        Remove(key);
      } else {
        Insert(key, MakeValue(key, rng() % 10 == 0 ? 1500 : rng() % 50));
      }
    }
    if (rng() % 4 == 0) {
      ASSERT_OK(bt_->RollbackToSavepoint(0));
      model_ = before;
    }
    ASSERT_OK(bt_->ReleaseSavepoint(0));
    if (stmt % 50 == 0) Verify();
  }
  Verify();
  ASSERT_OK(bt_->Commit());
  EXPECT_INTEGRITY(*bt_, {{root_}});
}

TEST_F(TableTest, RollbackAndSavepoints) {
  Open(1024);
  for (int64_t k = 0; k < 1000; ++k) Insert(k, MakeValue(k, 50));
  ASSERT_OK(bt_->Commit());
  auto committed = model_;

  ASSERT_OK(bt_->BeginTransaction(true));
  ASSERT_OK(bt_->OpenCursor(root_, true, &cur_));
  for (int64_t k = 1000; k < 2000; ++k) Insert(k, MakeValue(k, 50));
  auto after_first = model_;
  ASSERT_OK(bt_->OpenSavepoints(1));
  for (int64_t k = 0; k < 2000; k += 2) Remove(k);
  ASSERT_OK(bt_->OpenSavepoints(2));
  for (int64_t k = 5000; k < 6000; ++k) Insert(k, MakeValue(k, 500));
  ASSERT_OK(bt_->RollbackToSavepoint(0));
  model_ = after_first;
  Verify();
  // The cursor survived the savepoint rollback (it re-seeks).
  ASSERT_OK(cur_.First());
  EXPECT_EQ(cur_.rowid(), 0);
  for (int64_t k = 0; k < 100; ++k) Remove(k);
  ASSERT_OK(bt_->ReleaseSavepoint(0));
  Verify();
  ASSERT_OK(bt_->Rollback());
  // Cursors of a rolled-back transaction fail with SQLITE_ABORT.
  EXPECT_EQ(cur_.First().code(), kAbortRollback);
  cur_.Close();
  model_ = committed;
  ASSERT_OK(bt_->BeginTransaction(false));
  Verify();
  ASSERT_OK(bt_->Commit());
}

}  // namespace
}  // namespace basalt::testing

namespace basalt::testing {
namespace {

// Page 1 holds 100 bytes less than other pages: its tree grows and shrinks
// through states other roots never see (an interior root with no cells
// whose only child does not fit back into it).
TEST(Page1Root, GrowAndShrink) {
  for (int seed = 0; seed < 20; ++seed) {
    auto bt = NewDb(512);
    ASSERT_OK(bt->BeginTransaction(true));
    BtCursor c;
    ASSERT_OK(bt->OpenCursor(1, true, &c));
    std::mt19937 rng(seed);
    std::map<int64_t, std::string> model;
    int n = 3 + seed * 3;
    for (int64_t k = 0; k < n; ++k) {
      std::string v = MakeValue(k, 60 + rng() % 120);
      ASSERT_OK(c.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
      model[k] = v;
    }
    EXPECT_INTEGRITY(*bt, {});
    std::vector<int64_t> keys;
    for (auto& kv : model) keys.push_back(kv.first);
    std::shuffle(keys.begin(), keys.end(), rng);
    for (int64_t k : keys) {
      int res;
      ASSERT_OK(c.SeekRowid(k, &res));
      ASSERT_EQ(res, 0);
      ASSERT_OK(c.Delete());
      model.erase(k);
      EXPECT_INTEGRITY(*bt, {});
      int64_t count;
      ASSERT_OK(c.Count(&count));
      ASSERT_EQ(count, int64_t(model.size()));
    }
    uint32_t free_pages;
    ASSERT_OK(bt->FreelistCount(&free_pages));
    EXPECT_EQ(free_pages + 1, bt->page_count());
  }
}

TEST(Page1Root, BigCellThatDoesNotFitPage1) {
  auto bt = NewDb(512);
  ASSERT_OK(bt->BeginTransaction(true));
  BtCursor c;
  ASSERT_OK(bt->OpenCursor(1, true, &c));
  std::string v = MakeValue(1, 470);  // a 476-byte cell: more than page 1 holds
  for (int64_t k = 1; k <= 2; ++k) {
    ASSERT_OK(c.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
  }
  EXPECT_INTEGRITY(*bt, {});
  for (int64_t k = 1; k <= 2; ++k) {
    int res;
    ASSERT_OK(c.SeekRowid(k, &res));
    ASSERT_EQ(res, 0);
    ASSERT_OK(c.Delete());
    EXPECT_INTEGRITY(*bt, {});
  }
  ASSERT_OK(c.First());
  EXPECT_TRUE(c.eof());
  ASSERT_OK(c.InsertRow(7, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
  EXPECT_INTEGRITY(*bt, {});
  ASSERT_OK(c.First());
  EXPECT_EQ(c.rowid(), 7);
}

TEST(Ephemeral, RootOneAndIndexTrees) {
  auto r = Btree::OpenEphemeral(1024);
  ASSERT_TRUE(r.ok());
  Btree& bt = **r;
  EXPECT_TRUE(bt.in_write_transaction());
  BtCursor t;
  ASSERT_OK(bt.OpenCursor(1, true, &t));
  for (int64_t k = 0; k < 5000; ++k) {
    std::string v = MakeValue(k, 50);
    ASSERT_OK(t.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
  }
  int64_t n;
  ASSERT_OK(t.Count(&n));
  EXPECT_EQ(n, 5000);
  auto ix = bt.CreateTree(TreeKind::kIndex);
  ASSERT_TRUE(ix.ok());
  EXPECT_INTEGRITY(bt, {{*ix}});
  ASSERT_OK(bt.Commit());  // no-op: still writable
  EXPECT_TRUE(bt.in_write_transaction());
}

}  // namespace
}  // namespace basalt::testing
