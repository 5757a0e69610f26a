// Auto-vacuum databases built and changed by random operations against a
// model: every tree's content, the pointer maps (through IntegrityCheck),
// the largest-root field, an empty freelist after FULL commits, and
// incremental vacuum shrinking the file by what it was asked to.
#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

struct ModelTree {
  bool table = true;
  std::map<int64_t, std::string> rows;  // table trees
  std::set<std::string> keys;           // index trees (memcmp order)
};

class AvModel {
 public:
  AvModel(uint32_t page_size, int mode, uint64_t seed, Pgno lock_page = 0)
      : rng_(seed), mode_(mode), lock_page_(lock_page) {
    bt_ = NewDb(page_size);
    if (lock_page != 0) bt_->SetLockBytePageForTesting(lock_page);
    EXPECT_OK(bt_->SetAutoVacuum(mode));
    EXPECT_EQ(bt_->auto_vacuum(), mode);
  }

  Btree& bt() { return *bt_; }
  std::map<Pgno, ModelTree>& trees() { return trees_; }

  void Create(bool table) {
    auto r = bt_->CreateTree(table ? TreeKind::kTable : TreeKind::kIndex);
    ASSERT_TRUE(r.ok()) << r.status().message();
    // Roots stay contiguous: the new one is the largest.
    for (auto& [root, t] : trees_) ASSERT_LT(root, *r);
    ASSERT_EQ(trees_.count(*r), 0u);
    trees_[*r].table = table;
  }

  void Drop(Pgno root) {
    Pgno moved = 0;
    ASSERT_OK(bt_->DropTree(root, &moved));
    Pgno largest = trees_.rbegin()->first;
    trees_.erase(root);
    if (root == largest) {
      ASSERT_EQ(moved, 0u);
    } else {
      ASSERT_EQ(moved, largest);
      trees_[root] = std::move(trees_[largest]);
      trees_.erase(largest);
    }
  }

  std::string Value(size_t len) {
    std::string v(len, '\0');
    for (char& c : v) c = char('a' + rng_() % 26);
    return v;
  }

  size_t RandomLen(uint32_t page_size) {
    switch (rng_() % 10) {
      case 0:
        return rng_() % (page_size * 5);  // overflow chains
      case 1:
        return page_size / 2 + rng_() % page_size;
      default:
        return rng_() % 80;
    }
  }

