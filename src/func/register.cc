// RegisterBuiltinFunctions: turns the family tables into FunctionDefs.
#include <memory>

#include "func/builtins.h"
#include "func/func_internal.h"

namespace basalt {
namespace {

void AddOne(FunctionRegistry* reg, const func::BuiltinSpec& s, int nargs, uint32_t flags) {
  auto def = std::make_unique<FunctionDef>();
  def->name = s.name;
  def->nargs = nargs;
  def->flags = flags;
  def->scalar = s.scalar;
  def->step = s.step;
  def->final = s.final;
  def->value = s.value;
  def->inverse = s.inverse;
  reg->Add(std::move(def));
}

// Adds every row of `table`; `flags_mask` filters the rows' flags.
void AddTable(FunctionRegistry* reg, std::span<const func::BuiltinSpec> table,
              uint32_t flags_mask = ~0u) {
  for (const func::BuiltinSpec& s : table) {
    uint32_t flags = s.flags & flags_mask;
    if (s.nargs == -1 && s.min_args > 0) {
      // "At least min_args": one def per accepted count, so other counts are
      // not found and the caller reports "wrong number of arguments".
      for (int n = s.min_args; n <= kMaxFunctionArgs; ++n) AddOne(reg, s, n, flags);
    } else {
      AddOne(reg, s, s.nargs, flags);
    }
  }
}

}  // namespace

// PRAGMA case_sensitive_like replaces like() the way sqlite3_create_function
// would, without SQLITE_DETERMINISTIC or SQLITE_INNOCUOUS (as SQLite does:
// pragma_function_list then shows flags 0 for them).
void RegisterLikeFunctions(FunctionRegistry* reg, bool case_sensitive_like) {
  AddTable(reg, func::LikeFunctions(case_sensitive_like), 0);
}

void RegisterBuiltinFunctions(FunctionRegistry* reg, bool case_sensitive_like) {
  AddTable(reg, func::StringFunctions());
  AddTable(reg, func::EncodeFunctions());
  AddTable(reg, func::NumericFunctions());
  AddTable(reg, func::MiscFunctions());
  AddTable(reg, func::MathFunctions());
  AddTable(reg, func::AggregateFunctions());
  AddTable(reg, func::WindowFunctions());
  AddTable(reg, func::DateTimeFunctions());
  AddTable(reg, func::OptionFunctions());
  AddTable(reg, func::PatternFunctions());
  AddTable(reg, func::LikeFunctions(case_sensitive_like));
  AddTable(reg, func::JsonFunctions());
}

namespace {
// Never destroyed: connections may outlive static destruction order.
// (Out of memory while building: nothing leaks, and the next call tries
// again, as a throwing static initialization is retried.)
const FunctionRegistry* BuildShared(bool case_sensitive_like) {
  auto reg = std::make_unique<FunctionRegistry>();
  RegisterBuiltinFunctions(reg.get(), case_sensitive_like);
  return reg.release();
}
}  // namespace

const FunctionRegistry& SharedBuiltinFunctions(bool case_sensitive_like) {
  if (case_sensitive_like) {
    static const FunctionRegistry* const kSensitive = BuildShared(true);
    return *kSensitive;
  }
  static const FunctionRegistry* const kInsensitive = BuildShared(false);
  return *kInsensitive;
}

}  // namespace basalt
