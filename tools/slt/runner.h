// Runs one parsed script against one engine, on a fresh database, and
// either checks every record (RunScript) or writes a copy of the script with
// the engine's results filled in (CompleteScript).
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "engine.h"
#include "progress.h"
#include "script.h"

namespace basalt::slt {

struct RunOptions {
  std::string db_path = ":memory:";              // a file path is deleted before and after
  std::string_view condition_engine = "sqlite";  // the name skipif/onlyif test
  bool verbose = false;  // failures carry the SQL, expected and actual values
};

// Receives each failure (and, for completion, each note) as finished text:
// "path:line: message\n", plus detail lines when verbose.
using MessageSink = std::function<void(std::string_view)>;

// Checks every record. Counts go to *progress as the run advances.
void RunScript(const Script& script, const Engine& engine, const RunOptions& options,
               FileProgress* progress, const MessageSink& sink);

// Runs every record and appends to *out the script with statement records
// marked ok or error as the engine behaved and query results replaced by the
// engine's. Everything else is copied unchanged.
void CompleteScript(const Script& script, const Engine& engine, const RunOptions& options,
                    FileProgress* progress, const MessageSink& sink, std::string* out);

}  // namespace basalt::slt
