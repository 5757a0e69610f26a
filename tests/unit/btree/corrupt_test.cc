// Corrupt databases must give SQLITE_CORRUPT (or wrong answers), never a
// crash or an out-of-bounds access. Run under the sanitizer build.
#include <cstdlib>

#include "btree/btree.h"
#include "btree_test_util.h"

namespace basalt::testing {
namespace {

struct Image {
  std::string bytes;
  std::vector<Pgno> roots;
  std::vector<bool> is_index;
};

Image BuildImage(uint32_t page_size) {
  Image img;
  auto bt = NewDb(page_size);
  EXPECT_OK(bt->BeginTransaction(true));
  std::mt19937 rng(page_size);
  for (int t = 0; t < 3; ++t) {
    bool index = t == 2;
    auto r = bt->CreateTree(index ? TreeKind::kIndex : TreeKind::kTable);
    EXPECT_TRUE(r.ok());
    img.roots.push_back(*r);
    img.is_index.push_back(index);
    BtCursor c;
    EXPECT_OK(bt->OpenCursor(*r, true, &c));
    for (int i = 0; i < 600; ++i) {
      std::string v = MakeValue(i, rng() % 13 == 0 ? 2000 + rng() % 3000 : rng() % 80);
      if (index) {
        v = std::to_string(rng()) + v;
        EXPECT_OK(c.InsertKey(reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size()),
                              StringSearch, &v));
      } else {
        EXPECT_OK(c.InsertRow(int64_t(rng() % 100000), reinterpret_cast<const uint8_t*>(v.data()),
                              uint32_t(v.size())));
      }
    }
    // Free some pages.
    EXPECT_OK(c.First());
    for (int i = 0; i < 200 && !c.eof(); ++i) {
      if (i % 2 == 0) {
        EXPECT_OK(c.Delete());
      }
      EXPECT_OK(c.Next());
    }
  }
  EXPECT_OK(bt->Commit());
  EXPECT_OK(bt->CopyImage(&img.bytes));
  return img;
}

// Exercises every read and write path on a (possibly corrupt) database.
void Exercise(const Image& img, const std::string& bytes, std::mt19937& rng) {
  auto r = Btree::OpenImage(bytes);
  if (!r.ok()) return;
  Btree& bt = **r;
  std::vector<std::string> msgs;
  (void)bt.IntegrityCheck({}, 20, &msgs);
  if (!bt.BeginTransaction(true).ok()) return;
  for (size_t t = 0; t < img.roots.size(); ++t) {
    BtCursor c;
    if (!bt.OpenCursor(img.roots[t], true, &c).ok()) continue;
    int steps = 0;
    Status st = c.First();
    while (st.ok() && !c.eof() && steps++ < 3000) {
      (void)c.rowid();
      (void)c.local_payload();
      std::string buf(c.payload_size(), '\0');
      (void)c.ReadPayload(0, uint32_t(buf.size()), reinterpret_cast<uint8_t*>(buf.data()));
      st = c.Next();
    }
    st = c.Last();
    steps = 0;
    while (st.ok() && !c.eof() && steps++ < 300) st = c.Prev();
    int64_t n;
    (void)c.Count(&n);
    int res;
    for (int i = 0; i < 30; ++i) {
      std::string v = MakeValue(i, rng() % 3000);
      if (img.is_index[t]) {
        std::string k = std::to_string(rng()) + v;
        (void)c.SeekIndex(StringSearch, &k, &res);
        (void)c.InsertKey(reinterpret_cast<const uint8_t*>(k.data()), uint32_t(k.size()),
                          StringSearch, &k);
        if (c.SeekIndex(StringSearch, &k, &res).ok() && !c.eof()) (void)c.Delete();
      } else {
        int64_t key = int64_t(rng() % 100000);
        (void)c.InsertRow(key, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size()));
        if (c.SeekRowid(int64_t(rng() % 100000), &res).ok() && !c.eof()) (void)c.Delete();
      }
    }
  }
  msgs.clear();
  (void)bt.IntegrityCheck({}, 20, &msgs);
  int64_t n;
  (void)bt.ClearTree(img.roots[0], &n);
  (void)bt.DropTree(img.roots[1]);
  (void)bt.Commit();
}

