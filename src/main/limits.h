// The run-time limits of one connection (sqlite3_limit), numbered as
// SQLITE_LIMIT_* are. Each starts at the reference build's default and can
// be lowered, or raised back up to its hard maximum, at any time; statements
// check the values in force when they are prepared (or run, for LENGTH).
#pragma once

#include <array>

#include "parser/parser.h"

namespace basalt {

enum class LimitId : int {
  kLength = 0,             // bytes in a string or BLOB, or in a row
  kSqlLength = 1,          // bytes of SQL text a prepare accepts
  kColumn = 2,             // columns of a table, index, result set, ORDER BY ...
  kExprDepth = 3,          // depth of an expression tree
  kCompoundSelect = 4,     // terms of a compound SELECT
  kVdbeOp = 5,             // instructions of a compiled program
  kFunctionArg = 6,        // arguments of a function call
  kAttached = 7,           // attached databases
  kLikePatternLength = 8,  // bytes of a LIKE or GLOB pattern
  kVariableNumber = 9,     // largest parameter number
  kTriggerDepth = 10,      // nesting of triggers
  kWorkerThreads = 11,     // auxiliary sorter threads
};

class Limits {
 public:
  static constexpr int kCount = 12;

  Limits() : values_(kDefault) {}
  int get(LimitId id) const { return values_[static_cast<size_t>(id)]; }
  // sqlite3_limit semantics: returns the old value; a negative `value`
  // changes nothing, a value above the hard maximum is clamped to it.
  // Invariant L1: 0 <= get(id) <= kHard[id] for every id.
  int Set(int id, int value) {
    if (id < 0 || id >= kCount) return -1;
    int old = values_[static_cast<size_t>(id)];
    if (value >= 0) {
      values_[static_cast<size_t>(id)] = value < kHard[id] ? value : kHard[id];
    }
    return old;
  }
  ParseLimits ForParser() const {
    ParseLimits p;
    p.expr_depth = get(LimitId::kExprDepth);
    p.function_arg = get(LimitId::kFunctionArg);
    p.compound_select = get(LimitId::kCompoundSelect);
    p.variable_number = get(LimitId::kVariableNumber);
    p.column = get(LimitId::kColumn);
    return p;
  }

  // The reference build's compile-time maxima and defaults.
  static constexpr std::array<int, kCount> kHard = {
      1000000000, 1000000000, 2000, 1000, 500, 250000000, 127, 10, 50000, 250000, 1000, 8};
  static constexpr std::array<int, kCount> kDefault = {
      1000000000, 1000000000, 2000, 1000, 500, 250000000, 127, 10, 50000, 250000, 1000, 0};

 private:
  std::array<int, kCount> values_;
};

}  // namespace basalt
