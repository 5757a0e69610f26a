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

// Appends the entries of one term's doclists (newest first), merged, to
// `out` (unsorted when several terms append).
void AppendTerm(std::vector<Doclist>& lists, bool desc, Hits* out) {
  if (lists.size() == 1) {
    for (const DocEntry& e : lists[0]) {
      if (e.pos.empty()) continue;  // a deletion marker
      out->push_back(PhraseDoc{e.docid, {}});
      DecodePositions(e.pos, &out->back().pos);
    }
    return;
  }
  std::vector<const Doclist*> ptrs;
  for (auto& l : lists) ptrs.push_back(&l);
  for (const DocEntry& e : MergeDoclists(ptrs, desc, true)) {
    out->push_back(PhraseDoc{e.docid, {}});
    DecodePositions(e.pos, &out->back().pos);
  }
}

// All occurrences of one token, by ascending docid.
int TokenHits(FtsTable* t, const PhraseToken& tok, int langid, Hits* out) {
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
  for (auto& [term, lists] : terms) AppendTerm(lists, t->desc, out);
  if (terms.size() <= 1) {
    if (t->desc) std::reverse(out->begin(), out->end());
    return SQLITE_OK;
  }
  // Several terms (a prefix): one entry per document, positions merged.
  std::stable_sort(out->begin(), out->end(),
                   [](const PhraseDoc& a, const PhraseDoc& b) { return a.docid < b.docid; });
  size_t w = 0;
  for (size_t i = 0; i < out->size(); ++i) {
    if (w > 0 && (*out)[w - 1].docid == (*out)[i].docid) {
      auto& into = (*out)[w - 1].pos;
      into.insert(into.end(), (*out)[i].pos.begin(), (*out)[i].pos.end());
    } else {
      if (w != i) (*out)[w] = std::move((*out)[i]);
      ++w;
    }
  }
  out->resize(w);
  for (PhraseDoc& d : *out) {
    std::sort(d.pos.begin(), d.pos.end(), PosLess);
    d.pos.erase(std::unique(d.pos.begin(), d.pos.end(), PosEq), d.pos.end());
  }
  return SQLITE_OK;
}

// Start positions of a phrase per document (its column filter applied).
int PhraseHits(FtsTable* t, const Expr* e, int langid, Hits* out) {
  std::vector<Hits> toks(e->tokens.size());
  for (size_t i = 0; i < e->tokens.size(); ++i) {
    int rc = TokenHits(t, e->tokens[i], langid, &toks[i]);
    if (rc != SQLITE_OK) return rc;
  }
  if (toks.size() == 1 && e->col < 0 && !e->tokens[0].first) {
    *out = std::move(toks[0]);
    return SQLITE_OK;
  }
  std::vector<size_t> at(toks.size(), 0);
  for (PhraseDoc& first : toks[0]) {
    // The other tokens' entries for this document (null when missing).
    std::vector<const std::vector<Position>*> other(toks.size(), nullptr);
    bool all = true;
    for (size_t i = 1; all && i < toks.size(); ++i) {
      while (at[i] < toks[i].size() && toks[i][at[i]].docid < first.docid) ++at[i];
      all = at[i] < toks[i].size() && toks[i][at[i]].docid == first.docid;
      if (all) other[i] = &toks[i][at[i]].pos;
    }
    if (!all) continue;
    std::vector<Position> starts;
    for (const Position& p : first.pos) {
      if (e->col >= 0 && p.col != e->col) continue;
      bool ok = !(e->tokens[0].first && p.pos != 0);
      for (size_t i = 1; ok && i < toks.size(); ++i) {
        Position want{p.col, p.pos + static_cast<int>(i)};
        ok = std::binary_search(other[i]->begin(), other[i]->end(), want, PosLess) &&
             !(e->tokens[i].first && want.pos != 0);
      }
      if (ok) starts.push_back(p);
    }
    if (!starts.empty()) out->push_back(PhraseDoc{first.docid, std::move(starts)});
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

}  // namespace

int EvalExpr(FtsTable* t, const Expr* e, int langid, QueryResult* out) {
  CollectPhrases(e, &out->phrases);
  out->hits.resize(out->phrases.size());
  for (size_t i = 0; i < out->phrases.size(); ++i) {
    int rc = PhraseHits(t, out->phrases[i], langid, &out->hits[i]);
    if (rc != SQLITE_OK) return rc;
  }
  out->naux = CountAux(e);
  return SQLITE_OK;
}

}  // namespace basalt::fts
