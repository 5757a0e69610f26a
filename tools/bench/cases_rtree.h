// R*Tree workloads of basalt-bench (cases_rtree.cc): each builds its own
// database at `path` and returns the seconds of the timed part.
#pragma once

#include <string>

#include "api.h"

namespace basalt::bench {

// 100k inserts into a 2-D rtree, one transaction.
double RtreeInsert(const Api& a, const std::string& path);
// 10k window queries on a 100k-row 2-D rtree (the build is not timed).
double RtreeQuery(const Api& a, const std::string& path);

}  // namespace basalt::bench
