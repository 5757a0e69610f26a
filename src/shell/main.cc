// basalt: a command-line shell that behaves like sqlite3 3.40.1's. See
// shell.h for its parts.
#include <cstdio>

#include "shell/shell.h"

int main(int argc, char** argv) {
  shell::Shell sh;
  sh.out = stdout;
  return shell::RunMain(sh, argc, argv);
}
