// TempPager: pages past the frame budget go to a temporary file and come
// back intact; pinned pages stay; truncated pages come back as zeros; an
// I/O error while spilling reaches the caller.
#include "pager/temp_pager.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "os/fault_vfs.h"
#include "os/vfs.h"

namespace basalt {
namespace {

constexpr uint32_t kPage = 4096;

// Writes a pattern naming the page and a version into a writable page.
void Stamp(uint8_t* data, Pgno pgno, uint32_t version) {
  for (uint32_t i = 0; i + 8 <= kPage; i += 8) {
    uint32_t a = pgno * 2654435761u + i, b = version + i;
    std::memcpy(data + i, &a, 4);
    std::memcpy(data + i + 4, &b, 4);
  }
}

bool HasStamp(const uint8_t* data, Pgno pgno, uint32_t version) {
  std::vector<uint8_t> want(kPage);
  Stamp(want.data(), pgno, version);
  return std::memcmp(data, want.data(), kPage) == 0;
}

TEST(TempPagerTest, SpillsAndReadsBack) {
  auto made = TempPager::Create(kPage, DefaultVfs(), 40);
  ASSERT_TRUE(made.ok());
  std::unique_ptr<TempPager> p = std::move(made).value();
  ASSERT_TRUE(p->BeginWrite().ok());
  const Pgno n = 600;
  std::vector<uint32_t> version(n + 1, 1);
  for (Pgno i = 1; i <= n; ++i) {
    PageRef r;
    ASSERT_TRUE(p->Append(&r).ok());
    ASSERT_EQ(r.pgno(), i);
    Stamp(r.data(), i, 1);
  }
  EXPECT_GT(p->pages_spilled(), 0u);
  EXPECT_LE(p->frame_count(), 40u);
  // Random reads and rewrites: every page keeps its latest bytes.
  std::mt19937 rng(7);
  for (int step = 0; step < 5000; ++step) {
    Pgno pg = 1 + rng() % n;
    PageRef r;
    ASSERT_TRUE(p->Get(pg, &r).ok());
    ASSERT_TRUE(HasStamp(r.data(), pg, version[pg])) << "page " << pg;
    if (step % 3 == 0) {
      ASSERT_TRUE(p->Write(r).ok());
      Stamp(r.data(), pg, ++version[pg]);
    }
  }
  EXPECT_LE(p->frame_count(), 40u);
  for (Pgno i = 1; i <= n; ++i) {
    PageRef r;
    ASSERT_TRUE(p->Get(i, &r).ok());
    EXPECT_TRUE(HasStamp(r.data(), i, version[i])) << "page " << i;
  }
}

TEST(TempPagerTest, PinnedPagesStayAndPoolGrows) {
  auto made = TempPager::Create(kPage, DefaultVfs(), 32);
  ASSERT_TRUE(made.ok());
  std::unique_ptr<TempPager> p = std::move(made).value();
  ASSERT_TRUE(p->BeginWrite().ok());
  std::vector<PageRef> pins;
  for (Pgno i = 1; i <= 50; ++i) {
    PageRef r;
    ASSERT_TRUE(p->Append(&r).ok());
    Stamp(r.data(), i, 9);
    pins.push_back(std::move(r));
  }
  EXPECT_GE(p->frame_count(), 50u);  // nothing pinned can be evicted
  for (Pgno i = 1; i <= 50; ++i) EXPECT_TRUE(HasStamp(pins[i - 1].data(), i, 9));
  pins.clear();
  for (Pgno i = 51; i <= 200; ++i) {
    PageRef r;
    ASSERT_TRUE(p->Append(&r).ok());
    Stamp(r.data(), i, 9);
  }
  EXPECT_EQ(p->frame_count(), 50u);  // frames are reused, not added
  for (Pgno i = 1; i <= 200; ++i) {
    PageRef r;
    ASSERT_TRUE(p->Get(i, &r).ok());
    EXPECT_TRUE(HasStamp(r.data(), i, 9));
  }
}

TEST(TempPagerTest, TruncateThenAppendGivesZeros) {
  auto made = TempPager::Create(kPage, DefaultVfs(), 32);
  ASSERT_TRUE(made.ok());
  std::unique_ptr<TempPager> p = std::move(made).value();
  ASSERT_TRUE(p->BeginWrite().ok());
  for (Pgno i = 1; i <= 100; ++i) {
    PageRef r;
    ASSERT_TRUE(p->Append(&r).ok());
    Stamp(r.data(), i, 3);
  }
  ASSERT_TRUE(p->Truncate(10).ok());
  EXPECT_EQ(p->page_count(), 10u);
  PageRef r;
  EXPECT_FALSE(p->Get(11, &r).ok());
  ASSERT_TRUE(p->Append(&r).ok());
  ASSERT_EQ(r.pgno(), 11u);
  for (uint32_t i = 0; i < kPage; ++i) ASSERT_EQ(r.data()[i], 0) << i;
  r.Reset();
  for (Pgno i = 1; i <= 10; ++i) {
    ASSERT_TRUE(p->Get(i, &r).ok());
    EXPECT_TRUE(HasStamp(r.data(), i, 3));
  }
}

TEST(TempPagerTest, WriteErrorWhileSpillingIsReported) {
  FaultVfs vfs(DefaultVfs());
  auto made = TempPager::Create(kPage, &vfs, 32);
  ASSERT_TRUE(made.ok());
  std::unique_ptr<TempPager> p = std::move(made).value();
  ASSERT_TRUE(p->BeginWrite().ok());
  vfs.InjectFault(FaultKind::kIoError, 1, kFaultWrite, true);
  Status last;
  for (Pgno i = 1; i <= 100 && last.ok(); ++i) {
    PageRef r;
    last = p->Append(&r);
  }
  EXPECT_FALSE(last.ok());
  EXPECT_EQ(p->page_count(), 32u);  // the appends before the first spill
}

}  // namespace
}  // namespace basalt
