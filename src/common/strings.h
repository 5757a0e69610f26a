// Small ASCII string helpers for SQL identifiers, which compare without
// regard to the case of ASCII letters (lang_naming).
#pragma once

#include <string>
#include <string_view>

namespace basalt {

inline char FoldAsciiChar(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c + 32) : c; }

// True if a and b are equal when ASCII letters are folded to lower case.
inline bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (FoldAsciiChar(a[i]) != FoldAsciiChar(b[i])) return false;
  }
  return true;
}

// Lower-cases ASCII letters (identifier keys).
inline std::string LowerAscii(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = FoldAsciiChar(c);
  return out;
}

// `s` between `quote` characters, each quote inside doubled: an SQL
// identifier ('"') or string literal ('\'') that reads back as `s`.
inline std::string QuoteSql(std::string_view s, char quote) {
  std::string out(1, quote);
  for (char c : s) {
    if (c == quote) out += quote;
    out += c;
  }
  return out + quote;
}
inline std::string IdentQuote(std::string_view s) { return QuoteSql(s, '"'); }

}  // namespace basalt
