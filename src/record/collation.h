// Collating sequences: BINARY, NOCASE, RTRIM built in; user collations come
// through the C API with the same shape.
#pragma once

#include <string_view>

namespace basalt {

struct Collation {
  const char* name;
  // memcmp-like comparison of two UTF-8 strings.
  int (*compare)(void* arg, int n1, const void* a, int n2, const void* b);
  void* arg;
  void (*destroy)(void* arg);  // may be null
};

// The built-in collations (static storage).
const Collation* BinaryCollation();
const Collation* NocaseCollation();  // ASCII case folding only, like SQLite
const Collation* RtrimCollation();   // BINARY, ignoring trailing spaces
// BINARY of a UTF-16 database, comparing UTF-8 values as SQLite compares
// the UTF-16 bytes it stores (little or big endian): text above U+FFFF
// sorts before U+E000..U+FFFF, and in little endian by low byte first.
const Collation* Utf16BinaryCollation(bool big_endian);

// Looks up a built-in collation by case-insensitive name; null if unknown.
const Collation* FindBuiltinCollation(std::string_view name);

}  // namespace basalt
