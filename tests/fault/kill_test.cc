// Process kills: three writer processes (Basalt, and in every other round
// the system sqlite3 shell in one of the slots) run transactions on one
// database file while the parent kills them with SIGKILL at random moments
// and starts new ones in their place. The operating system keeps whatever a
// killed process wrote, so in every journal and synchronous mode:
//   1. no transaction reported committed is lost;
//   2. no transaction is partially applied: the rows of each writer slot are
//      exactly the state after its first m transactions (kill_workload.h),
//      m = the last one reported committed, or one more (a writer killed
//      between COMMIT and its report);
//   3. PRAGMA integrity_check says "ok".
// Checked all along by each new writer (its slot's rows, right after the
// recovery of whatever its killed predecessor left, which the recovering
// process may itself be killed in), and after each round on copies of the
// files left behind: one copy opened first by Basalt, one first by sqlite3,
// each then checked by the other engine as well.
//
// A Basalt writer is a fork of this test reporting through a pipe (one
// fixed-size record per write, so a kill never leaves half of one); a
// sqlite3 writer reads its transactions from a pipe on stdin and prints
// "C|n" after COMMIT n returns.
//
// BASALT_FAULT_FULL=1 selects the long run (more and longer rounds, and the
// TRUNCATE, PERSIST and DELETE+NORMAL modes); BASALT_KILL_SEED=n fixes the
// seed of the kill schedule; BASALT_SQLITE3=path names the sqlite3 shell
// (empty: none; default: "sqlite3" on PATH).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>

#include "kill_workload.h"
#include "main/statement.h"
#include "sql_session.h"

namespace basalt::testing {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int kSlots = 3;

struct KillMode {
  const char* name;
  const char* journal;      // PRAGMA journal_mode
  const char* synchronous;  // PRAGMA synchronous
  bool full_only;           // only in the long run
};

bool IsWal(const KillMode& m) { return std::strcmp(m.journal, "WAL") == 0; }

bool FullRun() { return std::getenv("BASALT_FAULT_FULL") != nullptr; }

std::string FindSqlite3() {
  if (const char* e = std::getenv("BASALT_SQLITE3")) return e;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path != nullptr ? path : "/usr/bin:/bin");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::string cand = (dir.empty() ? "." : dir) + "/sqlite3";
    if (access(cand.c_str(), X_OK) == 0) return cand;
  }
  return "";
}

// The connection settings of every writer of `slot`: slot 1 has a page cache
// too small for its larger transactions (dirty pages spill to the database
// or the WAL before COMMIT), slot 2 checkpoints every 50 WAL frames.
std::string WriterPragmas(const KillMode& m, int slot) {
  std::string p = std::string("PRAGMA synchronous = ") + m.synchronous + ";\n";
  if (!IsWal(m)) p += std::string("PRAGMA journal_mode = ") + m.journal + ";\n";
  if (slot == 1) p += "PRAGMA cache_size = 10;\n";
  if (slot == 2) p += "PRAGMA wal_autocheckpoint = 50;\n";
  return p;
}

std::string LastTxnQuery(int slot) {
  return "SELECT coalesce((SELECT last FROM h WHERE w = " + std::to_string(slot) + "), 0);\n";
}

// ---- Basalt writer processes ----

enum ReportKind : int32_t { kStarted = 1, kCommitted = 2, kFailed = 3 };

struct Report {
  int32_t kind;
  int32_t slot;
  int64_t txn;
  char text[240];
};
static_assert(sizeof(Report) <= PIPE_BUF, "one write, never split");

void Send(int fd, ReportKind kind, int slot, int64_t txn, const std::string& text) {
  Report r{};
  r.kind = kind;
  r.slot = slot;
  r.txn = txn;
  std::snprintf(r.text, sizeof r.text, "%s", text.c_str());
  ssize_t n = write(fd, &r, sizeof r);
  (void)n;
}

bool Retryable(int code) { return (code & 0xff) == kBusy || (code & 0xff) == kLocked; }

