// Power loss under the pager alone: transactions that rewrite pages, append
// and truncate (which the B-tree workload does not do), some rolling back a
// savepoint, with a cache small enough to spill. After a power cut at each
// write point the pages must be exactly those of the last committed
// transaction or of the one being committed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>

#include "os/fault_vfs.h"
#include "os/mem_vfs.h"
#include "pager/file_pager.h"

namespace basalt {
namespace {

constexpr uint32_t kPage = 512;
constexpr const char* kDb = "/pages.db";

// Page p at version v. Page 1 carries a minimal database header (so WAL
// mode can be entered) and the transaction number at byte 100.
void Fill(uint8_t* d, Pgno p, int v) {
  for (uint32_t i = 0; i < kPage; ++i) d[i] = uint8_t((p * 131 + uint32_t(v) * 17 + i * 7) % 253);
  if (p == 1) {
    std::memset(d, 0, 100);
    std::memcpy(d, "SQLite format 3", 16);
    d[16] = uint8_t(kPage >> 8);
    d[18] = d[19] = 1;
  }
}
int VersionOf(const uint8_t* d, Pgno p) {
  uint8_t want[kPage];
  for (int v = 0; v < 64; ++v) {
    Fill(want, p, v);
    if (p == 1) {
      want[18] = d[18];  // the pager's format bytes
      want[19] = d[19];
    }
    if (std::memcmp(want, d, kPage) == 0) return v;
  }
  return -1;
}

using Pages = std::vector<int>;  // version of pages 1..n

struct PageOp {
  enum Kind { kWrite, kAppend, kTruncate, kSavepoint, kRollbackSavepoint } kind;
  Pgno pgno = 0;
};

struct PageWorkload {
  std::vector<std::vector<PageOp>> txns;
  std::vector<Pages> after;

  static PageWorkload Make(int n, uint64_t seed) {
    PageWorkload w;
    std::mt19937_64 rng(seed);
    Pages cur;
    for (int t = 0; t < n; ++t) {
      std::vector<PageOp> ops;
      int version = t + 1;  // every transaction writes its own version
      Pages saved;
      if (t == 1) {
        // A page journaled after the first seal, truncated away and
        // re-created, then spilled behind older (sealed) pages: its journal
        // record must still be sealed before the database file is written.
        for (Pgno p = 2; p <= 15; ++p) {
          ops.push_back({PageOp::kWrite, p});
          cur[p - 1] = version;
        }
        ops.push_back({PageOp::kWrite, 30});
        ops.push_back({PageOp::kTruncate, 29});
        cur.resize(29);
        for (int i = 0; i < 16; ++i) {
          ops.push_back({PageOp::kAppend, 0});
          cur.push_back(version);
        }
      }
      int nops = t == 0 ? 40 : t == 1 ? 0 : 1 + int(rng() % 40);
      int sp_at = t > 0 && rng() % 3 == 0 ? int(rng() % size_t(nops)) : -1;
      for (int i = 0; i < nops; ++i) {
        if (i == sp_at) {
          ops.push_back({PageOp::kSavepoint, 0});
          saved = cur;
        }
        int r = int(rng() % 10);
        if (t == 0 || cur.size() < 3 || r < 3) {
          ops.push_back({PageOp::kAppend, 0});
          cur.push_back(version);
        } else if (r < 8) {
          Pgno p = Pgno(1 + rng() % cur.size());
          ops.push_back({PageOp::kWrite, p});
          cur[p - 1] = version;
        } else {
          Pgno keep = Pgno(2 + rng() % (cur.size() - 1));
          ops.push_back({PageOp::kTruncate, keep});
          cur.resize(keep);
        }
      }
      if (sp_at >= 0 && rng() % 2 == 0) {
        ops.push_back({PageOp::kRollbackSavepoint, 0});
        cur = saved;
      }
      // Page 1 records the transaction (so each state is distinct).
      ops.push_back({PageOp::kWrite, 1});
      cur[0] = version;
      w.txns.push_back(ops);
      w.after.push_back(cur);
    }
    return w;
  }

