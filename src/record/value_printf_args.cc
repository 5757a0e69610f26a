#include "record/value_printf_args.h"

#include "record/value_ops.h"

namespace basalt {

int64_t ValuePrintfArgs::NextInt64() {
  if (next_ >= argc_) return 0;
  return ValueToInt64(argv_[next_++]);
}

double ValuePrintfArgs::NextDouble() {
  if (next_ >= argc_) return 0.0;
  return ValueToDouble(argv_[next_++]);
}

bool ValuePrintfArgs::NextText(std::string_view* text) {
  if (next_ >= argc_) return false;
  const Value& v = argv_[next_++];
  switch (v.type()) {
    case Type::kNull:
      return false;
    case Type::kInteger:
      *text = std::string_view(buf_, static_cast<size_t>(IntToText(v.int_value(), buf_)));
      return true;
    case Type::kReal:
      *text = std::string_view(buf_, static_cast<size_t>(RealToText(v.real_value(), buf_)));
      return true;
    default:
      *text = v.text();
      return true;
  }
}

}  // namespace basalt
