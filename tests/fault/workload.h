// A deterministic sequence of transactions on one text table, with the
// table's expected contents after each, for the crash and I/O-error tests.
//
// Transaction 0 creates table t; the others insert, replace and delete rows
// (some values spill to overflow pages, some transactions are big enough to
// spill the cache), and some roll back a savepoint in the middle.
#pragma once

#include <map>
#include <random>
#include <string>
#include <vector>

#include "file_pager_test_util.h"

namespace basalt::testing {

using TableState = std::map<int64_t, std::string>;

struct Op {
  enum Kind { kPut, kDelete, kSavepoint, kRollbackSavepoint, kReleaseSavepoint } kind;
  int64_t rowid = 0;
  std::string value;
};

struct Workload {
  std::vector<std::vector<Op>> txns;
  std::vector<TableState> after;  // after[i]: contents once txns[0..i] committed

  static Workload Make(int n_txns, uint64_t seed) {
    Workload w;
    std::mt19937_64 rng(seed);
    TableState state;
    for (int t = 0; t < n_txns; ++t) {
      std::vector<Op> ops;
      TableState cur = state;
      TableState saved;
      bool big = t % 5 == 3;
      int n = t == 0 ? 30 : big ? 250 : 1 + int(rng() % 30);
      bool sp = t > 0 && rng() % 3 == 0;
      int sp_open = sp ? int(rng() % size_t(n)) : -1;
      int sp_close = sp ? sp_open + int(rng() % size_t(n - sp_open)) : -1;
      bool sp_rollback = rng() % 2 == 0;
      for (int i = 0; i < n; ++i) {
        if (i == sp_open) {
          ops.push_back(Op{Op::kSavepoint, 0, ""});
          saved = cur;
        }
        if (t == 0 || rng() % 10 < 7) {
          int64_t rowid = t == 0 ? i + 1 : int64_t(1 + rng() % 400);
          size_t len = rng() % 16 == 0 ? 1500 + rng() % 3000 : rng() % 300;
          std::string v(1, 't');
          v += std::to_string(t);
          v += 'r';
          v += std::to_string(rowid);
          v += ':';
          while (v.size() < len) v += char('a' + rng() % 26);
          ops.push_back(Op{Op::kPut, rowid, v});
          cur[rowid] = v;
        } else if (!cur.empty()) {
          auto it = cur.begin();
          std::advance(it, std::ptrdiff_t(rng() % cur.size()));
          ops.push_back(Op{Op::kDelete, it->first, ""});
          cur.erase(it);
        }
        if (i == sp_close) {
          if (sp_rollback) {
            ops.push_back(Op{Op::kRollbackSavepoint, 0, ""});
            cur = saved;
          }
          ops.push_back(Op{Op::kReleaseSavepoint, 0, ""});
        }
      }
      state = cur;
      w.txns.push_back(std::move(ops));
      w.after.push_back(state);
    }
    return w;
  }

  // Runs transaction i; *root is table t's root (set by transaction 0).
  // *committing is set just before Commit() is called.
  Status Run(Btree& bt, size_t i, Pgno* root, bool* committing) const {
    *committing = false;
    TRY(bt.BeginTransaction(true));
    if (i == 0) TRY(CreateTextTable(bt, "t", root));
    for (const Op& op : txns[i]) {
      switch (op.kind) {
        case Op::kPut:
          TRY(PutText(bt, *root, op.rowid, op.value));
          break;
        case Op::kDelete:
          TRY(DeleteRow(bt, *root, op.rowid));
          break;
        case Op::kSavepoint:
          TRY(bt.OpenSavepoints(1));
          break;
        case Op::kRollbackSavepoint:
          TRY(bt.RollbackToSavepoint(0));
          break;
        case Op::kReleaseSavepoint:
          TRY(bt.ReleaseSavepoint(0));
          break;
      }
    }
    *committing = true;
    return bt.Commit();
  }
};

// The table's contents through a fresh connection (empty if there is no
// table yet), with Basalt's integrity check.
inline Status ReadState(Btree& bt, TableState* out, std::vector<std::string>* problems) {
  out->clear();
  Pgno root = 0;
  TRY(FindTable(bt, "t", &root));
  if (root != 0) TRY(ReadTextRows(bt, root, out));
  std::vector<Pgno> roots{1};
  if (root != 0) roots.push_back(root);
  *problems = CheckIntegrity(bt, roots);
  return Status();
}

inline std::string Describe(const TableState& s) { return std::to_string(s.size()) + " rows"; }

}  // namespace basalt::testing
