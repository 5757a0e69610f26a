// Cursor stability: cursors keep their place while other cursors change
// the tree, and a cursor's own Delete() leaves Next()/Prev() well defined.
#include <map>
#include <set>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

class CursorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bt_ = NewDb(512);
    ASSERT_OK(bt_->BeginTransaction(true));
    auto r = bt_->CreateTree(TreeKind::kTable);
    ASSERT_TRUE(r.ok());
    root_ = *r;
  }

  void Put(BtCursor& c, int64_t k, size_t len = 30) {
    std::string v = MakeValue(k, len);
    ASSERT_OK(c.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
    keys_.insert(k);
  }

  void Del(BtCursor& c, int64_t k) {
    int res;
    ASSERT_OK(c.SeekRowid(k, &res));
    ASSERT_EQ(res, 0) << k;
    ASSERT_OK(c.Delete());
    keys_.erase(k);
  }

  std::unique_ptr<Btree> bt_;
  Pgno root_ = 0;
  std::set<int64_t> keys_;
};

TEST_F(CursorTest, ScanWhileAnotherCursorDeletes) {
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(root_, true, &w));
  ASSERT_OK(bt_->OpenCursor(root_, false, &r));
  for (int64_t k = 0; k < 4000; ++k) Put(w, k);
  ASSERT_OK(r.First());
  std::vector<int64_t> seen;
  while (!r.eof()) {
    int64_t k = r.rowid();
    seen.push_back(k);
    // Delete the current row and the next two (if present).
    for (int64_t d = k; d < k + 3; ++d) {
      if (keys_.count(d)) Del(w, d);
    }
    EXPECT_TRUE(r.has_moved());
    ASSERT_OK(r.Next());
  }
  std::vector<int64_t> expect;
  for (int64_t k = 0; k < 4000; k += 3) expect.push_back(k);
  EXPECT_EQ(seen, expect);
  EXPECT_TRUE(keys_.empty());
  EXPECT_INTEGRITY(*bt_, {{root_}});
}

TEST_F(CursorTest, OwnDeleteThenNextAndPrev) {
  BtCursor c;
  ASSERT_OK(bt_->OpenCursor(root_, true, &c));
  for (int64_t k = 0; k < 2000; ++k) Put(c, k, 20 + k % 50);
  // DELETE FROM t WHERE k % 3 != 0, forwards.
  ASSERT_OK(c.First());
  while (!c.eof()) {
    int64_t k = c.rowid();
    if (k % 3 != 0) {
      ASSERT_OK(c.Delete());
      keys_.erase(k);
      EXPECT_EQ(c.Delete().code(), kMisuse);  // not on an entry any more
    }
    ASSERT_OK(c.Next());
    if (!c.eof()) {
      EXPECT_GT(c.rowid(), k);
    }
  }
  // Backwards: delete odd ones.
  ASSERT_OK(c.Last());
  int64_t prev = INT64_MAX;
  while (!c.eof()) {
    int64_t k = c.rowid();
    EXPECT_LT(k, prev);
    prev = k;
    if (k % 2 == 1) {
      ASSERT_OK(c.Delete());
      keys_.erase(k);
    }
    ASSERT_OK(c.Prev());
  }
  std::set<int64_t> rest;
  ASSERT_OK(c.First());
  while (!c.eof()) {
    rest.insert(c.rowid());
    ASSERT_OK(c.Next());
  }
  EXPECT_EQ(rest, keys_);
  EXPECT_INTEGRITY(*bt_, {{root_}});
}

TEST_F(CursorTest, InsertSelectFromSameTable) {
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(root_, true, &w));
  ASSERT_OK(bt_->OpenCursor(root_, false, &r));
  for (int64_t k = 0; k < 1000; ++k) Put(w, k * 2);
  // Copy each row to key + 1 while scanning: the scan must see the copies
  // appear after it (each original once, each copy once).
  ASSERT_OK(r.First());
  int originals = 0, copies = 0;
  while (!r.eof()) {
    int64_t k = r.rowid();
    if (k % 2 == 0) {
      ++originals;
      std::string v = Payload(r);
      ASSERT_OK(w.InsertRow(k + 1, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
    } else {
      ++copies;
    }
    ASSERT_OK(r.Next());
  }
  EXPECT_EQ(originals, 1000);
  EXPECT_EQ(copies, 1000);
  EXPECT_INTEGRITY(*bt_, {{root_}});
}

TEST_F(CursorTest, RandomTwoCursorModel) {
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(root_, true, &w));
  ASSERT_OK(bt_->OpenCursor(root_, false, &r));
  std::mt19937 rng(99);
  for (int64_t k = 0; k < 3000; ++k) Put(w, k * 10, rng() % 100);
  for (int iter = 0; iter < 3000; ++iter) {
    // Position r on an existing key.
    auto it = keys_.lower_bound(int64_t(rng() % 30000));
    if (it == keys_.end()) continue;
    int64_t at = *it;
    int res;
    ASSERT_OK(r.SeekRowid(at, &res));
    ASSERT_EQ(res, 0);
    // Change the tree through w.
    int nops = 1 + int(rng() % 20);
    for (int i = 0; i < nops; ++i) {
      int64_t k = int64_t(rng() % 400) - 200 + at;
      if (rng() % 2 && keys_.count(k)) {
        Del(w, k);
      } else if (k >= 0) {
        Put(w, k, rng() % 300);
      }
    }
    bool forward = rng() % 2;
    ASSERT_OK(forward ? r.Next() : r.Prev());
    if (forward) {
      auto nx = keys_.upper_bound(at);
      if (nx == keys_.end()) {
        EXPECT_TRUE(r.eof());
      } else {
        ASSERT_FALSE(r.eof());
        EXPECT_EQ(r.rowid(), *nx) << "after " << at;
      }
    } else {
      auto lb = keys_.lower_bound(at);
      if (lb == keys_.begin()) {
        EXPECT_TRUE(r.eof());
      } else {
        ASSERT_FALSE(r.eof());
        EXPECT_EQ(r.rowid(), *std::prev(lb)) << "before " << at;
      }
    }
  }
  EXPECT_INTEGRITY(*bt_, {{root_}});
}

