// Bulk workloads of basalt-bench (cases_bulk.cc): sorting, index builds,
// large scans, set operations and whole-table writes. Each case builds its
// own database at `path` (a file, or ":memory:") with `rows` rows, untimed
// unless the build is what is measured, and returns the seconds of the
// timed part.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api.h"

namespace basalt::bench {

struct BulkCase {
  const char* name;
  const char* what;
  double (*run)(const Api& a, int64_t rows, const std::string& path);
};

// Every bulk case, in the order the benchmark runs them.
const std::vector<BulkCase>& BulkCases();
// File databases of the bulk cases in WAL mode (default: rollback journal).
void BulkUseWal(bool on);
// The large cases (opt-in: basalt-bench --sort-rows N): ORDER BY over every
// row, and CREATE INDEX on the TEXT column, of an N-row table.
double BigSort(const Api& a, int64_t rows, const std::string& path);
double BigIndex(const Api& a, int64_t rows, const std::string& path);

}  // namespace basalt::bench
