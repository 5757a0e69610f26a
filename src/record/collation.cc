#include "record/collation.h"

#include "common/strings.h"

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

constexpr Collation kBinary = {"BINARY", CompareBinary, nullptr, nullptr};
constexpr Collation kNocase = {"NOCASE", CompareNocase, nullptr, nullptr};
constexpr Collation kRtrim = {"RTRIM", CompareRtrim, nullptr, nullptr};

}  // namespace

const Collation* BinaryCollation() { return &kBinary; }
const Collation* NocaseCollation() { return &kNocase; }
const Collation* RtrimCollation() { return &kRtrim; }

const Collation* FindBuiltinCollation(std::string_view name) {
  for (const Collation* c : {&kBinary, &kNocase, &kRtrim}) {
    if (EqualsIgnoreCase(name, c->name)) return c;
  }
  return nullptr;
}

}  // namespace basalt
