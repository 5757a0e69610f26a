// The FTS5 comparison program: Basalt's built-in tokenizers and auxiliary
// functions (src/ext/fts5/tokenize, src/ext/fts5/auxfn), registered into the
// system SQLite's FTS5 under "b_" names, against SQLite's own.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "system_sqlite.h"

namespace basalt::fts5test {

struct Tally {
  long comparisons = 0;
  long mismatches = 0;
  // Counts one comparison; prints the first few mismatches.
  void Check(bool same, const std::string& what) {
    ++comparisons;
    if (same) return;
    if (++mismatches <= 20) std::printf("MISMATCH %s\n", what.c_str());
  }
};

struct Env {
  SystemSqlite& sys;
  sqlite3* db;
  fts5_api* api;
};

// Runs `sql` and returns every row as text ("NULL" for NULL, doubles as
// their 17-digit form with bits), or "ERROR: message".
std::vector<std::string> Rows(const Env& env, const std::string& sql);
bool Exec(const Env& env, const std::string& sql, std::string* error = nullptr);

void CompareTokenizers(const Env& env, Tally* tally);    // compare_tokenizers.cc
void CompareVocabularies(const Env& env, Tally* tally);  // compare_tokenizers.cc
void MeasureTokenizers(const Env& env);                  // compare_tokenizers.cc
void CompareFunctions(const Env& env, Tally* tally);     // compare_functions.cc

// A printable form of arbitrary bytes.
std::string Escape(const std::string& s);

}  // namespace basalt::fts5test
