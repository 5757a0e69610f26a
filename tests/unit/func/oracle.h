// The referee for the function tests: the system libsqlite3 loaded with
// dlopen (never linked into the engine). Runs one statement with bound
// values and returns column 0 of the first row, or the error message.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "record/value.h"

namespace basalt::functest {

class Oracle {
 public:
  // Null when the library cannot be loaded (the differential tests skip).
  static std::unique_ptr<Oracle> Open();
  ~Oracle();

  // Prepares (cached by text) and steps sql with args bound to ?1..?n.
  // Returns false and fills *error on a prepare or step error.
  bool Eval(const std::string& sql, const std::vector<Value>& args, Value* out, std::string* error);
  bool Exec(const std::string& sql);

  struct Impl;

 private:
  Oracle() = default;
  Impl* impl_ = nullptr;
};

// "integer:5", "text:'abc'", "blob:x'00ff'", "real:1.5000000000000000" ...
std::string Describe(const Value& v);
// Same type and value; reals bit for bit (0.0 and -0.0 count as equal).
bool SameValue(const Value& a, const Value& b);

}  // namespace basalt::functest
