// The trigram tokenizer of FTS5 (3.40): every run of three consecutive
// characters is a token, whitespace and punctuation included, folded to
// lower case unless case_sensitive is 1 (no diacritic removal: that option
// came in later versions). Text stops at the first NUL byte. The only
// option is case_sensitive, 0 or 1.
#include <new>

#include "ext/fts5/builtins.h"
#include "ext/fts5/tokenize/options.h"
#include "ext/fts5/tokenize/tokenizers.h"
#include "ext/fts5/tokenize/unicode_data.h"
#include "ext/fts5/tokenize/utf8.h"

namespace basalt::fts5 {
namespace {

struct Trigram {
  bool fold = true;
};

int Create(void*, const char** argv, int argc, Fts5Tokenizer** out) {
  *out = nullptr;
  bool fold = true;
  for (int i = 0; i < argc; i += 2) {
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    if (value == nullptr || !OptionNameIs(argv[i], "case_sensitive") ||
        (value[0] != '0' && value[0] != '1') || value[1] != '\0') {
      return SQLITE_ERROR;
    }
    fold = value[0] == '0';
  }
  auto* t = new (std::nothrow) Trigram();
  if (t == nullptr) return SQLITE_NOMEM;
  t->fold = fold;
  *out = reinterpret_cast<Fts5Tokenizer*>(t);
  return SQLITE_OK;
}

void Delete(Fts5Tokenizer* tok) { delete reinterpret_cast<Trigram*>(tok); }

}  // namespace

bool TrigramFolds(Fts5Tokenizer* tok) { return reinterpret_cast<Trigram*>(tok)->fold; }

namespace {

int Tokenize(Fts5Tokenizer* tok, void* cb_ctx, int, const char* text, int text_bytes,
             int (*on_token)(void*, int, const char*, int, int, int)) {
  const bool fold = reinterpret_cast<Trigram*>(tok)->fold;
  const UnicodeTable& table = GetUnicodeTable();
  const auto* base = reinterpret_cast<const unsigned char*>(text);
  const unsigned char* p = base;
  const unsigned char* end = base + (text_bytes > 0 ? text_bytes : 0);
  // The last three characters read: their UTF-8 (folded) and start offsets.
  char enc[3][4];
  int enc_len[3];
  int start[3];
  int count = 0;
  while (p < end && *p != 0) {
    const int slot = count % 3;
    start[slot] = static_cast<int>(p - base);
    if (*p < 0x80) {
      const unsigned char c = *p++;
      enc[slot][0] = static_cast<char>(fold && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
      enc_len[slot] = 1;
    } else {
      uint32_t cp = DecodeUtf8(&p, end);
      if (fold && (table.Entry(cp) & kUnicodeMayFold)) cp = UnicodeFold(cp, 0);
      enc_len[slot] = static_cast<int>(EncodeUtf8(cp, enc[slot]) - enc[slot]);
    }
    if (++count < 3) continue;
    char token[12];
    int n = 0;
    for (int k = count - 3; k < count; ++k) {
      for (int b = 0; b < enc_len[k % 3]; ++b) token[n++] = enc[k % 3][b];
    }
    // As in SQLite 3.40, the end offset is the start plus the length of the
    // (folded, re-encoded) token, not where the third character ends.
    const int first = start[(count - 3) % 3];
    int rc = on_token(cb_ctx, 0, token, n, first, first + n);
    if (rc != SQLITE_OK) return rc;
  }
  return SQLITE_OK;
}

}  // namespace

const fts5_tokenizer kTrigramTokenizer = {Create, Delete, Tokenize};

}  // namespace basalt::fts5
