#include "child.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace basalt::bench {

namespace {
[[noreturn]] void Die(const char* what) {
  std::fprintf(stderr, "basalt-bench: %s\n", what);
  std::exit(2);
}
}  // namespace

RunResult RunInChild(const std::function<double()>& run) {
  std::fflush(stdout);  // the child must not write the parent's buffered output again
  std::fflush(stderr);
  int fd[2];
  if (::pipe(fd) != 0) Die("pipe");
  pid_t pid = ::fork();
  if (pid < 0) Die("fork");
  if (pid == 0) {
    ::close(fd[0]);
    double t = run();
    std::fflush(stdout);
    bool ok = ::write(fd[1], &t, sizeof t) == static_cast<ssize_t>(sizeof t);
    ::_exit(ok ? 0 : 3);
  }
  ::close(fd[1]);
  double t = -1;
  ssize_t got = ::read(fd[0], &t, sizeof t);
  ::close(fd[0]);
  int status = 0;
  struct rusage ru = {};
  if (::wait4(pid, &status, 0, &ru) != pid) Die("wait4");
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || got != static_cast<ssize_t>(sizeof t)) {
    Die("a workload's child process failed");
  }
  return RunResult{t, ru.ru_maxrss};
}

long ResidentFileKb() {
  FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  long kb = 0;
  while (std::fgets(line, sizeof line, f) != nullptr) {
    if (std::strncmp(line, "RssFile:", 8) == 0) kb = std::atol(line + 8);
  }
  std::fclose(f);
  return kb;
}

}  // namespace basalt::bench
