// A running sqlite3 shell driven through pipes, for tests that need another
// process holding locks on the same database (or being killed mid-way).
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>

#include "file_pager_test_util.h"

namespace basalt::testing {

class SqliteProcess {
 public:
  explicit SqliteProcess(const std::string& db) {
    int in[2], out[2];
    if (pipe(in) != 0 || pipe(out) != 0) return;
    pid_ = fork();
    if (pid_ == 0) {
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(out[1], 2);
      close(in[1]);
      close(out[0]);
      execl(kSqlite3, kSqlite3, "-batch", db.c_str(), static_cast<char*>(nullptr));
      _exit(127);
    }
    close(in[0]);
    close(out[1]);
    to_ = in[1];
    from_ = out[0];
  }
  ~SqliteProcess() {
    if (to_ >= 0) close(to_);
    if (pid_ > 0) waitpid(pid_, nullptr, 0);
    if (from_ >= 0) close(from_);
  }
  SqliteProcess(const SqliteProcess&) = delete;
  SqliteProcess& operator=(const SqliteProcess&) = delete;

  // Runs statements/dot-commands and returns what they printed (stdout and
  // stderr), once all of it has run.
  std::string Run(const std::string& sql) {
    std::string cmd = sql + "\n.print __done__\n";
    if (write(to_, cmd.data(), cmd.size()) != ssize_t(cmd.size())) return "<write failed>";
    std::string out;
    const std::string marker = "__done__\n";
    char buf[4096];
    while (out.size() < marker.size() ||
           out.compare(out.size() - marker.size(), marker.size(), marker) != 0) {
      ssize_t n = read(from_, buf, sizeof buf);
      if (n <= 0) return out + "<eof>";
      out.append(buf, size_t(n));
    }
    out.resize(out.size() - marker.size());
    while (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
  }

  // SIGKILL: the process dies holding whatever it held (files, journals).
  void Kill() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
      pid_ = -1;
    }
  }

 private:
  pid_t pid_ = -1;
  int to_ = -1;
  int from_ = -1;
};

}  // namespace basalt::testing
