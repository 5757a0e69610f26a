// .load (loadable extensions) and .log (the library's error log, which the
// shell receives through SQLITE_CONFIG_LOG from start-up on).
#include <cstdio>
#include <string>

#include "shell/shell.h"

namespace shell {

void ShellLog(void* shell, int code, const char* msg) {
  auto* sh = static_cast<Shell*>(shell);
  if (sh->log == nullptr) return;
  std::fprintf(sh->log, "(%d) %s\n", code, msg);
  std::fflush(sh->log);
}

int DotLoad(Shell& sh, const std::vector<std::string>& args) {
  if (args.size() < 2) {
    std::fputs("Usage: .load FILE ?ENTRYPOINT?\n", stderr);
    return 1;
  }
  OpenDb(sh, false);
  char* err = nullptr;
  const char* entry = args.size() >= 3 ? args[2].c_str() : nullptr;
  if (sqlite3_load_extension(sh.db, args[1].c_str(), entry, &err) != SQLITE_OK) {
    std::fprintf(stderr, "Error: %s\n", err != nullptr ? err : "");
    sqlite3_free(err);
    return 1;
  }
  return 0;
}

int DotLog(Shell& sh, const std::vector<std::string>& args) {
  if (args.size() != 2) {
    std::fputs("Usage: .log FILENAME\n", stderr);
    return 1;
  }
  if (sh.log != nullptr && sh.log != stdout && sh.log != stderr) std::fclose(sh.log);
  sh.log = nullptr;
  const std::string& name = args[1];
  if (name == "off") return 0;
  if (name == "stdout") {
    sh.log = stdout;
  } else if (name == "stderr") {
    sh.log = stderr;
  } else {
    sh.log = std::fopen(name.c_str(), "w");
    if (sh.log == nullptr) std::fprintf(stderr, "Error: cannot open \"%s\"\n", name.c_str());
  }
  return 0;
}

}  // namespace shell
