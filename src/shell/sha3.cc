// SHA3: the Keccak-f[1600] permutation in a sponge. Lanes are 64-bit
// little-endian words; the state is indexed x + 5*y.
#include "shell/sha3.h"

namespace shell {
namespace {

constexpr uint64_t kRoundConstants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL};
// rho offsets and pi destinations, in the order the lane walk visits them.
constexpr int kRho[24] = {1,  3,  6,  10, 15, 21, 28, 36, 45, 55, 2,  14,
                          27, 41, 56, 8,  25, 43, 62, 18, 39, 61, 20, 44};
constexpr int kPi[24] = {10, 7,  11, 17, 18, 3, 5,  16, 8,  21, 24, 4,
                         15, 23, 19, 13, 12, 2, 20, 14, 22, 9,  6,  1};

uint64_t Rotl(uint64_t x, int n) { return (x << n) | (x >> (64 - n)); }

}  // namespace

Sha3::Sha3(int bits) : rate_(static_cast<size_t>(200 - bits / 4)), bits_(bits) {}

void Sha3::Permute() {
  uint64_t* s = state_;
  for (uint64_t rc : kRoundConstants) {
    uint64_t c[5];
    for (int x = 0; x < 5; ++x) c[x] = s[x] ^ s[x + 5] ^ s[x + 10] ^ s[x + 15] ^ s[x + 20];
    for (int x = 0; x < 5; ++x) {
      const uint64_t d = c[(x + 4) % 5] ^ Rotl(c[(x + 1) % 5], 1);
      for (int y = 0; y < 25; y += 5) s[y + x] ^= d;
    }
    uint64_t carry = s[1];
    for (int i = 0; i < 24; ++i) {
      const uint64_t next = s[kPi[i]];
      s[kPi[i]] = Rotl(carry, kRho[i]);
      carry = next;
    }
    for (int y = 0; y < 25; y += 5) {
      uint64_t row[5];
      for (int x = 0; x < 5; ++x) row[x] = s[y + x];
      for (int x = 0; x < 5; ++x) s[y + x] ^= ~row[(x + 1) % 5] & row[(x + 2) % 5];
    }
    s[0] ^= rc;
  }
}

void Sha3::Update(const void* data, size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(data);
  for (size_t i = 0; i < n; ++i) {
    state_[pos_ / 8] ^= static_cast<uint64_t>(p[i]) << (8 * (pos_ % 8));
    if (++pos_ == rate_) {
      Permute();
      pos_ = 0;
    }
  }
}

std::string Sha3::Final() {
  // Padding: the SHA3 domain bits 01, then pad10*1 to the end of the block.
  state_[pos_ / 8] ^= static_cast<uint64_t>(0x06) << (8 * (pos_ % 8));
  state_[(rate_ - 1) / 8] ^= static_cast<uint64_t>(0x80) << (8 * ((rate_ - 1) % 8));
  Permute();
  std::string out;
  for (int i = 0; i < bits_ / 8; ++i) {
    out += static_cast<char>((state_[i / 8] >> (8 * (i % 8))) & 0xff);
  }
  return out;
}

}  // namespace shell
