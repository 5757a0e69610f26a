// The per-connection FTS5 registry: the fts5_api object programs reach with
// `SELECT fts5(?1)`, the tokenizers and auxiliary functions registered in
// it, and the list of open FTS5 tables (for auxiliary-function lookups).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "ext/fts5/fts5_abi.h"

namespace basalt::fts5 {

struct TokenizerModule {
  void* user_data = nullptr;
  fts5_tokenizer methods{};
  void (*destroy)(void*) = nullptr;
};

struct AuxFunctionEntry {
  void* owner = nullptr;  // the Global it belongs to
  std::string name;
  void* user_data = nullptr;
  fts5_extension_function fn = nullptr;
  void (*destroy)(void*) = nullptr;
};

// Invariant: `api` is the first member, so the fts5_api* handed out is also
// a Global*.
struct Global {
  fts5_api api;
  sqlite3* db = nullptr;
  std::map<std::string, TokenizerModule> tokenizers;  // keys lower-cased
  std::string default_tokenizer;                      // the first registered
  std::map<std::string, AuxFunctionEntry> functions;  // keys lower-cased
  std::map<int64_t, void*> cursors;                   // open fts5 cursors by id
  std::map<std::string, void*> tables;                // "schema.name" (lower) -> Table
  int64_t next_cursor_id = 0;
  ~Global();
  const TokenizerModule* FindTokenizer(const char* name) const;
  const AuxFunctionEntry* FindFunction(const char* name) const;
};

inline Global* GlobalOf(fts5_api* api) { return reinterpret_cast<Global*>(api); }

// Registers the fts5 and fts5vocab modules, the fts5() and fts5_source_id()
// functions and the built-in tokenizers and auxiliary functions.
int RegisterFts5(sqlite3* db);

}  // namespace basalt::fts5