  Status Run(FilePager& pg, size_t t, bool* committing) const {
    *committing = false;
    int version = int(t) + 1;
    TRY(pg.BeginWrite());
    for (const PageOp& op : txns[t]) {
      PageRef r;
      switch (op.kind) {
        case PageOp::kAppend:
          TRY(pg.Append(&r));
          Fill(r.data(), r.pgno(), version);
          break;
        case PageOp::kWrite:
          TRY(pg.Get(op.pgno, &r));
          TRY(pg.Write(r));
          Fill(r.data(), op.pgno, version);
          break;
        case PageOp::kTruncate:
          TRY(pg.Truncate(op.pgno));
          break;
        case PageOp::kSavepoint:
          TRY(pg.OpenSavepoints(1));
          break;
        case PageOp::kRollbackSavepoint:
          TRY(pg.RollbackToSavepoint(0));
          break;
      }
    }
    *committing = true;
    return pg.Commit();
  }
};

Status ReadPages(FilePager& pg, Pages* out) {
  out->clear();
  TRY(pg.BeginRead());
  for (Pgno p = 1; p <= pg.page_count(); ++p) {
    PageRef r;
    TRY(pg.Get(p, &r));
    out->push_back(VersionOf(r.data(), p));
  }
  return pg.Commit();
}

void Sweep(JournalMode mode) {
  bool full = std::getenv("BASALT_FAULT_FULL") != nullptr;
  PageWorkload w = PageWorkload::Make(full ? 30 : 12, 7);
  PagerOptions opt;
  opt.journal_mode = mode;
  opt.page_size = kPage;
  opt.cache_size = 10;
  opt.wal_autocheckpoint = 25;
  auto run = [&](Vfs* vfs, size_t* committed, bool* in_commit) {
    *committed = 0;
    *in_commit = false;
    auto r = FilePager::Open(vfs, kDb, opt);
    if (!r.ok()) return;
    FilePager& pg = **r;
    for (size_t t = 0; t < w.txns.size(); ++t) {
      Status st = w.Run(pg, t, in_commit);
      if (!st.ok()) {
        (void)pg.Rollback();
        return;
      }
      *committed = t + 1;
    }
  };
  int64_t points;
  {
    MemVfs base;
    FaultVfs fault(&base);
    size_t c;
    bool ic;
    run(&fault, &c, &ic);
    ASSERT_EQ(c, w.txns.size());
    points = fault.write_points();
  }
  int trials = 0, bad = 0;
  for (int64_t k = 1; k <= points; ++k) {
    for (int variant = 0; variant < (full ? 6 : 3); ++variant) {
      MemVfs base{uint64_t(k)};
      FaultVfs fault(&base);
      fault.CrashAt(k);
      size_t committed;
      bool in_commit;
      run(&fault, &committed, &in_commit);
      if (!fault.crashed()) continue;
      ++trials;
      auto surv = variant == 0   ? FaultVfs::Survival::kNone
                  : variant == 1 ? FaultVfs::Survival::kAll
                                 : FaultVfs::Survival::kRandom;
      auto files = fault.SurvivingFiles(uint64_t(k * 31 + variant), surv);
      MemVfs after;
      for (const auto& [path, bytes] : files) after.PutFile(path, bytes);
      PagerOptions reopen;
      reopen.page_size = kPage;
      auto r = FilePager::Open(&after, kDb, reopen);
      Pages got;
      Status st = r.ok() ? ReadPages(**r, &got) : r.status();
      int lo = int(committed) - 1, hi = in_commit ? lo + 1 : lo;
      bool ok = false;
      if (st.ok()) {
        for (int i = std::max(lo, 0); i <= hi; ++i) ok |= got == w.after[size_t(i)];
        if (lo < 0) ok |= got.empty();
      }
      if (!ok) {
        if (++bad <= 5) {
          ADD_FAILURE() << "k=" << k << " variant " << variant << " committed " << committed
                        << (in_commit ? " (in commit)" : "") << ": "
                        << (st.ok() ? std::to_string(got.size()) + " pages" : st.message());
        }
      }
    }
  }
  std::printf("  write points %lld, trials %d, bad %d\n", static_cast<long long>(points), trials,
              bad);
  EXPECT_GT(trials, 100);
  EXPECT_EQ(bad, 0);
}

TEST(PagerCrash, DeleteJournal) { Sweep(JournalMode::kDelete); }
TEST(PagerCrash, Wal) { Sweep(JournalMode::kWal); }

}  // namespace
}  // namespace basalt
