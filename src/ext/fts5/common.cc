// Varints, quoting and statement helpers of the FTS5 module (common.h).
#include "ext/fts5/common.h"

namespace basalt::fts5 {

int VarintLen(uint64_t v) {
  if (v >> 56) return 9;
  int n = 1;
  while (v >>= 7) ++n;
  return n;
}

void PutVarintSlow(std::string* out, uint64_t v) {
  uint8_t tmp[9];
  if (v >> 56) {  // nine bytes: the last carries a full 8 bits
    tmp[8] = static_cast<uint8_t>(v);
    v >>= 8;
    for (int i = 7; i >= 0; --i) {
      tmp[i] = static_cast<uint8_t>((v & 0x7f) | 0x80);
      v >>= 7;
    }
    out->append(reinterpret_cast<const char*>(tmp), 9);
    return;
  }
  int n = 0;
  do {
    tmp[n++] = static_cast<uint8_t>((v & 0x7f) | 0x80);
    v >>= 7;
  } while (v != 0);
  tmp[0] &= 0x7f;  // tmp holds the groups least significant first
  for (int i = n - 1; i >= 0; --i) out->push_back(static_cast<char>(tmp[i]));
}

int GetVarint(const uint8_t* p, const uint8_t* end, uint64_t* v) {
  uint64_t r = 0;
  for (int i = 0; i < 9; ++i) {
    if (p + i >= end) return 0;
    if (i == 8) {
      *v = (r << 8) | p[i];
      return 9;
    }
    r = (r << 7) | (p[i] & 0x7f);
    if ((p[i] & 0x80) == 0) {
      *v = r;
      return i + 1;
    }
  }
  return 0;
}

namespace {
std::string Quote(std::string_view s, char q) {
  std::string out(1, q);
  for (char c : s) {
    out.push_back(c);
    if (c == q) out.push_back(c);
  }
  out.push_back(q);
  return out;
}
}  // namespace

std::string QuoteLiteral(std::string_view s) { return Quote(s, '\''); }
std::string QuoteIdent(std::string_view s) { return Quote(s, '"'); }

int ExecSql(sqlite3* db, const std::string& sql, std::string* err) {
  char* msg = nullptr;
  int rc = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &msg);
  if (msg != nullptr) {
    if (err != nullptr) *err = msg;
    sqlite3_free(msg);
  }
  return rc;
}

}  // namespace basalt::fts5
