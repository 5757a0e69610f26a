// Deferred tokens (FTS4). Before a query runs, SQLite weighs each token by
// the overflow pages its doclist occupies and, within each AND/NEAR group
// of the query, leaves the costly ones out of the index walk: their hits
// are read from each candidate row's text instead. The rows found are the
// same; what changes is what the auxiliary functions see (matchinfo 'x'
// totals of a deferred phrase are the table's row count twice per column,
// and a deferred phrase has no doclist to look a row up in).
//
// The choice, per group (the whole query, then each side of each OR; the
// inside of a NOT is never weighed):
//   - nothing is deferred unless the table has its own content, the query
//     holds two or more tokens, the group two or more, and some token of
//     the group has overflow pages;
//   - tokens are visited cheapest first (ties in query order); the first
//     is loaded; a later one is deferred when its overflow pages reach
//     ceil(est / 4^(loaded - 1)) * pages-per-row, est being the fewest
//     documents of any phrase loaded so far (a phrase counted on the
//     tokens of it loaded so far); otherwise it is loaded when it belongs
//     to a phrase of several tokens and is not the group's last.
// A token's overflow pages: over the segments of its index that are not
// root-only, the leaves that may hold it (the term's leaf; for a prefix,
// every leaf from the first to the last that may hold a term starting so),
// each blob of n bytes counting (n + 34) / page_size when n + 35 exceeds
// the page size. Pages per row: (bytes of the last column / rows +
// page_size) / page_size, from %_stat.
#include <algorithm>

#include "ext/fts3/expr.h"
#include "ext/fts3/fts_update.h"

