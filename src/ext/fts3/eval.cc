// Evaluating a MATCH expression. Each phrase token's doclist is gathered
// from every segment of the language (and the pending terms), newest
// first, the newest entry of a docid winning and deletion markers dropped;
// a prefix token unions the doclists of all the terms it starts (or reads
// a prefix= index of exactly its length). A phrase's hits are where its
// tokens follow each other; combining them is the Engine's (engine.h).
#include <algorithm>

#include "ext/fts3/expr.h"

namespace basalt::fts {
namespace {

bool PosLess(const Position& a, const Position& b) {
  return a.col != b.col ? a.col < b.col : a.pos < b.pos;
}

bool PosEq(const Position& a, const Position& b) { return a.col == b.col && a.pos == b.pos; }

// Decodes a doclist into hits, in its own order; a deletion marker becomes
// a document without positions. False when malformed.
bool DecodeHits(std::string_view data, bool desc, Hits* out) {
  auto* p = reinterpret_cast<const uint8_t*>(data.data());
  const uint8_t* end = p + data.size();
  int64_t docid = 0;
  bool first = true;
  while (p < end) {
    uint64_t d;
    if (!GetVarint(&p, end, &d)) return false;
    docid = first ? static_cast<int64_t>(d)
                  : (desc ? docid - static_cast<int64_t>(d) : docid + static_cast<int64_t>(d));
    first = false;
    PhraseDoc doc{docid, static_cast<uint32_t>(out->pos.size()), 0};
    int col = 0;
    int64_t cur = 0;
    for (;;) {
      uint64_t v;
      if (p < end && *p < 0x80) {
        v = *p++;  // the usual one-byte varint
      } else if (!GetVarint(&p, end, &v)) {
        return false;
      }
      if (v == 0) break;
      if (v == 1) {
        if (!GetVarint(&p, end, &v)) return false;
        col = static_cast<int>(v);
        cur = 0;
        continue;
      }
      cur += static_cast<int64_t>(v) - 2;
      out->pos.push_back(Position{col, static_cast<int>(cur)});
    }
    doc.count = static_cast<uint32_t>(out->pos.size() - doc.begin);
    out->docs.push_back(doc);
  }
  return true;
}

// One term's doclists, decoded into one Hits: docs[ranges[i]] is the i-th
// doclist (newest first), each in ascending docid order.
struct TermLists {
  Hits h;
  std::vector<std::pair<size_t, size_t>> ranges;
  bool Decode(std::string_view data, bool desc) {
    size_t from = h.docs.size();
    if (!DecodeHits(data, desc, &h)) return false;
    if (desc) std::reverse(h.docs.begin() + static_cast<std::ptrdiff_t>(from), h.docs.end());
    ranges.emplace_back(from, h.docs.size());
    return true;
  }
};

// Merges a term's doclists in place: the newest entry of a docid wins and
// deletion markers are dropped. Positions are not moved.
void MergeTerm(TermLists* t) {
  std::vector<PhraseDoc>& docs = t->h.docs;
  std::vector<PhraseDoc> out;
  out.reserve(docs.size());
  // Usually each segment holds its own range of docids: then the lists
  // only need putting end to end.
  std::vector<std::pair<size_t, size_t>> order;
  for (const auto& r : t->ranges) {
    if (r.first < r.second) order.push_back(r);
  }
  std::sort(order.begin(), order.end(), [&docs](const auto& a, const auto& b) {
    return docs[a.first].docid < docs[b.first].docid;
  });
  bool disjoint = true;
  for (size_t i = 1; disjoint && i < order.size(); ++i) {
    disjoint = docs[order[i - 1].second - 1].docid < docs[order[i].first].docid;
  }
  if (disjoint) {
    for (const auto& r : order) {
      for (size_t k = r.first; k < r.second; ++k) {
        if (docs[k].count > 0) out.push_back(docs[k]);
      }
    }
    docs = std::move(out);
    return;
  }
  std::vector<size_t> at;
  for (const auto& r : t->ranges) at.push_back(r.first);
  for (;;) {
    int best = -1;
    for (size_t i = 0; i < at.size(); ++i) {
      if (at[i] >= t->ranges[i].second) continue;
      if (best < 0 || docs[at[i]].docid < docs[at[static_cast<size_t>(best)]].docid) {
        best = static_cast<int>(i);
      }
    }
    if (best < 0) break;
    const PhraseDoc win = docs[at[static_cast<size_t>(best)]];
    for (size_t i = 0; i < at.size(); ++i) {
      if (at[i] < t->ranges[i].second && docs[at[i]].docid == win.docid) ++at[i];
    }
    if (win.count > 0) out.push_back(win);
  }
  docs = std::move(out);
}

}  // namespace

// All occurrences of one token, by ascending docid.
int TokenHits(FtsTable* t, const PhraseToken& tok, int langid, Hits* out, int64_t* ovfl) {
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
  std::map<std::string, TermLists> terms;
  if (t->any_pending && langid == t->pending_langid) {
    auto& p = t->pending[index];
    for (auto it = p.lower_bound(tok.text); it != p.end(); ++it) {
      bool in =
          prefix ? it->first.compare(0, tok.text.size(), tok.text) == 0 : it->first == tok.text;
      if (!in) break;
      terms[it->first].Decode(it->second.Finish(), false);  // pending lists ascend
    }
  }
  // The overflow pages SQLite weighs: the leaf holding the term in each
  // segment that is not root-only (prefix scans: see deferred.cc).
  int pgsz = 0;
  if (ovfl != nullptr) {
    *ovfl = -1;
    if (!prefix && (rc = PageSize(t, &pgsz)) != SQLITE_OK) return rc;
    if (!prefix) *ovfl = 0;
  }
  for (const auto& g : segs) {
    int64_t leaf = -1;
    rc = ScanSegment(
        t, g, tok.text, prefix,
        [&](const std::string& term, std::string_view dl) {
          return terms[term].Decode(dl, t->desc) ? SQLITE_OK : SQLITE_CORRUPT_VTAB;
        },
        &leaf);
    if (rc != SQLITE_OK) return rc;
    if (pgsz > 0 && leaf + 35 > pgsz) *ovfl += (leaf + 34) / pgsz;
  }
  for (auto& [term, lists] : terms) MergeTerm(&lists);
  if (terms.size() == 1) {
    *out = std::move(terms.begin()->second.h);
    return SQLITE_OK;
  }
  // Several terms (a prefix): one entry per document, positions merged.
  std::vector<const Hits*> merged;
  for (auto& [term, lists] : terms) merged.push_back(&lists.h);
  std::vector<size_t> at(merged.size(), 0);
  std::vector<Position> buf;
  for (;;) {
    int64_t next = 0;
    bool any = false;
    for (size_t i = 0; i < merged.size(); ++i) {
      if (at[i] >= merged[i]->docs.size()) continue;
      int64_t d = merged[i]->docs[at[i]].docid;
      if (!any || d < next) next = d;
      any = true;
    }
    if (!any) break;
    buf.clear();
    for (size_t i = 0; i < merged.size(); ++i) {
      if (at[i] >= merged[i]->docs.size() || merged[i]->docs[at[i]].docid != next) continue;
      const PhraseDoc& d = merged[i]->docs[at[i]++];
      const Position* p = merged[i]->pos.data() + d.begin;
      buf.insert(buf.end(), p, p + d.count);
    }
    std::sort(buf.begin(), buf.end(), PosLess);
    buf.erase(std::unique(buf.begin(), buf.end(), PosEq), buf.end());
    out->Add(next, buf.data(), buf.size());
  }
  return SQLITE_OK;
}

namespace {

// Start positions of a phrase per document (its column filter applied),
// from its tokens' hits.
void PhraseHits(const Expr* e, std::vector<Hits>& toks, Hits* out) {
  if (toks.empty()) return;  // "": no document
  if (toks.size() == 1 && e->col < 0 && !e->tokens[0].first) {
    *out = std::move(toks[0]);
    return;
  }
  std::vector<size_t> at(toks.size(), 0);
  std::vector<const PhraseDoc*> other(toks.size(), nullptr);
  std::vector<Position> starts;
  for (const PhraseDoc& first : toks[0].docs) {
    bool all = true;
    for (size_t i = 1; all && i < toks.size(); ++i) {
      const auto& docs = toks[i].docs;
      while (at[i] < docs.size() && docs[at[i]].docid < first.docid) ++at[i];
      all = at[i] < docs.size() && docs[at[i]].docid == first.docid;
      if (all) other[i] = &docs[at[i]];
    }
    if (!all) continue;
    starts.clear();
    for (uint32_t k = 0; k < first.count; ++k) {
      const Position& p = toks[0].pos[first.begin + k];
      if (e->col >= 0 && p.col != e->col) continue;
      bool ok = !(e->tokens[0].first && p.pos != 0);
      for (size_t i = 1; ok && i < toks.size(); ++i) {
        Position want{p.col, p.pos + static_cast<int>(i)};
        auto b = toks[i].pos.begin() + other[i]->begin;
        ok = std::binary_search(b, b + other[i]->count, want, PosLess) &&
             !(e->tokens[i].first && want.pos != 0);
      }
      if (ok) starts.push_back(p);
    }
    if (!starts.empty()) out->Add(first.docid, starts.data(), starts.size());
  }
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

}  // namespace

int EvalExpr(FtsTable* t, const Expr* e, int langid, QueryResult* out) {
  CollectPhrases(e, &out->phrases);
  const size_t np = out->phrases.size();
  out->hits.resize(np);
  std::vector<std::vector<Hits>> toks(np);
  std::vector<std::vector<int64_t>> ovfl(np);
  size_t ntoken = 0;
  for (const Expr* p : out->phrases) ntoken += p->tokens.size();
  const bool weigh = t->fts4 && !t->external_content && ntoken > 1;  // see deferred.cc
  for (size_t i = 0; i < np; ++i) {
    toks[i].resize(out->phrases[i]->tokens.size());
    ovfl[i].assign(toks[i].size(), -1);
    for (size_t k = 0; k < toks[i].size(); ++k) {
      int rc = TokenHits(t, out->phrases[i]->tokens[k], langid, &toks[i][k],
                         weigh ? &ovfl[i][k] : nullptr);
      if (rc != SQLITE_OK) return rc;
    }
  }
  int rc = weigh ? SelectDeferred(t, e, langid, out->phrases, toks, ovfl, &out->deferred,
                                  &out->partial, &out->ndoc)
                 : SQLITE_OK;
  if (rc != SQLITE_OK) return rc;
  for (size_t i = 0; i < np; ++i) PhraseHits(out->phrases[i], toks[i], &out->hits[i]);
  out->naux = CountAux(e);
  return SQLITE_OK;
}

}  // namespace basalt::fts