TEST(Corrupt, RandomByteFlips) {
  for (uint32_t page_size : {512u, 1024u}) {
    Image img = BuildImage(page_size);
    ASSERT_GT(img.bytes.size(), 10u * page_size);
    // BASALT_FUZZ_ITERS / BASALT_FUZZ_SEED widen the search when run by hand.
    const char* iters_env = std::getenv("BASALT_FUZZ_ITERS");
    const char* seed_env = std::getenv("BASALT_FUZZ_SEED");
    int iters = iters_env ? std::atoi(iters_env) : 400;
    std::mt19937 rng(page_size * 3 + 1 + (seed_env ? std::atoi(seed_env) : 0));
    for (int iter = 0; iter < iters; ++iter) {
      std::string bytes = img.bytes;
      int flips = 1 + int(rng() % 8);
      for (int f = 0; f < flips; ++f) {
        size_t page = rng() % (bytes.size() / page_size);
        // Mostly hit page headers and cell pointer arrays, where damage is
        // most interesting; sometimes anywhere.
        size_t off = rng() % 4 == 0 ? rng() % page_size : rng() % 40;
        if (page == 0) off += 100;
        size_t at = page * page_size + off;
        if (at < bytes.size()) bytes[at] = char(rng() % 4 == 0 ? 0xff : rng());
      }
      Exercise(img, bytes, rng);
    }
  }
}

TEST(Corrupt, TruncatedAndGarbageFiles) {
  Image img = BuildImage(512);
  std::mt19937 rng(5);
  Exercise(img, img.bytes.substr(0, 512 * 3), rng);
  Exercise(img, img.bytes.substr(0, 700), rng);
  std::string garbage = img.bytes.substr(0, 100);
  for (int i = 0; i < 20; ++i) {
    garbage.resize(512 * 8);
    for (size_t j = 100; j < garbage.size(); ++j) garbage[j] = char(rng());
    Exercise(img, garbage, rng);
  }
  EXPECT_EQ(Btree::OpenImage("not a database at all, definitely not").status().code(), kNotADb);
}

TEST(Corrupt, CycleInTree) {
  // A child pointer back to the root must not loop forever.
  auto bt = NewDb(512);
  ASSERT_OK(bt->BeginTransaction(true));
  auto r = bt->CreateTree(TreeKind::kTable);
  ASSERT_TRUE(r.ok());
  BtCursor c;
  ASSERT_OK(bt->OpenCursor(*r, true, &c));
  for (int64_t k = 0; k < 2000; ++k) {
    std::string v = MakeValue(k, 40);
    ASSERT_OK(c.InsertRow(k, reinterpret_cast<const uint8_t*>(v.data()), uint32_t(v.size())));
  }
  c.Close();
  ASSERT_OK(bt->Commit());
  std::string bytes;
  ASSERT_OK(bt->CopyImage(&bytes));
  // Point the root's right-most child at the root itself.
  size_t root_off = size_t(*r - 1) * 512;
  ASSERT_EQ(uint8_t(bytes[root_off]), 5);  // table interior
  bytes[root_off + 8] = char(*r >> 24);
  bytes[root_off + 9] = char(*r >> 16);
  bytes[root_off + 10] = char(*r >> 8);
  bytes[root_off + 11] = char(*r);
  auto bad = Btree::OpenImage(bytes);
  ASSERT_TRUE(bad.ok());
  ASSERT_OK((*bad)->BeginTransaction(true));
  ASSERT_OK((*bad)->OpenCursor(*r, true, &c));
  EXPECT_EQ(c.Last().code(), kCorrupt);
  int64_t n;
  EXPECT_EQ(c.Count(&n).code(), kCorrupt);
  std::vector<std::string> msgs;
  ASSERT_OK((*bad)->IntegrityCheck(std::vector<IntegrityRoot>{{*r}}, 10, &msgs));
  EXPECT_FALSE(msgs.empty());
  c.Close();
  EXPECT_EQ((*bad)->DropTree(*r).code(), kCorrupt);
}

}  // namespace
}  // namespace basalt::testing
