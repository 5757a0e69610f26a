// Rough timings of the hot paths (disabled by default; run with
// --gtest_also_run_disabled_tests --gtest_filter='*Perf*').
#include <ctime>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

struct Timer {
  const char* what;
  size_t n;
  std::clock_t c0 = std::clock();
  ~Timer() {
    double s = double(std::clock() - c0) / CLOCKS_PER_SEC;
    std::printf("%-38s %9zu ops %8.1f ms cpu %8.0f ns/op\n", what, n, s * 1e3, s * 1e9 / double(n));
  }
};

TEST(Perf, DISABLED_TableAndIndex) {
  const int kN = 1000000;
  auto bt = NewDb(4096);
  ASSERT_OK(bt->BeginTransaction(true));
  Pgno root = bt->CreateTree(TreeKind::kTable).value();
  BtCursor c;
  ASSERT_OK(bt->OpenCursor(root, true, &c));
  std::string v(30, 'x');
  const uint8_t* vp = reinterpret_cast<const uint8_t*>(v.data());
  {
    Timer t{"sequential InsertRow (30 B)", kN};
    for (int64_t k = 1; k <= kN; ++k) ASSERT_OK(c.InsertRow(k, vp, 30));
  }
  {
    Timer t{"scan Next+rowid+payload", kN};
    int64_t sum = 0;
    ASSERT_OK(c.First());
    while (!c.eof()) {
      sum += c.rowid() + int64_t(c.local_payload().size());
      ASSERT_OK(c.Next());
    }
    ASSERT_GT(sum, 0);
  }
  std::mt19937_64 rng(1);
  {
    Timer t{"random SeekRowid", kN};
    int res;
    for (int i = 0; i < kN; ++i) ASSERT_OK(c.SeekRowid(int64_t(rng() % kN) + 1, &res));
  }
  {
    Timer t{"count", 1};
    int64_t n;
    ASSERT_OK(c.Count(&n));
    ASSERT_EQ(n, kN);
  }
  Pgno root2 = bt->CreateTree(TreeKind::kTable).value();
  BtCursor c2;
  ASSERT_OK(bt->OpenCursor(root2, true, &c2));
  {
    Timer t{"random InsertRow (30 B)", kN};
    for (int i = 0; i < kN; ++i) ASSERT_OK(c2.InsertRow(int64_t(rng() >> 1), vp, 30));
  }
  {
    Timer t{"delete all via scan", kN};
    ASSERT_OK(c.First());
    while (!c.eof()) {
      ASSERT_OK(c.Delete());
      ASSERT_OK(c.Next());
    }
  }
  Pgno ix = bt->CreateTree(TreeKind::kIndex).value();
  BtCursor ci;
  ASSERT_OK(bt->OpenCursor(ix, true, &ci));
  {
    Timer t{"random InsertKey (16 B memcmp)", kN / 2};
    std::string k(16, '\0');
    for (int i = 0; i < kN / 2; ++i) {
      for (char& ch : k) ch = char('a' + rng() % 26);
      ASSERT_OK(ci.InsertKey(reinterpret_cast<const uint8_t*>(k.data()), 16, StringSearch, &k));
    }
  }
  {
    Timer t{"index scan", kN / 2};
    ASSERT_OK(ci.First());
    size_t n = 0;
    while (!ci.eof()) {
      n += ci.local_payload().size();
      ASSERT_OK(ci.Next());
    }
    ASSERT_EQ(n, size_t(kN / 2) * 16);
  }
  {
    Timer t{"commit", 1};
    ASSERT_OK(bt->Commit());
  }
  std::printf("pages: %u\n", bt->page_count());
}

TEST(Perf, DISABLED_EphemeralCreate) {
  const int kN = 20000;
  Timer t{"OpenEphemeral + CreateTree + 10 rows", kN};
  std::string v(20, 'y');
  for (int i = 0; i < kN; ++i) {
    auto bt = Btree::OpenEphemeral(1024);
    ASSERT_TRUE(bt.ok());
    Pgno r = (*bt)->CreateTree(TreeKind::kIndex).value();
    BtCursor c;
    ASSERT_OK((*bt)->OpenCursor(r, true, &c));
    for (int k = 0; k < 10; ++k) {
      v[0] = char('a' + k);
      ASSERT_OK(c.InsertKey(reinterpret_cast<const uint8_t*>(v.data()), 20, StringSearch, &v));
    }
  }
}

}  // namespace
}  // namespace basalt::testing
