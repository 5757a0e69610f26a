// The Fts5ExtensionApi auxiliary functions call, implemented on the fts5
// cursor, and the cursor's row caches.
#include <algorithm>
#include <cstring>

#include "ext/fts5/cursor.h"

namespace basalt::fts5 {
namespace {

Cursor* C(Fts5Context* ctx) { return reinterpret_cast<Cursor*>(ctx); }

void* ApiUserData(Fts5Context* ctx) {
  const AuxFunctionEntry* f = C(ctx)->current_aux;
  return f ? f->user_data : nullptr;
}
int ApiColumnCount(Fts5Context* ctx) { return C(ctx)->tab->cfg.ncol(); }
int ApiRowCount(Fts5Context* ctx, sqlite3_int64* n) {
  Table* t = C(ctx)->tab;
  int rc = t->LoadTotals(false);
  *n = t->total_rows;
  if (rc == SQLITE_OK && t->total_rows <= 0) rc = SQLITE_CORRUPT_VTAB;
  return rc;
}
int ApiColumnTotalSize(Fts5Context* ctx, int col, sqlite3_int64* n) {
  Table* t = C(ctx)->tab;
  int rc = t->LoadTotals(false);
  *n = 0;
  if (rc != SQLITE_OK) return rc;
  if (col < 0) {
    for (int64_t s : t->total_size) *n += s;
  } else if (col < t->cfg.ncol()) {
    *n = t->total_size[col];
  } else {
    return SQLITE_RANGE;
  }
  return SQLITE_OK;
}
int ApiTokenize(Fts5Context* ctx, const char* text, int n, void* user,
                int (*cb)(void*, int, const char*, int, int, int)) {
  return C(ctx)->tab->cfg.Tokenize(FTS5_TOKENIZE_AUX, text, n, user, cb);
}
int ApiPhraseCount(Fts5Context* ctx) { return C(ctx)->PhraseCount(); }
int ApiPhraseSize(Fts5Context* ctx, int i) {
  const Phrase* p = C(ctx)->PhraseAt(i);
  return p ? static_cast<int>(p->tokens.size()) : 0;
}
int ApiInstCount(Fts5Context* ctx, int* n) {
  Cursor* c = C(ctx);
  int rc = c->LoadInsts();
  *n = static_cast<int>(c->insts.size());
  return rc;
}
int ApiInst(Fts5Context* ctx, int i, int* phrase, int* col, int* off) {
  Cursor* c = C(ctx);
  int rc = c->LoadInsts();
  if (rc != SQLITE_OK) return rc;
  if (i < 0 || i >= static_cast<int>(c->insts.size())) return SQLITE_RANGE;
  *phrase = c->insts[i].phrase;
  *col = c->insts[i].col;
  *off = c->insts[i].off;
  return SQLITE_OK;
}
sqlite3_int64 ApiRowid(Fts5Context* ctx) { return C(ctx)->rowid; }
int ApiColumnText(Fts5Context* ctx, int col, const char** z, int* n) {
  Cursor* c = C(ctx);
  *z = nullptr;
  *n = 0;
  if (c->tab->cfg.content == Content::kNone) return SQLITE_OK;
  int rc = c->LoadRow();
  if (rc != SQLITE_OK) return rc;
  // As SQLite, which reads column col+1 of its content row (rowid first):
  // -1 is the rowid, other columns outside the table give no text.
  if (col == -1) {
    c->rowid_text = std::to_string(c->rowid);
    *z = c->rowid_text.c_str();
    *n = static_cast<int>(c->rowid_text.size());
    return SQLITE_OK;
  }
  if (col < 0 || col >= c->tab->cfg.ncol()) return SQLITE_OK;
  sqlite3_value* v = c->ColumnValue(col);
  if (v != nullptr) {
    *z = reinterpret_cast<const char*>(sqlite3_value_text(v));
    *n = sqlite3_value_bytes(v);
  }
  return SQLITE_OK;
}
int ApiColumnSize(Fts5Context* ctx, int col, int* n) {
  Cursor* c = C(ctx);
  int rc = c->LoadDocsize();
  *n = 0;
  if (rc != SQLITE_OK) return rc;
  if (col < 0) {
    for (int s : c->docsize) *n += s;
  } else if (col < c->tab->cfg.ncol()) {
    *n = c->docsize[col];
  } else {
    return SQLITE_RANGE;
  }
  return SQLITE_OK;
}
int ApiQueryPhrase(Fts5Context* ctx, int i, void* user,
                   int (*cb)(const Fts5ExtensionApi*, Fts5Context*, void*)) {
  Cursor* c = C(ctx);
  const Phrase* src = c->PhraseAt(i);
  if (src == nullptr) return SQLITE_RANGE;
  // The phrase's own hits serve unless a NEAR group narrowed them.
  std::unique_ptr<Phrase> fresh;
  if (src->trimmed) {
    fresh = std::make_unique<Phrase>();
    fresh->tokens = src->tokens;
    fresh->cols = src->cols;
    fresh->caret = src->caret;
    int rc = EvalPhrase(c->tab->index.get(), c->tab->cfg, fresh.get());
    if (rc != SQLITE_OK) return rc;
    src = fresh.get();
  }
  Cursor q;
  q.tab = c->tab;
  q.mode = Cursor::kMatch;
  q.query_phrase = src;
  q.current_aux = c->current_aux;
  int rc = SQLITE_OK;
  for (int64_t rowid : src->hits.rowids) {
    q.ResetRow();
    q.rowid = rowid;
    rc = cb(&kExtensionApi, reinterpret_cast<Fts5Context*>(&q), user);
    if (rc != SQLITE_OK) break;
  }
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
int ApiSetAuxdata(Fts5Context* ctx, void* p, void (*destroy)(void*)) {
  Cursor* c = C(ctx);
  for (auto& a : c->aux) {
    if (a.fn == c->current_aux) {
      if (a.destroy) a.destroy(a.p);
      a.p = p;
      a.destroy = destroy;
      return SQLITE_OK;
    }
  }
  c->aux.push_back({c->current_aux, p, destroy});
  return SQLITE_OK;
}
void* ApiGetAuxdata(Fts5Context* ctx, int clear) {
  Cursor* c = C(ctx);
  for (auto& a : c->aux) {
    if (a.fn != c->current_aux) continue;
    void* p = a.p;
    if (clear) {
      a.p = nullptr;
      a.destroy = nullptr;
    }
    return p;
  }
  return nullptr;
}

// Phrase iterators walk the phrase's position array: a = next, b = end.
const uint64_t* Pos(const unsigned char* p) { return reinterpret_cast<const uint64_t*>(p); }
const unsigned char* Bytes(const uint64_t* p) { return reinterpret_cast<const unsigned char*>(p); }

void ApiPhraseNext(Fts5Context*, Fts5PhraseIter* it, int* col, int* off) {
  if (it->a >= it->b) {
    *col = -1;
    *off = -1;
    return;
  }
  uint64_t v = *Pos(it->a);
  *col = static_cast<int>(v >> 32);
  *off = static_cast<int>(v & 0xffffffffu);
  it->a = Bytes(Pos(it->a) + 1);
}
int ApiPhraseFirst(Fts5Context* ctx, int i, Fts5PhraseIter* it, int* col, int* off) {
  std::span<const uint64_t> p = C(ctx)->PhrasePositions(i);
  it->a = it->b = nullptr;
  if (!p.empty()) {
    it->a = Bytes(p.data());
    it->b = Bytes(p.data() + p.size());
  }
  ApiPhraseNext(ctx, it, col, off);
  return SQLITE_OK;
}
void ApiPhraseNextColumn(Fts5Context*, Fts5PhraseIter* it, int* col) {
  if (it->a >= it->b) {
    *col = -1;
    return;
  }
  uint64_t c = *Pos(it->a) >> 32;
  *col = static_cast<int>(c);
  const uint64_t* p = Pos(it->a);
  while (Bytes(p) < it->b && (*p >> 32) == c) ++p;
  it->a = Bytes(p);
}
int ApiPhraseFirstColumn(Fts5Context* ctx, int i, Fts5PhraseIter* it, int* col) {
  std::span<const uint64_t> p = C(ctx)->PhrasePositions(i);
  it->a = it->b = nullptr;
  if (!p.empty()) {
    it->a = Bytes(p.data());
    it->b = Bytes(p.data() + p.size());
  }
  ApiPhraseNextColumn(ctx, it, col);
  return SQLITE_OK;
}

}  // namespace

const Fts5ExtensionApi kExtensionApi = {
    2,
    ApiUserData,
    ApiColumnCount,
    ApiRowCount,
    ApiColumnTotalSize,
    ApiTokenize,
    ApiPhraseCount,
    ApiPhraseSize,
    ApiInstCount,
    ApiInst,
    ApiRowid,
    ApiColumnText,
    ApiColumnSize,
    ApiQueryPhrase,
    ApiSetAuxdata,
    ApiGetAuxdata,
    ApiPhraseFirst,
    ApiPhraseNext,
    ApiPhraseFirstColumn,
    ApiPhraseNextColumn,
};

void InvokeAux(const AuxFunctionEntry* fn, Cursor* c, sqlite3_context* ctx, int argc,
               sqlite3_value** argv) {
  const AuxFunctionEntry* saved = c->current_aux;
  c->current_aux = fn;
  fn->fn(&kExtensionApi, reinterpret_cast<Fts5Context*>(c), ctx, argc, argv);
  c->current_aux = saved;
}

}  // namespace basalt::fts5
