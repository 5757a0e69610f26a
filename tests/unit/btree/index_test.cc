// Index B-trees (keys only, entries in interior pages too) against a
// std::set, with a memcmp comparator.
#include <set>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

class IndexTest : public ::testing::Test {
 protected:
  void Open(uint32_t page_size) {
    bt_ = NewDb(page_size);
    ASSERT_OK(bt_->BeginTransaction(true));
    auto r = bt_->CreateTree(TreeKind::kIndex);
    ASSERT_TRUE(r.ok());
    root_ = *r;
    ASSERT_OK(bt_->OpenCursor(root_, true, &cur_));
    model_.clear();
  }

  void Insert(const std::string& k) {
    std::string key = k;
    ASSERT_OK(cur_.InsertKey(reinterpret_cast<const uint8_t*>(key.data()), uint32_t(key.size()),
                             StringSearch, &key));
    model_.insert(k);
    ASSERT_FALSE(cur_.eof());
    ASSERT_OK(cur_.Restore());
    ASSERT_EQ(Payload(cur_), k);  // on the new entry
  }

  bool Remove(const std::string& k) {
    std::string key = k;
    int res;
    EXPECT_OK(cur_.SeekIndex(StringSearch, &key, &res));
    if (res != 0) return false;
    EXPECT_OK(cur_.Delete());
    model_.erase(k);
    return true;
  }

  void Verify() {
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root_, false, &c));
    ASSERT_OK(c.First());
    auto it = model_.begin();
    while (!c.eof()) {
      ASSERT_NE(it, model_.end());
      ASSERT_EQ(Payload(c), *it);
      ASSERT_OK(c.Next());
      ++it;
    }
    ASSERT_EQ(it, model_.end());
    ASSERT_OK(c.Last());
    auto rit = model_.rbegin();
    while (!c.eof()) {
      ASSERT_NE(rit, model_.rend());
      ASSERT_EQ(Payload(c), *rit);
      ASSERT_OK(c.Prev());
      ++rit;
    }
    ASSERT_EQ(rit, model_.rend());
    int64_t n;
    ASSERT_OK(c.Count(&n));
    EXPECT_EQ(n, int64_t(model_.size()));
    EXPECT_INTEGRITY(*bt_, {{root_, MemcmpKeyCompare}});
  }

  // Seeks for `probe`: the cursor must land on the key itself or on its
  // neighbour on the side res gives.
  void CheckSeek(const std::string& probe) {
    std::string key = probe;
    int res;
    ASSERT_OK(cur_.SeekIndex(StringSearch, &key, &res));
    if (model_.empty()) {
      EXPECT_TRUE(cur_.eof());
      return;
    }
    ASSERT_FALSE(cur_.eof());
    std::string at = Payload(cur_);
    auto lb = model_.lower_bound(probe);
    if (res == 0) {
      EXPECT_EQ(at, probe);
    } else if (res > 0) {
      ASSERT_NE(lb, model_.end());
      EXPECT_EQ(at, *lb);
    } else {
      ASSERT_NE(lb, model_.begin());
      EXPECT_EQ(at, *std::prev(lb));
    }
  }

  std::string RandomKey(std::mt19937& rng, bool allow_big) {
    size_t len = allow_big && rng() % 20 == 0 ? 300 + rng() % 4000 : rng() % 40;
    std::string k(len, '\0');
    for (char& ch : k) ch = char('a' + rng() % 6);
    return k;
  }

  std::unique_ptr<Btree> bt_;
  Pgno root_ = 0;
  BtCursor cur_;
  std::set<std::string> model_;
};

TEST_F(IndexTest, SmallKeys) {
  Open(512);
  Insert("");
  Insert("a");
  Insert("ab");
  Insert("b");
  Verify();
  for (int i = 0; i < 2000; ++i) Insert(std::to_string(i * 7919 % 2003));
  Verify();
  CheckSeek("");
  CheckSeek("1000x");
  CheckSeek("zzz");
}

TEST_F(IndexTest, DuplicateInsertReplaces) {
  Open(1024);
  for (int i = 0; i < 3000; ++i) Insert("key" + std::to_string(i));
  for (int i = 0; i < 3000; i += 7) Insert("key" + std::to_string(i));
  Verify();
}

TEST_F(IndexTest, RandomInsertDelete) {
  for (uint32_t page_size : {512u, 1024u, 4096u}) {
    SCOPED_TRACE(page_size);
    Open(page_size);
    std::mt19937 rng(page_size + 1);
    for (int phase = 0; phase < 6; ++phase) {
      for (int i = 0; i < 2500; ++i) {
        std::string k = RandomKey(rng, true);
        if (rng() % 3 == 0 && !model_.empty()) {
          // Remove an existing key (from anywhere, interior entries too).
          auto it = model_.lower_bound(k);
          if (it == model_.end()) it = model_.begin();
          ASSERT_TRUE(Remove(*it));
        } else {
          Insert(k);
        }
      }
      Verify();
      for (int i = 0; i < 200; ++i) CheckSeek(RandomKey(rng, false));
    }
    std::vector<std::string> keys(model_.begin(), model_.end());
    std::shuffle(keys.begin(), keys.end(), rng);
    for (size_t i = 0; i < keys.size(); ++i) {
      ASSERT_TRUE(Remove(keys[i]));
      if (i % 700 == 0) Verify();
    }
    Verify();
    uint32_t free_pages;
    ASSERT_OK(bt_->FreelistCount(&free_pages));
    EXPECT_EQ(free_pages + 2, bt_->page_count());
    cur_.Close();
  }
}

TEST_F(IndexTest, SequentialKeysStayDense) {
  Open(1024);
  char buf[32];
  for (int i = 0; i < 20000; ++i) {
    std::snprintf(buf, sizeof buf, "%08d", i);
    Insert(buf);
  }
  Verify();
  // 8-byte keys: cells of 1 + 8 bytes plus a pointer; ~90 per page.
  EXPECT_LT(bt_->page_count(), Pgno(20000 / 90 * 1.5 + 10)) << bt_->page_count();
}

TEST_F(IndexTest, DeleteThroughScan) {
  Open(512);
  for (int i = 0; i < 3000; ++i) Insert(std::to_string(100000 + i));
  // Delete every other entry in one pass, as DELETE ... WHERE does.
  ASSERT_OK(cur_.First());
  int i = 0;
  while (!cur_.eof()) {
    if (i++ % 2 == 0) {
      model_.erase(Payload(cur_));
      ASSERT_OK(cur_.Delete());
    }
    ASSERT_OK(cur_.Next());
  }
  Verify();
  // And backwards.
  ASSERT_OK(cur_.Last());
  i = 0;
  while (!cur_.eof()) {
    if (i++ % 3 != 0) {
      model_.erase(Payload(cur_));
      ASSERT_OK(cur_.Delete());
    }
    ASSERT_OK(cur_.Prev());
  }
  Verify();
}

}  // namespace
}  // namespace basalt::testing
