// The referee for differential tests: the system libsqlite3, loaded with
// dlopen at run time (never linked into the engine). Evaluates one SELECT
// with bound Values and returns the first column of its first row as a Value.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "record/value.h"

namespace basalt::testing {

class SqliteRef {
 public:
  // Null if the library cannot be loaded (tests then skip).
  static std::unique_ptr<SqliteRef> Open();
  ~SqliteRef();

  // Runs sql (statements are cached by text) with args bound to ?1..?n and
  // stores column 0 of the first row in *out (NULL if there is no row).
  // Returns false and sets *error on an SQL error.
  bool Eval(const std::string& sql, const std::vector<Value>& args, Value* out,
            std::string* error = nullptr);
  // Runs statements without results.
  bool Exec(const std::string& sql);
  // sqlite3_limit(db, SQLITE_LIMIT_LENGTH, n).
  void SetLengthLimit(int n);
  // Any other entry point of the library (e.g. "sqlite3_mprintf"), or null.
  void* Symbol(const char* name) const;

  struct Api;

 private:
  SqliteRef() = default;
  Api* api_ = nullptr;
  void* db_ = nullptr;
  struct Cache;
  Cache* cache_ = nullptr;
};

// A printable form of a value for failure messages: type:value, reals with
// all 17 digits.
std::string Describe(const Value& v);

// Bit-exact equality (reals compared by bits, 0.0 vs -0.0 distinguished only
// when strict_zero_sign).
bool SameValue(const Value& a, const Value& b, bool strict_zero_sign = false);

}  // namespace basalt::testing
