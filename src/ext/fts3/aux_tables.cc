// Two helper virtual tables:
//   fts3tokenize(TOKENIZER [, ARG...]): CREATE TABLE x(input, token, start,
//     end, position); WHERE input = 'text' gives one row per token (no
//     input constraint: no rows). Also usable by its own name.
//   fts4aux([DB,] TABLE): CREATE TABLE x(term, col, documents, occurrences,
//     languageid HIDDEN); per term of TABLE's main index, a '*' row (all
//     columns) and one row per column it occurs in.
#include <map>

#include "ext/fts3/aux_internal.h"

namespace basalt::fts {
namespace {

struct TokTable {
  sqlite3_vtab base{};
  Tokenizer tok;
};
struct TokRow {
  std::string token;
  int start, end, pos;
};
struct TokCursor {
  sqlite3_vtab_cursor base{};
  std::string input;
  std::vector<TokRow> rows;
  size_t at = 0;
};

int TokConnect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
               char** err) {
  auto* reg = static_cast<TokenizerRegistry*>(aux);
  std::vector<std::string> args;
  for (int i = 3; i < argc; ++i) {
    std::string a = argv[i];
    if (a.size() >= 2 && (a[0] == '\'' || a[0] == '"') && a.back() == a[0]) {
      a = a.substr(1, a.size() - 2);
    }
    args.push_back(a);
  }
  std::string name = args.empty() ? "simple" : args[0];
  const sqlite3_tokenizer_module* m = reg->Find(name);
  if (m == nullptr) {
    *err = sqlite3_mprintf("unknown tokenizer: %s", name.c_str());
    return SQLITE_ERROR;
  }
  auto t = std::make_unique<TokTable>();
  std::vector<std::string> targs(args.empty() ? args.end() : args.begin() + 1, args.end());
  int rc = t->tok.Create(m, targs);
  if (rc != SQLITE_OK) return rc;
  rc = sqlite3_declare_vtab(db, "CREATE TABLE x(input, token, start, end, position)");
  if (rc != SQLITE_OK) return rc;
  *out = &t.release()->base;
  return SQLITE_OK;
}
int TokDisconnect(sqlite3_vtab* v) {
  delete reinterpret_cast<TokTable*>(v);
  return SQLITE_OK;
}
int TokBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->idxNum = 0;
  info->estimatedCost = 1000000;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& c = info->aConstraint[i];
    if (c.usable && c.iColumn == 0 && c.op == SQLITE_INDEX_CONSTRAINT_EQ) {
      info->idxNum = 1;
      info->aConstraintUsage[i].argvIndex = 1;
      info->aConstraintUsage[i].omit = 1;
      info->estimatedCost = 1;
      break;
    }
  }
  return SQLITE_OK;
}
int TokOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new TokCursor())->base;
  return SQLITE_OK;
}
int TokClose(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<TokCursor*>(c);
  return SQLITE_OK;
}
int TokFilter(sqlite3_vtab_cursor* vc, int idx, const char*, int argc, sqlite3_value** argv) {
  auto* c = reinterpret_cast<TokCursor*>(vc);
  auto* t = reinterpret_cast<TokTable*>(vc->pVtab);
  c->rows.clear();
  c->at = 0;
  if (idx != 1 || argc < 1) return SQLITE_OK;
  const char* z = reinterpret_cast<const char*>(sqlite3_value_text(argv[0]));
  c->input = z ? std::string(z, sqlite3_value_bytes(argv[0])) : std::string();
  return t->tok.Run(c->input, 0, [&](std::string_view tok, int s, int e, int p) {
    c->rows.push_back(TokRow{std::string(tok), s, e, p});
    return true;
  });
}
int TokNext(sqlite3_vtab_cursor* vc) {
  ++reinterpret_cast<TokCursor*>(vc)->at;
  return SQLITE_OK;
}
int TokEof(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<TokCursor*>(vc);
  return c->at >= c->rows.size();
}
int TokColumn(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<TokCursor*>(vc);
  const TokRow& r = c->rows[c->at];
  switch (col) {
    case 0:
      sqlite3_result_text(ctx, c->input.data(), static_cast<int>(c->input.size()),
                          SQLITE_TRANSIENT);
      break;
    case 1:
      sqlite3_result_text(ctx, r.token.data(), static_cast<int>(r.token.size()), SQLITE_TRANSIENT);
      break;
    case 2:
      sqlite3_result_int(ctx, r.start);
      break;
    case 3:
      sqlite3_result_int(ctx, r.end);
      break;
    default:
      sqlite3_result_int(ctx, r.pos);
      break;
  }
  return SQLITE_OK;
}
int TokRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(reinterpret_cast<TokCursor*>(vc)->at) + 1;
  return SQLITE_OK;
}

const sqlite3_module kTokModule = {
    0,        TokConnect, TokConnect, TokBestIndex, TokDisconnect, TokDisconnect,
    TokOpen,  TokClose,   TokFilter,  TokNext,      TokEof,        TokColumn,
    TokRowid, nullptr,    nullptr,    nullptr,      nullptr,       nullptr,
    nullptr,  nullptr,    nullptr,    nullptr,      nullptr,       nullptr};

