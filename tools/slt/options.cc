#include "options.h"

#include <cstdlib>
#include <string_view>

namespace basalt::slt {

const char* UsageText() {
  return "usage: basalt-slt [options] FILE|FOLDER...\n"
         "Runs sqllogictest scripts (*.test; folders are searched recursively) against\n"
         "an engine loaded through the sqlite3 C API.\n"
         "\n"
         "  --engine basalt|sqlite|both  engine to run (default basalt: libbasalt.so next\n"
         "                               to this program; sqlite: libsqlite3.so.0)\n"
         "  --engine-lib PATH            load Basalt's engine from PATH\n"
         "  --sqlite-lib PATH            load the sqlite engine from PATH\n"
         "  --jobs N                     run N files at a time (default 1)\n"
         "  --timeout SECONDS            a file running longer fails (default 600; 0: off)\n"
         "  --db FILE                    database file, deleted before each test file\n"
         "                               (default :memory:)\n"
         "  --verbose                    show SQL, expected and actual values of failures\n"
         "  --quiet                      no line per failing record, only the summary\n"
         "  --max-failures N             at most N failure lines per file\n"
         "  --no-progress                no progress line on the terminal\n"
         "  --complete OUT               write the scripts with the engine's results\n"
         "                               filled in: to file OUT (one input file; '-' is\n"
         "                               standard output) or into folder OUT\n"
         "  -h, --help                   this text\n"
         "\n"
         "Exit status: 0 if every record passed, 1 if any failed, 2 on bad usage.\n";
}

namespace {

bool ParseNumber(std::string_view text, double* value) {
  std::string s(text);
  char* end = nullptr;
  *value = std::strtod(s.c_str(), &end);
  return !s.empty() && end == s.c_str() + s.size() && *value >= 0;
}

}  // namespace

bool ParseOptions(int argc, char** argv, Options* o, bool* help, std::string* error) {
  *help = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::string_view value;
    bool has_value = false;
    // --name=value is accepted as well as --name value.
    if (arg.size() > 2 && arg.substr(0, 2) == "--") {
      const size_t eq = arg.find('=');
      if (eq != std::string_view::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        has_value = true;
      }
    }
    auto take = [&](std::string_view* out) {
      if (has_value) {
        *out = value;
        return true;
      }
      if (i + 1 >= argc) {
        *error = std::string(arg) + " needs a value";
        return false;
      }
      *out = argv[++i];
      return true;
    };
    std::string_view v;
    double number = 0;
    if (arg == "-h" || arg == "--help") {
      *help = true;
      return true;
    } else if (arg == "--engine") {
      if (!take(&v)) return false;
      if (v != "basalt" && v != "sqlite" && v != "both") {
        *error = "--engine must be basalt, sqlite or both";
        return false;
      }
      o->engine = v;
    } else if (arg == "--engine-lib") {
      if (!take(&v)) return false;
      o->basalt_library = v;
    } else if (arg == "--sqlite-lib") {
      if (!take(&v)) return false;
      o->sqlite_library = v;
    } else if (arg == "--jobs" || arg == "-j") {
      if (!take(&v)) return false;
      if (!ParseNumber(v, &number) || number < 1 || number > 256 || number != int(number)) {
        *error = "--jobs needs a whole number from 1 to 256";
        return false;
      }
      o->jobs = static_cast<int>(number);
    } else if (arg == "--timeout") {
      if (!take(&v)) return false;
      if (!ParseNumber(v, &number)) {
        *error = "--timeout needs a number of seconds";
        return false;
      }
      o->timeout_seconds = number;
    } else if (arg == "--db") {
      if (!take(&v)) return false;
      o->db = v;
    } else if (arg == "--complete") {
      if (!take(&v)) return false;
      o->complete = v;
    } else if (arg == "--max-failures") {
      if (!take(&v)) return false;
      if (!ParseNumber(v, &number) || number != int(number)) {
        *error = "--max-failures needs a whole number";
        return false;
      }
      o->max_failures = static_cast<int>(number);
    } else if (arg == "--verbose" || arg == "-v") {
      o->verbose = true;
    } else if (arg == "--quiet" || arg == "-q") {
      o->quiet = true;
    } else if (arg == "--no-progress") {
      o->progress = false;
    } else if (arg.size() > 1 && arg[0] == '-') {
      *error = "unknown option " + std::string(arg);
      return false;
    } else {
      o->paths.emplace_back(arg);
    }
  }
  if (o->paths.empty()) {
    *error = "no test files or folders given";
    return false;
  }
  if (!o->complete.empty() && o->engine == "both") {
    *error = "--complete needs one engine (--engine basalt or --engine sqlite)";
    return false;
  }
  return true;
}

}  // namespace basalt::slt