// Reads and settings may meet a writer's lock for longer than the busy
// timeout; they are simply tried again.
ExecResult ExecRetrying(Connection* c, const std::string& sql) {
  for (;;) {
    ExecResult r = Exec(c, sql);
    if (r.code == 0 || !Retryable(r.code)) return r;
  }
}

// The body of a forked Basalt writer: checks its slot's rows, then commits
// the slot's next transactions until killed. Exit status 3 after a kFailed
// report; it never returns.
[[noreturn]] void BasaltWriter(const std::string& path, const KillMode& mode, int slot, int fd) {
  auto fail = [&](const std::string& why) {
    Send(fd, kFailed, slot, 0, why);
    _exit(3);
  };
  std::unique_ptr<Connection> c = OpenDb(nullptr, path);
  if (!c) fail("open failed");
  ExecResult r = Exec(c.get(), "PRAGMA busy_timeout = 5000;\n");
  if (r.code == 0) r = ExecRetrying(c.get(), WriterPragmas(mode, slot));
  if (r.code != 0) fail("settings: " + r.error);
  r = ExecRetrying(c.get(), LastTxnQuery(slot));
  if (r.code != 0) fail("reading h: " + r.error);
  int64_t m = std::strtoll(r.output.c_str(), nullptr, 10);
  r = ExecRetrying(c.get(), SlotStateQuery(slot));
  if (r.code != 0) fail("reading the slot's rows: " + r.error);
  std::string diff = FirstDifference(r.output, ExpectedSlotState(slot, m));
  if (!diff.empty()) fail("rows after txn " + std::to_string(m) + ": " + diff);
  Send(fd, kStarted, slot, m, "");
  for (int64_t n = m + 1;;) {
    r = Exec(c.get(), TxnSql(slot, n));
    if (r.code == 0) {
      Send(fd, kCommitted, slot, n, "");
      ++n;
      continue;
    }
    Exec(c.get(), "ROLLBACK;\n");
    if (!Retryable(r.code)) {
      fail("txn " + std::to_string(n) + ": code " + std::to_string(r.code) + ": " + r.error);
    }
  }
}

// ---- the parent ----

struct Counts {
  int rounds = 0;
  int kills = 0;
  int sqlite3_kills = 0;
  int spawns = 0;
  int sqlite3_spawns = 0;
  int busy_exits = 0;    // sqlite3 writers that gave up on a lock (-bail)
  int journal_left = 0;  // rounds that left a journal or WAL file behind
  int64_t commits = 0;
  int64_t sqlite3_commits = 0;
};

struct Slot {
  pid_t pid = -1;
  bool sqlite3 = false;
  int report_fd = -1;     // Basalt: reports; sqlite3: its stdout
  int stdin_fd = -1;      // sqlite3 only
  off_t err_offset = 0;   // sqlite3: where its stderr starts in the error file
  std::string in;         // bytes read and not yet parsed
  std::string out;        // bytes still to write to sqlite3's stdin
  int64_t committed = 0;  // the last transaction known to be committed
};

void SetNonBlocking(int fd) { fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); }

