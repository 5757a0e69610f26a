// The simple tokenizer, the tokenizer registry and the Tokenizer wrapper.
//
// simple: a token is a run of characters that are not delimiters; ASCII
// letters are folded to lower case. By default every ASCII character other
// than a letter or digit is a delimiter; an argument lists the delimiters
// instead. Bytes >= 0x80 are never delimiters.
#include "ext/fts3/tokenizer.h"

#include <cctype>
#include <cstring>
#include <string>

namespace basalt::fts {
namespace {

struct SimpleTok {
  sqlite3_tokenizer base;
  bool delim[128];
};
struct SimpleCursor {
  sqlite3_tokenizer_cursor base;
  const char* in;
  int n;
  int off;
  int pos;
  std::string token;
};

int SimpleCreate(int argc, const char* const* argv, sqlite3_tokenizer** out) {
  auto* t = new SimpleTok();
  if (argc > 1) {
    std::memset(t->delim, 0, sizeof(t->delim));
    for (const char* p = argv[1]; *p; ++p) {
      auto c = static_cast<unsigned char>(*p);
      if (c >= 0x80) {
        delete t;
        return SQLITE_ERROR;
      }
      t->delim[c] = true;
    }
  } else {
    for (int c = 0; c < 128; ++c) t->delim[c] = !std::isalnum(c);
  }
  *out = &t->base;
  return SQLITE_OK;
}
int SimpleDestroy(sqlite3_tokenizer* t) {
  delete reinterpret_cast<SimpleTok*>(t);
  return SQLITE_OK;
}
int SimpleOpen(sqlite3_tokenizer*, const char* in, int n, sqlite3_tokenizer_cursor** out) {
  auto* c = new SimpleCursor();
  c->in = in;
  c->n = n < 0 ? (in ? static_cast<int>(std::strlen(in)) : 0) : n;
  c->off = 0;
  c->pos = 0;
  *out = &c->base;
  return SQLITE_OK;
}
int SimpleClose(sqlite3_tokenizer_cursor* c) {
  delete reinterpret_cast<SimpleCursor*>(c);
  return SQLITE_OK;
}
int SimpleNext(sqlite3_tokenizer_cursor* cur, const char** token, int* n, int* start, int* end,
               int* pos) {
  auto* c = reinterpret_cast<SimpleCursor*>(cur);
  auto* t = reinterpret_cast<SimpleTok*>(c->base.pTokenizer);
  auto is_delim = [t](unsigned char ch) { return ch < 0x80 && t->delim[ch]; };
  while (c->off < c->n) {
    while (c->off < c->n && is_delim(static_cast<unsigned char>(c->in[c->off]))) ++c->off;
    int s = c->off;
    while (c->off < c->n && !is_delim(static_cast<unsigned char>(c->in[c->off]))) ++c->off;
    if (c->off > s) {
      c->token.assign(c->in + s, c->off - s);
      for (char& ch : c->token) {
        if (ch >= 'A' && ch <= 'Z') ch = static_cast<char>(ch - 'A' + 'a');
      }
      *token = c->token.data();
      *n = static_cast<int>(c->token.size());
      *start = s;
      *end = c->off;
      *pos = c->pos++;
      return SQLITE_OK;
    }
  }
  return SQLITE_DONE;
}

const sqlite3_tokenizer_module kSimple = {0,           SimpleCreate, SimpleDestroy, SimpleOpen,
                                          SimpleClose, SimpleNext,   nullptr};

}  // namespace

const sqlite3_tokenizer_module* SimpleTokenizerModule() { return &kSimple; }

TokenizerRegistry::TokenizerRegistry() {
  map_["simple"] = SimpleTokenizerModule();
  map_["porter"] = PorterTokenizerModule();
  map_["unicode61"] = Unicode61TokenizerModule();
}

const sqlite3_tokenizer_module* TokenizerRegistry::Find(const std::string& name) const {
  auto it = map_.find(name);
  return it == map_.end() ? nullptr : it->second;
}

Tokenizer::~Tokenizer() {
  if (tok_ != nullptr) module_->xDestroy(tok_);
}

int Tokenizer::Create(const sqlite3_tokenizer_module* m, const std::vector<std::string>& args) {
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  module_ = m;
  int rc = m->xCreate(static_cast<int>(argv.size()), argv.data(), &tok_);
  if (rc != SQLITE_OK) {
    tok_ = nullptr;
    return rc;
  }
  tok_->pModule = m;
  return SQLITE_OK;
}

int Tokenizer::Run(std::string_view text, int langid, const TokenFn& fn) const {
  sqlite3_tokenizer_cursor* cur = nullptr;
  int rc = module_->xOpen(tok_, text.data(), static_cast<int>(text.size()), &cur);
  if (rc != SQLITE_OK) return rc;
  cur->pTokenizer = tok_;
  if (module_->iVersion >= 1 && module_->xLanguageid != nullptr) {
    rc = module_->xLanguageid(cur, langid);
  }
  while (rc == SQLITE_OK) {
    const char* tok = nullptr;
    int n = 0, s = 0, e = 0, p = 0;
    rc = module_->xNext(cur, &tok, &n, &s, &e, &p);
    if (rc != SQLITE_OK) break;
    if (!fn(std::string_view(tok, n), s, e, p)) break;
  }
  module_->xClose(cur);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

}  // namespace basalt::fts
