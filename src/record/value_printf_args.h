// PrintfArgs over SQL values: what the SQL printf()/format() function hands
// to SqlFormat (common/printf.h documents the mapping per conversion).
#pragma once

#include "common/printf.h"
#include "record/value.h"

namespace basalt {

class ValuePrintfArgs final : public PrintfArgs {
 public:
  ValuePrintfArgs(const Value* argv, int argc) : argv_(argv), argc_(argc) {}
  int64_t NextInt64() override;
  double NextDouble() override;
  bool NextText(std::string_view* text) override;
  int used() const { return next_; }

 private:
  const Value* argv_;
  int argc_;
  int next_ = 0;
  char buf_[32];  // rendering of a numeric argument for %s and friends
};

}  // namespace basalt
