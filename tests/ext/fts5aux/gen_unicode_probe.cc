// probe system unicode61 and dump raw per-codepoint data to stdout as text
#include <cstring>
#include <vector>
#include "system_sqlite.h"
using namespace basalt::fts5test;
static std::vector<std::string> toks;
static int cb(void*, int, const char* t, int n, int, int) {
  toks.emplace_back(t, n);
  return 0;
}
static std::string enc(uint32_t c) {
  std::string o;
  if (c < 0x80)
    o += char(c);
  else if (c < 0x800) {
    o += char(0xC0 | (c >> 6));
    o += char(0x80 | (c & 63));
  } else if (c < 0x10000) {
    o += char(0xE0 | (c >> 12));
    o += char(0x80 | ((c >> 6) & 63));
    o += char(0x80 | (c & 63));
  } else {
    o += char(0xF0 | (c >> 18));
    o += char(0x80 | ((c >> 12) & 63));
    o += char(0x80 | ((c >> 6) & 63));
    o += char(0x80 | (c & 63));
  }
  return o;
}
static uint32_t dec(const std::string& s, size_t* i) {
  unsigned char c = s[(*i)++];
  uint32_t v = c;
  if (c >= 0xC0) {
    v = c >= 0xF0 ? c & 7 : c >= 0xE0 ? c & 15 : c & 31;
    while (*i < s.size() && (s[*i] & 0xC0) == 0x80) v = (v << 6) | (s[(*i)++] & 63);
  }
  return v;
}
fts5_tokenizer T;
void* UD;
Fts5Tokenizer* mk(std::vector<const char*> a) {
  Fts5Tokenizer* t;
  if (T.xCreate(UD, a.data(), a.size(), &t)) {
    fprintf(stderr, "create failed\n");
    exit(1);
  }
  return t;
}
void run(Fts5Tokenizer* t, const std::string& s) {
  toks.clear();
  T.xTokenize(t, nullptr, FTS5_TOKENIZE_DOCUMENT, s.data(), s.size(), cb);
}
const char* kCats[] = {"Cc", "Cf", "Cn", "Co", "Cs", "Ll", "Lm", "Lo", "Lt", "Lu",
                       "Mc", "Me", "Mn", "Nd", "Nl", "No", "Pc", "Pd", "Pe", "Pf",
                       "Pi", "Po", "Ps", "Sc", "Sk", "Sm", "So", "Zl", "Zp", "Zs"};
int main() {
  SystemSqlite s;
  if (!s.Load()) return 1;
  sqlite3* db;
  s.open(":memory:", &db);
  fts5_api* api = s.Fts5Api(db);
  api->xFindTokenizer(api, "unicode61", &UD, &T);
  const uint32_t kMax = 0x110000;
  std::vector<int> cat(kMax, -1);
  std::vector<uint32_t> mask(kMax, 0);
  for (int k = 0; k < 30; ++k) {
    Fts5Tokenizer* t = mk({"remove_diacritics", "0", "categories", kCats[k]});
    for (uint32_t c = 0; c < kMax; ++c) {
      if ((c & 0xFFFFF800) == 0xD800) continue;
      run(t, enc(c));
      if (!toks.empty()) {
        mask[c] |= 1u << k;
        if (cat[c] == -1) cat[c] = k;
      }
    }
    T.xDelete(t);
  }
  // diacritic continuation: "x c x" with categories Ll (or "X c X" with Lu)
  std::vector<int> cont(kMax, 0);
  Fts5Tokenizer* tl = mk({"remove_diacritics", "0", "categories", "Ll"});
  Fts5Tokenizer* tu = mk({"remove_diacritics", "0", "categories", "Lu"});
  for (uint32_t c = 0x80; c < kMax; ++c) {
    if ((c & 0xFFFFF800) == 0xD800) continue;
    bool ll = cat[c] == 5;
    run(ll ? tu : tl, (ll ? "X" : "x") + enc(c) + (ll ? "X" : "x"));
    if (toks.size() == 1) cont[c] = 1;
  }
  // folds
  std::vector<uint32_t> fold[3];
  for (int rd = 0; rd < 3; ++rd) {
    fold[rd].assign(kMax, 0);
    std::string rds(1, '0' + rd);
    Fts5Tokenizer* t = mk({"remove_diacritics", rds.c_str(), "categories", "L* N* C* M* P* S* Z*"});
    for (uint32_t c = 0; c < kMax; ++c) {
      if ((c & 0xFFFFF800) == 0xD800) continue;
      run(t, "x" + enc(c) + "x");
      if (toks.size() != 1) {
        continue;
      }
      std::string m = toks[0].substr(1, toks[0].size() - 2);
      if (m.empty()) {
        fold[rd][c] = 0;
        continue;
      }
      size_t i = 0;
      fold[rd][c] = dec(m, &i);
      if (i != m.size()) fprintf(stderr, "multi-char fold %x\n", c);
    }
  }
  for (uint32_t c = 0; c < kMax; ++c)
    printf("%x %x %d %x %x %x\n", c, mask[c], cont[c], fold[0][c], fold[1][c], fold[2][c]);
}
