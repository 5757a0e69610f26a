// Differential checking of one call against the referee.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "harness.h"
#include "oracle.h"

namespace basalt::functest {

// The referee shared by all tests (null when libsqlite3 is unavailable).
Oracle* SharedOracle();

// Multiplier for the random iteration counts: BASALT_FUNC_DIFF_SCALE in the
// environment (default 1), for long soak runs.
int DiffScale();
// Seed offset: BASALT_FUNC_DIFF_SEED (default 0), to explore other sequences.
uint64_t DiffSeed();

// "SELECT name(?1, ..., ?n)".
std::string CallSql(const std::string& name, size_t nargs);

// Evaluates name(args) both ways; returns an empty string when they agree,
// else a description of the difference.
std::string CompareCall(FuncHarness* h, const std::string& name, const std::vector<Value>& args);

// Same for an aggregate over rows ("SELECT name(column1, ...) FROM (VALUES ...)").
std::string CompareAggregate(FuncHarness* h, const std::string& name,
                             const std::vector<std::vector<Value>>& rows);

}  // namespace basalt::functest
