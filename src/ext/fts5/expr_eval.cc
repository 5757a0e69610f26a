// Evaluation of a parsed query (expr.h): each phrase's hits from the index,
// then the set operations of the tree. NEAR groups keep, for each phrase,
// only the positions that take part in a match, as SQLite's do.
#include <algorithm>
#include <cstring>

#include "ext/fts5/expr.h"

namespace basalt::fts5 {
namespace {

bool Allowed(const Phrase& ph, uint64_t pos) {
  if (ph.caret && (pos & 0xffffffffu) != 0) return false;
  if (ph.cols.empty()) return true;
  int col = static_cast<int>(pos >> 32);
  return std::binary_search(ph.cols.begin(), ph.cols.end(), col);
}

int TokenDoclist(Index* index, const Config& cfg, const PhraseToken& t, RawDoclist* out) {
  if (t.prefix) {
    // A prefix index of exactly this many characters answers it directly.
    int nchar = 0;
    for (unsigned char c : t.text) nchar += (c & 0xc0) != 0x80;
    for (size_t i = 0; i < cfg.prefixes.size(); ++i) {
      if (cfg.prefixes[i] == nchar) {
        std::string key(1, static_cast<char>(kMainPrefix + i + 1));
        return index->Query(key + t.text, false, out);
      }
    }
    return index->Query(std::string(1, kMainPrefix) + t.text, true, out);
  }
  return index->Query(std::string(1, kMainPrefix) + t.text, false, out);
}

std::vector<int64_t> Intersect(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  std::vector<int64_t> r;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(r));
  return r;
}

// SQLite's NEAR test over one row: in[i] are phrase i's match positions.
bool NearMatch(const std::vector<std::span<const uint64_t>>& in, const std::vector<int>& nterm,
               int near, std::vector<std::vector<uint64_t>>* out) {
  size_t n = in.size();
  std::vector<size_t> idx(n, 0);
  out->assign(n, {});
  auto at = [&](size_t i) { return static_cast<int64_t>(in[i][idx[i]]); };
  for (size_t i = 0; i < n; ++i) {
    if (in[i].empty()) return false;
  }
  for (;;) {
    int64_t imax = at(0);
    bool match;
    do {
      match = true;
      for (size_t i = 0; i < n; ++i) {
        int64_t imin = imax - nterm[i] - near;
        if (at(i) < imin || at(i) > imax) {
          match = false;
          while (at(i) < imin) {
            if (++idx[i] >= in[i].size()) return !(*out)[0].empty();
          }
          if (at(i) > imax) imax = at(i);
        }
      }
    } while (!match);
    for (size_t i = 0; i < n; ++i) {
      uint64_t p = in[i][idx[i]];
      if ((*out)[i].empty() || (*out)[i].back() != p) (*out)[i].push_back(p);
    }
    size_t adv = 0;
    int64_t best = INT64_MAX;
    for (size_t i = 0; i < n; ++i) {
      int64_t la = idx[i] + 1 < in[i].size() ? static_cast<int64_t>(in[i][idx[i] + 1]) : INT64_MAX;
      if (i == 0 || la < best) {
        best = la;
        adv = i;
      }
    }
    if (++idx[adv] >= in[adv].size()) return !(*out)[0].empty();
  }
}

int EvalNode(Index* index, const Config& cfg, ExprNode* n, std::vector<int64_t>* out);

int EvalNear(Index* index, const Config& cfg, ExprNode* n, std::vector<int64_t>* out) {
  for (Phrase* p : n->phrases) {
    int rc = EvalPhrase(index, cfg, p);
    if (rc != SQLITE_OK) return rc;
  }
  *out = n->phrases[0]->hits.rowids;
  if (!n->is_near) return SQLITE_OK;
  for (size_t i = 1; i < n->phrases.size(); ++i) *out = Intersect(*out, n->phrases[i]->hits.rowids);
  std::vector<PhraseHits> trimmed(n->phrases.size());
  std::vector<int> nterm;
  for (Phrase* p : n->phrases) nterm.push_back(static_cast<int>(p->tokens.size()));
  std::vector<int64_t> kept;
  std::vector<std::vector<uint64_t>> res;
  for (int64_t rowid : *out) {
    std::vector<std::span<const uint64_t>> in;
    for (Phrase* p : n->phrases) in.push_back(p->hits.Find(rowid));
    if (!NearMatch(in, nterm, n->near, &res)) continue;
    kept.push_back(rowid);
    for (size_t i = 0; i < res.size(); ++i) trimmed[i].Add(rowid, res[i]);
  }
  for (size_t i = 0; i < n->phrases.size(); ++i) {
    n->phrases[i]->hits = std::move(trimmed[i]);
    n->phrases[i]->trimmed = true;
  }
  out->swap(kept);
  return SQLITE_OK;
}

void MarkNegated(ExprNode* n) {
  for (Phrase* p : n->phrases) p->negated = true;
  for (auto& k : n->kids) MarkNegated(k.get());
}

int EvalNode(Index* index, const Config& cfg, ExprNode* n, std::vector<int64_t>* out) {
  out->clear();
  switch (n->kind) {
    case ExprNode::kEmpty:
      return SQLITE_OK;
    case ExprNode::kNear:
      return EvalNear(index, cfg, n, out);
    case ExprNode::kAnd:
    case ExprNode::kOr:
    case ExprNode::kNot: {
      int rc = EvalNode(index, cfg, n->kids[0].get(), out);
      for (size_t i = 1; rc == SQLITE_OK && i < n->kids.size(); ++i) {
        std::vector<int64_t> r, m;
        if ((rc = EvalNode(index, cfg, n->kids[i].get(), &r)) != SQLITE_OK) return rc;
        if (n->kind == ExprNode::kAnd) {
          m = Intersect(*out, r);
        } else if (n->kind == ExprNode::kOr) {
          std::set_union(out->begin(), out->end(), r.begin(), r.end(), std::back_inserter(m));
        } else {
          std::set_difference(out->begin(), out->end(), r.begin(), r.end(), std::back_inserter(m));
          MarkNegated(n->kids[i].get());
        }
        out->swap(m);
      }
      return rc;
    }
  }
  return SQLITE_OK;
}

}  // namespace

