// Power-loss simulation: the workload runs on a FaultVfs that cuts the power
// at write point k (every write, truncate, sync and delete, in turn); the
// files a reboot would find (unsynced writes kept, dropped or torn per
// 512-byte sector) are then opened by Basalt and by sqlite3.
//
// Required at synchronous=FULL (rollback journal and WAL): no committed
// transaction lost, none partially applied (the contents are exactly those
// after the last committed transaction, or after the one whose commit was
// under way), and integrity_check ok in both engines.
//
// BASALT_FAULT_FULL=1 runs a longer workload with more survival patterns
// per write point (thousands of trials per mode).
#include <gtest/gtest.h>

#include <cstdlib>

#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "workload.h"

namespace basalt::testing {
namespace {

constexpr const char* kDb = "/crash.db";

bool FullRun() { return std::getenv("BASALT_FAULT_FULL") != nullptr; }

PagerOptions Options(JournalMode mode, Synchronous sync) {
  PagerOptions o;
  o.journal_mode = mode;
  o.synchronous = sync;
  o.cache_size = 10;  // big transactions spill
  o.page_size = 1024;
  o.wal_autocheckpoint = 40;  // checkpoints and log resets along the way
  return o;
}

struct RunResult {
  size_t committed = 0;    // transactions whose Commit() returned OK
  bool in_commit = false;  // the failing transaction had reached Commit()
};

RunResult RunWorkload(Vfs* vfs, const Workload& w, const PagerOptions& opt) {
  RunResult r;
  auto bt = OpenBtree(vfs, kDb, opt);
  if (!bt) return r;
  Pgno root = 0;
  for (size_t i = 0; i < w.txns.size(); ++i) {
    bool committing = false;
    Status st = w.Run(*bt, i, &root, &committing);
    if (!st.ok()) {
      r.in_commit = committing;
      (void)bt->Rollback();
      return r;
    }
    r.committed = i + 1;
  }
  return r;
}

struct Tally {
  int trials = 0;
  int lost = 0;
  int partial = 0;
  int corrupt = 0;
  int sqlite_checked = 0;
  int sqlite_bad = 0;
  std::vector<std::string> notes;
  void Note(const std::string& s) {
    if (notes.size() < 8) notes.push_back(s);
  }
};

std::string Basename(const std::string& p) { return p.substr(p.rfind('/') + 1); }

// sqlite3's view of the files: integrity, then the rows.
std::string SqliteView(const TempDir& dir, const std::map<std::string, std::string>& files) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    unlink((dir.File("crash.db") + suffix).c_str());
  }
  for (const auto& [path, bytes] : files) WriteWholeFile(dir.File(Basename(path)), bytes);
  return RunSqlite(dir.File("crash.db"),
                   "PRAGMA integrity_check; SELECT count(*) FROM sqlite_schema WHERE name='t';"
                   " SELECT rowid, v FROM t;");
}

// One trial: power cut at write point k, files surviving per `surv`.
// durable: committed transactions must survive (synchronous FULL).
void Trial(const Workload& w, const PagerOptions& opt, int64_t k, uint64_t seed,
           FaultVfs::Survival surv, bool check_sqlite, bool durable, const TempDir& dir, Tally* t) {
  MemVfs base(seed);
  FaultVfs fault(&base);
  fault.CrashAt(k);
  RunResult r = RunWorkload(&fault, w, opt);
  if (!fault.crashed()) return;
  ++t->trials;
  auto files = fault.SurvivingFiles(seed * 7919 + uint64_t(k), surv);
  std::string where = "k=" + std::to_string(k) + " seed=" + std::to_string(seed) +
                      " surv=" + std::to_string(int(surv)) +
                      " committed=" + std::to_string(r.committed) +
                      (r.in_commit ? " (in commit)" : "");
  std::string sqlite_out;
  if (check_sqlite) sqlite_out = SqliteView(dir, files);

  MemVfs after(seed + 1);
  for (const auto& [path, bytes] : files) after.PutFile(path, bytes);
  PagerOptions reopen;
  auto bt = OpenBtree(&after, kDb, reopen);
  if (!bt) {
    ++t->corrupt;
    t->Note(where + ": cannot reopen");
    return;
  }
  TableState got;
  std::vector<std::string> problems;
  Status st = ReadState(*bt, &got, &problems);
  bool has_table = false;
  {
    Pgno root = 0;
    has_table = FindTable(*bt, "t", &root).ok() && root != 0;
  }
  if (!st.ok() || !problems.empty()) {
    ++t->corrupt;
    t->Note(where + ": " + (st.ok() ? problems[0] : st.message()));
    return;
  }
  // Which transaction's result is this? (-1: before the first.)
  int match = -2;
  if (!has_table) {
    match = -1;
  } else {
    for (int i = int(w.after.size()) - 1; i >= 0; --i) {
      if (w.after[size_t(i)] == got) {
        match = i;
        break;
      }
    }
  }
  int last = int(r.committed) - 1;
  int allowed_max = r.in_commit ? last + 1 : last;
  if (match == -2) {
    ++t->partial;
    t->Note(where + ": contents match no transaction (" + Describe(got) + ")");
  } else if (durable && match < last) {
    ++t->lost;
    t->Note(where + ": lost committed transactions, found #" + std::to_string(match));
  } else if (match > allowed_max) {
    ++t->partial;
    t->Note(where + ": an uncommitted transaction became visible: #" + std::to_string(match));
  }
  if (check_sqlite) {
    ++t->sqlite_checked;
    std::string want = "ok\n" + std::string(has_table ? "1" : "0");
    if (has_table && !got.empty()) want += "\n" + FormatRows(got);
    if (!has_table) {
      // sqlite3 also reports the missing table (before the results).
      if (sqlite_out.find(want) == std::string::npos) {
        ++t->sqlite_bad;
        t->Note(where + ": sqlite3 says: " + sqlite_out.substr(0, 200));
      }
    } else if (sqlite_out != want) {
      ++t->sqlite_bad;
      t->Note(where + ": sqlite3 disagrees: " + sqlite_out.substr(0, 200));
    }
  }
}

