// IntSet: the integer set behind RowSetAdd/RowSetTest, checked against
// std::set over random and edge-case keys.
#include "exec/int_set.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <set>

namespace basalt {
namespace {

TEST(IntSet, EmptyHasNothing) {
  IntSet s;
  EXPECT_FALSE(s.Contains(0));
  EXPECT_FALSE(s.Contains(std::numeric_limits<int64_t>::min()));
}

TEST(IntSet, ExtremesAndDuplicates) {
  IntSet s;
  const int64_t lo = std::numeric_limits<int64_t>::min();
  const int64_t hi = std::numeric_limits<int64_t>::max();
  s.Insert(lo);
  s.Insert(hi);
  s.Insert(0);
  s.Insert(0);
  EXPECT_TRUE(s.Contains(lo));
  EXPECT_TRUE(s.Contains(hi));
  EXPECT_TRUE(s.Contains(0));
  EXPECT_FALSE(s.Contains(1));
  EXPECT_FALSE(s.Contains(lo + 1));
}

TEST(IntSet, MatchesStdSetThroughGrowth) {
  std::mt19937_64 rng(7);
  IntSet s;
  std::set<int64_t> ref;
  for (int i = 0; i < 200000; ++i) {
    // Dense small keys (rowids) and sparse wide ones.
    int64_t v = (i % 3 == 0) ? static_cast<int64_t>(rng()) : static_cast<int64_t>(rng() % 50000);
    s.Insert(v);
    ref.insert(v);
  }
  for (int64_t v : ref) ASSERT_TRUE(s.Contains(v));
  int absent = 0;
  for (int i = 0; i < 100000; ++i) {
    int64_t v = static_cast<int64_t>(rng() % 100000) + 50000;
    if (ref.count(v) == 0) {
      ++absent;
      ASSERT_FALSE(s.Contains(v));
    }
  }
  EXPECT_GT(absent, 0);
}

}  // namespace
}  // namespace basalt