std::span<const uint64_t> PhraseHits::Find(int64_t rowid) const {
  auto it = std::lower_bound(rowids.begin(), rowids.end(), rowid);
  if (it == rowids.end() || *it != rowid) return {};
  size_t i = it - rowids.begin();
  return std::span<const uint64_t>(pos.data() + start[i], start[i + 1] - start[i]);
}

int EvalPhrase(Index* index, const Config& cfg, Phrase* p) {
  p->hits = PhraseHits();
  p->trimmed = false;
  if (p->tokens.empty()) return SQLITE_OK;
  if (!p->cols.empty() && p->cols[0] < 0) return SQLITE_OK;
  size_t nt = p->tokens.size();
  std::vector<RawDoclist> lists(nt);
  for (size_t i = 0; i < nt; ++i) {
    int rc = TokenDoclist(index, cfg, p->tokens[i], &lists[i]);
    if (rc != SQLITE_OK) return rc;
  }
  std::vector<size_t> idx(nt, 0);
  std::vector<std::vector<uint64_t>> pos(nt);
  std::vector<uint64_t> starts;
  bool none = cfg.detail == Detail::kNone;
  for (const RawEntry& e0 : lists[0]) {
    int64_t rowid = e0.rowid;
    bool all = true;
    for (size_t i = 1; i < nt && all; ++i) {
      while (idx[i] < lists[i].size() && lists[i][idx[i]].rowid < rowid) ++idx[i];
      all = idx[i] < lists[i].size() && lists[i][idx[i]].rowid == rowid;
    }
    if (!all) continue;
    starts.clear();
    if (none) {
      p->hits.Add(rowid, {});
      continue;
    }
    DecodePositions(e0.pos, cfg.detail, &pos[0]);
    for (size_t i = 1; i < nt; ++i) DecodePositions(lists[i][idx[i]].pos, cfg.detail, &pos[i]);
    for (uint64_t s : pos[0]) {
      if (!Allowed(*p, s)) continue;
      bool ok = true;
      for (size_t i = 1; i < nt && ok; ++i) {
        ok = std::binary_search(pos[i].begin(), pos[i].end(), s + i);
      }
      if (ok) starts.push_back(s);
    }
    if (starts.empty()) continue;
    p->hits.Add(rowid, starts);
  }
  return SQLITE_OK;
}

int EvalExpr(Index* index, const Config& cfg, Expr* e, std::vector<int64_t>* rowids) {
  rowids->clear();
  for (auto& p : e->phrases) p->negated = false;
  if (!e->root) return SQLITE_OK;
  return EvalNode(index, cfg, e->root.get(), rowids);
}

}  // namespace basalt::fts5
