#include "common/coding.h"

#include <gtest/gtest.h>

#include <random>

namespace basalt {
namespace {

TEST(Varint, KnownEncodings) {
  uint8_t buf[9];
  EXPECT_EQ(PutVarint(buf, 0), 1);
  EXPECT_EQ(buf[0], 0);
  EXPECT_EQ(PutVarint(buf, 0x7f), 1);
  EXPECT_EQ(PutVarint(buf, 0x80), 2);
  EXPECT_EQ(buf[0], 0x81);
  EXPECT_EQ(buf[1], 0x00);
  EXPECT_EQ(PutVarint(buf, ~0ULL), 9);
  for (int i = 0; i < 9; ++i) EXPECT_EQ(buf[i], 0xff);
}

TEST(Varint, RoundTripsRandomValues) {
  std::mt19937_64 rng(42);
  uint8_t buf[9];
  for (int i = 0; i < 100000; ++i) {
    uint64_t v = rng() >> (rng() % 64);
    int n = PutVarint(buf, v);
    EXPECT_EQ(n, VarintLen(v));
    uint64_t back = 0;
    EXPECT_EQ(GetVarint(buf, &back), n);
    EXPECT_EQ(back, v);
  }
}

TEST(BigEndian, RoundTrips) {
  uint8_t buf[8];
  Put32(buf, 0xdeadbeef);
  EXPECT_EQ(Get32(buf), 0xdeadbeefu);
  EXPECT_EQ(buf[0], 0xde);
  Put64(buf, 0x0102030405060708ULL);
  EXPECT_EQ(Get64(buf), 0x0102030405060708ULL);
  Put16(buf, 0xabcd);
  EXPECT_EQ(Get16(buf), 0xabcd);
}

}  // namespace
}  // namespace basalt
