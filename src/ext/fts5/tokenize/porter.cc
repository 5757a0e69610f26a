// The porter tokenizer of FTS5: wraps another tokenizer (unicode61 unless
// the first argument names one; the remaining arguments go to it, found
// through the fts5_api given as user data) and reduces each of its tokens
// of 3 to 64 bytes with Martin Porter's stemming algorithm, on raw bytes:
// anything but a, e, i, o, u (and y after a consonant) is a consonant.
//
// SQLite's step rules look at the second-to-last byte first and stop at
// the first suffix that matches, whether or not its condition holds; a
// suffix must leave a non-empty stem. Where SQLite reads the byte before a
// 1-byte buffer, that byte is taken as 0 (it matches no rule).
#include <cstring>
#include <new>
#include <string>

#include "ext/fts5/builtins.h"
#include "ext/fts5/tokenize/tokenizers.h"

namespace basalt::fts5 {
namespace {

constexpr int kMaxToken = 64;

bool IsVowel(char c, bool y_is_vowel) {
  return c == 'a' || c == 'e' || c == 'i' || c == 'o' || c == 'u' || (y_is_vowel && c == 'y');
}

// Length of the shortest prefix of s[0, n) made of consonants, vowels and
// one more consonant (0 if there is none); `prev_cons` tells whether the
// byte before s was a consonant.
int GobbleVC(const char* s, int n, bool prev_cons) {
  bool cons = prev_cons;
  int i = 0;
  for (; i < n; ++i) {
    cons = !IsVowel(s[i], cons);
    if (!cons) break;
  }
  for (++i; i < n; ++i) {
    cons = !IsVowel(s[i], cons);
    if (cons) return i + 1;
  }
  return 0;
}

// The measure conditions on the stem s[0, n).
bool MGt0(const char* s, int n) { return GobbleVC(s, n, false) != 0; }
bool MGt1(const char* s, int n) {
  int k = GobbleVC(s, n, false);
  return k != 0 && GobbleVC(s + k, n - k, true) != 0;
}
bool MEq1(const char* s, int n) {
  int k = GobbleVC(s, n, false);
  return k != 0 && GobbleVC(s + k, n - k, true) == 0;
}
// Ends consonant-vowel-consonant, the last not w, x or y.
bool Ostar(const char* s, int n) {
  char last = s[n - 1];
  if (last == 'w' || last == 'x' || last == 'y') return false;
  unsigned mask = 0;
  bool cons = false;
  for (int i = 0; i < n; ++i) {
    cons = !IsVowel(s[i], cons);
    mask = (mask << 1) | (cons ? 1u : 0u);
  }
  return (mask & 7u) == 5u;
}
bool HasVowel(const char* s, int n) {
  for (int i = 0; i < n; ++i) {
    if (IsVowel(s[i], i > 0)) return true;
  }
  return false;
}
bool MGt1AndSOrT(const char* s, int n) {
  return (s[n - 1] == 's' || s[n - 1] == 't') && MGt1(s, n);
}

using Condition = bool (*)(const char*, int);

struct Rule {
  constexpr Rule(char k, const char* s, const char* r, Condition c)
      : key(k),
        suffix(s),
        replacement(r),
        condition(c),
        suffix_len(static_cast<int>(std::char_traits<char>::length(s))),
        replacement_len(static_cast<int>(std::char_traits<char>::length(r))) {}
  char key;  // the suffix's second-to-last byte
  const char* suffix;
  const char* replacement;
  Condition condition;  // on the stem; nullptr: always
  int suffix_len;
  int replacement_len;
};

// Steps 2, 3 and 4 of the algorithm, each rule list in SQLite's order.
constexpr Rule kStep2[] = {
    {'a', "ational", "ate", MGt0}, {'a', "tional", "tion", MGt0}, {'c', "enci", "ence", MGt0},
    {'c', "anci", "ance", MGt0},   {'e', "izer", "ize", MGt0},    {'g', "logi", "log", MGt0},
    {'l', "bli", "ble", MGt0},     {'l', "alli", "al", MGt0},     {'l', "entli", "ent", MGt0},
    {'l', "eli", "e", MGt0},       {'l', "ousli", "ous", MGt0},   {'o', "ization", "ize", MGt0},
    {'o', "ation", "ate", MGt0},   {'o', "ator", "ate", MGt0},    {'s', "alism", "al", MGt0},
    {'s', "iveness", "ive", MGt0}, {'s', "fulness", "ful", MGt0}, {'s', "ousness", "ous", MGt0},
    {'t', "aliti", "al", MGt0},    {'t', "iviti", "ive", MGt0},   {'t', "biliti", "ble", MGt0},
};
constexpr Rule kStep3[] = {
    {'a', "ical", "ic", MGt0},  {'s', "ness", "", MGt0}, {'t', "icate", "ic", MGt0},
    {'t', "iciti", "ic", MGt0}, {'u', "ful", "", MGt0},  {'v', "ative", "", MGt0},
    {'z', "alize", "al", MGt0},
};
constexpr Rule kStep4[] = {
    {'a', "al", "", MGt1},   {'c', "ance", "", MGt1}, {'c', "ence", "", MGt1},
    {'e', "er", "", MGt1},   {'i', "ic", "", MGt1},   {'l', "able", "", MGt1},
    {'l', "ible", "", MGt1}, {'n', "ant", "", MGt1},  {'n', "ement", "", MGt1},
    {'n', "ment", "", MGt1}, {'n', "ent", "", MGt1},  {'o', "ion", "", MGt1AndSOrT},
    {'o', "ou", "", MGt1},   {'s', "ism", "", MGt1},  {'t', "ate", "", MGt1},
    {'t', "iti", "", MGt1},  {'u', "ous", "", MGt1},  {'v', "ive", "", MGt1},
    {'z', "ize", "", MGt1},
};
constexpr Rule kStep1B2[] = {
    {'a', "at", "ate", nullptr}, {'b', "bl", "ble", nullptr}, {'i', "iz", "ize", nullptr}};

// The word being stemmed: buf[0, n), 0 < n; the byte before buf reads as 0.
struct Word {
  char buf[kMaxToken + 8];
  int n;
  char At(int i) const { return i >= 0 ? buf[i] : 0; }
};

// Applies the first rule of `rules` whose suffix ends the word (and whose
// key is its second-to-last byte); returns whether one was applied.
template <size_t N>
bool ApplyStep(Word* w, const Rule (&rules)[N]) {
  const char key = w->At(w->n - 2);
  for (const Rule& r : rules) {
    if (r.key != key) continue;
    const int len = r.suffix_len;
    if (w->n <= len || std::memcmp(r.suffix, w->buf + w->n - len, len) != 0) continue;
    const int stem = w->n - len;
    if (r.condition != nullptr && !r.condition(w->buf, stem)) return false;
    std::memcpy(w->buf + stem, r.replacement, r.replacement_len);
    w->n = stem + r.replacement_len;
    return true;
  }
  return false;
}

void Step1A(Word* w) {
  if (w->At(w->n - 1) != 's') return;
  if (w->At(w->n - 2) == 'e') {
    if ((w->n > 4 && w->buf[w->n - 4] == 's' && w->buf[w->n - 3] == 's') ||
        (w->n > 3 && w->buf[w->n - 3] == 'i')) {
      w->n -= 2;  // sses -> ss, ies -> i
    } else {
      w->n -= 1;
    }
  } else if (w->At(w->n - 2) != 's') {
    w->n -= 1;
  }
}

// eed -> ee (m > 0); ed, ing dropped after a vowel. Returns true when ed or
// ing was dropped.
bool Step1B(Word* w) {
  const char key = w->At(w->n - 2);
  if (key == 'e') {
    if (w->n > 3 && std::memcmp("eed", w->buf + w->n - 3, 3) == 0) {
      if (MGt0(w->buf, w->n - 3)) w->n -= 1;
      return false;
    }
    if (w->n > 2 && std::memcmp("ed", w->buf + w->n - 2, 2) == 0 && HasVowel(w->buf, w->n - 2)) {
      w->n -= 2;
      return true;
    }
  } else if (key == 'n') {
    if (w->n > 3 && std::memcmp("ing", w->buf + w->n - 3, 3) == 0 && HasVowel(w->buf, w->n - 3)) {
      w->n -= 3;
      return true;
    }
  }
  return false;
}

void Stem(Word* w) {
  Step1A(w);
  if (Step1B(w) && !ApplyStep(w, kStep1B2)) {
    const char c = w->buf[w->n - 1];
    if (!IsVowel(c, false) && c != 'l' && c != 's' && c != 'z' && c == w->At(w->n - 2)) {
      w->n -= 1;
    } else if (MEq1(w->buf, w->n) && Ostar(w->buf, w->n)) {
      w->buf[w->n++] = 'e';
    }
  }
  if (w->buf[w->n - 1] == 'y' && HasVowel(w->buf, w->n - 1)) w->buf[w->n - 1] = 'i';
  ApplyStep(w, kStep2);
  ApplyStep(w, kStep3);
  ApplyStep(w, kStep4);
  if (w->buf[w->n - 1] == 'e') {
    if (MGt1(w->buf, w->n - 1) || (MEq1(w->buf, w->n - 1) && !Ostar(w->buf, w->n - 1))) {
      w->n -= 1;
    }
  }
  if (w->n > 1 && w->buf[w->n - 1] == 'l' && w->buf[w->n - 2] == 'l' && MGt1(w->buf, w->n - 1)) {
    w->n -= 1;
  }
}

struct Porter {
  fts5_tokenizer parent;
  Fts5Tokenizer* parent_tok = nullptr;
};

using TokenCallback = int (*)(void*, int, const char*, int, int, int);

struct StemContext {
  void* cb_ctx;
  TokenCallback on_token;
};

int StemToken(void* ctx, int flags, const char* token, int bytes, int start, int end) {
  auto* c = static_cast<StemContext*>(ctx);
  if (bytes < 3 || bytes > kMaxToken)
    return c->on_token(c->cb_ctx, flags, token, bytes, start, end);
  Word w;
  std::memcpy(w.buf, token, static_cast<size_t>(bytes));
  w.n = bytes;
  Stem(&w);
  return c->on_token(c->cb_ctx, flags, w.buf, w.n, start, end);
}

int Create(void* user_data, const char** argv, int argc, Fts5Tokenizer** out) {
  *out = nullptr;
  auto* api = static_cast<fts5_api*>(user_data);
  const char* parent_name = argc > 0 ? argv[0] : "unicode61";
  auto* t = new (std::nothrow) Porter();
  if (t == nullptr) return SQLITE_NOMEM;
  void* parent_data = nullptr;
  int rc = api->xFindTokenizer(api, parent_name, &parent_data, &t->parent);
  if (rc == SQLITE_OK) {
    rc = t->parent.xCreate(parent_data, argc > 0 ? argv + 1 : argv, argc > 0 ? argc - 1 : 0,
                           &t->parent_tok);
  }
  if (rc != SQLITE_OK) {
    delete t;
    return rc;
  }
  *out = reinterpret_cast<Fts5Tokenizer*>(t);
  return SQLITE_OK;
}

void Delete(Fts5Tokenizer* tok) {
  auto* t = reinterpret_cast<Porter*>(tok);
  if (t->parent_tok != nullptr) t->parent.xDelete(t->parent_tok);
  delete t;
}

int Tokenize(Fts5Tokenizer* tok, void* cb_ctx, int flags, const char* text, int text_bytes,
             TokenCallback on_token) {
  auto* t = reinterpret_cast<Porter*>(tok);
  StemContext ctx{cb_ctx, on_token};
  return t->parent.xTokenize(t->parent_tok, &ctx, flags, text, text_bytes, &StemToken);
}

}  // namespace

const fts5_tokenizer kPorterTokenizer = {Create, Delete, Tokenize};

}  // namespace basalt::fts5