// Per write point: the two extremes (nothing unsynced survives, all of it
// does) when `extremes`, plus `random_variants` random sector patterns.
void RunCrashSweep(JournalMode mode, Synchronous sync, bool durable, bool extremes,
                   int random_variants, int sqlite_every) {
  bool full = FullRun();
  Workload w = Workload::Make(full ? 30 : 10, 1234);
  PagerOptions opt = Options(mode, sync);
  // Count the write points of a clean run.
  int64_t points = 0;
  {
    MemVfs base;
    FaultVfs fault(&base);
    RunResult r = RunWorkload(&fault, w, opt);
    ASSERT_EQ(r.committed, w.txns.size());
    points = fault.write_points();
  }
  TempDir dir;
  bool sqlite = HaveSqlite();
  Tally t;
  int n = 0;
  if (full) random_variants *= 4;
  for (int64_t k = 1; k <= points; ++k) {
    std::vector<std::pair<FaultVfs::Survival, uint64_t>> variants;
    if (extremes || full) {
      variants.push_back({FaultVfs::Survival::kNone, 1});
      variants.push_back({FaultVfs::Survival::kAll, 2});
    }
    for (int v = 0; v < random_variants; ++v) {
      variants.push_back({FaultVfs::Survival::kRandom, uint64_t(100 + v)});
    }
    for (const auto& [surv, seed] : variants) {
      bool check_sqlite = sqlite && (full || ++n % sqlite_every == 0);
      Trial(w, opt, k, seed, surv, check_sqlite, durable, dir, &t);
    }
  }
  std::string summary =
      "write points " + std::to_string(points) + ", trials " + std::to_string(t.trials) +
      ", lost " + std::to_string(t.lost) + ", partial " + std::to_string(t.partial) + ", corrupt " +
      std::to_string(t.corrupt) + ", sqlite3 checks " + std::to_string(t.sqlite_checked) +
      " (bad " + std::to_string(t.sqlite_bad) + ")";
  std::printf("  %s\n", summary.c_str());
  ::testing::Test::RecordProperty("summary", summary);
  for (const std::string& note : t.notes) ADD_FAILURE() << note;
  EXPECT_GT(t.trials, 100);
  EXPECT_EQ(t.lost, 0);
  EXPECT_EQ(t.partial, 0);
  EXPECT_EQ(t.corrupt, 0);
  EXPECT_EQ(t.sqlite_bad, 0);
}

TEST(Crash, DeleteJournalFullSync) {
  RunCrashSweep(JournalMode::kDelete, Synchronous::kFull, true, true, 1, 10);
}

TEST(Crash, WalFullSync) {
  RunCrashSweep(JournalMode::kWal, Synchronous::kFull, true, true, 1, 10);
}

TEST(Crash, TruncateJournalFullSync) {
  RunCrashSweep(JournalMode::kTruncate, Synchronous::kFull, true, false, 1, 25);
}

TEST(Crash, PersistJournalFullSync) {
  RunCrashSweep(JournalMode::kPersist, Synchronous::kFull, true, false, 1, 25);
}

// synchronous=NORMAL in WAL mode may lose the last commits on power loss,
// but never applies one partially or corrupts the file.
TEST(Crash, WalNormalSyncIsConsistent) {
  RunCrashSweep(JournalMode::kWal, Synchronous::kNormal, false, false, 1, 25);
}

}  // namespace
}  // namespace basalt::testing
