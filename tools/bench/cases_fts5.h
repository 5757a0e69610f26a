// FTS5 workloads of basalt-bench (cases_fts5.cc): each builds its own
// database at `path` and returns the seconds of the timed part.
#pragma once

#include <cstdint>
#include <string>

#include "api.h"

namespace basalt::bench {

// Builds an FTS5 index over `docs` documents of about 1 KB, one transaction.
double Fts5Build(const Api& a, const std::string& path, int64_t docs);
// 10k MATCH queries ranked by bm25 (ORDER BY rank LIMIT 10) over the same
// documents (the build is not timed).
double Fts5Query(const Api& a, const std::string& path, int64_t docs);

}  // namespace basalt::bench
