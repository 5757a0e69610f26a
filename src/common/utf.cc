#include "common/utf.h"

namespace basalt {

uint32_t Utf8Decode(const uint8_t** pp, const uint8_t* end) {
  const uint8_t* p = *pp;
  uint32_t c = *p++;
  if (c >= 0xc0) {
    int extra = c >= 0xf0 ? 3 : c >= 0xe0 ? 2 : 1;
    c &= (0x3f >> extra);
    while (p < end && (*p & 0xc0) == 0x80) {
      c = (c << 6) | (*p++ & 0x3f);
      if (--extra == 0) break;
    }
    // Overlong forms and surrogates become U+FFFD, as SQLite does.
    if (c < 0x80 || (c & 0xfffff800) == 0xd800 || (c & 0xfffffffe) == 0xfffe) c = 0xfffd;
  }
  *pp = p;
  return c;
}

int Utf8Encode(uint32_t c, char* out) {
  if (c < 0x80) {
    out[0] = char(c);
    return 1;
  }
  if (c < 0x800) {
    out[0] = char(0xc0 | (c >> 6));
    out[1] = char(0x80 | (c & 0x3f));
    return 2;
  }
  if (c < 0x10000) {
    out[0] = char(0xe0 | (c >> 12));
    out[1] = char(0x80 | ((c >> 6) & 0x3f));
    out[2] = char(0x80 | (c & 0x3f));
    return 3;
  }
  out[0] = char(0xf0 | ((c >> 18) & 0x07));
  out[1] = char(0x80 | ((c >> 12) & 0x3f));
  out[2] = char(0x80 | ((c >> 6) & 0x3f));
  out[3] = char(0x80 | (c & 0x3f));
  return 4;
}

void Utf8Append(uint32_t cp, std::string* out) {
  char buf[4];
  int n = Utf8Encode(cp, buf);
  out->append(buf, size_t(n));
}

size_t Utf8CharCount(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xc0) != 0x80;
  return n;
}

size_t Utf8ByteOffset(std::string_view s, size_t n) {
  size_t i = 0;
  while (i < s.size() && n > 0) {
    ++i;
    while (i < s.size() && (static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) ++i;
    --n;
  }
  return i;
}

std::string Utf16ToUtf8(const void* data, size_t bytes, bool big_endian) {
  const uint8_t* p = static_cast<const uint8_t*>(data);
  size_t n = bytes / 2;
  std::string out;
  out.reserve(n);
  auto unit = [&](size_t i) -> uint32_t {
    return big_endian ? (uint32_t(p[2 * i]) << 8) | p[2 * i + 1]
                      : (uint32_t(p[2 * i + 1]) << 8) | p[2 * i];
  };
  for (size_t i = 0; i < n; ++i) {
    uint32_t c = unit(i);
    if (c >= 0xd800 && c < 0xdc00 && i + 1 < n) {
      uint32_t c2 = unit(i + 1);
      if (c2 >= 0xdc00 && c2 < 0xe000) {
        c = 0x10000 + ((c - 0xd800) << 10) + (c2 - 0xdc00);
        ++i;
      }
    }
    Utf8Append(c, &out);
  }
  return out;
}

std::u16string Utf8ToUtf16(std::string_view s) {
  std::u16string out;
  out.reserve(s.size());
  const uint8_t* p = reinterpret_cast<const uint8_t*>(s.data());
  const uint8_t* end = p + s.size();
  while (p < end) {
    uint32_t c = Utf8Decode(&p, end);
    if (c >= 0x10000) {
      c -= 0x10000;
      out.push_back(char16_t(0xd800 + (c >> 10)));
      out.push_back(char16_t(0xdc00 + (c & 0x3ff)));
    } else {
      out.push_back(char16_t(c));
    }
  }
  return out;
}

}  // namespace basalt
