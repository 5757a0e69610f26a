// highlight(table, column, open, close): the column's text with `open`
// before and `close` after every run of overlapping phrase instances.
#include <cstring>
#include <new>

#include "ext/fts5/auxfn/functions.h"

namespace basalt::fts5 {

int MergedInstances::Start() {
  int rc = api_->xInstCount(fts_, &inst_count_);
  if (rc != SQLITE_OK) return rc;
  return Next();
}

int MergedInstances::Next() {
  first_ = last_ = -1;
  for (; inst_ < inst_count_; ++inst_) {
    int phrase = 0, column = 0, offset = 0;
    int rc = api_->xInst(fts_, inst_, &phrase, &column, &offset);
    if (rc != SQLITE_OK) return rc;
    if (column != column_) continue;
    const int last = offset + api_->xPhraseSize(fts_, phrase) - 1;
    if (first_ < 0) {
      first_ = offset;
      last_ = last;
    } else if (offset <= last_) {
      if (last > last_) last_ = last;
    } else {
      break;  // a new run starts here; leave it for the next call
    }
  }
  return SQLITE_OK;
}

// Like SQLite's "%.*s" appends, a piece of text stops at an embedded NUL.
void HighlightWriter::CopyTo(int end_byte) {
  if (end_byte <= copied) return;
  const char* from = text + copied;
  const void* nul = std::memchr(from, 0, static_cast<size_t>(end_byte - copied));
  out.append(from, nul ? static_cast<const char*>(nul) : text + end_byte);
}

// One token of the column: positions outside the snippet window are
// skipped; a run's first token gets `open` before it, its last `close`
// after it; the window's last token ends the copy (closing an open run).
// As in SQLite, a window whose last position is <= 0 (a window of one
// token at the start, or a token count <= 0) restricts nothing: the copy
// then runs to the last highlighted token.
int HighlightWriter::OnToken(void* self, int flags, const char*, int, int start, int end) {
  auto* w = static_cast<HighlightWriter*>(self);
  if (flags & FTS5_TOKEN_COLOCATED) return SQLITE_OK;
  const int pos = w->pos++;
  if (w->range_last > 0) {
    if (pos < w->range_first || pos > w->range_last) return SQLITE_OK;
    if (w->range_first > 0 && pos == w->range_first) w->copied = start;
  }
  int rc = SQLITE_OK;
  if (pos == w->inst.first()) {
    w->CopyTo(start);
    w->out += w->open;
    w->copied = start;
  }
  if (pos == w->inst.last()) {
    w->CopyTo(end);
    w->out += w->close;
    w->copied = end;
    rc = w->inst.Next();
  }
  if (w->range_last > 0 && pos == w->range_last) {
    w->CopyTo(end);
    w->copied = end;
    if (pos >= w->inst.first() && pos < w->inst.last()) w->out += w->close;
  }
  return rc;
}

const char* ValueText(sqlite3_value* v) {
  const auto* s = reinterpret_cast<const char*>(sqlite3_value_text(v));
  return s != nullptr ? s : "";
}

void ResultErrorCode(sqlite3_context* ctx, int rc) {
  if (rc != SQLITE_OK) sqlite3_result_error_code(ctx, rc);
}

void HighlightFunction(const Fts5ExtensionApi* api, Fts5Context* fts, sqlite3_context* ctx,
                       int argc, sqlite3_value** argv) {
  if (argc != 3) {
    sqlite3_result_error(ctx, "wrong number of arguments to function highlight()", -1);
    return;
  }
  const int column = sqlite3_value_int(argv[0]);
  try {
    HighlightWriter w(MergedInstances(api, fts, column));
    w.open = ValueText(argv[1]);
    w.close = ValueText(argv[2]);
    int rc = api->xColumnText(fts, column, &w.text, &w.text_bytes);
    if (rc == SQLITE_OK && w.text != nullptr) {
      rc = w.inst.Start();
      if (rc == SQLITE_OK) {
        rc = api->xTokenize(fts, w.text, w.text_bytes, &w, &HighlightWriter::OnToken);
      }
      w.CopyTo(w.text_bytes);
      if (rc == SQLITE_OK) {
        sqlite3_result_text(ctx, w.out.c_str(), -1, SQLITE_TRANSIENT);
      }
    }
    ResultErrorCode(ctx, rc);
  } catch (const std::bad_alloc&) {
    sqlite3_result_error_nomem(ctx);
  }
}

}  // namespace basalt::fts5
