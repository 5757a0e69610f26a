// snippet(), offsets() and optimize(): the functions that take an FTS
// table's hidden table-named column, which carries the cursor as a pointer
// value of type "fts3cursor". matchinfo() is in matchinfo.cc.
//
// A phrase's position, as these functions count it, is that of its last
// token. snippet() picks, for up to four fragments, the window of tokens
// scoring best (1000 for each phrase not yet covered, 1 for each further
// hit; the first best window wins), shifts it right to centre the
// highlighted tokens, and prints it with the markers.
#include <cstring>

#include "ext/fts3/aux_internal.h"

namespace basalt::fts {

int LoadRow(FtsCursor* c) {
  if (c->row_ready) return SQLITE_OK;
  FtsTable* t = c->table;
  c->row_found = false;
  if (t->contentless) {
    c->row_ready = true;
    return SQLITE_OK;
  }
  if (c->row.get() == nullptr) {
    int rc = c->row.Prepare(t->db, ContentSelect(t));
    if (rc != SQLITE_OK) return rc;
  }
  sqlite3_reset(c->row);
  sqlite3_bind_int64(c->row, 1, c->docid);
  int rc = sqlite3_step(c->row);
  c->row_ready = true;
  if (rc == SQLITE_ROW) {
    c->row_found = true;
    return SQLITE_OK;
  }
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

std::string ColumnText(FtsCursor* c, int col) {
  sqlite3_stmt* s = nullptr;
  int idx = col;
  if (c->plan >= kPlanFullText) {
    if (LoadRow(c) != SQLITE_OK || !c->row_found) return std::string();
    s = c->row.get();
  } else {
    if (c->table->contentless) return std::string();
    s = c->scan.get();
    idx = col + 1;
  }
  const char* z = reinterpret_cast<const char*>(sqlite3_column_text(s, idx));
  return z ? std::string(z, sqlite3_column_bytes(s, idx)) : std::string();
}

bool ColumnIsNull(FtsCursor* c, int col) {
  if (c->plan >= kPlanFullText) {
    if (LoadRow(c) != SQLITE_OK || !c->row_found) return true;
    return sqlite3_column_type(c->row, col) == SQLITE_NULL;
  }
  if (c->table->contentless) return true;
  return sqlite3_column_type(c->scan, col + 1) == SQLITE_NULL;
}

FtsCursor* CursorArg(sqlite3_context* ctx, sqlite3_value* v, const char* fn) {
  auto* c = static_cast<FtsCursor*>(sqlite3_value_pointer(v, "fts3cursor"));
  if (c == nullptr) {
    std::string m = std::string("illegal first argument to ") + fn;
    sqlite3_result_error(ctx, m.c_str(), -1);
  }
  return c;
}

std::vector<std::vector<int>> PhraseLastPositions(FtsCursor* c, int col) {
  std::vector<std::vector<int>> out;
  if (!c->expr) return out;
  out.resize(static_cast<size_t>(c->result.naux));
  for (int i = 0; i < c->result.naux; ++i) c->engine.Poslist(i, col, &out[static_cast<size_t>(i)]);
  return out;
}

namespace {

void OffsetsFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  FtsCursor* c = CursorArg(ctx, argv[0], "offsets");
  if (c == nullptr) return;
  if (c->table->contentless) {  // SQLite cannot read the row's text
    sqlite3_result_error_code(ctx, SQLITE_ERROR);
    return;
  }
  if (!c->expr) {
    sqlite3_result_text(ctx, "", 0, SQLITE_STATIC);
    return;
  }
  FtsTable* t = c->table;
  std::string res;
  for (int col = 0; col < t->ncol(); ++col) {
    auto ph = PhraseLastPositions(c, col);  // read first, as SQLite does
    if (ColumnIsNull(c, col)) continue;
    // (token position, term number) of every hit, in output order.
    std::vector<std::pair<int, int>> items;
    int term = 0;
    for (size_t i = 0; i < ph.size(); ++i) {
      int n = static_cast<int>(c->result.phrases[i]->tokens.size());
      for (int k = 0; k < n; ++k, ++term) {
        for (int last : ph[i]) items.emplace_back(last - (n - 1 - k), term);
      }
    }
    if (items.empty()) continue;
    std::sort(items.begin(), items.end());
    std::string text = ColumnText(c, col);
    size_t at = 0;
    t->tokenizer.Run(text, c->langid, [&](std::string_view, int s, int e, int pos) {
      while (at < items.size() && items[at].first == pos) {
        res += std::to_string(col) + " " + std::to_string(items[at].second) + " " +
               std::to_string(s) + " " + std::to_string(e - s) + " ";
        ++at;
      }
      while (at < items.size() && items[at].first < pos) ++at;
      return at < items.size();
    });
  }
  if (!res.empty()) res.pop_back();
  sqlite3_result_text(ctx, res.c_str(), static_cast<int>(res.size()), SQLITE_TRANSIENT);
}

void OptimizeFunc(sqlite3_context* ctx, int, sqlite3_value** argv) {
  FtsCursor* c = CursorArg(ctx, argv[0], "optimize");
  if (c == nullptr) return;
  bool optimal = false;
  int rc = MergeAll(c->table, &optimal);
  if (rc == SQLITE_OK) {
    sqlite3_result_text(ctx, optimal ? "Index already optimal" : "Index optimized", -1,
                        SQLITE_STATIC);
  } else {
    sqlite3_result_error_code(ctx, rc);
  }
}

const AuxFunction kAux[] = {
    {"snippet", SnippetFunc},
    {"offsets", OffsetsFunc},
    {"matchinfo", MatchinfoFunc},
    {"optimize", OptimizeFunc},
};

}  // namespace

std::span<const AuxFunction> AuxFunctions() { return kAux; }

}  // namespace basalt::fts
