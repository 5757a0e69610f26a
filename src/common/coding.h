// Big-endian integers and SQLite varints, as the file format stores them.
//
// Varint (fileformat2 "Record Format"): 1..9 bytes, big-endian. Bytes 1..8
// contribute their low 7 bits and have the high bit set when another byte
// follows; a 9th byte contributes all 8 bits. Values are unsigned 64-bit.
#pragma once

#include <cstdint>

namespace basalt {

inline uint16_t Get16(const uint8_t* p) { return uint16_t((p[0] << 8) | p[1]); }
inline uint32_t Get24(const uint8_t* p) { return (uint32_t(p[0]) << 16) | (p[1] << 8) | p[2]; }
inline uint32_t Get32(const uint8_t* p) {
  return (uint32_t(p[0]) << 24) | (uint32_t(p[1]) << 16) | (uint32_t(p[2]) << 8) | p[3];
}
inline uint64_t Get64(const uint8_t* p) { return (uint64_t(Get32(p)) << 32) | Get32(p + 4); }
inline void Put16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v >> 8);
  p[1] = uint8_t(v);
}
inline void Put32(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v >> 24);
  p[1] = uint8_t(v >> 16);
  p[2] = uint8_t(v >> 8);
  p[3] = uint8_t(v);
}
inline void Put64(uint8_t* p, uint64_t v) {
  Put32(p, uint32_t(v >> 32));
  Put32(p + 4, uint32_t(v));
}

// Decodes a varint at p (reading at most 9 bytes); stores it in *v and returns
// the number of bytes consumed.
inline int GetVarint(const uint8_t* p, uint64_t* v) {
  if (p[0] < 0x80) {
    *v = p[0];
    return 1;
  }
  if (p[1] < 0x80) {
    *v = (uint64_t(p[0] & 0x7f) << 7) | p[1];
    return 2;
  }
  uint64_t x = 0;
  for (int i = 0; i < 8; ++i) {
    x = (x << 7) | (p[i] & 0x7f);
    if (p[i] < 0x80) {
      *v = x;
      return i + 1;
    }
  }
  *v = (x << 8) | p[8];
  return 9;
}

// Like GetVarint for values known to fit 32 bits (header sizes, serial types);
// larger values saturate to 0xffffffff.
inline int GetVarint32(const uint8_t* p, uint32_t* v) {
  if (p[0] < 0x80) {
    *v = p[0];
    return 1;
  }
  uint64_t x;
  int n = GetVarint(p, &x);
  *v = x > 0xffffffffu ? 0xffffffffu : uint32_t(x);
  return n;
}

// Number of bytes PutVarint writes for v.
inline int VarintLen(uint64_t v) {
  if (v <= 0x7f) return 1;
  if (v <= 0x3fff) return 2;
  if (v > 0x00ffffffffffffffULL) return 9;
  int n = 1;
  do {
    ++n;
    v >>= 7;
  } while (v > 0x7f);
  return n;
}

// Writes v at p (up to 9 bytes); returns the number of bytes written.
inline int PutVarint(uint8_t* p, uint64_t v) {
  if (v <= 0x7f) {
    p[0] = uint8_t(v);
    return 1;
  }
  if (v <= 0x3fff) {
    p[0] = uint8_t((v >> 7) | 0x80);
    p[1] = uint8_t(v & 0x7f);
    return 2;
  }
  if (v > 0x00ffffffffffffffULL) {
    p[8] = uint8_t(v);
    v >>= 8;
    for (int i = 7; i >= 0; --i) {
      p[i] = uint8_t((v & 0x7f) | 0x80);
      v >>= 7;
    }
    return 9;
  }
  uint8_t buf[9];
  int n = 0;
  do {
    buf[n++] = uint8_t((v & 0x7f) | 0x80);
    v >>= 7;
  } while (v != 0);
  buf[0] &= 0x7f;
  for (int i = 0; i < n; ++i) p[i] = buf[n - 1 - i];
  return n;
}

}  // namespace basalt
