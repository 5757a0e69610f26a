// Evaluating a MATCH expression. Each phrase token's doclist is gathered
// from every segment of the language (and the pending terms), newest
// first, the newest entry of a docid winning and deletion markers dropped;
// a prefix token unions the doclists of all the terms it starts (or reads
// a prefix= index of exactly its length). Phrases, NEAR groups, AND, OR and
// NOT then combine per document.
#include <algorithm>

#include "ext/fts3/expr.h"

namespace basalt::fts {
namespace {

using PosMap = std::map<int64_t, std::vector<Position>>;

bool PosLess(const Position& a, const Position& b) {
  return a.col != b.col ? a.col < b.col : a.pos < b.pos;
}

std::vector<Position> HitsIn(const QueryResult& r, const Expr* p, int64_t docid);
void NearGroup(const Expr* e, std::vector<const Expr*>* ph, std::vector<int>* dist);
bool NearFilter(const std::vector<const Expr*>& ph, const std::vector<int>& dist,
                std::vector<std::vector<Position>>* hits);

// All occurrences of one token, per document.
int TokenHits(FtsTable* t, const PhraseToken& tok, int langid, PosMap* out) {
  int index = 0;
  bool prefix = tok.prefix;
  if (prefix) {
    for (int i = 1; i < t->nindex(); ++i) {
      if (static_cast<size_t>(t->prefixes[i - 1]) == tok.text.size()) {
        index = i;
        prefix = false;
      }
    }
  }
  std::vector<SegInfo> segs;
  int64_t lo = t->AbsLevel(langid, index, 0);
  int rc = LoadSegments(t, lo, lo + kMaxLevel - 1, &segs);
  if (rc != SQLITE_OK) return rc;
  // term -> doclists newest first
  std::map<std::string, std::vector<Doclist>> terms;
  if (t->any_pending && langid == t->pending_langid) {
    auto& p = t->pending[index];
    for (auto it = p.lower_bound(tok.text); it != p.end(); ++it) {
      bool in =
          prefix ? it->first.compare(0, tok.text.size(), tok.text) == 0 : it->first == tok.text;
      if (!in) break;
      auto& v = terms[it->first];
      v.emplace_back();
      DecodeDoclist(it->second.Finish(), false, &v.back());
      if (t->desc) std::reverse(v.back().begin(), v.back().end());
    }
  }
  for (const auto& g : segs) {
    rc = ScanSegment(t, g, tok.text, prefix, [&](const std::string& term, std::string_view dl) {
      auto& v = terms[term];
      v.emplace_back();
      return DecodeDoclist(dl, t->desc, &v.back()) ? SQLITE_OK : SQLITE_CORRUPT_VTAB;
    });
    if (rc != SQLITE_OK) return rc;
  }
  for (auto& [term, lists] : terms) {
    std::vector<const Doclist*> ptrs;
    for (auto& l : lists) ptrs.push_back(&l);
    for (const auto& e : MergeDoclists(ptrs, t->desc, true)) {
      DecodePositions(e.pos, &(*out)[e.docid]);
    }
  }
  if (terms.size() > 1) {
    for (auto& [d, v] : *out) {
      std::sort(v.begin(), v.end(), PosLess);
      v.erase(std::unique(v.begin(), v.end(),
                          [](const Position& a, const Position& b) {
                            return a.col == b.col && a.pos == b.pos;
                          }),
              v.end());
    }
  }
  return SQLITE_OK;
}

// Start positions of a phrase per document.
int PhraseHits(FtsTable* t, const Expr* e, int langid, Hits* out) {
  std::vector<PosMap> toks(e->tokens.size());
  for (size_t i = 0; i < e->tokens.size(); ++i) {
    int rc = TokenHits(t, e->tokens[i], langid, &toks[i]);
    if (rc != SQLITE_OK) return rc;
  }
  for (auto& [docid, first] : toks[0]) {
    std::vector<Position> starts;
    for (const auto& p : first) {
      if (e->col >= 0 && p.col != e->col) continue;
      bool ok = !(e->tokens[0].first && p.pos != 0);
      for (size_t i = 1; ok && i < toks.size(); ++i) {
        auto it = toks[i].find(docid);
        if (it == toks[i].end()) {
          ok = false;
          break;
        }
        Position want{p.col, p.pos + static_cast<int>(i)};
        ok = std::binary_search(it->second.begin(), it->second.end(), want, PosLess) &&
             !(e->tokens[i].first && want.pos != 0);
      }
      if (ok) starts.push_back(p);
    }
    if (!starts.empty()) (*out)[docid] = std::move(starts);
  }
  return SQLITE_OK;
}

void CollectPhrases(const Expr* e, std::vector<const Expr*>* out) {
  if (e->kind == Expr::kPhrase) {
    if (out->size() <= static_cast<size_t>(e->phrase_index)) out->resize(e->phrase_index + 1);
    (*out)[e->phrase_index] = e;
    return;
  }
  CollectPhrases(e->left.get(), out);
  CollectPhrases(e->right.get(), out);
}

int CountAux(const Expr* e) {
  if (e->kind == Expr::kPhrase) return 1;
  return CountAux(e->left.get()) + (e->kind == Expr::kNot ? 0 : CountAux(e->right.get()));
}

// Keeps, for every document, only the hits of NEAR-grouped phrases that
// satisfy their group (matchinfo counts those over all rows too).
void ApplyNear(QueryResult* r, const Expr* e) {
  if (e->kind == Expr::kPhrase) return;
  if (e->kind != Expr::kNear) {
    ApplyNear(r, e->left.get());
    ApplyNear(r, e->right.get());
    return;
  }
  std::vector<const Expr*> ph;
  std::vector<int> dist;
  NearGroup(e, &ph, &dist);
  std::vector<int64_t> docs;
  for (const auto& [d, v] : r->hits[ph[0]->phrase_index]) docs.push_back(d);
  for (const auto* p : ph) {
    auto& h = r->hits[p->phrase_index];
    for (auto it = h.begin(); it != h.end();) {
      if (!std::binary_search(docs.begin(), docs.end(), it->first)) {
        it = h.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (int64_t d : docs) {
    std::vector<std::vector<Position>> h;
    for (const auto* p : ph) h.push_back(HitsIn(*r, p, d));
    bool ok = NearFilter(ph, dist, &h);
    for (size_t i = 0; i < ph.size(); ++i) {
      auto& m = r->hits[ph[i]->phrase_index];
      if (ok) {
        m[d] = std::move(h[i]);
      } else {
        m.erase(d);
      }
    }
  }
}

// The phrases of a NEAR group in order, with the distances between them.
void NearGroup(const Expr* e, std::vector<const Expr*>* ph, std::vector<int>* dist) {
  if (e->kind == Expr::kPhrase) {
    ph->push_back(e);
    return;
  }
  NearGroup(e->left.get(), ph, dist);
  dist->push_back(e->near);
  ph->push_back(e->right.get());
}

// Phrases a (la tokens) and b (lb tokens) starting at these positions are
// within n tokens of each other: compared by their last tokens, which must
// differ, the later one at most n + its length past the other.
bool Near(const Position& a, int la, const Position& b, int lb, int n) {
  if (a.col != b.col) return false;
  int a_last = a.pos + la - 1, b_last = b.pos + lb - 1;
  if (b_last > a_last) return b_last - a_last <= n + lb;
  return a_last > b_last && a_last - b_last <= n + la;
}

// Filters the group's hits in one document; false when the group fails.
bool NearFilter(const std::vector<const Expr*>& ph, const std::vector<int>& dist,
                std::vector<std::vector<Position>>* hits) {
  auto keep = [&](size_t i, size_t j) {  // keep hits of i near some hit of j
    std::vector<Position> kept;
    int n = dist[std::min(i, j)];
    for (const auto& a : (*hits)[i]) {
      for (const auto& b : (*hits)[j]) {
        if (Near(a, static_cast<int>(ph[i]->tokens.size()), b,
                 static_cast<int>(ph[j]->tokens.size()), n)) {
          kept.push_back(a);
          break;
        }
      }
    }
    (*hits)[i] = std::move(kept);
  };
  for (size_t i = 1; i < ph.size(); ++i) keep(i, i - 1);
  for (size_t i = ph.size() - 1; i > 0; --i) keep(i - 1, i);
  for (const auto& h : *hits) {
    if (h.empty()) return false;
  }
  return true;
}

std::vector<Position> HitsIn(const QueryResult& r, const Expr* p, int64_t docid) {
  auto it = r.hits[p->phrase_index].find(docid);
  return it == r.hits[p->phrase_index].end() ? std::vector<Position>() : it->second;
}

std::vector<int64_t> Docs(const QueryResult& r, const Expr* e) {
  std::vector<int64_t> out;
  if (e->kind == Expr::kPhrase) {
    for (const auto& [d, v] : r.hits[e->phrase_index]) out.push_back(d);
    return out;
  }
  auto a = Docs(r, e->left.get());
  auto b = Docs(r, e->right.get());
  switch (e->kind) {
    case Expr::kOr:
      std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
      break;
    case Expr::kNot:
      std::set_difference(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
      break;
    default:
      std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
      break;
  }
  if (e->kind == Expr::kNear) {
    std::vector<const Expr*> ph;
    std::vector<int> dist;
    NearGroup(e, &ph, &dist);
    std::vector<int64_t> kept;
    for (int64_t d : out) {
      std::vector<std::vector<Position>> h;
      for (const auto* p : ph) h.push_back(HitsIn(r, p, d));
      if (NearFilter(ph, dist, &h)) kept.push_back(d);
    }
    out = std::move(kept);
  }
  return out;
}

// A NEAR group is read as one AND: its phrases have no hits in a document
// that lacks any of them.
void ClearIncompleteNear(const Expr* e, std::vector<std::vector<Position>>* res) {
  if (e->kind == Expr::kPhrase) return;
  if (e->kind != Expr::kNear) {
    ClearIncompleteNear(e->left.get(), res);
    ClearIncompleteNear(e->right.get(), res);
    return;
  }
  std::vector<const Expr*> ph;
  std::vector<int> dist;
  NearGroup(e, &ph, &dist);
  bool all = true;
  for (const auto* p : ph) all = all && !(*res)[p->phrase_index].empty();
  if (all) return;
  for (const auto* p : ph) (*res)[p->phrase_index].clear();
}

// Tests `e` on one document the way SQLite's row test runs: AND and NOT
// stop at a failing left side, so a NEAR group on their right is then left
// untrimmed; a NEAR group that is tested keeps only its near hits (none if
// it fails). res holds each phrase's hits in the document.
bool TestRow(const QueryResult& r, const Expr* e, int64_t docid,
             std::vector<std::vector<Position>>* res) {
  switch (e->kind) {
    case Expr::kPhrase:
      return !(*res)[e->phrase_index].empty();
    case Expr::kNear: {
      std::vector<const Expr*> ph;
      std::vector<int> dist;
      NearGroup(e, &ph, &dist);
      std::vector<std::vector<Position>> h;
      for (const auto* p : ph) h.push_back((*res)[p->phrase_index]);
      bool ok = true;
      for (const auto& v : h) ok = ok && !v.empty();
      ok = ok && NearFilter(ph, dist, &h);
      for (size_t i = 0; i < ph.size(); ++i) {
        (*res)[ph[i]->phrase_index] = ok ? std::move(h[i]) : std::vector<Position>();
      }
      return ok;
    }
    case Expr::kAnd:
      return TestRow(r, e->left.get(), docid, res) && TestRow(r, e->right.get(), docid, res);
    case Expr::kNot:
      return TestRow(r, e->left.get(), docid, res) && !TestRow(r, e->right.get(), docid, res);
    default: {
      bool a = TestRow(r, e->left.get(), docid, res);
      bool b = TestRow(r, e->right.get(), docid, res);
      return a || b;
    }
  }
}

// Where each part of the query outside NEAR group g (a phrase, or another
// NEAR group) stands when the row `at` is current: on its first document
// at or after `at` in the cursor's order (missing: past its end).
void StalePositions(const QueryResult& r, const Expr* e, const Expr* g, int64_t at, bool desc,
                    std::map<const Expr*, int64_t>* pos) {
  if (e == g) return;
  if (e->kind == Expr::kPhrase || e->kind == Expr::kNear) {
    std::vector<int64_t> docs = Docs(r, e);
    if (!desc) {
      auto it = std::lower_bound(docs.begin(), docs.end(), at);
      if (it != docs.end()) (*pos)[e] = *it;
    } else {
      auto it = std::upper_bound(docs.begin(), docs.end(), at);
      if (it != docs.begin()) (*pos)[e] = *(it - 1);
    }
    return;
  }
  StalePositions(r, e->left.get(), g, at, desc, pos);
  StalePositions(r, e->right.get(), g, at, desc, pos);
}

// Whether `e` tests true on document d with NEAR group g on d and every
// other part where StalePositions put it (a part tests true only on the
// document it stands on).
bool TestAway(const Expr* e, const Expr* g, int64_t d, const std::map<const Expr*, int64_t>& pos) {
  if (e == g) return true;
  switch (e->kind) {
    case Expr::kPhrase:
    case Expr::kNear: {
      auto it = pos.find(e);
      return it != pos.end() && it->second == d;
    }
    case Expr::kAnd:
      return TestAway(e->left.get(), g, d, pos) && TestAway(e->right.get(), g, d, pos);
    case Expr::kNot:
      return TestAway(e->left.get(), g, d, pos) && !TestAway(e->right.get(), g, d, pos);
    default:
      return TestAway(e->left.get(), g, d, pos) || TestAway(e->right.get(), g, d, pos);
  }
}

void NearRoots(const Expr* e, std::vector<const Expr*>* out) {
  if (e->kind == Expr::kNear) {
    out->push_back(e);
  } else if (e->kind != Expr::kPhrase) {
    NearRoots(e->left.get(), out);
    NearRoots(e->right.get(), out);
  }
}

}  // namespace

std::vector<std::vector<int64_t>> TotalsDocs(const QueryResult& r, const Expr* root, int64_t at) {
  std::vector<std::vector<int64_t>> out(r.phrases.size());
  for (size_t i = 0; i < r.phrases.size(); ++i) {
    for (const auto& [d, v] : r.hits[i]) out[i].push_back(d);
  }
  std::vector<const Expr*> groups;
  NearRoots(root, &groups);
  for (const Expr* g : groups) {
    if (g == root) continue;
    std::map<const Expr*, int64_t> pos;
    StalePositions(r, root, g, at, r.desc, &pos);
    std::vector<int64_t> kept;
    for (int64_t d : Docs(r, g)) {
      if (TestAway(root, g, d, pos)) kept.push_back(d);
    }
    std::vector<const Expr*> ph;
    std::vector<int> dist;
    NearGroup(g, &ph, &dist);
    for (const Expr* p : ph) out[static_cast<size_t>(p->phrase_index)] = kept;
  }
  return out;
}

int EvalExpr(FtsTable* t, const Expr* e, int langid, QueryResult* out) {
  CollectPhrases(e, &out->phrases);
  out->hits.resize(out->phrases.size());
  for (size_t i = 0; i < out->phrases.size(); ++i) {
    int rc = PhraseHits(t, out->phrases[i], langid, &out->hits[i]);
    if (rc != SQLITE_OK) return rc;
  }
  out->raw_hits = out->hits;
  ApplyNear(out, e);
  out->naux = CountAux(e);
  out->docids = Docs(*out, e);
  return SQLITE_OK;
}

std::vector<std::vector<Position>> DocPhraseHits(const QueryResult& r, const Expr* root,
                                                 int64_t docid) {
  std::vector<std::vector<Position>> res(r.phrases.size());
  for (size_t i = 0; i < r.phrases.size(); ++i) {
    auto it = r.raw_hits[i].find(docid);
    if (it != r.raw_hits[i].end()) res[i] = it->second;
  }
  ClearIncompleteNear(root, &res);
  TestRow(r, root, docid, &res);
  return res;
}

}  // namespace basalt::fts