std::string ReadFile(const std::string& path, off_t from = 0) {
  std::ifstream f(path, std::ios::binary);
  f.seekg(from);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

class KillRun {
 public:
  KillRun(const KillMode& mode, std::string dir, std::string sqlite3, uint64_t seed)
      : mode_(mode),
        dir_(std::move(dir)),
        db_(dir_ + "/kill.db"),
        sqlite3_(std::move(sqlite3)),
        rng_(seed),
        slots_(kSlots) {}

  const std::string& db() const { return db_; }
  const Counts& counts() const { return counts_; }
  const std::vector<std::string>& failures() const { return failures_; }

  // Writers in every slot, one killed every 0-20 ms (sometimes up to 200 ms,
  // so longer runs of commits and checkpoints happen too) and replaced, for
  // `seconds`; then all are killed.
  void Round(double seconds, bool with_sqlite3) {
    ++counts_.rounds;
    for (int s = 0; s < kSlots; ++s) Spawn(s, with_sqlite3 && s == 0);
    auto end = Clock::now() + std::chrono::milliseconds(static_cast<int>(seconds * 1000));
    while (Clock::now() < end && failures_.size() < 5) {
      int wait =
          rng_() % 10 == 0 ? 20 + static_cast<int>(rng_() % 181) : static_cast<int>(rng_() % 21);
      Pump(wait);
      int s = static_cast<int>(rng_() % kSlots);
      Stop(s, /*kill=*/true);
      Spawn(s, with_sqlite3 && s == 0 && rng_() % 2 == 0);
    }
    for (int s = 0; s < kSlots; ++s) Stop(s, /*kill=*/true);
    for (const char* suffix : {"-journal", "-wal"}) {
      std::error_code ec;
      if (fs::exists(db_ + suffix, ec) && fs::file_size(db_ + suffix, ec) > 0) {
        ++counts_.journal_left;
        break;
      }
    }
  }

  // Checks copies of the files left behind, opened first by Basalt (copy a)
  // and first by sqlite3 (copy b), each then checked by the other engine.
  void CheckFiles() {
    std::vector<int64_t> found(kSlots, -1);
    for (const char* copy : {"a", "b"}) {
      std::string d = dir_ + "/" + copy;
      fs::remove_all(d);
      fs::create_directory(d);
      for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
        if (fs::exists(db_ + suffix)) fs::copy_file(db_ + suffix, d + "/kill.db" + suffix);
      }
      bool basalt_first = copy[0] == 'a';
      for (int i = 0; i < 2; ++i) {
        bool basalt = (i == 0) == basalt_first;
        if (!basalt && sqlite3_.empty()) continue;
        std::string who = std::string(basalt ? "Basalt" : "sqlite3") + " on copy " + copy +
                          (i == 0 ? " (recovering)" : " (after the other engine)");
        std::string why = basalt ? CheckWithBasalt(d + "/kill.db", &found)
                                 : CheckWithSqlite3(d + "/kill.db", &found);
        if (!why.empty()) failures_.push_back(who + ": " + why);
      }
    }
    // What the files hold is now known to be committed.
    for (int s = 0; s < kSlots; ++s) {
      if (found[s] >= 0) slots_[s].committed = found[s];
    }
  }

 private:
  void Spawn(int s, bool use_sqlite3) {
    Slot& slot = slots_[s];
    slot.sqlite3 = use_sqlite3 && !sqlite3_.empty();
    slot.in.clear();
    slot.out.clear();
    std::fflush(nullptr);
    if (!slot.sqlite3) {
      int p[2];
      if (pipe2(p, O_CLOEXEC) != 0) std::abort();
      pid_t pid = fork();
      if (pid == 0) {
        for (int fd = 3; fd < 1024; ++fd) {
          if (fd != p[1]) close(fd);
        }
        BasaltWriter(db_, mode_, s, p[1]);
      }
      close(p[1]);
      slot.pid = pid;
      slot.report_fd = p[0];
      slot.stdin_fd = -1;
      ++counts_.spawns;
    } else {
      int in[2], out[2];
      if (pipe2(in, O_CLOEXEC) != 0 || pipe2(out, O_CLOEXEC) != 0) std::abort();
      fcntl(in[1], F_SETPIPE_SZ, 1 << 20);
      std::string err_path = dir_ + "/sqlite3.err";
      int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
      slot.err_offset = lseek(err, 0, SEEK_END);
      pid_t pid = fork();
      if (pid == 0) {
        dup2(in[0], 0);
        dup2(out[1], 1);
        dup2(err, 2);
        execl(sqlite3_.c_str(), "sqlite3", "-bail", "-batch", db_.c_str(), nullptr);
        _exit(127);
      }
      close(in[0]);
      close(out[1]);
      close(err);
      slot.pid = pid;
      slot.report_fd = out[0];
      slot.stdin_fd = in[1];
      SetNonBlocking(slot.stdin_fd);
      slot.out =
          ".timeout 5000\n" + WriterPragmas(mode_, s) + "SELECT 'M', " + LastTxnQuery(s).substr(7);
      ++counts_.sqlite3_spawns;
    }
    SetNonBlocking(slot.report_fd);
  }

  // Kills (if asked) and reaps the slot's process, then takes in what it
  // reported before it died.
  void Stop(int s, bool kill_it) {
    Slot& slot = slots_[s];
    if (slot.pid < 0) return;
    if (kill_it) {
      ::kill(slot.pid, SIGKILL);
      ++counts_.kills;
      if (slot.sqlite3) ++counts_.sqlite3_kills;
    }
    int status = 0;
    waitpid(slot.pid, &status, 0);
    while (Read(s) > 0) {
    }
    close(slot.report_fd);
    if (slot.stdin_fd >= 0) close(slot.stdin_fd);
    slot.pid = -1;
    slot.report_fd = slot.stdin_fd = -1;
    if (kill_it && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) return;
    // It stopped by itself (or before the kill landed).
    std::string who =
        (slot.sqlite3 ? "sqlite3" : "Basalt") + std::string(" writer of slot ") + std::to_string(s);
    if (WIFSIGNALED(status)) {
      failures_.push_back(who + " died of signal " + std::to_string(WTERMSIG(status)));
    } else if (!slot.sqlite3) {
      if (WEXITSTATUS(status) != 3) {
        failures_.push_back(who + " exited with status " + std::to_string(WEXITSTATUS(status)));
      }
    } else {
      std::string err = ReadFile(dir_ + "/sqlite3.err", slot.err_offset);
      if (err.find("database is locked") != std::string::npos &&
          err.find("malformed") == std::string::npos) {
        ++counts_.busy_exits;
      } else {
        failures_.push_back(who + " exited with status " + std::to_string(WEXITSTATUS(status)) +
                            ": " + err.substr(0, 300));
      }
    }
  }

  // Reads what is available: 1 if something came, 0 at end of file (the
  // process is gone), -1 if nothing more is there for now.
  int Read(int s) {
    Slot& slot = slots_[s];
    char buf[4096];
    ssize_t n = read(slot.report_fd, buf, sizeof buf);
    if (n == 0) return 0;
    if (n < 0) return errno == EINTR ? 1 : -1;
    slot.in.append(buf, static_cast<size_t>(n));
    Parse(s);
    return 1;
  }

  void Parse(int s) {
    Slot& slot = slots_[s];
    if (!slot.sqlite3) {
      while (slot.in.size() >= sizeof(Report)) {
        Report r;
        std::memcpy(&r, slot.in.data(), sizeof r);
        slot.in.erase(0, sizeof r);
        if (r.kind == kStarted) Started(s, r.txn);
        if (r.kind == kCommitted) Committed(s, r.txn);
        if (r.kind == kFailed) {
          failures_.push_back("Basalt writer of slot " + std::to_string(s) + ": " + r.text);
        }
      }
      return;
    }
    for (size_t eol; (eol = slot.in.find('\n')) != std::string::npos;) {
      std::string line = slot.in.substr(0, eol);
      slot.in.erase(0, eol + 1);
      if (line.rfind("M|", 0) == 0) {
        Started(s, std::strtoll(line.c_str() + 2, nullptr, 10));
      } else if (line.rfind("C|", 0) == 0) {
        Committed(s, std::strtoll(line.c_str() + 2, nullptr, 10));
      } else {
        continue;  // what the settings print
      }
      int64_t next = slot.committed + 1;
      slot.out += TxnSql(s, next) + "SELECT 'C', " + std::to_string(next) + ";\n";
    }
  }

  // A new writer of slot s found transaction m as the slot's last one.
  void Started(int s, int64_t m) {
    Slot& slot = slots_[s];
    if (m != slot.committed && m != slot.committed + 1) {
      failures_.push_back("slot " + std::to_string(s) + ": a new writer found txn " +
                          std::to_string(m) + " last, but txn " + std::to_string(slot.committed) +
                          " was reported committed");
    }
    slot.committed = m;
  }

  void Committed(int s, int64_t n) {
    Slot& slot = slots_[s];
    if (n != slot.committed + 1) {
      failures_.push_back("slot " + std::to_string(s) + ": txn " + std::to_string(n) +
                          " committed after txn " + std::to_string(slot.committed));
    }
    slot.committed = n;
    ++counts_.commits;
    if (slot.sqlite3) ++counts_.sqlite3_commits;
  }

  // Serves the writers' pipes for `ms` milliseconds; a writer that stops by
  // itself is reaped and replaced.
  void Pump(int ms) {
    auto end = Clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
      int left = static_cast<int>(
          std::chrono::duration_cast<std::chrono::milliseconds>(end - Clock::now()).count());
      if (left < 0) return;
      std::vector<pollfd> fds;
      std::vector<int> owner;
      for (int s = 0; s < kSlots; ++s) {
        fds.push_back({slots_[s].report_fd, POLLIN, 0});
        owner.push_back(s);
        if (!slots_[s].out.empty()) {
          fds.push_back({slots_[s].stdin_fd, POLLOUT, 0});
          owner.push_back(s);
        }
      }
      if (poll(fds.data(), fds.size(), left) <= 0) continue;
      for (size_t i = 0; i < fds.size(); ++i) {
        int s = owner[i];
        Slot& slot = slots_[s];
        if (fds[i].revents == 0 || slot.pid < 0) continue;
        if (fds[i].events == POLLOUT) {
          ssize_t n = write(slot.stdin_fd, slot.out.data(), slot.out.size());
          if (n > 0) slot.out.erase(0, static_cast<size_t>(n));
          if (n < 0 && errno == EPIPE) slot.out.clear();
          continue;
        }
        int rc;
        while ((rc = Read(s)) > 0) {
        }
        if (rc == 0) {
          // End of file: the process stopped by itself. The descriptors
          // polled are stale now: poll again.
          bool was_sqlite3 = slot.sqlite3;
          Stop(s, /*kill=*/false);
          Spawn(s, was_sqlite3);
          break;
        }
      }
    }
  }

  std::string CheckWithBasalt(const std::string& path, std::vector<int64_t>* found) {
    std::unique_ptr<Connection> c = OpenDb(nullptr, path);
    if (!c) return "open failed";
    return Check(
        [&](const std::string& sql) {
          ExecResult r = Exec(c.get(), sql);
          if (r.code != 0) r.output += "error " + std::to_string(r.code) + ": " + r.error + "\n";
          return r.output;
        },
        found);
  }

  std::string CheckWithSqlite3(const std::string& path, std::vector<int64_t>* found) {
    return Check(
        [&](const std::string& sql) {
          std::string script = dir_ + "/check.sql", out = dir_ + "/check.out";
          std::ofstream(script) << sql;
          std::string cmd = "'" + sqlite3_ + "' -bail -batch '" + path + "' < '" + script +
                            "' > '" + out + "' 2>&1";
          int rc = std::system(cmd.c_str());
          std::string text = ReadFile(out);
          if (rc != 0) text += "exit status " + std::to_string(rc) + "\n";
          return text;
        },
        found);
  }

  // The three rules, through `run` (SQL text in, output rows out). found[s]
  // is the slot's last transaction as the first engine saw it; the second
  // must see the same.
  std::string Check(const std::function<std::string(const std::string&)>& run,
                    std::vector<int64_t>* found) {
    std::vector<int64_t> m(kSlots, 0);
    std::string script = "PRAGMA integrity_check;\n";
    std::string want = "ok\n";
    std::string lasts;
    for (int s = 0; s < kSlots; ++s) lasts += LastTxnQuery(s);
    std::stringstream got_lasts(run(lasts));
    for (int s = 0; s < kSlots; ++s) {
      std::string line;
      std::getline(got_lasts, line);
      if (line.empty() || line.find_first_not_of("0123456789") != std::string::npos) {
        return "reading h: [" + line + "]";
      }
      m[s] = std::strtoll(line.c_str(), nullptr, 10);
      int64_t c = slots_[s].committed;
      if (m[s] < c) {
        return "slot " + std::to_string(s) + ": txn " + std::to_string(c) +
               " was reported committed, the file ends at txn " + std::to_string(m[s]) + " (lost)";
      }
      if (m[s] > c + 1) {
        return "slot " + std::to_string(s) + ": the file has txn " + std::to_string(m[s]) +
               ", only txn " + std::to_string(c) + " was reported committed";
      }
      if ((*found)[s] >= 0 && (*found)[s] != m[s]) {
        return "slot " + std::to_string(s) + ": last txn " + std::to_string(m[s]) +
               ", the other engine saw " + std::to_string((*found)[s]);
      }
      (*found)[s] = m[s];
      script += SlotStateQuery(s);
      want += ExpectedSlotState(s, m[s]);
    }
    script += "SELECT 'X', count(*) FROM t WHERE w NOT BETWEEN 0 AND " +
              std::to_string(kSlots - 1) + ";\n";
    want += "X|0\n";
    return FirstDifference(run(script), want);
  }

  const KillMode& mode_;
  std::string dir_;
  std::string db_;
  std::string sqlite3_;
  std::mt19937_64 rng_;
  std::vector<Slot> slots_;
  Counts counts_;
  std::vector<std::string> failures_;
};

