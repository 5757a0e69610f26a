#include "common/arena.h"

#include <gtest/gtest.h>

#include <string>

namespace basalt {
namespace {

TEST(Arena, AllocatesAlignedAndRunsDestructors) {
  int destroyed = 0;
  struct Tracker {
    int* counter;
    std::string payload;
    ~Tracker() { ++*counter; }
  };
  {
    Arena arena;
    for (int i = 0; i < 1000; ++i) {
      auto* t = arena.New<Tracker>(Tracker{&destroyed, std::string(100, 'x')});
      EXPECT_EQ(reinterpret_cast<uintptr_t>(t) % alignof(Tracker), 0u);
    }
    destroyed = 0;  // the temporaries above were destroyed already
  }
  EXPECT_EQ(destroyed, 1000);
}

TEST(ArenaVec, GrowsAndKeepsValues) {
  Arena arena;
  ArenaVec<int> v;
  for (int i = 0; i < 1000; ++i) v.push_back(arena, i);
  ASSERT_EQ(v.size(), 1000u);
  for (int i = 0; i < 1000; ++i) EXPECT_EQ(v[i], i);
  EXPECT_EQ(arena.CopyString("abc"), "abc");
}

}  // namespace
}  // namespace basalt
