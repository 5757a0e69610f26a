// Tokenizers of FTS3/FTS4: the sqlite3_tokenizer_module interface that
// fts3_tokenizer() hands out and accepts (layout as documented in fts3.html,
// "Custom (Application Defined) Tokenizers"), the built-in simple, porter and
// unicode61 tokenizers, and a per-connection registry of them by name.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "sqlite3.h"

extern "C" {
struct sqlite3_tokenizer_module;
struct sqlite3_tokenizer {
  const sqlite3_tokenizer_module* pModule;
};
struct sqlite3_tokenizer_cursor {
  sqlite3_tokenizer* pTokenizer;
};
struct sqlite3_tokenizer_module {
  int iVersion;
  int (*xCreate)(int argc, const char* const* argv, sqlite3_tokenizer** out);
  int (*xDestroy)(sqlite3_tokenizer* tok);
  int (*xOpen)(sqlite3_tokenizer* tok, const char* input, int n, sqlite3_tokenizer_cursor** out);
  int (*xClose)(sqlite3_tokenizer_cursor* cur);
  int (*xNext)(sqlite3_tokenizer_cursor* cur, const char** token, int* n, int* start, int* end,
               int* pos);
  int (*xLanguageid)(sqlite3_tokenizer_cursor* cur, int langid);
};
}

namespace basalt::fts {

const sqlite3_tokenizer_module* SimpleTokenizerModule();
const sqlite3_tokenizer_module* PorterTokenizerModule();
const sqlite3_tokenizer_module* Unicode61TokenizerModule();

// Stems one lower-case ASCII word in place the way the porter tokenizer does
// (words outside 3..20 letters, or with other characters, are only copied).
std::string PorterStem(std::string_view word);

// The tokenizers known to one connection (fts3_tokenizer() adds to them).
class TokenizerRegistry {
 public:
  TokenizerRegistry();
  const sqlite3_tokenizer_module* Find(const std::string& name) const;
  void Set(const std::string& name, const sqlite3_tokenizer_module* m) { map_[name] = m; }

 private:
  std::map<std::string, const sqlite3_tokenizer_module*> map_;
};

// A created tokenizer instance (destroyed with the object).
class Tokenizer {
 public:
  Tokenizer() = default;
  Tokenizer(const Tokenizer&) = delete;
  Tokenizer& operator=(const Tokenizer&) = delete;
  ~Tokenizer();
  // Creates `m` with the given arguments; returns an SQLite code.
  int Create(const sqlite3_tokenizer_module* m, const std::vector<std::string>& args);
  // Calls fn(token, start byte, end byte, position) for each token; fn
  // returns false to stop. Returns an SQLite result code.
  using TokenFn = std::function<bool(std::string_view, int, int, int)>;
  int Run(std::string_view text, int langid, const TokenFn& fn) const;

 private:
  const sqlite3_tokenizer_module* module_ = nullptr;
  sqlite3_tokenizer* tok_ = nullptr;
};

}  // namespace basalt::fts