// fts4aux: reads the segments of another table through an FtsTable that
// only names it.
struct AuxRow {
  std::string term;
  int col;  // -1: '*'
  int64_t docs, occurrences;
};
struct AuxTable {
  sqlite3_vtab base{};
  FtsTable fts;
};
struct AuxCursor {
  sqlite3_vtab_cursor base{};
  std::vector<AuxRow> rows;
  size_t at = 0;
};

int AuxConnect(sqlite3* db, void*, int argc, const char* const* argv, sqlite3_vtab** out,
               char** err) {
  if (argc != 4 && argc != 5) {
    *err = sqlite3_mprintf("invalid arguments to fts4aux constructor");
    return SQLITE_ERROR;
  }
  auto t = std::make_unique<AuxTable>();
  t->fts.db = db;
  t->fts.schema = argc == 5 ? argv[3] : argv[1];
  std::string name = argv[argc - 1];
  if (name.size() >= 2 && (name[0] == '\'' || name[0] == '"') && name.back() == name[0]) {
    name = name.substr(1, name.size() - 2);
  }
  t->fts.name = name;
  int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(term, col, documents, occurrences, languageid HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  *out = &t.release()->base;
  return SQLITE_OK;
}
int AuxDisconnect(sqlite3_vtab* v) {
  delete reinterpret_cast<AuxTable*>(v);
  return SQLITE_OK;
}
int AuxBestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 20000;
  return SQLITE_OK;
}
int AuxOpen(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new AuxCursor())->base;
  return SQLITE_OK;
}
int AuxClose(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<AuxCursor*>(c);
  return SQLITE_OK;
}
int AuxFilter(sqlite3_vtab_cursor* vc, int, const char*, int, sqlite3_value**) {
  auto* c = reinterpret_cast<AuxCursor*>(vc);
  FtsTable* t = &reinterpret_cast<AuxTable*>(vc->pVtab)->fts;
  c->rows.clear();
  c->at = 0;
  std::vector<SegInfo> segs;
  int rc = LoadSegments(t, 0, kMaxLevel - 1, &segs);
  if (rc != SQLITE_OK) return rc;
  std::map<std::string, std::vector<Doclist>> terms;
  for (const auto& g : segs) {
    rc = ScanSegment(t, g, "", true, [&](const std::string& term, std::string_view dl) {
      auto& v = terms[term];
      v.emplace_back();
      return DecodeDoclist(dl, false, &v.back()) ? SQLITE_OK : SQLITE_CORRUPT_VTAB;
    });
    if (rc != SQLITE_OK) return rc;
  }
  for (auto& [term, lists] : terms) {
    std::vector<const Doclist*> ptrs;
    for (auto& l : lists) ptrs.push_back(&l);
    std::map<int, std::pair<int64_t, int64_t>> per_col;
    int64_t docs = 0, occ = 0;
    for (const auto& e : MergeDoclists(ptrs, false, true)) {
      std::vector<Position> ps;
      DecodePositions(e.pos, &ps);
      std::map<int, int64_t> in_doc;
      for (const auto& p : ps) ++in_doc[p.col];
      ++docs;
      occ += static_cast<int64_t>(ps.size());
      for (const auto& [col, n] : in_doc) {
        per_col[col].first += 1;
        per_col[col].second += n;
      }
    }
    if (docs == 0) continue;
    c->rows.push_back(AuxRow{term, -1, docs, occ});
    for (const auto& [col, v] : per_col) c->rows.push_back(AuxRow{term, col, v.first, v.second});
  }
  return SQLITE_OK;
}
int AuxNext(sqlite3_vtab_cursor* vc) {
  ++reinterpret_cast<AuxCursor*>(vc)->at;
  return SQLITE_OK;
}
int AuxEof(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<AuxCursor*>(vc);
  return c->at >= c->rows.size();
}
int AuxColumn(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<AuxCursor*>(vc);
  const AuxRow& r = c->rows[c->at];
  switch (col) {
    case 0:
      sqlite3_result_text(ctx, r.term.data(), static_cast<int>(r.term.size()), SQLITE_TRANSIENT);
      break;
    case 1:
      if (r.col < 0) {
        sqlite3_result_text(ctx, "*", 1, SQLITE_STATIC);
      } else {
        sqlite3_result_int(ctx, r.col);
      }
      break;
    case 2:
      sqlite3_result_int64(ctx, r.docs);
      break;
    case 3:
      sqlite3_result_int64(ctx, r.occurrences);
      break;
    default:
      sqlite3_result_int(ctx, 0);
      break;
  }
  return SQLITE_OK;
}
int AuxRowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(reinterpret_cast<AuxCursor*>(vc)->at) + 1;
  return SQLITE_OK;
}

const sqlite3_module kAuxModule = {
    0,        AuxConnect, AuxConnect, AuxBestIndex, AuxDisconnect, AuxDisconnect,
    AuxOpen,  AuxClose,   AuxFilter,  AuxNext,      AuxEof,        AuxColumn,
    AuxRowid, nullptr,    nullptr,    nullptr,      nullptr,       nullptr,
    nullptr,  nullptr,    nullptr,    nullptr,      nullptr,       nullptr};

}  // namespace

int RegisterAuxTables(sqlite3* db, TokenizerRegistry* reg) {
  int rc = sqlite3_create_module(db, "fts4aux", &kAuxModule, nullptr);
  if (rc == SQLITE_OK) rc = sqlite3_create_module(db, "fts3tokenize", &kTokModule, reg);
  return rc;
}

}  // namespace basalt::fts
