// The fts5 cursor's row caches and rank function (cursor.h).
#include <algorithm>

#include "ext/fts5/cursor.h"

namespace basalt::fts5 {

Cursor::~Cursor() { ClearAux(); }

void Cursor::ClearAux() {
  for (AuxData& a : aux) {
    if (a.destroy) a.destroy(a.p);
  }
  aux.clear();
}

void Cursor::ResetRow() {
  row_loaded = false;
  docsize_loaded = false;
  insts_loaded = false;
  row_pos_loaded = false;
}

int Cursor::LoadRow() {
  if (mode == kScan || mode == kLookup) return SQLITE_OK;
  if (row_loaded) return SQLITE_OK;
  int rc = SQLITE_OK;
  if (!row) {
    std::string col =
        tab->cfg.content == Content::kExternal ? QuoteIdent(tab->cfg.content_rowid) : "id";
    rc = row.Prepare(tab->cfg.db, tab->ContentSelect() + " WHERE T." + col + "=?");
    if (rc != SQLITE_OK) return rc;
  } else {
    sqlite3_reset(row);
  }
  sqlite3_bind_int64(row, 1, rowid);
  rc = sqlite3_step(row);
  row_found = rc == SQLITE_ROW;
  row_loaded = true;
  if (!row_found) {
    rc = sqlite3_reset(row);
    return rc == SQLITE_OK && tab->cfg.content == Content::kNormal ? SQLITE_CORRUPT_VTAB : rc;
  }
  return SQLITE_OK;
}

sqlite3_value* Cursor::ColumnValue(int col) {
  if (mode == kScan || mode == kLookup) {
    return tab->cfg.content == Content::kNone ? nullptr : sqlite3_column_value(scan, col + 1);
  }
  return row_found ? sqlite3_column_value(row, col + 1) : nullptr;
}

int Cursor::PhraseCount() const {
  if (query_phrase != nullptr) return 1;
  return expr ? static_cast<int>(expr->phrases.size()) : 0;
}

const Phrase* Cursor::PhraseAt(int i) const {
  if (i < 0 || i >= PhraseCount()) return nullptr;
  return query_phrase != nullptr ? query_phrase : expr->phrases[i].get();
}

std::span<const uint64_t> Cursor::PhrasePositions(int phrase) {
  const Phrase* p = PhraseAt(phrase);
  if (p == nullptr || p->negated) return {};
  if (tab->cfg.detail == Detail::kFull) return p->hits.Find(rowid);
  // The index has no offsets: a matching phrase's positions come from the
  // row's text (none for a contentless table).
  if (tab->cfg.content == Content::kNone) return {};
  if (!std::binary_search(p->hits.rowids.begin(), p->hits.rowids.end(), rowid)) return {};
  if (LoadRowPositions() != SQLITE_OK) return {};
  return row_pos[phrase];
}

namespace {
struct RowTokCtx {
  Cursor* c;
  int col;
  int pos = -1;
};

int OnRowToken(void* ctx, int flags, const char* t, int n, int, int) {
  auto* x = static_cast<RowTokCtx*>(ctx);
  if ((flags & FTS5_TOKEN_COLOCATED) == 0 || x->pos < 0) ++x->pos;
  std::string_view tok(t, n > kMaxTokenSize ? kMaxTokenSize : n);
  Cursor* c = x->c;
  for (int i = 0; i < c->PhraseCount(); ++i) {
    const Phrase* p = c->PhraseAt(i);
    if (p->tokens.size() != 1) continue;
    const PhraseToken& pt = p->tokens[0];
    bool match = pt.prefix ? tok.substr(0, pt.text.size()) == pt.text : tok == pt.text;
    if (!match) continue;
    if (!p->cols.empty() && !std::binary_search(p->cols.begin(), p->cols.end(), x->col)) continue;
    if (p->caret && x->pos != 0) continue;
    auto& v = c->row_pos[i];
    uint64_t val = (uint64_t(x->col) << 32) | uint64_t(x->pos);
    if (v.empty() || v.back() != val) v.push_back(val);
  }
  return SQLITE_OK;
}
}  // namespace

int Cursor::LoadRowPositions() {
  if (row_pos_loaded) return SQLITE_OK;
  row_pos.assign(PhraseCount(), {});
  int rc = LoadRow();
  for (int col = 0; rc == SQLITE_OK && col < tab->cfg.ncol(); ++col) {
    if (tab->cfg.unindexed[col]) continue;
    sqlite3_value* v = ColumnValue(col);
    if (v == nullptr) continue;
    RowTokCtx ctx{this, col};
    const char* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
    rc = tab->cfg.Tokenize(FTS5_TOKENIZE_AUX, t, sqlite3_value_bytes(v), &ctx, &OnRowToken);
  }
  row_pos_loaded = rc == SQLITE_OK;
  return rc;
}

int Cursor::LoadInsts() {
  if (insts_loaded) return SQLITE_OK;
  insts.clear();
  std::vector<std::pair<uint64_t, int>> all;
  int n = PhraseCount();
  for (int i = 0; i < n; ++i) {
    for (uint64_t v : PhrasePositions(i)) all.emplace_back(v, i);
  }
  std::sort(all.begin(), all.end());
  for (auto& [v, i] : all) {
    insts.push_back({i, static_cast<int>(v >> 32), static_cast<int>(v & 0xffffffffu)});
  }
  insts_loaded = true;
  return SQLITE_OK;
}

namespace {
int CountToken(void* ctx, int flags, const char*, int, int, int) {
  int* n = static_cast<int*>(ctx);
  if ((flags & FTS5_TOKEN_COLOCATED) == 0 || *n == 0) ++*n;
  return SQLITE_OK;
}
}  // namespace

int Cursor::LoadDocsize() {
  if (docsize_loaded) return SQLITE_OK;
  int rc;
  if (tab->cfg.columnsize) {
    bool found;
    rc = tab->DocSize(rowid, &docsize, &found);
    if (rc == SQLITE_OK && !found) rc = SQLITE_CORRUPT_VTAB;
  } else {
    docsize.assign(tab->cfg.ncol(), 0);
    rc = LoadRow();
    for (int i = 0; rc == SQLITE_OK && i < tab->cfg.ncol(); ++i) {
      if (tab->cfg.unindexed[i]) continue;
      sqlite3_value* v = ColumnValue(i);
      if (v == nullptr) continue;
      const char* t = reinterpret_cast<const char*>(sqlite3_value_text(v));
      rc =
          tab->cfg.Tokenize(FTS5_TOKENIZE_AUX, t, sqlite3_value_bytes(v), &docsize[i], &CountToken);
    }
  }
  docsize_loaded = rc == SQLITE_OK;
  return rc;
}

int Cursor::FindRank(std::string* err) {
  if (rank != nullptr) return SQLITE_OK;
  if (rank_fn.empty()) {
    rank_fn = tab->cfg.rank;
    rank_args = tab->cfg.rank_args;
  }
  rank = tab->cfg.global->FindFunction(rank_fn.c_str());
  if (rank == nullptr) {
    *err = "no such function: " + rank_fn;
    return SQLITE_ERROR;
  }
  rank_vals.clear();
  if (!rank_args.empty()) {
    int rc = rank_arg_stmt.Prepare(tab->cfg.db, "SELECT " + rank_args);
    if (rc == SQLITE_OK && sqlite3_step(rank_arg_stmt) == SQLITE_ROW) {
      for (int i = 0; i < sqlite3_column_count(rank_arg_stmt); ++i) {
        rank_vals.push_back(sqlite3_column_value(rank_arg_stmt, i));
      }
    } else {
      *err = sqlite3_errmsg(tab->cfg.db);
      rank = nullptr;
      return rc == SQLITE_OK ? SQLITE_ERROR : rc;
    }
  }
  return SQLITE_OK;
}

void RegisterCursor(Global* g, Cursor* c) {
  c->id = ++g->next_cursor_id;
  g->cursors[c->id] = c;
}
void UnregisterCursor(Global* g, Cursor* c) { g->cursors.erase(c->id); }
Cursor* FindCursor(Global* g, int64_t id) {
  auto it = g->cursors.find(id);
  return it == g->cursors.end() ? nullptr : static_cast<Cursor*>(it->second);
}

}  // namespace basalt::fts5
