#include "pool.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <new>

namespace basalt::slt {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

Counts Snapshot(const FileProgress& p) {
  Counts c;
  c.records = p.records;
  c.to_run = p.to_run;
  c.passed = p.passed;
  c.failed = p.failed;
  c.skipped = p.skipped;
  c.current_line = p.current_line;
  c.elapsed_ns = p.elapsed_ns;
  c.finished = p.finished != 0;
  return c;
}

struct Worker {
  bool busy = false;
  pid_t pid = -1;
  int fd = -1;
  size_t job = 0;
  Clock::time_point start;
  bool timed_out = false;
  std::string messages;
};

}  // namespace

bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

void ProcessPool::Run(size_t count, const ChildMain& child, const OnDone& done, const OnTick& tick,
                      double tick_seconds) {
  // One FileProgress per worker, shared with the children.
  const size_t bytes = sizeof(FileProgress) * workers_;
  void* shared = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (shared == MAP_FAILED) {
    std::perror("basalt-slt: mmap");
    std::exit(2);
  }
  FileProgress* slots = static_cast<FileProgress*>(shared);
  for (int i = 0; i < workers_; ++i) new (&slots[i]) FileProgress();

  std::vector<Worker> workers(workers_);
  size_t next = 0;
  int active = 0;
  Clock::time_point last_tick = Clock::now();

  auto reap = [&](int w) {
    Worker& k = workers[w];
    int status = 0;
    while (::waitpid(k.pid, &status, 0) < 0 && errno == EINTR) {
    }
    ::close(k.fd);
    JobReport report;
    report.counts = Snapshot(slots[w]);
    report.messages = std::move(k.messages);
    report.timed_out = k.timed_out;
    report.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    report.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    report.wall_seconds = SecondsSince(k.start);
    const size_t job = k.job;
    k = Worker();
    --active;
    done(job, std::move(report));
  };

  while (next < count || active > 0) {
    // Start jobs on idle workers.
    for (int w = 0; w < workers_ && next < count; ++w) {
      if (workers[w].busy) continue;
      int fds[2];
      if (::pipe2(fds, O_CLOEXEC) != 0) {
        std::perror("basalt-slt: pipe");
        std::exit(2);
      }
      slots[w].Reset();
      std::fflush(stdout);
      std::fflush(stderr);
      const pid_t pid = ::fork();
      if (pid < 0) {
        std::perror("basalt-slt: fork");
        std::exit(2);
      }
      if (pid == 0) {
        ::close(fds[0]);
        for (const Worker& other : workers) {
          if (other.busy) ::close(other.fd);
        }
        const int code = child(next, &slots[w], fds[1]);
        ::_exit(code);
      }
      ::close(fds[1]);
      ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
      Worker& k = workers[w];
      k.busy = true;
      k.pid = pid;
      k.fd = fds[0];
      k.job = next++;
      k.start = Clock::now();
      ++active;
    }

    // Wait for output, an exit, the next tick or the nearest deadline.
    std::vector<pollfd> polls;
    std::vector<int> owner;
    double wait = tick_seconds;
    for (int w = 0; w < workers_; ++w) {
      if (!workers[w].busy) continue;
      polls.push_back(pollfd{workers[w].fd, POLLIN, 0});
      owner.push_back(w);
      if (timeout_seconds_ > 0 && !workers[w].timed_out) {
        const double left = timeout_seconds_ - SecondsSince(workers[w].start);
        if (left < wait) wait = left;
      }
    }
    if (wait < 0) wait = 0;
    const int n = ::poll(polls.data(), polls.size(), static_cast<int>(wait * 1000) + 1);
    if (n < 0 && errno != EINTR) {
      std::perror("basalt-slt: poll");
      std::exit(2);
    }
    for (size_t i = 0; n > 0 && i < polls.size(); ++i) {
      if (polls[i].revents == 0) continue;
      Worker& k = workers[owner[i]];
      char buf[1 << 16];
      bool eof = false;
      for (;;) {
        const ssize_t got = ::read(k.fd, buf, sizeof(buf));
        if (got > 0) {
          k.messages.append(buf, got);
          continue;
        }
        if (got == 0) eof = true;
        if (got < 0 && errno == EINTR) continue;
        break;  // EAGAIN: nothing more for now
      }
      if (eof) reap(owner[i]);
    }

    // Kill jobs past their deadline; their pipes then reach end-of-file.
    if (timeout_seconds_ > 0) {
      for (Worker& k : workers) {
        if (k.busy && !k.timed_out && SecondsSince(k.start) >= timeout_seconds_) {
          k.timed_out = true;
          ::kill(k.pid, SIGKILL);
        }
      }
    }

    if (tick && SecondsSince(last_tick) >= tick_seconds) {
      last_tick = Clock::now();
      std::vector<const FileProgress*> running;
      for (int w = 0; w < workers_; ++w) {
        if (workers[w].busy) running.push_back(&slots[w]);
      }
      tick(running);
    }
  }
  ::munmap(shared, bytes);
}

}  // namespace basalt::slt
