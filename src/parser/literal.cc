// Literal decoding: dequoting, blob hex, integer and real values.
#include <charconv>
#include <cstring>
#include <limits>

#include "parser/parser_impl.h"

namespace basalt::parser {

namespace {

char CloseQuote(char open) { return open == '[' ? ']' : open; }

bool IsQuote(char c) { return c == '\'' || c == '"' || c == '`' || c == '['; }

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return c - 'A' + 10;
}

}  // namespace

std::string_view Dequote(Arena* arena, std::string_view text) {
  if (text.size() < 2 || !IsQuote(text[0])) return text;
  const char q = CloseQuote(text[0]);
  std::string_view inner = text.substr(1, text.size() - 2);
  if (q == ']' || inner.find(q) == std::string_view::npos) return inner;
  char* out = static_cast<char*>(arena->Allocate(inner.size() + 1, 1));
  size_t j = 0;
  for (size_t i = 0; i < inner.size(); ++i) {
    out[j++] = inner[i];
    if (inner[i] == q) ++i;  // a doubled quote stands for one
  }
  out[j] = '\0';
  return std::string_view(out, j);
}

std::string_view DequoteSpan(Arena* arena, std::string_view text) {
  if (text.empty() || !IsQuote(text[0])) return text;
  const char q = CloseQuote(text[0]);
  // Find the closing quote; note whether any doubled quote must collapse.
  bool doubled = false;
  size_t i = 1;
  for (; i < text.size(); ++i) {
    if (text[i] == q) {
      if (i + 1 < text.size() && text[i + 1] == q) {
        doubled = true;
        ++i;
      } else {
        break;
      }
    }
  }
  std::string_view inner = text.substr(1, i - 1);
  if (!doubled) return inner;
  char* out = static_cast<char*>(arena->Allocate(inner.size() + 1, 1));
  size_t j = 0;
  for (size_t k = 0; k < inner.size(); ++k) {
    out[j++] = inner[k];
    if (inner[k] == q) ++k;
  }
  out[j] = '\0';
  return std::string_view(out, j);
}

std::string_view DecodeBlob(Arena* arena, std::string_view token) {
  // token is x'....' with an even number of hex digits.
  std::string_view hex = token.substr(2, token.size() - 3);
  size_t n = hex.size() / 2;
  char* out = static_cast<char*>(arena->Allocate(n + 1, 1));
  for (size_t i = 0; i < n; ++i) {
    out[i] = static_cast<char>((HexValue(hex[2 * i]) << 4) | HexValue(hex[2 * i + 1]));
  }
  out[n] = '\0';
  return std::string_view(out, n);
}

int IntegerLiteral(std::string_view text, int64_t* value) {
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    size_t i = 2;
    while (i < text.size() && text[i] == '0') ++i;
    if (text.size() - i > 16) return 2;
    uint64_t u = 0;
    for (; i < text.size(); ++i) u = (u << 4) | static_cast<uint64_t>(HexValue(text[i]));
    *value = static_cast<int64_t>(u);
    return 0;
  }
  uint64_t u = 0;
  constexpr uint64_t kLimit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + 1;
  for (char c : text) {
    uint64_t digit = static_cast<uint64_t>(c - '0');
    if (u > (kLimit - digit) / 10) return 1;  // beyond 2^63
    u = u * 10 + digit;
  }
  if (u == kLimit) {
    *value = std::numeric_limits<int64_t>::min();
    return 3;
  }
  *value = static_cast<int64_t>(u);
  return 0;
}

double RealLiteral(std::string_view text) {
  double d = 0;
  auto r = std::from_chars(text.data(), text.data() + text.size(), d);
  if (r.ec == std::errc::result_out_of_range) {
    // Overflow gives infinity, underflow zero: tell them apart by the
    // decimal magnitude, the place of the first nonzero digit plus the
    // exponent ("0.<400 zeros>1" underflows though it has no exponent).
    size_t e = text.find_first_of("eE");
    std::string_view mant = text.substr(0, e);
    int64_t mag = 0;
    bool nonzero = false;
    size_t dot = mant.find('.');
    size_t int_len = dot == std::string_view::npos ? mant.size() : dot;
    for (size_t i = 0; i < mant.size() && !nonzero; ++i) {
      if (mant[i] >= '1' && mant[i] <= '9') {
        nonzero = true;
        mag = i < int_len ? static_cast<int64_t>(int_len - i) - 1
                          : -static_cast<int64_t>(i - int_len);
      }
    }
    if (!nonzero) return 0.0;
    if (e != std::string_view::npos) {
      size_t i = e + 1;
      bool neg = i < text.size() && text[i] == '-';
      if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
      int64_t x = 0;
      for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
        if (x < 1000000) x = x * 10 + (text[i] - '0');
      }
      mag += neg ? -x : x;
    }
    return mag < 0 ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return d;
}

}  // namespace basalt::parser
