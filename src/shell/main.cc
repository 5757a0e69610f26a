// basalt: a command-line shell that behaves like sqlite3 3.40.1's. See
// shell.h for its parts.
#include <stdio_ext.h>

#include <cstdio>

#include "shell/shell.h"

int main(int argc, char** argv) {
  // One thread uses each connection: no connection mutexes (as sqlite3).
  shell::Shell sh;
  sqlite3_config(SQLITE_CONFIG_MULTITHREAD);
  sqlite3_config(SQLITE_CONFIG_URI, 1);
  sqlite3_config(SQLITE_CONFIG_LOG, shell::ShellLog, &sh);
  shell::SetOutput(sh, stdout, false, "");
  __fsetlocking(stderr, FSETLOCKING_BYCALLER);
  return shell::RunMain(sh, argc, argv);
}
