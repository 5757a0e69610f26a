// The porter tokenizer: the simple tokenizer's split (runs of ASCII letters
// and digits, plus any byte >= 0x80), each token then reduced by Martin
// Porter's stemming algorithm (the revised rules: "bli" -> "ble",
// "logi" -> "log"). A rule whose suffix matches ends its step even when its
// measure condition fails (longest suffix wins). Tokens shorter than 3 or
// longer than 20 bytes, or with characters other than ASCII letters, are
// only folded to lower case, and if longer than 20 (6 when they contain a
// digit) keep just their first and last 10 (3) bytes.
#include <cstring>
#include <string>

#include "ext/fts3/tokenizer.h"

namespace basalt::fts {
namespace {

bool IsCons(const std::string& w, int i) {
  switch (w[i]) {
    case 'a':
    case 'e':
    case 'i':
    case 'o':
    case 'u':
      return false;
    case 'y':
      return i == 0 || !IsCons(w, i - 1);
    default:
      return true;
  }
}

// The measure m of w[0, n): the number of vowel-consonant sequences.
int Measure(const std::string& w, int n) {
  int i = 0, m = 0;
  while (i < n && IsCons(w, i)) ++i;
  while (i < n) {
    while (i < n && !IsCons(w, i)) ++i;
    if (i >= n) break;
    while (i < n && IsCons(w, i)) ++i;
    ++m;
  }
  return m;
}
bool HasVowel(const std::string& w, int n) {
  for (int i = 0; i < n; ++i) {
    if (!IsCons(w, i)) return true;
  }
  return false;
}
// consonant-vowel-consonant ending w[0, n), the last not w, x or y.
bool Cvc(const std::string& w, int n) {
  if (n < 3 || !IsCons(w, n - 1) || IsCons(w, n - 2) || !IsCons(w, n - 3)) return false;
  char c = w[n - 1];
  return c != 'w' && c != 'x' && c != 'y';
}
bool Ends(const std::string& w, const char* s) {
  size_t k = std::strlen(s);
  return w.size() >= k && w.compare(w.size() - k, k, s) == 0;
}

enum Cond { kNone, kM0, kM1, kM1ST };

// Tries the rules in order; the first whose suffix matches is applied if its
// condition holds, and ends the step either way. Returns whether one matched.
struct Rule {
  const char* from;
  const char* to;
};
bool Apply(std::string* w, const Rule* rules, int n, Cond cond) {
  for (int i = 0; i < n; ++i) {
    if (!Ends(*w, rules[i].from)) continue;
    int stem = static_cast<int>(w->size() - std::strlen(rules[i].from));
    bool ok = true;
    if (cond == kM0) ok = Measure(*w, stem) > 0;
    if (cond == kM1) ok = Measure(*w, stem) > 1;
    if (cond == kM1ST) {
      ok = Measure(*w, stem) > 1 && stem > 0 && ((*w)[stem - 1] == 's' || (*w)[stem - 1] == 't');
    }
    if (ok) *w = w->substr(0, stem) + rules[i].to;
    return true;
  }
  return false;
}

constexpr Rule kStep2[] = {
    {"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"},   {"anci", "ance"}, {"izer", "ize"},
    {"logi", "log"},    {"bli", "ble"},     {"alli", "al"},     {"entli", "ent"}, {"eli", "e"},
    {"ousli", "ous"},   {"ization", "ize"}, {"ation", "ate"},   {"ator", "ate"},  {"alism", "al"},
    {"iveness", "ive"}, {"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"},  {"iviti", "ive"},
    {"biliti", "ble"},
};
constexpr Rule kStep3[] = {
    {"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"},
    {"ical", "ic"},  {"ful", ""},   {"ness", ""},
};
constexpr Rule kStep4[] = {
    {"al", ""},   {"ance", ""}, {"ence", ""},  {"er", ""},   {"ic", ""},  {"able", ""},
    {"ible", ""}, {"ant", ""},  {"ement", ""}, {"ment", ""}, {"ent", ""}, {"ou", ""},
    {"ism", ""},  {"ate", ""},  {"iti", ""},   {"ous", ""},  {"ive", ""}, {"ize", ""},
};

void Step1(std::string* w) {
  if (w->back() == 's') {
    static constexpr Rule k1a[] = {{"sses", "ss"}, {"ies", "i"}, {"ss", "ss"}};
    if (!Apply(w, k1a, 3, kNone)) w->pop_back();
  }
  int n = static_cast<int>(w->size());
  bool more = false;
  if (Ends(*w, "eed")) {
    if (Measure(*w, n - 3) > 0) w->pop_back();
  } else if (Ends(*w, "ed") && HasVowel(*w, n - 2)) {
    w->resize(n - 2);
    more = true;
  } else if (Ends(*w, "ing") && HasVowel(*w, n - 3)) {
    w->resize(n - 3);
    more = true;
  }
  if (more) {
    static constexpr Rule k1b[] = {{"at", "ate"}, {"bl", "ble"}, {"iz", "ize"}};
    if (!Apply(w, k1b, 3, kNone)) {
      int m = static_cast<int>(w->size());
      char c = m > 0 ? (*w)[m - 1] : 0;
      if (m >= 2 && c == (*w)[m - 2] && IsCons(*w, m - 1) && c != 'l' && c != 's' && c != 'z') {
        w->pop_back();
      } else if (Measure(*w, m) == 1 && Cvc(*w, m)) {
        w->push_back('e');
      }
    }
  }
  if (!w->empty() && w->back() == 'y' && HasVowel(*w, static_cast<int>(w->size()) - 1)) {
    w->back() = 'i';
  }
}

void Step5(std::string* w) {
  int n = static_cast<int>(w->size());
  if (n > 0 && w->back() == 'e') {
    int m = Measure(*w, n - 1);
    if (m > 1 || (m == 1 && !Cvc(*w, n - 1))) w->pop_back();
  }
  n = static_cast<int>(w->size());
  if (n >= 2 && Measure(*w, n) > 1 && (*w)[n - 1] == 'l' && (*w)[n - 2] == 'l') w->pop_back();
}

std::string CopyStem(std::string_view in) {
  std::string out(in);
  bool digit = false;
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c >= '0' && c <= '9') digit = true;
  }
  size_t mx = digit ? 3 : 10;
  if (out.size() > mx * 2) out = out.substr(0, mx) + out.substr(out.size() - mx);
  return out;
}

}  // namespace