namespace basalt::fts {
namespace {

struct TokenCost {
  size_t phrase;  // phrase_index
  size_t token;
  const Expr* group;  // the AND/NEAR group's root (null: the whole query)
  int64_t ovfl = 0;
  bool done = false;
};

}  // namespace

int PageSize(FtsTable* t, int* out) {
  if (t->page_size == 0) {
    Stmt s;
    int rc = s.Prepare(t->db, "PRAGMA " + QuoteIdent(t->schema) + ".page_size");
    if (rc != SQLITE_OK) return rc;
    if (sqlite3_step(s) == SQLITE_ROW) t->page_size = sqlite3_column_int(s, 0);
    if (t->page_size <= 0) t->page_size = 4096;
  }
  *out = t->page_size;
  return SQLITE_OK;
}

namespace {

int BlockOverflow(FtsTable* t, int64_t id, int pgsz, int64_t* ovfl) {
  Stmt s;
  int rc = Prep(t, &s, "SELECT length(block) FROM " + t->Shadow("_segments") + " WHERE blockid=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, id);
  if (sqlite3_step(s) != SQLITE_ROW) return SQLITE_CORRUPT_VTAB;
  int64_t n = sqlite3_column_int64(s, 0);
  if (n + 35 > pgsz) *ovfl += (n + 34) / pgsz;
  return SQLITE_OK;
}

// Overflow pages of the leaves of index `index` that may hold `term` (or,
// for a prefix, terms starting with it).
int IndexOverflow(FtsTable* t, int langid, int index, const std::string& term, bool prefix,
                  int pgsz, int64_t* ovfl) {
  std::vector<SegInfo> segs;
  int64_t lo = t->AbsLevel(langid, index, 0);
  int rc = LoadSegments(t, lo, lo + kMaxLevel - 1, &segs);
  for (size_t i = 0; rc == SQLITE_OK && i < segs.size(); ++i) {
    if (segs[i].start == 0) continue;  // root-only
    int64_t first = 0, last = 0;
    rc = FindLeaf(t, segs[i], term, &first);
    last = first;
    if (rc == SQLITE_OK && prefix) {
      std::string past = term;
      past.push_back('\xff');  // after every term starting with `term`
      rc = FindLeaf(t, segs[i], past, &last);
    }
    for (int64_t b = first; rc == SQLITE_OK && b <= last; ++b) rc = BlockOverflow(t, b, pgsz, ovfl);
  }
  return rc;
}

// The overflow pages SQLite weighs for one token (its index chosen as
// SQLite chooses it: a prefix= index of the prefix's length, else one a
// byte longer plus the main index's exact term, else the main index).
int TokenOverflow(FtsTable* t, int langid, const PhraseToken& tok, int pgsz, int64_t* ovfl) {
  *ovfl = 0;
  if (tok.prefix) {
    for (int i = 1; i < t->nindex(); ++i) {
      if (static_cast<size_t>(t->prefixes[i - 1]) == tok.text.size()) {
        return IndexOverflow(t, langid, i, tok.text, false, pgsz, ovfl);
      }
    }
    for (int i = 1; i < t->nindex(); ++i) {
      if (static_cast<size_t>(t->prefixes[i - 1]) == tok.text.size() + 1) {
        int rc = IndexOverflow(t, langid, i, tok.text, true, pgsz, ovfl);
        return rc == SQLITE_OK ? IndexOverflow(t, langid, 0, tok.text, false, pgsz, ovfl) : rc;
      }
    }
  }
  return IndexOverflow(t, langid, 0, tok.text, tok.prefix, pgsz, ovfl);
}

void Weigh(const Expr* e, const Expr* group, std::vector<TokenCost>* out,
           std::vector<const Expr*>* ors) {
  if (e->kind == Expr::kPhrase) {
    for (size_t k = 0; k < e->tokens.size(); ++k) {
      out->push_back(TokenCost{static_cast<size_t>(e->phrase_index), k, group});
    }
    return;
  }
  if (e->kind == Expr::kNot) return;
  if (e->kind == Expr::kOr) {
    ors->push_back(e->left.get());
    Weigh(e->left.get(), e->left.get(), out, ors);
    ors->push_back(e->right.get());
    Weigh(e->right.get(), e->right.get(), out, ors);
    return;
  }
  Weigh(e->left.get(), group, out, ors);
  Weigh(e->right.get(), group, out, ors);
}

// Where the loaded tokens of a phrase stand at their offsets: calls
// fn(doc, column) for each such occurrence.
template <typename Fn>
void ForLoaded(const Expr* e, const std::vector<Hits>& toks, const std::vector<bool>& loaded,
               Fn fn) {
  size_t anchor = 0;
  while (!loaded[anchor]) ++anchor;
  std::vector<size_t> at(toks.size(), 0);
  auto less = [](const Position& a, const Position& b) {
    return a.col != b.col ? a.col < b.col : a.pos < b.pos;
  };
  std::vector<const PhraseDoc*> other(toks.size(), nullptr);
  for (const PhraseDoc& d : toks[anchor].docs) {
    bool all = true;
    for (size_t i = 0; all && i < toks.size(); ++i) {
      other[i] = nullptr;
      if (i == anchor || !loaded[i]) continue;
      const auto& docs = toks[i].docs;
      while (at[i] < docs.size() && docs[at[i]].docid < d.docid) ++at[i];
      all = at[i] < docs.size() && docs[at[i]].docid == d.docid;
      if (all) other[i] = &docs[at[i]];
    }
    if (!all) continue;
    for (uint32_t k = 0; k < d.count; ++k) {
      const Position& p = toks[anchor].pos[d.begin + k];
      if (e->col >= 0 && p.col != e->col) continue;
      bool hit = true;
      for (size_t i = 0; hit && i < toks.size(); ++i) {
        if (other[i] == nullptr) continue;
        Position want{p.col, p.pos + static_cast<int>(i) - static_cast<int>(anchor)};
        auto b = toks[i].pos.begin() + other[i]->begin;
        hit = std::binary_search(b, b + other[i]->count, want, less);
      }
      if (hit) fn(d.docid, p.col);
    }
  }
}

// Documents where the loaded tokens of a phrase stand at their offsets.
int64_t LoadedDocs(const Expr* e, const std::vector<Hits>& toks, const std::vector<bool>& loaded) {
  size_t anchor = 0;
  while (!loaded[anchor]) ++anchor;
  if (e->col < 0 && std::count(loaded.begin(), loaded.end(), true) == 1) {
    return static_cast<int64_t>(toks[anchor].docs.size());
  }
  int64_t n = 0, last = 0;
  bool any = false;
  ForLoaded(e, toks, loaded, [&](int64_t doc, int) {
    if (!any || doc != last) ++n;
    any = true;
    last = doc;
  });
  return n;
}

// matchinfo 'x' totals SQLite reports for a phrase some of whose tokens are
// deferred: counted on its other tokens alone (per column: hits, rows).
std::vector<uint32_t> PartialTotals(const Expr* e, const std::vector<Hits>& toks,
                                    const std::vector<bool>& deferred, int ncol) {
  std::vector<bool> loaded(deferred.size());
  for (size_t i = 0; i < deferred.size(); ++i) loaded[i] = !deferred[i];
  std::vector<uint32_t> mi(static_cast<size_t>(ncol) * 2, 0);
  int64_t last = 0;
  int last_col = -1;
  bool any = false;
  ForLoaded(e, toks, loaded, [&](int64_t doc, int col) {
    if (col < 0 || col >= ncol) return;
    mi[static_cast<size_t>(col) * 2] += 1;
    if (!any || doc != last || col != last_col) mi[static_cast<size_t>(col) * 2 + 1] += 1;
    any = true;
    last = doc;
    last_col = col;
  });
  return mi;
}

// Pages per row, and the row count, from %_stat.
int RowPages(FtsTable* t, int pgsz, int* pages, int64_t* ndoc) {
  std::vector<int64_t> stat;
  int rc = ReadStat(t, &stat);
  if (rc != SQLITE_OK) return rc;
  int64_t nbyte = stat.back();  // SQLite keeps the last column's total
  *ndoc = stat[0];
  if (*ndoc <= 0 || nbyte <= 0) return SQLITE_CORRUPT_VTAB;
  *pages = static_cast<int>((nbyte / *ndoc + pgsz) / pgsz);
  return SQLITE_OK;
}

}  // namespace

int SelectDeferred(FtsTable* t, const Expr* root, int langid,
                   const std::vector<const Expr*>& phrases,
                   const std::vector<std::vector<Hits>>& toks,
                   const std::vector<std::vector<int64_t>>& ovfl, std::vector<bool>* deferred,
                   std::vector<std::vector<uint32_t>>* partial, int64_t* ndoc) {
  deferred->assign(phrases.size(), false);
  partial->assign(phrases.size(), {});
  size_t ntoken = 0;
  for (const Expr* p : phrases) ntoken += p->tokens.size();
  if (!t->fts4 || t->external_content || ntoken < 2) return SQLITE_OK;
  std::vector<TokenCost> tc;
  std::vector<const Expr*> groups = {nullptr};
  Weigh(root, nullptr, &tc, &groups);
  int pgsz = 0;
  int rc = PageSize(t, &pgsz);
  for (size_t i = 0; rc == SQLITE_OK && i < tc.size(); ++i) {
    tc[i].ovfl = ovfl[tc[i].phrase][tc[i].token];
    if (tc[i].ovfl < 0) {
      rc = TokenOverflow(t, langid, phrases[tc[i].phrase]->tokens[tc[i].token], pgsz, &tc[i].ovfl);
    }
  }
  if (rc != SQLITE_OK) return rc;
  std::vector<std::vector<bool>> tok_deferred(phrases.size()), loaded(phrases.size());
  for (size_t i = 0; i < phrases.size(); ++i) {
    tok_deferred[i].assign(phrases[i]->tokens.size(), false);
    loaded[i].assign(phrases[i]->tokens.size(), false);
  }
  int pages = 0;
  for (const Expr* g : groups) {
    int64_t ovfl = 0;
    int n = 0;
    for (const TokenCost& c : tc) {
      if (c.group != g) continue;
      ovfl += c.ovfl;
      ++n;
    }
    if (ovfl == 0 || n < 2) continue;
    if (pages == 0 && (rc = RowPages(t, pgsz, &pages, ndoc)) != SQLITE_OK) return rc;
    int64_t est = 0;
    int64_t load4 = 1;
    for (int ii = 0; ii < n; ++ii) {
      TokenCost* best = nullptr;
      for (TokenCost& c : tc) {
        if (!c.done && c.group == g && (best == nullptr || c.ovfl < best->ovfl)) best = &c;
      }
      const Expr* ph = phrases[best->phrase];
      if (ii > 0 && best->ovfl >= ((est + load4 / 4 - 1) / (load4 / 4)) * pages) {
        tok_deferred[best->phrase][best->token] = true;
      } else {
        if (ii < 12) load4 *= 4;
        if (ii == 0 || (ph->tokens.size() > 1 && ii != n - 1)) {
          loaded[best->phrase][best->token] = true;
          int64_t count = LoadedDocs(ph, toks[best->phrase], loaded[best->phrase]);
          if (ii == 0 || count < est) est = count;
        }
      }
      best->done = true;
    }
  }
  for (size_t i = 0; i < phrases.size(); ++i) {
    size_t n =
        static_cast<size_t>(std::count(tok_deferred[i].begin(), tok_deferred[i].end(), true));
    (*deferred)[i] = n > 0 && n == tok_deferred[i].size();
    if (n > 0 && n < tok_deferred[i].size()) {
      (*partial)[i] = PartialTotals(phrases[i], toks[i], tok_deferred[i], t->ncol());
    }
  }
  return SQLITE_OK;
}

}  // namespace basalt::fts
