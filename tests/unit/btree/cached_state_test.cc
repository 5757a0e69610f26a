// State the B-tree keeps between calls instead of re-reading pages: the free
// byte count cached per page frame (valid only while the page stays writable
// at one savepoint level), the pages a cursor keeps pinned between seeks,
// and parent pages edited in place while balancing. Each test drives many
// changes through paths where a stale cache would show up as a wrong
// answer, a corrupt-page error or an integrity-check message. (Sanitizer
// builds also compare every cached count with the page.)
#include <map>
#include <set>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

std::string Key(uint32_t v, size_t pad) {
  std::string k = std::to_string(v);
  k.insert(0, 8 - std::min<size_t>(8, k.size()), '0');
  return k + std::string(pad, 'k');
}

class CachedStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bt_ = NewDb(512);
    ASSERT_OK(bt_->BeginTransaction(true));
    auto r = bt_->CreateTree(TreeKind::kIndex);
    ASSERT_TRUE(r.ok());
    root_ = *r;
  }

  void Insert(BtCursor& c, const std::string& k) {
    std::string key = k;
    ASSERT_OK(c.InsertKey(reinterpret_cast<const uint8_t*>(key.data()), uint32_t(key.size()),
                          StringSearch, &key));
    model_.insert(k);
  }

  void Remove(BtCursor& c, const std::string& k) {
    std::string key = k;
    int res;
    ASSERT_OK(c.SeekIndex(StringSearch, &key, &res));
    if (res != 0) return;
    ASSERT_OK(c.Delete());
    model_.erase(k);
  }

  void Verify() {
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root_, false, &c));
    ASSERT_OK(c.First());
    for (const std::string& k : model_) {
      ASSERT_FALSE(c.eof());
      ASSERT_EQ(Payload(c), k);
      ASSERT_OK(c.Next());
    }
    ASSERT_TRUE(c.eof());
    EXPECT_INTEGRITY(*bt_, {{root_}});
  }

  std::unique_ptr<Btree> bt_;
  Pgno root_ = 0;
  std::set<std::string> model_;
};

// Two writers take turns on one tree inside nested savepoints, some of
// which roll back: pages restored by a rollback must not keep the counts
// cached before it, and pages written at a released level must not lose
// theirs.
TEST_F(CachedStateTest, SavepointsAndTwoWriters) {
  BtCursor a, b;
  ASSERT_OK(bt_->OpenCursor(root_, true, &a));
  ASSERT_OK(bt_->OpenCursor(root_, true, &b));
  std::mt19937 rng(5);
  for (int stmt = 0; stmt < 200; ++stmt) {
    ASSERT_OK(bt_->OpenSavepoints(1));
    auto outer = model_;
    for (int round = 0; round < 2; ++round) {
      ASSERT_OK(bt_->OpenSavepoints(2));
      auto inner = model_;
      int n = 1 + int(rng() % 40);
      for (int i = 0; i < n; ++i) {
        BtCursor& c = rng() % 2 ? a : b;
        std::string k = Key(uint32_t(rng() % 4000), rng() % 8 == 0 ? 60 : rng() % 12);
        if (rng() % 3 == 0) {
          Remove(c, k);
        } else {
          Insert(c, k);
        }
      }
      if (rng() % 3 == 0) {
        ASSERT_OK(bt_->RollbackToSavepoint(1));
        model_ = inner;
      }
      ASSERT_OK(bt_->ReleaseSavepoint(1));
    }
    if (rng() % 5 == 0) {
      ASSERT_OK(bt_->RollbackToSavepoint(0));
      model_ = outer;
    }
    ASSERT_OK(bt_->ReleaseSavepoint(0));
    if (stmt % 40 == 0) Verify();
  }
  Verify();
  ASSERT_OK(bt_->Commit());
}

// Deleting most keys in random order drains leaves (balancing edits their
// parents in place) while a reader keeps re-seeking with pages pinned from
// its previous descent.
TEST_F(CachedStateTest, DrainWhileReaderSeeks) {
  BtCursor w, r;
  ASSERT_OK(bt_->OpenCursor(root_, true, &w));
  ASSERT_OK(bt_->OpenCursor(root_, false, &r));
  std::vector<std::string> keys;
  for (uint32_t i = 0; i < 3000; ++i) keys.push_back(Key(i * 7 % 3001, i % 5));
  std::mt19937 rng(9);
  std::shuffle(keys.begin(), keys.end(), rng);
  for (const std::string& k : keys) Insert(w, k);
  Verify();
  std::shuffle(keys.begin(), keys.end(), rng);
  for (size_t i = 0; i + 100 < keys.size(); ++i) {
    Remove(w, keys[i]);
    // The reader finds a surviving key from its last position.
    std::string probe = keys[keys.size() - 1 - i % 100];
    int res;
    ASSERT_OK(r.SeekIndex(StringSearch, &probe, &res));
    ASSERT_EQ(res, 0);
    ASSERT_EQ(Payload(r), probe);
    if (i % 500 == 0) Verify();
  }
  Verify();
  ASSERT_OK(bt_->Commit());
}

// Appending rows past the end splits the right-most leaf with a new right
// sibling and one new divider in the parent; deep trees make the parent
// overflow too. Interleaved point lookups reuse the pinned path.
TEST(CachedState, AppendsAndLookups) {
  auto bt = NewDb(512);
  ASSERT_OK(bt->BeginTransaction(true));
  auto r = bt->CreateTree(TreeKind::kTable);
  ASSERT_TRUE(r.ok());
  BtCursor w, look;
  ASSERT_OK(bt->OpenCursor(*r, true, &w));
  ASSERT_OK(bt->OpenCursor(*r, false, &look));
  std::mt19937 rng(3);
  for (int64_t k = 1; k <= 20000; ++k) {
    std::string v = MakeValue(k, rng() % 4 == 0 ? 120 : rng() % 20);
    ASSERT_OK(w.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
    if (k % 7 == 0) {
      int64_t probe = 1 + int64_t(rng() % uint64_t(k));
      int res;
      ASSERT_OK(look.SeekRowid(probe, &res));
      ASSERT_EQ(res, 0);
      ASSERT_EQ(look.rowid(), probe);
    }
  }
  int64_t n;
  ASSERT_OK(w.Count(&n));
  EXPECT_EQ(n, 20000);
  EXPECT_INTEGRITY(*bt, {{*r}});
  ASSERT_OK(bt->Commit());
}

}  // namespace
}  // namespace basalt::testing
