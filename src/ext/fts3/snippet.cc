// snippet(T, start, end, ellipsis, column, tokens): see aux.cc for the
// scoring. With tokens < 0 each fragment has -tokens tokens; otherwise
// `tokens` are shared between the fragments. Fragments are added (up to
// four) until every phrase found in the considered columns is covered.
#include <cstdlib>

#include "ext/fts3/aux_internal.h"

namespace basalt::fts {
namespace {

struct Fragment {
  int col = 0;
  int pos = 0;
  uint64_t covered = 0;
  uint64_t hlmask = 0;
};

// The best window of n tokens in one column; returns its score.
int BestWindow(const std::vector<std::vector<int>>& ph, const std::vector<int>& ntok, int n,
               uint64_t covered_before, Fragment* best) {
  std::vector<int> starts = {0};
  // Candidate starts: each phrase position >= n, as the window's last token.
  std::vector<int> ends;
  for (const auto& v : ph) {
    for (int p : v) {
      if (p >= n) ends.push_back(p);
    }
  }
  std::sort(ends.begin(), ends.end());
  ends.erase(std::unique(ends.begin(), ends.end()), ends.end());
  for (int e : ends) starts.push_back(e - n + 1);
  int best_score = -1;
  for (int s : starts) {
    int score = 0;
    uint64_t cover = 0, hl = 0;
    for (size_t i = 0; i < ph.size(); ++i) {
      uint64_t bit = uint64_t{1} << (i % 64);
      for (int p : ph[i]) {
        if (p < s || p >= s + n) continue;
        score += ((cover | covered_before) & bit) ? 1 : 1000;
        cover |= bit;
        for (int j = 0; j < ntok[i] && j < n; ++j) hl |= (uint64_t{1} << (p - s)) >> j;
      }
    }
    if (score > best_score) {
      best_score = score;
      best->pos = s;
      best->hlmask = hl;
      best->covered = cover;
    }
  }
  return best_score;
}

struct Tok {
  int start, end, pos;
};

void FragmentText(FtsCursor* c, const Fragment& f, int index, bool last, int n,
                  const std::string& open, const std::string& close, const std::string& ellipsis,
                  std::string* out) {
  if (ColumnIsNull(c, f.col)) return;
  std::string doc = ColumnText(c, f.col);
  std::vector<Tok> toks;
  c->table->tokenizer.Run(doc, c->langid, [&](std::string_view, int s, int e, int p) {
    toks.push_back(Tok{s, e, p});
    return true;
  });
  int pos = f.pos;
  uint64_t hl = f.hlmask;
  bool shifted = false;
  int end = 0;
  size_t i = 0;
  for (; i < toks.size(); ++i) {
    const Tok& tk = toks[i];
    if (tk.pos < pos) continue;
    if (!shifted) {
      shifted = true;
      if (hl != 0) {
        int left = 0, right = 0;
        while (!(hl & (uint64_t{1} << left))) ++left;
        while (!(hl & (uint64_t{1} << (n - 1 - right)))) ++right;
        int desired = (left - right) / 2;
        if (desired > 0) {
          int after = static_cast<int>(toks.size() - i);  // tokens from here on
          int shift = std::min(desired, after - n);
          if (shift > 0) {
            pos += shift;
            hl >>= shift;
          }
        }
      }
      if (pos > 0 || index > 0) {
        *out += ellipsis;
      } else if (tk.start > 0) {
        *out += doc.substr(0, tk.start);
      }
      if (tk.pos < pos) continue;
    }
    if (tk.pos >= pos + n) {
      if (last) *out += ellipsis;
      return;
    }
    bool h = (hl & (uint64_t{1} << (tk.pos - pos))) != 0;
    if (tk.pos > pos) *out += doc.substr(end, tk.start - end);
    if (h) *out += open;
    *out += doc.substr(tk.start, tk.end - tk.start);
    if (h) *out += close;
    end = tk.end;
  }
  *out += doc.substr(end);
}

}  // namespace

void SnippetFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  if (argc > 6) {
    sqlite3_result_error(ctx, "wrong number of arguments to function snippet()", -1);
    return;
  }
  FtsCursor* c = CursorArg(ctx, argv[0], "snippet");
  if (c == nullptr) return;
  auto text = [&](int i, const char* def) {
    if (argc <= i) return std::string(def);
    const char* z = reinterpret_cast<const char*>(sqlite3_value_text(argv[i]));
    return z ? std::string(z) : std::string();
  };
  std::string open = text(1, "<b>"), close = text(2, "</b>"), ell = text(3, "<b>...</b>");
  int col = argc > 4 ? sqlite3_value_int(argv[4]) : -1;
  int ntoken = argc > 5 ? sqlite3_value_int(argv[5]) : 15;
  if (ntoken != 0 && c->table->contentless) {  // SQLite cannot read the row's text
    sqlite3_result_error_code(ctx, SQLITE_ERROR);
    return;
  }
  if (!c->expr || ntoken == 0) {
    sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
    return;
  }
  ntoken = std::max(-64, std::min(64, ntoken));
  FtsTable* t = c->table;
  std::vector<int> ntok;
  for (int i = 0; i < c->result.naux; ++i) {
    ntok.push_back(static_cast<int>(c->result.phrases[i]->tokens.size()));
  }
  std::vector<std::vector<std::vector<int>>> by_col(t->ncol());
  // Only the columns considered are read (reading has side effects, as in
  // SQLite).
  for (int k = 0; k < t->ncol(); ++k) {
    if (col < 0 || k == col) by_col[k] = PhraseLastPositions(c, k);
  }
  std::vector<Fragment> frags;
  int nf = 0;
  for (int count = 1;; ++count) {
    nf = ntoken >= 0 ? (ntoken + count - 1) / count : -ntoken;
    frags.assign(count, Fragment());
    uint64_t covered = 0, seen = 0;
    for (int s = 0; s < count; ++s) {
      int best = -1;
      for (int k = 0; k < t->ncol(); ++k) {
        if (col >= 0 && k != col) continue;
        for (size_t i = 0; i < by_col[k].size(); ++i) {
          if (!by_col[k][i].empty()) seen |= uint64_t{1} << (i % 64);
        }
        Fragment f;
        f.col = k;
        int score = BestWindow(by_col[k], ntok, nf, covered, &f);
        if (score > best) {
          frags[s] = f;
          best = score;
        }
      }
      covered |= frags[s].covered;
    }
    if ((covered & seen) == seen || count == 4) break;
  }
  std::string out;
  for (size_t i = 0; i < frags.size(); ++i) {
    FragmentText(c, frags[i], static_cast<int>(i), i + 1 == frags.size(), nf, open, close, ell,
                 &out);
  }
  sqlite3_result_text(ctx, out.c_str(), static_cast<int>(out.size()), SQLITE_TRANSIENT);
}

}  // namespace basalt::fts
