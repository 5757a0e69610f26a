// The unicode61 tokenizer: tokens are runs of letters and digits (and of
// characters added with "tokenchars="), folded to lower case; with
// remove_diacritics (the default, 1) accented Latin letters lose their
// accents. Coverage of the Unicode tables here: ASCII, Latin-1, Latin
// Extended-A, Greek and Cyrillic case folding; the General Punctuation and
// CJK Symbols blocks separate; any other character >= U+0100 is a letter.
#include <cstring>
#include <string>
#include <vector>

#include "ext/fts3/tokenizer.h"

namespace basalt::fts {
namespace {

struct U61 {
  sqlite3_tokenizer base;
  int diacritics = 1;
  std::vector<uint32_t> tokenchars, separators;
};
struct U61Cursor {
  sqlite3_tokenizer_cursor base;
  const unsigned char* in;
  int n;
  int off;
  int pos;
  std::string token;
};

// Decodes one UTF-8 character at p (p < end); advances p.
uint32_t Decode(const unsigned char** p, const unsigned char* end) {
  uint32_t c = *(*p)++;
  int extra = c >= 0xF0 ? 3 : c >= 0xE0 ? 2 : c >= 0xC0 ? 1 : 0;
  if (extra) c &= (0x3F >> extra);
  while (extra-- > 0 && *p < end && (**p & 0xC0) == 0x80) c = (c << 6) | (*(*p)++ & 0x3F);
  return c;
}
void Encode(uint32_t c, std::string* out) {
  if (c < 0x80) {
    out->push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (c >> 6)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (c >> 12)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (c >> 18)));
    out->push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

bool IsAlnum(uint32_t c) {
  if (c < 0x80) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
  if (c < 0xC0) {
    return c == 0xAA || c == 0xB5 || c == 0xBA || c == 0xB2 || c == 0xB3 || c == 0xB9 ||
           (c >= 0xBC && c <= 0xBE);
  }
  if (c == 0xD7 || c == 0xF7) return false;
  if (c >= 0x2000 && c <= 0x206F) return false;
  if (c >= 0x3000 && c <= 0x303F) return false;
  return true;
}

uint32_t Lower(uint32_t c) {
  if (c >= 'A' && c <= 'Z') return c + 32;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;
  if (c == 0xB5) return 0x3BC;   // micro sign: mu
  if (c == 0x3C2) return 0x3C3;  // final sigma
  if (c == 0x17F) return 's';    // long s
  if (c >= 0x100 && c <= 0x137 && (c & 1) == 0 && c != 0x130) return c + 1;
  if (c >= 0x139 && c <= 0x148 && (c & 1) == 1) return c + 1;
  if (c >= 0x14A && c <= 0x177 && (c & 1) == 0) return c + 1;
  if (c == 0x178) return 0xFF;
  if (c >= 0x179 && c <= 0x17E && (c & 1) == 1) return c + 1;
  if (c >= 0x391 && c <= 0x3AB && c != 0x3A2) return c + 32;
  if (c >= 0x410 && c <= 0x42F) return c + 32;
  if (c >= 0x400 && c <= 0x40F) return c + 80;
  return c;
}

// The unaccented letter of a lower-case accented Latin one (0: none).
uint32_t Unaccent(uint32_t c) {
  static const char kLatin1[] =
      "aaaaaaaceeeeiiii"
      "\0nooooo\0\0uuuuy\0y";  // U+00E0..U+00FF
  if (c >= 0xE0 && c <= 0xFF) {
    char b = kLatin1[c - 0xE0];
    if (c == 0xE6) return 0;  // ae
    return b ? static_cast<uint32_t>(b) : 0;
  }
  static const char kExtA[] =
      "aaaaaaccccccccdd\0\0eeeeeeeeeegggggggghh\0\0iiiiiiiii\0\0\0jjkk\0llllll\0\0\0\0nnnnnn\0\0\0"
      "oooooo\0\0rrrrrrsssssssstttt\0\0uuuuuuuuuuuuwwyyyzzzzzzs";  // U+0100..U+017F
  if (c >= 0x100 && c <= 0x17F && c - 0x100 < sizeof(kExtA) - 1) {
    char b = kExtA[c - 0x100];
    return b ? static_cast<uint32_t>(b) : 0;
  }
  return 0;
}

bool InList(const std::vector<uint32_t>& v, uint32_t c) {
  for (uint32_t x : v) {
    if (x == c) return true;
  }
  return false;
}

int U61Create(int argc, const char* const* argv, sqlite3_tokenizer** out) {
  auto* t = new U61();
  for (int i = 0; i < argc; ++i) {
    std::string a = argv[i];
    auto chars = [&](size_t from, std::vector<uint32_t>* v) {
      auto* p = reinterpret_cast<const unsigned char*>(a.data()) + from;
      auto* end = reinterpret_cast<const unsigned char*>(a.data()) + a.size();
      while (p < end) v->push_back(Decode(&p, end));
    };
    if (a == "remove_diacritics=0" || a == "remove_diacritics=1" || a == "remove_diacritics=2") {
      t->diacritics = a.back() - '0';
    } else if (a.compare(0, 11, "tokenchars=") == 0) {
      chars(11, &t->tokenchars);
    } else if (a.compare(0, 11, "separators=") == 0) {
      chars(11, &t->separators);
    } else {
      delete t;
      return SQLITE_ERROR;
    }
  }
  *out = &t->base;
  return SQLITE_OK;
}
int U61Destroy(sqlite3_tokenizer* t) {
  delete reinterpret_cast<U61*>(t);
  return SQLITE_OK;
}
int U61Open(sqlite3_tokenizer*, const char* in, int n, sqlite3_tokenizer_cursor** out) {
  auto* c = new U61Cursor();
  c->in = reinterpret_cast<const unsigned char*>(in);
  c->n = n < 0 ? (in ? static_cast<int>(std::strlen(in)) : 0) : n;
  c->off = 0;
  c->pos = 0;
  *out = &c->base;
  return SQLITE_OK;
}
int U61Close(sqlite3_tokenizer_cursor* c) {
  delete reinterpret_cast<U61Cursor*>(c);
  return SQLITE_OK;
}
int U61Next(sqlite3_tokenizer_cursor* cur, const char** token, int* n, int* start, int* end,
            int* pos) {
  auto* c = reinterpret_cast<U61Cursor*>(cur);
  auto* t = reinterpret_cast<U61*>(c->base.pTokenizer);
  auto is_token = [t](uint32_t ch) {
    if (InList(t->separators, ch)) return false;
    return IsAlnum(ch) || InList(t->tokenchars, ch);
  };
  const unsigned char* endp = c->in + c->n;
  const unsigned char* p = c->in + c->off;
  const unsigned char* s = p;
  while (p < endp) {
    s = p;
    if (is_token(Decode(&p, endp))) break;
    s = p;
  }
  if (s >= endp) {
    c->off = c->n;
    return SQLITE_DONE;
  }
  c->token.clear();
  p = s;
  const unsigned char* e = s;
  while (p < endp) {
    const unsigned char* q = p;
    uint32_t ch = Decode(&q, endp);
    if (!is_token(ch)) break;
    ch = Lower(ch);
    if (t->diacritics != 0) {
      uint32_t b = Unaccent(ch);
      if (b != 0) ch = b;
    }
    Encode(ch, &c->token);
    p = e = q;
  }
  c->off = static_cast<int>(e - c->in);
  *token = c->token.data();
  *n = static_cast<int>(c->token.size());
  *start = static_cast<int>(s - c->in);
  *end = c->off;
  *pos = c->pos++;
  return SQLITE_OK;
}

const sqlite3_tokenizer_module kU61 = {0,        U61Create, U61Destroy, U61Open,
                                       U61Close, U61Next,   nullptr};

}  // namespace

const sqlite3_tokenizer_module* Unicode61TokenizerModule() { return &kU61; }

}  // namespace basalt::fts
