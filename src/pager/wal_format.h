// The -wal file format (fileformat2 section 4, "The Write-Ahead Log").
//
// WAL header, 32 bytes, big-endian:
//   offset size field
//        0    4 magic 0x377f0682 (checksums over little-endian words) or
//               0x377f0683 (big-endian words)
//        4    4 format version 3007000
//        8    4 database page size
//       12    4 checkpoint sequence number
//       16    4 salt-1: incremented with each WAL reset
//       20    4 salt-2: random on each WAL reset
//       24    4 checksum-1 } over bytes 0..23
//       28    4 checksum-2 }
//
// Frame = 24-byte frame header + one page, frame k (k >= 1) at offset
// 32 + (k - 1) * (24 + page size):
//   offset size field
//        0    4 page number
//        4    4 database size in pages after the commit (commit frames),
//               else 0
//        8    4 salt-1 } copies of the header's; a frame whose salts differ
//       12    4 salt-2 } is left over from before a reset
//       16    4 checksum-1 } cumulative over the header's first 24 bytes,
//       20    4 checksum-2 } then for each frame its first 8 bytes and page
//
// Checksum over 32-bit words x0..xn (byte order per the magic), starting
// from (s0, s1): for each pair, s0 += x[i] + s1; s1 += x[i+1] + s0. Stored
// big-endian whatever the word order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "common/coding.h"

namespace basalt::walfmt {

inline constexpr uint32_t kMagic = 0x377f0682;  // | 1 for big-endian checksums
inline constexpr uint32_t kVersion = 3007000;
inline constexpr int kHdrMagic = 0;
inline constexpr int kHdrVersion = 4;
inline constexpr int kHdrPageSize = 8;
inline constexpr int kHdrCkptSeq = 12;
inline constexpr int kHdrSalt1 = 16;
inline constexpr int kHdrSalt2 = 20;
inline constexpr int kHdrCksum1 = 24;
inline constexpr int kHdrCksum2 = 28;
inline constexpr uint32_t kHeaderSize = 32;

inline constexpr int kFrPgno = 0;
inline constexpr int kFrCommitSize = 4;
inline constexpr int kFrSalt1 = 8;
inline constexpr int kFrSalt2 = 12;
inline constexpr int kFrCksum1 = 16;
inline constexpr int kFrCksum2 = 20;
inline constexpr uint32_t kFrameHeaderSize = 24;

inline uint64_t FrameOffset(uint32_t frame, uint32_t page_size) {
  return kHeaderSize + uint64_t(frame - 1) * (kFrameHeaderSize + page_size);
}

// True on a big-endian host; the checksums Basalt writes use host order,
// as SQLite's do.
inline bool HostIsBigEndian() {
  const uint16_t probe = 1;
  return *reinterpret_cast<const uint8_t*>(&probe) == 0;
}

// Continues the checksum (s[0], s[1]) over n bytes (n a multiple of 8).
inline void Checksum(bool big_endian_words, const uint8_t* p, size_t n, uint32_t s[2]) {
  uint32_t s0 = s[0], s1 = s[1];
  if (big_endian_words) {
    for (size_t i = 0; i < n; i += 8) {
      s0 += Get32(p + i) + s1;
      s1 += Get32(p + i + 4) + s0;
    }
  } else {
    auto le = [](const uint8_t* q) {
      return uint32_t(q[0]) | (uint32_t(q[1]) << 8) | (uint32_t(q[2]) << 16) |
             (uint32_t(q[3]) << 24);
    };
    for (size_t i = 0; i < n; i += 8) {
      s0 += le(p + i) + s1;
      s1 += le(p + i + 4) + s0;
    }
  }
  s[0] = s0;
  s[1] = s1;
}

}  // namespace basalt::walfmt
