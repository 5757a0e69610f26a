// UTF-8 as FTS5's tokenizers read and write it, byte for byte like SQLite:
// a lead byte >= 0xC0 takes every continuation byte that follows (no length
// limit), and a result below 0x80, a surrogate or U+FFFE/U+FFFF becomes
// U+FFFD; a stray continuation byte (0x80..0xBF) is a code point of its own.
#pragma once

#include <cstdint>

namespace basalt::fts5 {

// Decodes the character at *p (< end, *p >= 0x80) and advances *p.
inline uint32_t DecodeUtf8(const unsigned char** p, const unsigned char* end) {
  uint32_t c = *(*p)++;
  if (c < 0xC0) return c;
  // The payload bits of the lead byte: 5 for 110xxxxx, 4, 3, 2, 1, none.
  static constexpr uint8_t kLeadMask[8] = {0x1F, 0x1F, 0x1F, 0x1F, 0x0F, 0x0F, 0x07, 0x03};
  c &= c >= 0xFC ? (c >= 0xFE ? 0x00 : 0x01) : kLeadMask[(c - 0xC0) >> 3];
  while (*p < end && (**p & 0xC0) == 0x80) c = (c << 6) + (*(*p)++ & 0x3F);
  if (c < 0x80 || (c & 0xFFFFF800) == 0xD800 || (c & 0xFFFFFFFE) == 0xFFFE) c = 0xFFFD;
  return c;
}

// Writes `c` at out (room for 4 bytes) and returns the byte after it.
inline char* EncodeUtf8(uint32_t c, char* out) {
  if (c < 0x80) {
    *out++ = static_cast<char>(c);
  } else if (c < 0x800) {
    *out++ = static_cast<char>(0xC0 | (c >> 6));
    *out++ = static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    *out++ = static_cast<char>(0xE0 | (c >> 12));
    *out++ = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (c & 0x3F));
  } else {
    *out++ = static_cast<char>(0xF0 | ((c >> 18) & 0x07));
    *out++ = static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    *out++ = static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    *out++ = static_cast<char>(0x80 | (c & 0x3F));
  }
  return out;
}

}  // namespace basalt::fts5
