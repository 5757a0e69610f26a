// .limit: shows or sets the connection's run-time limits through
// sqlite3_limit, looked up at run time so the shell still starts with a
// library that lacks it.
#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {

int DotLimit(Shell& sh, const std::vector<std::string>& a) {
  static const char* const kNames[] = {"length",          "sql_length",      "column",
                                       "expr_depth",      "compound_select", "vdbe_op",
                                       "function_arg",    "attached",        "like_pattern_length",
                                       "variable_number", "trigger_depth",   "worker_threads"};
  constexpr int kCount = 12;
  using LimitFn = int (*)(sqlite3*, int, int);
  auto limit = reinterpret_cast<LimitFn>(dlsym(RTLD_DEFAULT, "sqlite3_limit"));
  if (limit == nullptr) {
    std::fprintf(stderr, "Error: .limit needs sqlite3_limit, which this library lacks\n");
    return 1;
  }
  OpenDb(sh, false);
  if (a.size() == 1) {
    for (int i = 0; i < kCount; ++i) std::printf("%20s %d\n", kNames[i], limit(sh.db, i, -1));
    return 0;
  }
  if (a.size() > 3) {
    std::fprintf(stderr, "Usage: .limit NAME ?NEW-VALUE?\n");
    return 1;
  }
  int found = -1;
  for (int i = 0; i < kCount; ++i) {
    if (sqlite3_strnicmp(kNames[i], a[1].c_str(), static_cast<int>(a[1].size())) == 0) {
      if (found >= 0) {
        std::fprintf(stderr, "ambiguous limit: \"%s\"\n", a[1].c_str());
        return 1;
      }
      found = i;
    }
  }
  if (found < 0) {
    std::fprintf(stderr, "unknown limit: \"%s\"\nenter \".limits\" with no arguments for a list.\n",
                 a[1].c_str());
    return 1;
  }
  if (a.size() == 3) limit(sh.db, found, static_cast<int>(IntegerValue(a[2])));
  std::printf("%20s %d\n", kNames[found], limit(sh.db, found, -1));
  return 0;
}

}  // namespace shell
