// Command-line options of basalt-slt.
#pragma once

#include <string>
#include <vector>

namespace basalt::slt {

struct Options {
  std::vector<std::string> paths;  // test files and folders
  std::string engine = "basalt";   // basalt | sqlite | both
  std::string basalt_library;      // --engine-lib: overrides libbasalt.so
  std::string sqlite_library;      // --sqlite-lib: overrides libsqlite3.so.0
  int jobs = 1;
  bool verbose = false;
  bool quiet = false;            // no per-record failure lines
  int max_failures = -1;         // per file; -1: all
  std::string complete;          // --complete OUT ("" when checking)
  double timeout_seconds = 600;  // per file; 0: none
  std::string db = ":memory:";
  bool progress = true;  // the progress line (only ever on a terminal)
};

// Parses argv. Returns false with *error set on bad usage; sets *help for
// -h/--help.
bool ParseOptions(int argc, char** argv, Options* options, bool* help, std::string* error);

const char* UsageText();

}  // namespace basalt::slt