TEST_F(CursorTest, IndexCursorsStayValid) {
  auto rr = bt_->CreateTree(TreeKind::kIndex);
  ASSERT_TRUE(rr.ok());
  Pgno ix = *rr;
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(ix, true, &w, MemcmpKeyCompare));
  ASSERT_OK(bt_->OpenCursor(ix, false, &r, MemcmpKeyCompare));
  std::set<std::string> model;
  char buf[32];
  for (int i = 0; i < 3000; ++i) {
    std::snprintf(buf, sizeof buf, "k%06d", i * 37 % 3000);
    std::string k = buf;
    if (i % 10 == 0) k += std::string(2000, 'x');  // keys with overflow
    ASSERT_OK(w.InsertKey(reinterpret_cast<const uint8_t*>(k.data()), uint32_t(k.size()),
                          StringSearch, &k));
    model.insert(k);
  }
  ASSERT_OK(r.First());
  std::vector<std::string> seen;
  while (!r.eof()) {
    std::string k = Payload(r);
    seen.push_back(k);
    // Delete this entry and the next one through the other cursor.
    auto it = model.find(k);
    ASSERT_NE(it, model.end());
    auto next = std::next(it);
    for (auto d : {it, next}) {
      if (d == model.end()) continue;
      std::string key = *d;
      int res;
      ASSERT_OK(w.SeekIndex(StringSearch, &key, &res));
      ASSERT_EQ(res, 0);
      ASSERT_OK(w.Delete());
    }
    if (next != model.end()) model.erase(next);
    model.erase(k);
    ASSERT_OK(r.Next());
  }
  EXPECT_EQ(seen.size(), 1500u);
  EXPECT_TRUE(model.empty());
  EXPECT_INTEGRITY(*bt_, {{root_}, {ix, MemcmpKeyCompare}});
}

TEST_F(CursorTest, ClearAndDropUnderOpenCursors) {
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(root_, true, &w));
  ASSERT_OK(bt_->OpenCursor(root_, false, &r));
  for (int64_t k = 0; k < 500; ++k) Put(w, k);
  int res;
  ASSERT_OK(r.SeekRowid(250, &res));
  ASSERT_OK(bt_->ClearTree(root_));
  ASSERT_OK(r.Next());
  EXPECT_TRUE(r.eof());
  for (int64_t k = 0; k < 500; ++k) Put(w, k);
  ASSERT_OK(r.SeekRowid(250, &res));
  ASSERT_EQ(res, 0);
  ASSERT_OK(bt_->DropTree(root_));
  ASSERT_OK(r.Next());
  EXPECT_TRUE(r.eof());
  ASSERT_OK(r.First());
  EXPECT_TRUE(r.eof());
  EXPECT_EQ(w.InsertRow(1, nullptr, 0).code(), kAbort);
  EXPECT_INTEGRITY(*bt_, {});
}

TEST_F(CursorTest, SavepointRollbackRepositionsCursors) {
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(root_, true, &w));
  ASSERT_OK(bt_->OpenCursor(root_, false, &r));
  for (int64_t k = 0; k < 1000; ++k) Put(w, k);
  int res;
  ASSERT_OK(r.SeekRowid(500, &res));
  ASSERT_OK(bt_->OpenSavepoints(1));
  for (int64_t k = 0; k < 1000; k += 2) Del(w, k);
  ASSERT_OK(bt_->RollbackToSavepoint(0));
  ASSERT_OK(r.Next());
  EXPECT_EQ(r.rowid(), 501);
  ASSERT_OK(r.Prev());
  EXPECT_EQ(r.rowid(), 500);
}

}  // namespace
}  // namespace basalt::testing