class KillTest : public ::testing::TestWithParam<KillMode> {};

TEST_P(KillTest, WritersKilledAtRandom) {
  const KillMode& mode = GetParam();
  bool full = FullRun();
  if (mode.full_only && !full) GTEST_SKIP() << "long run only (BASALT_FAULT_FULL=1)";
  int rounds = full ? 12 : 4;
  double seconds = full ? 15.0 : 2.0;
  uint64_t seed = std::random_device()();
  if (const char* e = std::getenv("BASALT_KILL_SEED")) seed = std::strtoull(e, nullptr, 10);
  std::string sqlite3 = FindSqlite3();

  std::string tmpl = (fs::temp_directory_path() / "basalt-kill-XXXXXX").string();
  ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
  std::string dir = tmpl;
  signal(SIGPIPE, SIG_IGN);

  KillRun run(mode, dir, sqlite3, seed);
  {
    std::unique_ptr<Connection> c = OpenDb(nullptr, run.db());
    ASSERT_TRUE(c);
    ExecResult r =
        Exec(c.get(), std::string("PRAGMA journal_mode = ") + mode.journal + ";\n" + kKillSchema);
    ASSERT_EQ(r.code, 0) << r.error;
  }
  for (int i = 0; i < rounds && run.failures().empty(); ++i) {
    run.Round(seconds, i % 2 == 1);
    if (run.failures().empty()) run.CheckFiles();
  }
  const Counts& n = run.counts();
  std::printf(
      "[kill] %s: seed %llu, %d rounds, %d kills (%d of sqlite3), %d writers started "
      "(%d sqlite3), %lld commits reported (%lld by sqlite3), %d sqlite3 writers gave up on a "
      "lock, %d rounds left a journal/WAL behind%s\n",
      mode.name, static_cast<unsigned long long>(seed), n.rounds, n.kills, n.sqlite3_kills,
      n.spawns + n.sqlite3_spawns, n.sqlite3_spawns, static_cast<long long>(n.commits),
      static_cast<long long>(n.sqlite3_commits), n.busy_exits, n.journal_left,
      sqlite3.empty() ? " (no sqlite3: Basalt only)" : "");
  for (const std::string& f : run.failures()) ADD_FAILURE() << f;
  if (run.failures().empty()) {
    fs::remove_all(dir);
  } else {
    std::printf("[kill] files kept in %s\n", dir.c_str());
  }
  EXPECT_GT(n.commits, 0);
}

const KillMode kModes[] = {
    {"delete_full", "DELETE", "FULL", false},    {"wal_full", "WAL", "FULL", false},
    {"wal_normal", "WAL", "NORMAL", false},      {"delete_normal", "DELETE", "NORMAL", true},
    {"truncate_full", "TRUNCATE", "FULL", true}, {"persist_full", "PERSIST", "FULL", true},
};

INSTANTIATE_TEST_SUITE_P(Modes, KillTest, ::testing::ValuesIn(kModes),
                         [](const ::testing::TestParamInfo<KillMode>& info) {
                           return std::string(info.param.name);
                         });

}  // namespace
}  // namespace basalt::testing
