#include "record/collation.h"

#include "common/strings.h"
#include "common/utf.h"

#include <algorithm>
#include <cstring>

namespace basalt {

namespace {

inline unsigned char FoldAscii(unsigned char c) {
  return (c >= 'A' && c <= 'Z') ? static_cast<unsigned char>(c + ('a' - 'A')) : c;
}

int CompareBinary(void*, int n1, const void* a, int n2, const void* b) {
  int n = std::min(n1, n2);
  int rc = n > 0 ? std::memcmp(a, b, static_cast<size_t>(n)) : 0;
  return rc != 0 ? rc : n1 - n2;
}

// ASCII-only case folding. Like SQLite, the common prefix is compared only up
// to a NUL byte in the first string; the lengths break remaining ties.
int CompareNocase(void*, int n1, const void* a, int n2, const void* b) {
  const unsigned char* x = static_cast<const unsigned char*>(a);
  const unsigned char* y = static_cast<const unsigned char*>(b);
  int n = std::min(n1, n2);
  int i = 0;
  while (i < n && x[i] != 0 && FoldAscii(x[i]) == FoldAscii(y[i])) ++i;
  int rc = i < n ? int(FoldAscii(x[i])) - int(FoldAscii(y[i])) : 0;
  return rc != 0 ? rc : n1 - n2;
}

// BINARY after dropping trailing spaces (only ' ') from both strings.
int CompareRtrim(void* arg, int n1, const void* a, int n2, const void* b) {
  const char* x = static_cast<const char*>(a);
  const char* y = static_cast<const char*>(b);
  while (n1 > 0 && x[n1 - 1] == ' ') --n1;
  while (n2 > 0 && y[n2 - 1] == ' ') --n2;
  return CompareBinary(arg, n1, a, n2, b);
}

// Reads the next UTF-16 code unit of UTF-8 text at *p (surrogate pairs for
// code points above U+FFFF; *pending holds a pair's second half), as the
// text would be stored in a UTF-16 database (Utf8ToUtf16).
inline uint32_t NextUtf16Unit(const uint8_t** p, const uint8_t* end, uint32_t* pending) {
  if (*pending != 0) {
    uint32_t u = *pending;
    *pending = 0;
    return u;
  }
  uint32_t c = Utf8Decode(p, end);
  if (c < 0x10000) return c;
  c -= 0x10000;
  *pending = 0xdc00 + (c & 0x3ff);
  return 0xd800 + (c >> 10);
}

// BINARY of a UTF-16 database: SQLite compares the stored UTF-16 bytes with
// memcmp, so UTF-8 text is compared as the byte sequence of its UTF-16
// form: code unit by code unit, each unit's bytes in storage order (`arg`
// non-null: little endian, low byte first), a proper prefix first.
int CompareUtf16Bytes(void* arg, int n1, const void* a, int n2, const void* b) {
  const uint8_t* x = static_cast<const uint8_t*>(a);
  const uint8_t* y = static_cast<const uint8_t*>(b);
  const uint8_t* xe = x + n1;
  const uint8_t* ye = y + n2;
  // Equal leading ASCII bytes are equal units in either byte order.
  while (x < xe && y < ye && *x == *y && *x < 0x80) {
    ++x;
    ++y;
  }
  uint32_t px = 0, py = 0;
  const bool little = arg != nullptr;
  while ((x < xe || px != 0) && (y < ye || py != 0)) {
    uint32_t ux = NextUtf16Unit(&x, xe, &px);
    uint32_t uy = NextUtf16Unit(&y, ye, &py);
    if (ux == uy) continue;
    if (little) {
      ux = ((ux & 0xff) << 8) | (ux >> 8);
      uy = ((uy & 0xff) << 8) | (uy >> 8);
    }
    return ux < uy ? -1 : 1;
  }
  const bool x_left = x < xe || px != 0;
  const bool y_left = y < ye || py != 0;
  return x_left ? 1 : (y_left ? -1 : 0);
}

int kLittleTag = 1;

constexpr Collation kBinary = {"BINARY", CompareBinary, nullptr, nullptr};
constexpr Collation kBinary16le = {"BINARY", CompareUtf16Bytes, &kLittleTag, nullptr};
constexpr Collation kBinary16be = {"BINARY", CompareUtf16Bytes, nullptr, nullptr};
constexpr Collation kNocase = {"NOCASE", CompareNocase, nullptr, nullptr};
constexpr Collation kRtrim = {"RTRIM", CompareRtrim, nullptr, nullptr};

}  // namespace

const Collation* BinaryCollation() { return &kBinary; }
const Collation* NocaseCollation() { return &kNocase; }
const Collation* RtrimCollation() { return &kRtrim; }
const Collation* Utf16BinaryCollation(bool big_endian) {
  return big_endian ? &kBinary16be : &kBinary16le;
}

const Collation* FindBuiltinCollation(std::string_view name) {
  for (const Collation* c : {&kBinary, &kNocase, &kRtrim}) {
    if (EqualsIgnoreCase(name, c->name)) return c;
  }
  return nullptr;
}

}  // namespace basalt
