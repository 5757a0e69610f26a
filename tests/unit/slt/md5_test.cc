#include "md5.h"

#include <gtest/gtest.h>

#include <string>

namespace basalt::slt {
namespace {

// The test suite of RFC 1321, appendix A.5.
TEST(Md5, Rfc1321Vectors) {
  EXPECT_EQ(Md5::Of(""), "d41d8cd98f00b204e9800998ecf8427e");
  EXPECT_EQ(Md5::Of("a"), "0cc175b9c0f1b6a831c399e269772661");
  EXPECT_EQ(Md5::Of("abc"), "900150983cd24fb0d6963f7d28e17f72");
  EXPECT_EQ(Md5::Of("message digest"), "f96b697d7cb7938d525a2f31aaf161d0");
  EXPECT_EQ(Md5::Of("abcdefghijklmnopqrstuvwxyz"), "c3fcd3d76192e4007dfb496cca67e13b");
  EXPECT_EQ(Md5::Of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
            "d174ab98d277d9f5a5611c2c9f419d9f");
  EXPECT_EQ(Md5::Of("1234567890123456789012345678901234567890"
                    "1234567890123456789012345678901234567890"),
            "57edf4a22be3c955ac49da2e2107b67a");
}

TEST(Md5, PieceByPieceEqualsWhole) {
  std::string text;
  for (int i = 0; i < 1000; ++i) text += std::to_string(i * 7919) + "\n";
  const std::string whole = Md5::Of(text);
  // Feed in irregular pieces that straddle block boundaries.
  for (size_t piece : {1u, 3u, 55u, 63u, 64u, 65u, 200u}) {
    Md5 md5;
    for (size_t at = 0; at < text.size(); at += piece) {
      md5.Update(std::string_view(text).substr(at, piece));
    }
    EXPECT_EQ(md5.HexDigest(), whole) << "piece size " << piece;
  }
}

TEST(Md5, PaddingBoundaries) {
  // Lengths around the 56-byte point where padding spills into a new block.
  EXPECT_EQ(Md5::Of(std::string(55, 'a')), "ef1772b6dff9a122358552954ad0df65");
  EXPECT_EQ(Md5::Of(std::string(56, 'a')), "3b0c8ac703f828b04c6c197006d17218");
  EXPECT_EQ(Md5::Of(std::string(64, 'a')), "014842d480b571495a4a0363793f7367");
}

TEST(Md5, ResetStartsOver) {
  Md5 md5;
  md5.Update("garbage");
  md5.Reset();
  md5.Update("abc");
  EXPECT_EQ(md5.HexDigest(), "900150983cd24fb0d6963f7d28e17f72");
}

}  // namespace
}  // namespace basalt::slt
