// Option parsing shared by the built-in tokenizers: their arguments come
// as name/value pairs ("remove_diacritics", "0", ...), names compared
// without regard to ASCII case, as SQLite does.
#pragma once

namespace basalt::fts5 {

// Whether `a` equals `b` ignoring the case of ASCII letters.
inline bool OptionNameIs(const char* a, const char* b) {
  for (;; ++a, ++b) {
    unsigned char x = static_cast<unsigned char>(*a);
    unsigned char y = static_cast<unsigned char>(*b);
    if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
    if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
    if (x != y) return false;
    if (x == 0) return true;
  }
}

}  // namespace basalt::fts5