  // A burst of inserts and deletes on one tree.
  void Churn(Pgno root, int n) {
    ModelTree& t = trees_[root];
    BtCursor c;
    ASSERT_OK(bt_->OpenCursor(root, true, &c));
    const uint32_t ps = bt_->page_size();
    for (int i = 0; i < n; ++i) {
      bool del = rng_() % 3 == 0;
      if (t.table) {
        int64_t key = int64_t(rng_() % 400);
        if (del) {
          int res;
          ASSERT_OK(c.SeekRowid(key, &res));
          if (res == 0) {
            ASSERT_OK(c.Delete());
            t.rows.erase(key);
          }
        } else {
          std::string v = Value(RandomLen(ps));
          ASSERT_OK(
              c.InsertRow(key, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
          t.rows[key] = v;
        }
      } else {
        if (del && !t.keys.empty()) {
          auto it = t.keys.begin();
          std::advance(it, rng_() % t.keys.size());
          std::string k = *it;
          int res;
          ASSERT_OK(c.SeekIndex(StringSearch, &k, &res));
          ASSERT_EQ(res, 0);
          ASSERT_OK(c.Delete());
          t.keys.erase(k);
        } else {
          size_t len = RandomLen(ps) % (ps * 2) + 1;
          std::string k = std::to_string(rng_() % 1000) + Value(len);
          ASSERT_OK(c.InsertKey(reinterpret_cast<const uint8_t*>(k.data()), uint32_t(k.size()),
                                StringSearch, &k));
          t.keys.insert(k);
        }
      }
    }
  }

  void Clear(Pgno root) {
    ASSERT_OK(bt_->ClearTree(root));
    trees_[root].rows.clear();
    trees_[root].keys.clear();
  }

  // Starts a write transaction and does random things in it; *before is
  // the model as it was.
  void RandomTransaction(std::map<Pgno, ModelTree>* before) {
    *before = trees_;
    ASSERT_OK(bt_->BeginTransaction(true));
    RandomOps(1 + int(rng_() % 6));
    if (rng_() % 4 == 0) {
      // A statement that is undone (or kept) in the middle.
      std::map<Pgno, ModelTree> at_savepoint = trees_;
      ASSERT_OK(bt_->OpenSavepoints(1));
      RandomOps(1 + int(rng_() % 4));
      if (rng_() % 2 == 0) {
        ASSERT_OK(bt_->RollbackToSavepoint(0));
        trees_ = at_savepoint;
      }
      ASSERT_OK(bt_->ReleaseSavepoint(0));
      RandomOps(int(rng_() % 3));
    }
  }

  void RandomOps(int ops) {
    for (int i = 0; i < ops; ++i) {
      uint64_t r = rng_() % 20;
      if (mode_ == 2 && r == 19) {
        ASSERT_OK(bt_->IncrementalVacuum(uint32_t(rng_() % 10)));
        continue;
      }
      if (trees_.empty() || r < 2) {
        Create(rng_() % 2 == 0);
      } else if (r < 4 && trees_.size() > 1) {
        auto it = trees_.begin();
        std::advance(it, rng_() % trees_.size());
        Drop(it->first);
      } else if (r < 5) {
        auto it = trees_.begin();
        std::advance(it, rng_() % trees_.size());
        Clear(it->first);
      } else {
        auto it = trees_.begin();
        std::advance(it, rng_() % trees_.size());
        Churn(it->first, 10 + int(rng_() % 120));
      }
    }
  }

  void Verify() {
    ASSERT_OK(bt_->BeginTransaction(false));
    VerifyInTransaction();
    ASSERT_OK(bt_->Commit());
  }

  void VerifyInTransaction() {
    std::vector<IntegrityRoot> roots;
    Pgno largest = 1;
    for (auto& [root, t] : trees_) {
      roots.push_back({root});
      largest = std::max(largest, root);
      BtCursor c;
      ASSERT_OK(bt_->OpenCursor(root, false, &c));
      ASSERT_OK(c.First());
      if (t.table) {
        for (auto& [k, v] : t.rows) {
          ASSERT_FALSE(c.eof());
          ASSERT_EQ(c.rowid(), k);
          ASSERT_EQ(Payload(c), v);
          ASSERT_OK(c.Next());
        }
      } else {
        for (const std::string& k : t.keys) {
          ASSERT_FALSE(c.eof());
          ASSERT_EQ(Payload(c), k);
          ASSERT_OK(c.Next());
        }
      }
      ASSERT_TRUE(c.eof());
    }
    EXPECT_INTEGRITY(*bt_, roots);
    if (bt_->page_count() == 0) return;  // the first transaction rolled back
    max_pages_ = std::max(max_pages_, bt_->page_count());
    if (lock_page_ != 0 && bt_->page_count() >= lock_page_) {
      // The lock-byte page holds nothing, and the file never ends on it.
      EXPECT_NE(bt_->page_count(), lock_page_);
      std::string img;
      ASSERT_OK(bt_->CopyImage(&img));
      const size_t ps = bt_->page_size();
      EXPECT_EQ(img.substr((lock_page_ - 1) * ps, ps), std::string(ps, '\0'));
    }
    uint32_t meta = 0;
    ASSERT_OK(bt_->GetMeta(Meta::kLargestRootPage, &meta));
    EXPECT_EQ(meta, largest);
    ASSERT_OK(bt_->GetMeta(Meta::kIncrementalVacuum, &meta));
    EXPECT_EQ(meta, mode_ == 2 ? 1u : 0u);
  }

  std::mt19937_64& rng() { return rng_; }
  Pgno max_pages() const { return max_pages_; }

 private:
  std::unique_ptr<Btree> bt_;
  std::map<Pgno, ModelTree> trees_;
  std::mt19937_64 rng_;
  int mode_;
  Pgno lock_page_;
  Pgno max_pages_ = 0;
};

// Random transactions; *max_pages (optional) gets the largest file size.
void RunRandom(uint32_t page_size, int mode, uint64_t seed, int rounds, Pgno lock_page = 0,
               Pgno* max_pages = nullptr) {
  AvModel m(page_size, mode, seed, lock_page);
  struct Report {
    AvModel& m;
    Pgno* out;
    ~Report() {
      if (out) *out = m.max_pages();
    }
  } report{m, max_pages};
  std::map<Pgno, ModelTree> before;
  for (int round = 0; round < rounds; ++round) {
    SCOPED_TRACE(round);
    m.RandomTransaction(&before);
    if (::testing::Test::HasFatalFailure()) return;
    if (m.rng()() % 8 == 0) {
      ASSERT_OK(m.bt().Rollback());
      m.trees() = before;
    } else {
      ASSERT_OK(m.bt().Commit());
    }
    uint32_t free_pages = 0;
    ASSERT_OK(m.bt().FreelistCount(&free_pages));
    if (mode == 1) {
      EXPECT_EQ(free_pages, 0u);
    }
    m.Verify();
    if (::testing::Test::HasFatalFailure()) return;
    if (mode == 2 && free_pages > 0 && m.rng()() % 3 == 0) {
      // Incremental vacuum of part (or all) of the freelist.
      uint32_t n = m.rng()() % 2 == 0 ? 0 : 1 + uint32_t(m.rng()() % free_pages);
      Pgno size = m.bt().page_count();
      ASSERT_OK(m.bt().BeginTransaction(true));
      ASSERT_OK(m.bt().IncrementalVacuum(n));
      ASSERT_OK(m.bt().Commit());
      uint32_t left = 0;
      ASSERT_OK(m.bt().FreelistCount(&left));
      uint32_t removed = n == 0 ? free_pages : n;
      EXPECT_EQ(left, free_pages - removed);
      EXPECT_LE(m.bt().page_count(), size - removed);
      m.Verify();
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
}

// BASALT_AV_SEEDS=n runs n seeds per page size instead of one.
int Seeds() {
  const char* env = std::getenv("BASALT_AV_SEEDS");
  return env ? std::max(1, std::atoi(env)) : 1;
}

TEST(AutoVacuum, RandomFull) {
  for (int seed = 0; seed < Seeds(); ++seed) {
    for (uint32_t ps : {512u, 1024u, 4096u}) {
      SCOPED_TRACE(std::to_string(ps) + " seed " + std::to_string(seed));
      RunRandom(ps, 1, ps + 1000 * uint64_t(seed), 120);
      if (HasFatalFailure()) return;
    }
  }
}

TEST(AutoVacuum, RandomIncremental) {
  for (int seed = 0; seed < Seeds(); ++seed) {
    for (uint32_t ps : {512u, 1024u}) {
      SCOPED_TRACE(std::to_string(ps) + " seed " + std::to_string(seed));
      RunRandom(ps, 2, ps + 7 + 1000 * uint64_t(seed), 120);
      if (HasFatalFailure()) return;
    }
  }
}

// The lock-byte page (here moved to a small page number) is skipped by
// allocation, by the pointer-map layout (a map due there moves to the next
// page) and by shrinking; the file never ends on it.
TEST(AutoVacuum, AroundTheLockBytePage) {
  // 512-byte pages: maps at 2, 105, 208, ... (103 pages per map).
  for (Pgno lock : {105u, 150u, 208u}) {
    for (int mode : {1, 2}) {
      SCOPED_TRACE(std::to_string(lock) + " " + std::to_string(mode));
      Pgno max_pages = 0;
      RunRandom(512, mode, lock * 3 + mode, 100, lock, &max_pages);
      if (HasFatalFailure()) return;
      EXPECT_GT(max_pages, lock + 20);
    }
  }
}

TEST(AutoVacuum, GrowsPastTheLockBytePage) {
  for (int mode : {1, 2}) {
    SCOPED_TRACE(mode);
    AvModel m(512, mode, 99, 105);
    ASSERT_OK(m.bt().BeginTransaction(true));
    m.Create(true);
    Pgno root = m.trees().begin()->first;
    auto fill = [&] {
      BtCursor c;
      ASSERT_OK(m.bt().OpenCursor(root, true, &c));
      for (int64_t k = 0; k < 300; ++k) {
        std::string v = MakeValue(k, 700);
        ASSERT_OK(c.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
        m.trees()[root].rows[k] = v;
      }
    };
    fill();
    ASSERT_OK(m.bt().Commit());
    m.Verify();
    EXPECT_GT(m.max_pages(), 300u) << m.max_pages();
    // Shrink back below it and grow again.
    ASSERT_OK(m.bt().BeginTransaction(true));
    m.Clear(root);
    ASSERT_OK(m.bt().IncrementalVacuum(0));
    ASSERT_OK(m.bt().Commit());
    m.Verify();
    EXPECT_LT(m.bt().page_count(), 105u);
    ASSERT_OK(m.bt().BeginTransaction(true));
    fill();
    m.Churn(root, 300);
    ASSERT_OK(m.bt().Commit());
    m.Verify();
    EXPECT_GT(m.bt().page_count(), 300u);
  }
}

TEST(AutoVacuum, NewDatabaseHeader) {
  for (int mode : {0, 1, 2}) {
    auto bt = NewDb(1024);
    ASSERT_OK(bt->SetAutoVacuum(mode));
    ASSERT_OK(bt->BeginTransaction(true));
    ASSERT_OK(bt->Commit());
    uint32_t largest, incr;
    ASSERT_OK(bt->GetMeta(Meta::kLargestRootPage, &largest));
    ASSERT_OK(bt->GetMeta(Meta::kIncrementalVacuum, &incr));
    EXPECT_EQ(largest, mode == 0 ? 0u : 1u);
    EXPECT_EQ(incr, mode == 2 ? 1u : 0u);
    // Page 2 is the first pointer map; the first tree's root comes after.
    ASSERT_OK(bt->BeginTransaction(true));
    auto r = bt->CreateTree(TreeKind::kTable);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(*r, mode == 0 ? 2u : 3u);
    ASSERT_OK(bt->Commit());
    // On or off needs an empty database; FULL <-> INCREMENTAL does not.
    Status st = bt->SetAutoVacuum(mode == 0 ? 1 : 0);
    EXPECT_EQ(st.code(), kReadOnly);
    if (mode != 0) {
      ASSERT_OK(bt->SetAutoVacuum(3 - mode));
      EXPECT_EQ(bt->auto_vacuum(), 3 - mode);
      ASSERT_OK(bt->GetMeta(Meta::kIncrementalVacuum, &incr));
      EXPECT_EQ(incr, mode == 1 ? 1u : 0u);
    }
  }
}

TEST(AutoVacuum, DropMovesLargestRoot) {
  auto bt = NewDb(1024);
  ASSERT_OK(bt->SetAutoVacuum(1));
  ASSERT_OK(bt->BeginTransaction(true));
  std::vector<Pgno> roots;
  for (int i = 0; i < 4; ++i) {
    auto r = bt->CreateTree(TreeKind::kTable);
    ASSERT_TRUE(r.ok());
    roots.push_back(*r);
  }
  EXPECT_EQ(roots, (std::vector<Pgno>{3, 4, 5, 6}));
  // Fill the last tree so that it has children and overflow pages to move.
  BtCursor c;
  ASSERT_OK(bt->OpenCursor(6, true, &c));
  for (int i = 0; i < 200; ++i) {
    std::string v = MakeValue(i, i % 7 == 0 ? 3000 : 100);
    ASSERT_OK(c.InsertRow(i, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
  }
  // The one-argument form cannot report the move.
  EXPECT_EQ(bt->DropTree(4).code(), kMisuse);
  Pgno moved = 0;
  ASSERT_OK(bt->DropTree(4, &moved));
  EXPECT_EQ(moved, 6u);
  // The open cursor followed its tree.
  EXPECT_EQ(c.root(), 4u);
  ASSERT_OK(c.Last());
  EXPECT_EQ(c.rowid(), 199);
  c.Close();
  ASSERT_OK(bt->Commit());
  uint32_t largest;
  ASSERT_OK(bt->GetMeta(Meta::kLargestRootPage, &largest));
  EXPECT_EQ(largest, 5u);
  EXPECT_INTEGRITY(*bt, {{3}, {4}, {5}});
  // Dropping the largest root moves nothing.
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(bt->DropTree(5, &moved));
  EXPECT_EQ(moved, 0u);
  ASSERT_OK(bt->DropTree(3, &moved));
  EXPECT_EQ(moved, 4u);
  ASSERT_OK(bt->Commit());
  ASSERT_OK(bt->GetMeta(Meta::kLargestRootPage, &largest));
  EXPECT_EQ(largest, 3u);
  EXPECT_INTEGRITY(*bt, {{3}});
  ASSERT_OK(bt->BeginTransaction(true));
  ASSERT_OK(bt->DropTree(3, &moved));
  ASSERT_OK(bt->Commit());
  ASSERT_OK(bt->GetMeta(Meta::kLargestRootPage, &largest));
  EXPECT_EQ(largest, 1u);
  // Only page 1 (and no pointer map) is left.
  EXPECT_EQ(bt->page_count(), 1u);
  EXPECT_INTEGRITY(*bt, {});
}

}  // namespace
}  // namespace basalt::testing
