// The merge input iterator (merge_iter.h).
#include "ext/fts5/merge_iter.h"

namespace basalt::fts5 {

int SegCursor::Start() {
  eof = true;
  if (!reader) return SQLITE_OK;
  int rc = reader->First();
  while (rc == SQLITE_OK && !reader->eof()) {
    if ((rc = reader->ReadDoclist(&dl)) != SQLITE_OK) return rc;
    if (!dl.empty()) break;
    rc = reader->Next();
  }
  if (rc != SQLITE_OK || reader->eof()) return rc;
  i = 0;
  del = dl[0].del;
  eof = false;
  return SQLITE_OK;
}

int SegCursor::Next(bool* new_term) {
  *new_term = false;
  if (++i < dl.size()) {
    del = dl[i].del;
    return SQLITE_OK;
  }
  *new_term = true;
  int rc = reader->Next();
  while (rc == SQLITE_OK && !reader->eof()) {
    if ((rc = reader->ReadDoclist(&dl)) != SQLITE_OK) return rc;
    if (!dl.empty()) break;
    rc = reader->Next();
  }
  if (rc != SQLITE_OK) return rc;
  if (reader->eof()) {
    eof = true;
    return SQLITE_OK;
  }
  i = 0;
  del = dl[0].del;
  return SQLITE_OK;
}

int MergeIter::Init(DataStore* store, const std::vector<Segment>& oldest_first, bool none) {
  ninput_ = static_cast<int>(oldest_first.size());
  int n = 2;
  while (n < ninput_) n *= 2;
  seg_.clear();
  seg_.resize(n);
  first_.assign(n, Node());
  int rc = SQLITE_OK;
  for (int k = 0; k < ninput_ && rc == SQLITE_OK; ++k) {
    SegCursor& c = seg_[ninput_ - 1 - k];
    c.reader = std::make_unique<SegReader>(store, oldest_first[k], none);
    rc = c.Start();
  }
  for (int out = n - 1; out > 0 && rc == SQLITE_OK; --out) {
    int eq = Compare(out);
    if (eq != 0) {
      bool nt;
      if ((rc = seg_[eq].Next(&nt)) != SQLITE_OK) return rc;
      rc = Advanced(eq, out);
    }
  }
  return rc;
}

// Compares the two inputs of tree node `out`; returns the slot to advance
// when they hold the same term and rowid, else 0.
int MergeIter::Compare(int out) {
  int n = static_cast<int>(seg_.size());
  int i1, i2;
  if (out >= n / 2) {
    i1 = (out - n / 2) * 2;
    i2 = i1 + 1;
  } else {
    i1 = first_[out * 2].first;
    i2 = first_[out * 2 + 1].first;
  }
  SegCursor& p1 = seg_[i1];
  SegCursor& p2 = seg_[i2];
  Node& res = first_[out];
  res.term_eq = false;
  int win;
  if (p1.eof) {
    win = i2;
  } else if (p2.eof) {
    win = i1;
  } else {
    int c = p1.term().compare(p2.term());
    if (c == 0) {
      res.term_eq = true;
      if (p1.rowid() == p2.rowid()) {
        p1.del = p2.del;
        return i2;
      }
      c = p1.rowid() > p2.rowid() ? 1 : -1;
    }
    win = c < 0 ? i1 : i2;
  }
  res.first = win;
  return 0;
}

int MergeIter::Advanced(int changed, int minset) {
  int n = static_cast<int>(seg_.size());
  for (int i = (n + changed) / 2; i >= minset; i /= 2) {
    int eq = Compare(i);
    if (eq != 0) {
      bool nt;
      int rc = seg_[eq].Next(&nt);
      if (rc != SQLITE_OK) return rc;
      i = n + eq;
    }
    if (i == 0) break;
  }
  return SQLITE_OK;
}

int MergeIter::Next() {
  int f = first_[1].first;
  bool nt;
  int rc = seg_[f].Next(&nt);
  if (rc != SQLITE_OK) return rc;
  if (nt || seg_[f].eof || !AdvanceRowid(f)) return Advanced(f, 1);
  return SQLITE_OK;
}

// The winner moved to its next rowid on the same term: along its path the
// term relations are unchanged, so only nodes whose two sides share the
// term compare rowids. Gives up (false) on equal rowids, which need the
// tie rules of Compare.
bool MergeIter::AdvanceRowid(int changed) {
  int n = static_cast<int>(seg_.size());
  int w = changed;
  int prev = -1;  // the child node the path came from (-1: a leaf pair)
  for (int i = (n + changed) / 2; i >= 1; prev = i, i /= 2) {
    int other = prev < 0 ? (changed ^ 1) : first_[prev ^ 1].first;
    Node& res = first_[i];
    if (res.term_eq) {
      int64_t a = seg_[w].rowid(), b = seg_[other].rowid();
      if (a == b) return false;
      if (b < a) w = other;
    }
    res.first = w;
  }
  return true;
}

}  // namespace basalt::fts5
