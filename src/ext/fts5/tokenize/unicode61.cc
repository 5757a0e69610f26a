// The unicode61 tokenizer of FTS5: a token is a run of token characters,
// folded to lower case and, with remove_diacritics 1 (the default) or 2,
// stripped of Latin diacritics.
//
// Which characters are token characters:
//   1. the categories option (default "L* N* Co") picks general categories;
//      every "categories" argument is applied before any other option, the
//      last one winning;
//   2. ASCII characters then follow a 128-entry table, which tokenchars and
//      separators overwrite in argument order;
//   3. a non-ASCII character named by tokenchars or separators whose
//      category answer differs from what the option asks becomes an
//      exception (its answer is flipped), unless it is a combining
//      diacritic; naming it again changes nothing;
//   4. combining diacritics (kUnicodeDiacritic) continue a token but never
//      start one.
#include <algorithm>
#include <new>
#include <string>
#include <vector>

#include "ext/fts5/builtins.h"
#include "ext/fts5/tokenize/options.h"
#include "ext/fts5/tokenize/tokenizers.h"
#include "ext/fts5/tokenize/unicode_data.h"
#include "ext/fts5/tokenize/utf8.h"

namespace basalt::fts5 {
namespace {

struct Unicode61 {
  const UnicodeTable* table = &GetUnicodeTable();
  bool ascii[128] = {};
  bool category[kCategorySlots] = {};
  int remove_diacritics = 1;
  std::vector<uint32_t> exceptions;  // sorted, unique, all >= 0x80

  bool ByCategory(uint8_t entry) const { return category[entry & kUnicodeCategoryMask]; }
  bool IsTokenChar(uint32_t cp, uint8_t entry) const {
    bool token = ByCategory(entry);
    if (!exceptions.empty() && std::binary_search(exceptions.begin(), exceptions.end(), cp)) {
      token = !token;
    }
    return token;
  }
};

bool SetCategories(Unicode61* t, const char* spec) {
  std::fill(std::begin(t->category), std::end(t->category), false);
  bool any = false;
  for (const char* p = spec; *p != '\0';) {
    while (*p == ' ') ++p;
    if (*p == '\0') break;
    if (!UnicodeParseCategory(p, t->category)) return false;
    any = true;
    while (*p != '\0' && *p != ' ') ++p;
  }
  // SQLite's quirk: the "always" code points (unassigned ones, ...) are
  // token characters once any pattern was read, even one it ignores.
  t->category[kCategoryAlways] = any;
  t->category[kCategoryNever] = false;
  return true;
}

void AddChars(Unicode61* t, const char* chars, bool token) {
  auto* p = reinterpret_cast<const unsigned char*>(chars);
  const unsigned char* end = p + std::char_traits<char>::length(chars);
  while (p < end) {
    if (*p < 0x80) {
      t->ascii[*p++] = token;
      continue;
    }
    uint32_t cp = DecodeUtf8(&p, end);
    uint8_t entry = t->table->Entry(cp);
    if ((entry & kUnicodeDiacritic) || t->ByCategory(entry) == token) continue;
    auto at = std::lower_bound(t->exceptions.begin(), t->exceptions.end(), cp);
    if (at == t->exceptions.end() || *at != cp) t->exceptions.insert(at, cp);
  }
}

int Configure(Unicode61* t, const char** argv, int argc) {
  if (argc % 2 != 0) return SQLITE_ERROR;
  if (!SetCategories(t, "L* N* Co")) return SQLITE_ERROR;
  for (int i = 0; i < argc; i += 2) {
    if (OptionNameIs(argv[i], "categories") && !SetCategories(t, argv[i + 1])) {
      return SQLITE_ERROR;
    }
  }
  for (int c = 0; c < 128; ++c) t->ascii[c] = t->ByCategory(t->table->Entry(c));
  for (int i = 0; i < argc; i += 2) {
    const char* name = argv[i];
    const char* value = argv[i + 1];
    if (OptionNameIs(name, "remove_diacritics")) {
      if (value[0] < '0' || value[0] > '2' || value[1] != '\0') return SQLITE_ERROR;
      t->remove_diacritics = value[0] - '0';
    } else if (OptionNameIs(name, "tokenchars")) {
      AddChars(t, value, true);
    } else if (OptionNameIs(name, "separators")) {
      AddChars(t, value, false);
    } else if (!OptionNameIs(name, "categories")) {
      return SQLITE_ERROR;
    }
  }
  return SQLITE_OK;
}

int Create(void*, const char** argv, int argc, Fts5Tokenizer** out) {
  *out = nullptr;
  auto* t = new (std::nothrow) Unicode61();
  if (t == nullptr) return SQLITE_NOMEM;
  int rc = Configure(t, argv, argc);
  if (rc != SQLITE_OK) {
    delete t;
    return rc;
  }
  *out = reinterpret_cast<Fts5Tokenizer*>(t);
  return SQLITE_OK;
}

void Delete(Fts5Tokenizer* tok) { delete reinterpret_cast<Unicode61*>(tok); }

using TokenCallback = int (*)(void*, int, const char*, int, int, int);

int Tokenize(Fts5Tokenizer* tok, void* cb_ctx, int, const char* text, int text_bytes,
             TokenCallback on_token) {
  const auto& t = *reinterpret_cast<const Unicode61*>(tok);
  const auto* base = reinterpret_cast<const unsigned char*>(text);
  const unsigned char* p = base;
  const unsigned char* end = base + (text_bytes > 0 ? text_bytes : 0);
  std::string folded;
  folded.reserve(64);
  for (;;) {
    // 1. Skip separators: p ends at the first character that starts a token.
    while (p < end) {
      if (*p < 0x80) {
        if (t.ascii[*p]) break;
        ++p;
        continue;
      }
      const unsigned char* next = p;
      uint32_t cp = DecodeUtf8(&next, end);
      if (t.IsTokenChar(cp, t.table->Entry(cp))) break;
      p = next;
    }
    if (p >= end) return SQLITE_OK;
    // 2. Take token characters (and diacritics after the first), folded.
    const unsigned char* start = p;
    folded.clear();
    while (p < end) {
      if (*p < 0x80) {
        unsigned char c = *p;
        if (!t.ascii[c]) break;
        folded.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c));
        ++p;
        continue;
      }
      const unsigned char* next = p;
      uint32_t cp = DecodeUtf8(&next, end);
      uint8_t entry = t.table->Entry(cp);
      if (!(entry & kUnicodeDiacritic) && !t.IsTokenChar(cp, entry)) break;
      if (entry & kUnicodeMayFold) cp = UnicodeFold(cp, t.remove_diacritics);
      if (cp != 0) {
        char buf[4];
        folded.append(buf, EncodeUtf8(cp, buf));
      }
      p = next;
    }
    int rc = on_token(cb_ctx, 0, folded.data(), static_cast<int>(folded.size()),
                      static_cast<int>(start - base), static_cast<int>(p - base));
    if (rc != SQLITE_OK) return rc;
  }
}

}  // namespace

const fts5_tokenizer kUnicode61Tokenizer = {Create, Delete, Tokenize};

}  // namespace basalt::fts5
