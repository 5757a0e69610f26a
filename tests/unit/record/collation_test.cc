#include <gtest/gtest.h>

#include <cstring>

#include "record/collation.h"

namespace basalt {
namespace {

int Cmp(const Collation* c, const char* a, const char* b) {
  int r =
      c->compare(c->arg, static_cast<int>(std::strlen(a)), a, static_cast<int>(std::strlen(b)), b);
  return r < 0 ? -1 : r > 0;
}

TEST(CollationTest, Binary) {
  EXPECT_EQ(Cmp(BinaryCollation(), "a ", "a"), 1);
  EXPECT_EQ(Cmp(BinaryCollation(), "A", "a"), -1);
  EXPECT_EQ(Cmp(BinaryCollation(), "", ""), 0);
}

TEST(CollationTest, NocaseFoldsAsciiOnly) {
  EXPECT_EQ(Cmp(NocaseCollation(), "abc", "ABC"), 0);
  EXPECT_EQ(Cmp(NocaseCollation(), "x", "X"), 0);
  EXPECT_NE(Cmp(NocaseCollation(), "é", "É"), 0);
  EXPECT_EQ(Cmp(NocaseCollation(), "[", "a"), -1);  // folds to lower case
  EXPECT_EQ(Cmp(NocaseCollation(), "_", "A"), -1);
  EXPECT_EQ(Cmp(NocaseCollation(), "ab", "ABC"), -1);
}

TEST(CollationTest, NocaseStopsAtNul) {
  const Collation* c = NocaseCollation();
  EXPECT_EQ(c->compare(c->arg, 3, "a\0b", 3, "a\0c"), 0);
}

TEST(CollationTest, Rtrim) {
  EXPECT_EQ(Cmp(RtrimCollation(), "a  ", "a"), 0);
  EXPECT_EQ(Cmp(RtrimCollation(), "a\t", "a"), 1);
  EXPECT_EQ(Cmp(RtrimCollation(), " a", "a"), -1);
}

TEST(CollationTest, Lookup) {
  EXPECT_EQ(FindBuiltinCollation("nocase"), NocaseCollation());
  EXPECT_EQ(FindBuiltinCollation("Binary"), BinaryCollation());
  EXPECT_EQ(FindBuiltinCollation("RTRIM"), RtrimCollation());
  EXPECT_EQ(FindBuiltinCollation("french"), nullptr);
}

}  // namespace
}  // namespace basalt
