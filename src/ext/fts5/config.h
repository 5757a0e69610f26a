// An FTS5 table's configuration: what CREATE VIRTUAL TABLE declares
// (columns, tokenize=, prefix=, content=, content_rowid=, columnsize=,
// detail=) and the options stored in %_config (pgsz, automerge,
// crisismerge, usermerge, rank), with the tokenizer instance it names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ext/fts5/common.h"
#include "ext/fts5/global.h"

namespace basalt::fts5 {

enum class Detail { kFull, kNone, kColumn };
enum class Content { kNormal, kNone, kExternal };

inline constexpr int kDefaultPgsz = 4050;
inline constexpr int kDefaultAutomerge = 4;
inline constexpr int kDefaultUsermerge = 4;
inline constexpr int kDefaultCrisismerge = 16;
inline constexpr int kDefaultHashSize = 1024 * 1024;
inline constexpr int kFileFormatVersion = 4;

struct Config {
  sqlite3* db = nullptr;
  Global* global = nullptr;
  std::string schema;  // "main", "temp" or an attached name
  std::string name;    // the virtual table's name
  std::vector<std::string> cols;
  std::vector<bool> unindexed;
  std::vector<int> prefixes;  // prefix= lengths, in characters
  Content content = Content::kNormal;
  std::string content_table;  // external content table (unquoted)
  std::string content_rowid = "rowid";
  bool columnsize = true;
  Detail detail = Detail::kFull;
  std::vector<std::string> tokenize_args;  // empty: the default tokenizer

  // From %_config (defaults until Load runs).
  int pgsz = kDefaultPgsz;
  int automerge = kDefaultAutomerge;
  int usermerge = kDefaultUsermerge;
  int crisismerge = kDefaultCrisismerge;
  int hash_size = kDefaultHashSize;
  std::string rank = "bm25";
  std::string rank_args;
  uint32_t cookie = 0;

  // The tokenizer instance.
  const TokenizerModule* tok_module = nullptr;
  Fts5Tokenizer* tok = nullptr;
  // With the built-in trigram tokenizer, the LIKE/GLOB patterns the table
  // can narrow by its index (as SQLite): SQLITE_INDEX_CONSTRAINT_LIKE
  // (case-folding: LIKE and GLOB) or _GLOB (case_sensitive 1); else 0.
  int pattern = 0;

  ~Config();
  int ncol() const { return static_cast<int>(cols.size()); }
  // 'schema'.'name<suffix>' for a shadow table.
  std::string Shadow(const char* suffix) const;
  // Runs the tokenizer over text; cb gets each token.
  int Tokenize(int flags, const char* text, int n, void* ctx,
               int (*cb)(void*, int, const char*, int, int, int)) const;
  // Applies one %_config key/value; returns SQLITE_OK or SQLITE_ERROR
  // (a bad value) — *err names the problem.
  int SetValue(const std::string& key, sqlite3_value* v, bool* bad);
  // Reads %_config (the version check and each option).
  int Load(std::string* err);
};

// Parses the CREATE VIRTUAL TABLE arguments into *cfg and creates the
// tokenizer; on error *err holds SQLite's message.
int ParseConfig(sqlite3* db, Global* g, int argc, const char* const* argv, Config* cfg,
                std::string* err);

// Parses a rank= value "fn(args)" into its function name and argument text.
int ParseRank(const std::string& v, std::string* fn, std::string* args);

}  // namespace basalt::fts5
