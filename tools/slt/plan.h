// What a run of a script will do, decided before anything executes: which
// records run on this engine (conditions, halt) and the counts that follow.
// Both the checker and the completer start from a Plan.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "progress.h"
#include "script.h"

namespace basalt::slt {

struct Plan {
  std::vector<bool> runs;  // per record: executes on this engine
  int64_t records = 0;     // test records (statement, query, malformed)
  int64_t to_run = 0;      // test records that execute
  int64_t skipped = 0;     // records - to_run

  // Publishes the counts known before the run.
  void Publish(FileProgress* progress) const {
    progress->records = records;
    progress->to_run = to_run;
    progress->skipped = skipped;
  }
};

// Skips records whose conditions exclude `engine`, and everything after a
// halt that applies.
Plan MakePlan(const Script& script, std::string_view engine);

// "path:line: " — the start of every message about a record.
std::string Where(const Script& script, int line);

// Appends the lines [first, first + count) of the script, each indented by
// `indent` spaces and ended with '\n'.
void AppendLines(const Script& script, int first_line, int count, int indent, std::string* out);

}  // namespace basalt::slt
