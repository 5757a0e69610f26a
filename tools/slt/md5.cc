// MD5 as RFC 1321 describes it: the message is padded to a multiple of 512
// bits (a 1 bit, zeros, the bit length as a 64-bit little-endian number) and
// each 64-byte block goes through four rounds of sixteen steps over a state
// of four 32-bit words. The digest is the final state, little-endian.
#include "md5.h"

#include <cmath>
#include <cstring>

namespace basalt::slt {
namespace {

// The additive constant of step i is the integer part of 2^32 * |sin(i + 1)|
// (RFC 1321, section 3.4). Computed once instead of tabulated.
struct SineTable {
  uint32_t k[64];
  SineTable() {
    for (int i = 0; i < 64; ++i) {
      k[i] = static_cast<uint32_t>(std::floor(std::fabs(std::sin(i + 1.0)) * 4294967296.0));
    }
  }
};
const SineTable kSine;

// Left-rotation amounts, four per round, used cyclically.
constexpr int kRotate[4][4] = {{7, 12, 17, 22}, {5, 9, 14, 20}, {4, 11, 16, 23}, {6, 10, 15, 21}};

inline uint32_t RotateLeft(uint32_t x, int n) { return (x << n) | (x >> (32 - n)); }

inline uint32_t LoadLittle32(const uint8_t* p) {
  return uint32_t{p[0]} | uint32_t{p[1]} << 8 | uint32_t{p[2]} << 16 | uint32_t{p[3]} << 24;
}

}  // namespace

void Md5::Reset() {
  // The initial state words (RFC 1321, section 3.3), as little-endian numbers.
  state_[0] = 0x67452301;
  state_[1] = 0xefcdab89;
  state_[2] = 0x98badcfe;
  state_[3] = 0x10325476;
  length_ = 0;
  buffered_ = 0;
}

void Md5::Compress(const uint8_t block[64]) {
  uint32_t x[16];
  for (int i = 0; i < 16; ++i) x[i] = LoadLittle32(block + 4 * i);
  uint32_t a = state_[0], b = state_[1], c = state_[2], d = state_[3];
  // One step: mix f and a message word into a, rotate, and shift the four
  // words along (a <- d <- c <- b <- new value).
  auto step = [&](uint32_t f, int i, int word, int rotate) {
    const uint32_t rotated = RotateLeft(a + f + kSine.k[i] + x[word], rotate);
    a = d;
    d = c;
    c = b;
    b = b + rotated;
  };
  for (int i = 0; i < 16; ++i) step((b & c) | (~b & d), i, i, kRotate[0][i % 4]);  // F
  for (int i = 16; i < 32; ++i) {
    step((b & d) | (c & ~d), i, (5 * i + 1) % 16, kRotate[1][i % 4]);  // G
  }
  for (int i = 32; i < 48; ++i) step(b ^ c ^ d, i, (3 * i + 5) % 16, kRotate[2][i % 4]);  // H
  for (int i = 48; i < 64; ++i) step(c ^ (b | ~d), i, (7 * i) % 16, kRotate[3][i % 4]);   // I
  state_[0] += a;
  state_[1] += b;
  state_[2] += c;
  state_[3] += d;
}

void Md5::Update(const void* data, size_t size) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  length_ += size;
  if (buffered_ > 0) {
    const size_t take = size < 64 - buffered_ ? size : 64 - buffered_;
    std::memcpy(buffer_ + buffered_, p, take);
    buffered_ += take;
    p += take;
    size -= take;
    if (buffered_ < 64) return;
    Compress(buffer_);
    buffered_ = 0;
  }
  for (; size >= 64; p += 64, size -= 64) Compress(p);
  std::memcpy(buffer_, p, size);
  buffered_ = size;
}

std::string Md5::HexDigest() {
  const uint64_t bit_length = length_ * 8;
  const uint8_t one_bit = 0x80;
  Update(&one_bit, 1);
  const uint8_t zero = 0;
  while (buffered_ != 56) Update(&zero, 1);
  uint8_t tail[8];
  for (int i = 0; i < 8; ++i) tail[i] = static_cast<uint8_t>(bit_length >> (8 * i));
  Update(tail, 8);

  static const char kHex[] = "0123456789abcdef";
  std::string hex(32, '0');
  for (int word = 0; word < 4; ++word) {
    for (int byte = 0; byte < 4; ++byte) {
      const uint8_t v = static_cast<uint8_t>(state_[word] >> (8 * byte));
      hex[word * 8 + byte * 2] = kHex[v >> 4];
      hex[word * 8 + byte * 2 + 1] = kHex[v & 15];
    }
  }
  return hex;
}

std::string Md5::Of(std::string_view text) {
  Md5 md5;
  md5.Update(text);
  return md5.HexDigest();
}

}  // namespace basalt::slt
