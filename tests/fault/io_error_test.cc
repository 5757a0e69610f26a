// I/O errors: the n-th VFS operation of the workload fails (EIO, ENOSPC or a
// short write), for every n. The failing call must return an error; after
// the connection rolls back (as the engine does on an I/O error) the
// database must hold exactly the last committed state (or the one being
// committed, if the error came after the commit point), pass the integrity
// check, and stay usable. With a persistent fault (the disk stays full) the
// rollback may fail too; the next connection, once the fault is gone, must
// recover the same way.
#include <gtest/gtest.h>

#include <cstdlib>

#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "workload.h"

namespace basalt::testing {
namespace {

constexpr const char* kDb = "/io.db";

PagerOptions Options(JournalMode mode) {
  PagerOptions o;
  o.journal_mode = mode;
  o.cache_size = 10;
  o.page_size = 1024;
  o.wal_autocheckpoint = 40;
  return o;
}

struct Outcome {
  int trials = 0;
  int bad = 0;
  std::vector<std::string> notes;
};

int MatchState(const Workload& w, bool has_table, const TableState& got) {
  if (!has_table) return -1;
  for (int i = int(w.after.size()) - 1; i >= 0; --i) {
    if (w.after[size_t(i)] == got) return i;
  }
  return -2;
}

// Checks the database through `bt` against the allowed states; returns the
// state index or -2.
int Verify(Btree& bt, const Workload& w, int lo, int hi, std::string* why) {
  TableState got;
  std::vector<std::string> problems;
  Status st = ReadState(bt, &got, &problems);
  if (!st.ok()) {
    *why = "read failed: " + st.message();
    return -2;
  }
  if (!problems.empty()) {
    *why = "integrity: " + problems[0];
    return -2;
  }
  Pgno root = 0;
  bool has_table = FindTable(bt, "t", &root).ok() && root != 0;
  int m = MatchState(w, has_table, got);
  if (m < lo || m > hi) {
    *why = "state #" + std::to_string(m) + " not in [" + std::to_string(lo) + ", " +
           std::to_string(hi) + "]";
    return -2;
  }
  return m;
}

void Sweep(JournalMode mode, FaultKind kind, bool persistent, Outcome* out) {
  Workload w = Workload::Make(std::getenv("BASALT_FAULT_FULL") ? 20 : 8, 99);
  PagerOptions opt = Options(mode);
  int64_t ops = 0;
  {
    MemVfs base;
    FaultVfs fault(&base);
    fault.InjectFault(FaultKind::kNone, 0, kFaultAll);
    auto bt = OpenBtree(&fault, kDb, opt);
    ASSERT_TRUE(bt);
    Pgno root = 0;
    bool committing;
    for (size_t i = 0; i < w.txns.size(); ++i) ASSERT_OK(w.Run(*bt, i, &root, &committing));
    bt.reset();
    ops = fault.op_count();
  }
  for (int64_t n = 1; n <= ops; ++n) {
    MemVfs base{uint64_t(n)};
    FaultVfs fault(&base);
    fault.InjectFault(kind, n, kFaultAll & ~kFaultOpen, persistent);
    std::string where = "n=" + std::to_string(n);
    auto bt = OpenBtree(&fault, kDb, opt);
    size_t committed = 0;
    bool in_commit = false;
    bool failed = false;
    Status rolled_back;
    if (bt) {
      Pgno root = 0;
      for (size_t i = 0; i < w.txns.size() && !failed; ++i) {
        bool committing = false;
        Status st = w.Run(*bt, i, &root, &committing);
        if (!st.ok()) {
          failed = true;
          in_commit = committing;
          rolled_back = bt->Rollback();
        } else {
          committed = i + 1;
        }
      }
    } else {
      failed = true;
    }
    if (!fault.fault_fired()) continue;
    ++out->trials;
    if (!failed && !fault.fault_fired()) continue;
    int lo = int(committed) - 1;
    int hi = in_commit ? lo + 1 : lo;
    fault.ClearFault();
    std::string why;
    // The same connection, after its rollback.
    if (bt) {
      int m = Verify(*bt, w, lo, hi, &why);
      if (m == -2) {
        ++out->bad;
        if (out->notes.size() < 8) out->notes.push_back(where + " same connection: " + why);
        continue;
      }
      // A power cut now must find what the connection saw after its
      // successful rollback (a failed commit must not come back later).
      if (rolled_back.ok()) {
        for (auto surv : {FaultVfs::Survival::kAll, FaultVfs::Survival::kNone}) {
          MemVfs after;
          for (const auto& [path, bytes] : fault.SurvivingFiles(1, surv)) {
            after.PutFile(path, bytes);
          }
          auto crashed = OpenBtree(&after, kDb, PagerOptions());
          if (!crashed || Verify(*crashed, w, m, m, &why) == -2) {
            ++out->bad;
            if (out->notes.size() < 8) {
              out->notes.push_back(
                  where + " after a power cut: " + (crashed ? why : std::string("cannot open")));
            }
          }
        }
      }
      // Still usable: run the next transaction.
      if (size_t(m + 1) < w.txns.size() && m >= 0) {
        Pgno root = 0;
        bool committing;
        (void)FindTable(*bt, "t", &root);
        Status st = w.Run(*bt, size_t(m + 1), &root, &committing);
        if (!st.ok()) {
          ++out->bad;
          if (out->notes.size() < 8) {
            out->notes.push_back(where + " next transaction failed: " + st.message());
          }
          continue;
        }
        lo = hi = m + 1;
      }
      bt.reset();
    }
    // A new connection.
    auto again = OpenBtree(&fault, kDb, PagerOptions());
    if (!again || Verify(*again, w, lo, hi, &why) == -2) {
      ++out->bad;
      if (out->notes.size() < 8) {
        out->notes.push_back(where + " reopened: " + (again ? why : std::string("cannot open")));
      }
    }
  }
}

void RunAll(JournalMode mode) {
  for (FaultKind kind : {FaultKind::kIoError, FaultKind::kDiskFull, FaultKind::kShortWrite}) {
    for (bool persistent : {false, true}) {
      SCOPED_TRACE(std::to_string(int(kind)) + (persistent ? " persistent" : " once"));
      Outcome out;
      Sweep(mode, kind, persistent, &out);
      std::printf("  fault %d %s: %d trials, %d bad\n", int(kind),
                  persistent ? "persistent" : "once", out.trials, out.bad);
      for (const std::string& n : out.notes) ADD_FAILURE() << n;
      EXPECT_GT(out.trials, 50);
      EXPECT_EQ(out.bad, 0);
    }
  }
}

TEST(IoError, DeleteJournal) { RunAll(JournalMode::kDelete); }
TEST(IoError, Wal) { RunAll(JournalMode::kWal); }

}  // namespace
}  // namespace basalt::testing
