// snippet(table, column, open, close, ellipsis, tokens): a window of at most
// `tokens` tokens of one column, highlighted as highlight() does, with
// `ellipsis` where text is cut off.
//
// Choosing the window, for each candidate column (all when column < 0):
//   1. find the sentence starts: token 0, and every token preceded by
//      '.' or ':' and then whitespace;
//   2. for every phrase instance, score the window centred on the
//      instances it holds (1000 per distinct phrase, 1 per repeat) and the
//      window starting at the last sentence start before the instance
//      (plus 120 at the column's start, else 100), when the column is
//      longer than the window;
//   3. keep the first best score (column order, then instance order).
#include <memory>
#include <new>
#include <vector>

#include "ext/fts5/auxfn/functions.h"

namespace basalt::fts5 {
namespace {

struct SentenceStarts {
  const char* text = nullptr;
  int pos = 0;
  std::vector<int> starts;

  static int OnToken(void* self, int flags, const char*, int, int start, int) {
    auto* s = static_cast<SentenceStarts*>(self);
    if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
    if (s->pos == 0) {
      s->starts.push_back(0);
    } else {
      int i = start - 1;
      char c = 0;
      for (; i >= 0; --i) {
        c = s->text[i];
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') break;
      }
      if (i != start - 1 && (c == '.' || c == ':')) s->starts.push_back(s->pos);
    }
    ++s->pos;
    return SQLITE_OK;
  }
};

struct Window {
  const Fts5ExtensionApi* api;
  Fts5Context* fts;
  int column;
  int doc_size;  // tokens in the column
  int tokens;    // the window's length
  std::vector<unsigned char> seen;

  // Scores the window [first, first + tokens) of the column. With
  // `centred`, also returns where a window centred on its instances starts.
  int Score(int first, int* score, int* centred) {
    std::fill(seen.begin(), seen.end(), 0);
    int count = 0;
    int rc = api->xInstCount(fts, &count);
    int total = 0, first_hit = -1, end_hit = 0;
    const sqlite3_int64 end = static_cast<sqlite3_int64>(first) + tokens;
    for (int i = 0; i < count && rc == SQLITE_OK; ++i) {
      int phrase = 0, col = 0, offset = 0;
      rc = api->xInst(fts, i, &phrase, &col, &offset);
      if (rc == SQLITE_OK && col == column && offset >= first && offset < end) {
        total += seen[phrase] ? 1 : 1000;
        seen[phrase] = 1;
        if (first_hit < 0) first_hit = offset;
        end_hit = offset + api->xPhraseSize(fts, phrase);
      }
    }
    *score = total;
    if (centred != nullptr) {
      sqlite3_int64 adj = first_hit - (tokens - (end_hit - first_hit)) / 2;
      if (adj + tokens > doc_size) adj = doc_size - tokens;
      if (adj < 0) adj = 0;
      *centred = static_cast<int>(adj);
    }
    return rc;
  }
};

struct Best {
  int score = 0;
  int column = 0;
  int start = 0;
  int doc_size = 0;
};

// Steps 1-2 for one column.
int ScoreColumn(Window* w, Best* best) {
  const Fts5ExtensionApi* api = w->api;
  SentenceStarts sentences;
  int text_bytes = 0;
  int rc = api->xColumnText(w->fts, w->column, &sentences.text, &text_bytes);
  if (rc == SQLITE_OK) {
    rc = api->xTokenize(w->fts, sentences.text, text_bytes, &sentences, &SentenceStarts::OnToken);
  }
  if (rc == SQLITE_OK) rc = api->xColumnSize(w->fts, w->column, &w->doc_size);
  int count = 0;
  if (rc == SQLITE_OK) rc = api->xInstCount(w->fts, &count);
  const std::vector<int>& starts = sentences.starts;
  for (int i = 0; rc == SQLITE_OK && i < count; ++i) {
    int phrase = 0, col = 0, offset = 0;
    rc = api->xInst(w->fts, i, &phrase, &col, &offset);
    if (rc != SQLITE_OK || col != w->column) continue;
    if (offset > w->doc_size) return SQLITE_CORRUPT_VTAB;
    int score = 0, centred = 0;
    rc = w->Score(offset, &score, &centred);
    if (rc == SQLITE_OK && score > best->score) *best = {score, w->column, centred, w->doc_size};
    if (rc != SQLITE_OK || starts.empty() || w->doc_size <= w->tokens) continue;
    size_t j = 0;
    while (j + 1 < starts.size() && starts[j + 1] <= offset) ++j;
    if (starts[j] >= offset) continue;
    rc = w->Score(starts[j], &score, nullptr);
    score += starts[j] == 0 ? 120 : 100;
    if (rc == SQLITE_OK && score > best->score) *best = {score, w->column, starts[j], w->doc_size};
  }
  return rc;
}

int Snippet(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_value** argv,
            HighlightWriter* out) {
  const int column = sqlite3_value_int(argv[0]);
  const char* ellipsis = ValueText(argv[3]);
  Window w{api, fts, 0, 0, sqlite3_value_int(argv[4]), {}};
  w.seen.assign(static_cast<size_t>(api->xPhraseCount(fts)), 0);
  Best best;
  best.column = column >= 0 ? column : 0;
  const int columns = api->xColumnCount(fts);
  int rc = SQLITE_OK;
  for (int c = 0; c < columns && rc == SQLITE_OK; ++c) {
    if (column >= 0 && column != c) continue;
    w.column = c;
    rc = ScoreColumn(&w, &best);
  }
  if (rc == SQLITE_OK) rc = api->xColumnText(fts, best.column, &out->text, &out->text_bytes);
  if (rc == SQLITE_OK && best.doc_size == 0)
    rc = api->xColumnSize(fts, best.column, &best.doc_size);
  if (out->text == nullptr) return rc;
  out->inst = MergedInstances(api, fts, best.column);
  if (rc == SQLITE_OK) rc = out->inst.Start();
  out->range_first = best.start;
  out->range_last = best.start + w.tokens - 1;
  if (best.start > 0) out->out += ellipsis;
  // Skip the runs that start before the window (SQLite 3.40 drops a run
  // that straddles the window's start rather than highlighting its tail).
  while (rc == SQLITE_OK && out->inst.first() >= 0 && out->inst.first() < best.start) {
    rc = out->inst.Next();
  }
  if (rc == SQLITE_OK) {
    rc = api->xTokenize(fts, out->text, out->text_bytes, out, &HighlightWriter::OnToken);
  }
  if (out->range_last >= best.doc_size - 1) {
    out->CopyTo(out->text_bytes);
  } else {
    out->out += ellipsis;
  }
  return rc;
}

}  // namespace

void SnippetFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx, int argc,
                     sqlite3_value** argv) {
  if (argc != 5) {
    sqlite3_result_error(ctx, "wrong number of arguments to function snippet()", -1);
    return;
  }
  try {
    HighlightWriter w(MergedInstances(api, fts, 0));
    w.open = ValueText(argv[1]);
    w.close = ValueText(argv[2]);
    int rc = Snippet(api, fts, argv, &w);
    // A NULL column gives NULL, as in SQLite.
    if (rc == SQLITE_OK && w.text != nullptr) {
      sqlite3_result_text(ctx, w.out.c_str(), -1, SQLITE_TRANSIENT);
    }
    ResultErrorCode(ctx, rc);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

}  // namespace basalt::fts5
