// The ascii tokenizer of FTS5: a token is a run of ASCII letters and digits
// and of every byte >= 0x80 (never decoded, never folded); only A-Z are
// folded to lower case. Options: tokenchars and separators, which change
// the class of the ASCII characters they name (non-ASCII ones are ignored),
// later arguments overriding earlier ones.
#include <new>

#include "ext/fts5/builtins.h"
#include "ext/fts5/tokenize/options.h"
#include "ext/fts5/tokenize/tokenizers.h"

namespace basalt::fts5 {
namespace {

struct Ascii {
  bool token[256];  // invariant: token[b] for every b >= 0x80
};

void SetChars(Ascii* t, const char* chars, bool token) {
  for (auto* p = reinterpret_cast<const unsigned char*>(chars); *p != 0; ++p) {
    if (*p < 0x80) t->token[*p] = token;
  }
}

int Create(void*, const char** argv, int argc, Fts5Tokenizer** out) {
  *out = nullptr;
  if (argc % 2 != 0) return SQLITE_ERROR;
  auto* t = new (std::nothrow) Ascii();
  if (t == nullptr) return SQLITE_NOMEM;
  for (int c = 0; c < 256; ++c) {
    t->token[c] =
        c >= 0x80 || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  }
  for (int i = 0; i < argc; i += 2) {
    if (OptionNameIs(argv[i], "tokenchars")) {
      SetChars(t, argv[i + 1], true);
    } else if (OptionNameIs(argv[i], "separators")) {
      SetChars(t, argv[i + 1], false);
    } else {
      delete t;
      return SQLITE_ERROR;
    }
  }
  *out = reinterpret_cast<Fts5Tokenizer*>(t);
  return SQLITE_OK;
}

void Delete(Fts5Tokenizer* tok) { delete reinterpret_cast<Ascii*>(tok); }

int Tokenize(Fts5Tokenizer* tok, void* cb_ctx, int, const char* text, int text_bytes,
             int (*on_token)(void*, int, const char*, int, int, int)) {
  const bool* token = reinterpret_cast<const Ascii*>(tok)->token;
  const auto* base = reinterpret_cast<const unsigned char*>(text);
  const int n = text_bytes > 0 ? text_bytes : 0;
  char stack[64];
  char* buf = stack;
  int cap = sizeof(stack);
  int rc = SQLITE_OK;
  for (int i = 0; rc == SQLITE_OK;) {
    while (i < n && !token[base[i]]) ++i;
    if (i >= n) break;
    int start = i;
    while (i < n && token[base[i]]) ++i;
    const int len = i - start;
    if (len > cap) {
      if (buf != stack) delete[] buf;
      cap = len * 2;
      buf = new (std::nothrow) char[cap];
      if (buf == nullptr) return SQLITE_NOMEM;
    }
    for (int k = 0; k < len; ++k) {
      unsigned char c = base[start + k];
      buf[k] = static_cast<char>(c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c);
    }
    rc = on_token(cb_ctx, 0, buf, len, start, i);
  }
  if (buf != stack) delete[] buf;
  return rc;
}

}  // namespace

const fts5_tokenizer kAsciiTokenizer = {Create, Delete, Tokenize};

}  // namespace basalt::fts5
