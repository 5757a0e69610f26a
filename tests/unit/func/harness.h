// Calls built-in functions directly through a FunctionRegistry the way the
// VM will: scalar(ctx, argc, argv) into a scratch result; step per row then
// final for aggregates.
#pragma once

#include <string>
#include <vector>

#include "catalog/function.h"
#include "record/value.h"

namespace basalt::functest {

struct CallResult {
  bool error = false;
  std::string message;
  Value value;
};

class FuncHarness {
 public:
  explicit FuncHarness(bool case_sensitive_like = false);

  const FunctionRegistry& registry() const { return reg_; }
  // Calls scalar function `name` with args; fails the test if not found.
  CallResult Call(const std::string& name, const std::vector<Value>& args,
                  const Collation* coll = nullptr);
  // Runs aggregate `name` over rows (each row is the argument list), then
  // final. skip_flags receives ctx->skip_flag after each step when non-null.
  CallResult Aggregate(const std::string& name, const std::vector<std::vector<Value>>& rows,
                       const Collation* coll = nullptr, std::vector<int>* skip_flags = nullptr);

 private:
  FunctionRegistry reg_;
};

// Shorthands for building argument lists.
inline Value I(int64_t v) { return Value::Int(v); }
inline Value R(double v) { return Value::Real(v); }
inline Value T(std::string_view s) { return Value::Text(s); }
inline Value B(std::string_view s) {
  Value v;
  v.SetBlob(s.data(), s.size());
  return v;
}
inline Value N() { return Value(); }

}  // namespace basalt::functest