std::string PorterStem(std::string_view in) {
  if (in.size() < 3 || in.size() > 20) return CopyStem(in);
  std::string w(in);
  for (char& c : w) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c < 'a' || c > 'z') return CopyStem(in);
  }
  Step1(&w);
  Apply(&w, kStep2, sizeof(kStep2) / sizeof(kStep2[0]), kM0);
  Apply(&w, kStep3, sizeof(kStep3) / sizeof(kStep3[0]), kM0);
  static constexpr Rule kIon[] = {{"ion", ""}};
  if (!Apply(&w, kStep4, sizeof(kStep4) / sizeof(kStep4[0]), kM1)) Apply(&w, kIon, 1, kM1ST);
  Step5(&w);
  return w;
}

namespace {

struct PorterCursor {
  sqlite3_tokenizer_cursor base;
  const char* in;
  int n;
  int off;
  int pos;
  std::string token;
};

bool IsDelim(unsigned char c) {
  return c < 0x80 && !((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'));
}

int PorterCreate(int, const char* const*, sqlite3_tokenizer** out) {
  *out = new sqlite3_tokenizer();
  return SQLITE_OK;
}
int PorterDestroy(sqlite3_tokenizer* t) {
  delete t;
  return SQLITE_OK;
}
int PorterOpen(sqlite3_tokenizer*, const char* in, int n, sqlite3_tokenizer_cursor** out) {
  auto* c = new PorterCursor();
  c->in = in;
  c->n = n < 0 ? (in ? static_cast<int>(std::strlen(in)) : 0) : n;
  c->off = 0;
  c->pos = 0;
  *out = &c->base;
  return SQLITE_OK;
}
int PorterClose(sqlite3_tokenizer_cursor* c) {
  delete reinterpret_cast<PorterCursor*>(c);
  return SQLITE_OK;
}
int PorterNext(sqlite3_tokenizer_cursor* cur, const char** token, int* n, int* start, int* end,
               int* pos) {
  auto* c = reinterpret_cast<PorterCursor*>(cur);
  while (c->off < c->n && IsDelim(static_cast<unsigned char>(c->in[c->off]))) ++c->off;
  int s = c->off;
  while (c->off < c->n && !IsDelim(static_cast<unsigned char>(c->in[c->off]))) ++c->off;
  if (c->off == s) return SQLITE_DONE;
  c->token = PorterStem(std::string_view(c->in + s, c->off - s));
  *token = c->token.data();
  *n = static_cast<int>(c->token.size());
  *start = s;
  *end = c->off;
  *pos = c->pos++;
  return SQLITE_OK;
}

const sqlite3_tokenizer_module kPorter = {0,           PorterCreate, PorterDestroy, PorterOpen,
                                          PorterClose, PorterNext,   nullptr};

}  // namespace

const sqlite3_tokenizer_module* PorterTokenizerModule() { return &kPorter; }

}  // namespace basalt::fts
