// Reading pragma values as SQLite reads them: the 32-bit integer reader
// (cache_size, user_version, ...), the 64-bit one (journal_size_limit,
// threads, ...) and the levels and booleans of synchronous and the flags.
#include <cstdint>

#include "common/strings.h"
#include "main/pragma.h"

namespace basalt {

namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }
int HexValue(char c) {
  if (IsDigit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// "0x" followed by a hex digit at v[i].
bool HexPrefix(std::string_view v, size_t i) {
  return i + 2 < v.size() && v[i] == '0' && (v[i + 1] == 'x' || v[i + 1] == 'X') &&
         HexValue(v[i + 2]) >= 0;
}

}  // namespace

bool PragmaInt32(std::string_view v, int32_t* out) {
  *out = 0;
  size_t i = 0;
  bool neg = false;
  if (i < v.size() && (v[i] == '-' || v[i] == '+')) {
    neg = v[i++] == '-';
  } else if (HexPrefix(v, i)) {  // hex only without a sign
    i += 2;
    while (i < v.size() && v[i] == '0') ++i;
    uint32_t u = 0;
    size_t digits = 0;
    for (; i < v.size() && HexValue(v[i]) >= 0; ++i, ++digits) {
      u = u * 16 + static_cast<uint32_t>(HexValue(v[i]));
    }
    if (digits > 8 || (u & 0x80000000u) != 0) return false;
    *out = static_cast<int32_t>(u);
    return true;
  }
  if (i >= v.size() || !IsDigit(v[i])) return false;
  while (i < v.size() && v[i] == '0') ++i;
  int64_t n = 0;
  size_t digits = 0;
  for (; i < v.size() && IsDigit(v[i]) && digits < 11; ++i, ++digits) n = n * 10 + (v[i] - '0');
  if (digits > 10) return false;
  if (n - (neg ? 1 : 0) > INT32_MAX) return false;
  *out = static_cast<int32_t>(neg ? -n : n);
  return true;
}

int32_t PragmaAtoi(std::string_view v) {
  int32_t n = 0;
  (void)PragmaInt32(v, &n);
  return n;
}

bool PragmaInt64(std::string_view v, int64_t* out) {
  *out = 0;
  if (HexPrefix(v, 0)) {
    size_t i = 2;
    while (i < v.size() && v[i] == '0') ++i;
    uint64_t u = 0;
    size_t digits = 0;
    for (; i < v.size() && HexValue(v[i]) >= 0; ++i, ++digits) {
      u = u * 16 + static_cast<uint64_t>(HexValue(v[i]));
    }
    *out = static_cast<int64_t>(u);
    return i == v.size() && digits <= 16;
  }
  size_t i = 0;
  while (i < v.size() && IsSpace(v[i])) ++i;
  bool neg = false;
  if (i < v.size() && (v[i] == '-' || v[i] == '+')) neg = v[i++] == '-';
  const size_t start = i;
  uint64_t u = 0;
  bool overflow = false;
  for (; i < v.size() && IsDigit(v[i]); ++i) {
    const uint64_t d = static_cast<uint64_t>(v[i] - '0');
    if (u > (UINT64_MAX - d) / 10) overflow = true;
    if (!overflow) u = u * 10 + d;
  }
  const bool any = i > start;
  size_t end = i;
  while (end < v.size() && IsSpace(v[end])) ++end;
  const uint64_t limit = neg ? uint64_t{1} << 63 : (uint64_t{1} << 63) - 1;
  if (overflow || u > limit) {
    *out = neg ? INT64_MIN : INT64_MAX;
    return false;
  }
  *out = neg ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  return any && end == v.size();
}

int PragmaSafetyLevel(std::string_view v, bool omit_full, int dflt) {
  if (!v.empty() && IsDigit(v[0])) return static_cast<uint8_t>(PragmaAtoi(v));
  static const struct {
    const char* word;
    int level;
    bool full_only;
  } kWords[] = {{"no", 0, false}, {"off", 0, false},  {"false", 0, false}, {"yes", 1, false},
                {"on", 1, false}, {"true", 1, false}, {"extra", 3, true},  {"full", 2, true}};
  for (const auto& w : kWords) {
    if (w.full_only && omit_full) continue;
    if (EqualsIgnoreCase(v, w.word)) return w.level;
  }
  return dflt;
}

bool PragmaBool(std::string_view v, bool dflt) {
  return PragmaSafetyLevel(v, true, dflt ? 1 : 0) != 0;
}

}  // namespace basalt
