// The fts5vocab module: the terms of an fts5 table's index as rows.
//   fts5vocab(table, type) or fts5vocab(schema, table, type), type one of
//   row       (term, doc, cnt)         per term
//   col       (term, col, doc, cnt)    per term and column
//   instance  (term, doc, col, offset) per occurrence
#include <array>
#include <cctype>
#include <map>
#include <memory>

#include "ext/fts5/module.h"

namespace basalt::fts5 {

std::string TableKey(const std::string& schema, const std::string& name) {
  std::string k = schema + "." + name;
  for (char& c : k) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return k;
}

namespace {

enum VocabType { kRow, kCol, kInstance };

struct VocabTable {
  sqlite3_vtab base{};
  Global* g;
  sqlite3* db;
  std::string schema, table;
  VocabType type;
};

struct VocabCursor {
  sqlite3_vtab_cursor base{};
  // Each output row: term, then up to three integer columns (-1 = NULL).
  std::vector<std::string> terms;
  std::vector<std::array<int64_t, 3>> vals;
  std::vector<std::string> colname;  // col type: the column name per row
  size_t at = 0;
};

std::string Dequote(const char* s) {
  std::string r = s;
  if (r.size() >= 2 && (r[0] == '\'' || r[0] == '"' || r[0] == '`' || r[0] == '[')) {
    char close = r[0] == '[' ? ']' : r[0];
    std::string out;
    for (size_t i = 1; i + 1 < r.size(); ++i) {
      out.push_back(r[i]);
      if (r[i] == close && r[i + 1] == close) ++i;
    }
    (void)close;
    return out;
  }
  return r;
}

int Connect(sqlite3* db, void* aux, int argc, const char* const* argv, sqlite3_vtab** out,
            char** err) {
  // The three-argument form (database, table, type) is for temp tables.
  bool with_db = argc == 6 && sqlite3_stricmp(argv[1], "temp") == 0;
  if (argc != 5 && !with_db) {
    *err = sqlite3_mprintf("wrong number of vtable arguments");
    return SQLITE_ERROR;
  }
  auto t = std::make_unique<VocabTable>();
  t->g = static_cast<Global*>(aux);
  t->db = db;
  t->schema = argc == 6 ? Dequote(argv[3]) : argv[1];
  t->table = Dequote(argv[argc == 6 ? 4 : 3]);
  std::string type = Dequote(argv[argc == 6 ? 5 : 4]);
  const char* decl;
  if (sqlite3_stricmp(type.c_str(), "row") == 0) {
    t->type = kRow;
    decl = "CREATE TABLE vocab(term, doc, cnt)";
  } else if (sqlite3_stricmp(type.c_str(), "col") == 0) {
    t->type = kCol;
    decl = "CREATE TABLE vocab(term, col, doc, cnt)";
  } else if (sqlite3_stricmp(type.c_str(), "instance") == 0) {
    t->type = kInstance;
    decl = "CREATE TABLE vocab(term, doc, col, offset)";
  } else {
    *err = sqlite3_mprintf("fts5vocab: unknown table type: %Q", type.c_str());
    return SQLITE_ERROR;
  }
  int rc = sqlite3_declare_vtab(db, decl);
  if (rc != SQLITE_OK) return rc;
  *out = &t.release()->base;
  return SQLITE_OK;
}

int Disconnect(sqlite3_vtab* v) {
  delete reinterpret_cast<VocabTable*>(v);
  return SQLITE_OK;
}

int BestIndex(sqlite3_vtab*, sqlite3_index_info* info) {
  info->estimatedCost = 100000;
  return SQLITE_OK;
}

int Open(sqlite3_vtab*, sqlite3_vtab_cursor** out) {
  *out = &(new VocabCursor())->base;
  return SQLITE_OK;
}
int Close(sqlite3_vtab_cursor* c) {
  delete reinterpret_cast<VocabCursor*>(c);
  return SQLITE_OK;
}

int Filter(sqlite3_vtab_cursor* vc, int, const char*, int, sqlite3_value**) {
  auto* c = reinterpret_cast<VocabCursor*>(vc);
  auto* vt = reinterpret_cast<VocabTable*>(vc->pVtab);
  c->terms.clear();
  c->vals.clear();
  c->colname.clear();
  c->at = 0;
  auto key = TableKey(vt->schema, vt->table);
  if (vt->g->tables.find(key) == vt->g->tables.end()) {
    // Preparing a statement on the table connects it.
    sqlite3_stmt* s = nullptr;
    std::string sql = "SELECT 1 FROM " + QuoteIdent(vt->schema) + "." + QuoteIdent(vt->table);
    sqlite3_prepare_v2(vt->db, sql.c_str(), -1, &s, nullptr);
    sqlite3_finalize(s);
  }
  auto it = vt->g->tables.find(key);
  if (it == vt->g->tables.end()) {
    sqlite3_free(vt->base.zErrMsg);
    vt->base.zErrMsg =
        sqlite3_mprintf("no such fts5 table: %s.%s", vt->schema.c_str(), vt->table.c_str());
    return SQLITE_ERROR;
  }
  auto* t = static_cast<Table*>(it->second);
  std::vector<std::pair<std::string, RawDoclist>> terms;
  int rc = t->index->ScanTerms(std::string(1, kMainPrefix), &terms);
  if (rc != SQLITE_OK) return rc;
  Detail d = t->cfg.detail;
  std::vector<uint64_t> pos;
  for (auto& [term, dl] : terms) {
    std::string word = term.substr(1);
    std::map<int, std::pair<int64_t, int64_t>> per_col;
    int64_t docs = 0, cnt = 0;
    for (RawEntry& e : dl) {
      ++docs;
      DecodePositions(e.pos, d, &pos);
      if (d == Detail::kNone) {
        if (vt->type == kInstance) {
          c->terms.push_back(word);
          c->vals.push_back({e.rowid, -1, -1});
        }
        continue;
      }
      cnt += static_cast<int64_t>(pos.size());
      int last_col = -1;
      for (uint64_t p : pos) {
        int col = static_cast<int>(p >> 32);
        auto& pc = per_col[col];
        if (col != last_col) ++pc.first;
        ++pc.second;
        last_col = col;
        if (vt->type == kInstance) {
          c->terms.push_back(word);
          c->vals.push_back(
              {e.rowid, col, d == Detail::kFull ? static_cast<int64_t>(p & 0xffffffffu) : -1});
        }
      }
    }
    if (vt->type == kRow) {
      c->terms.push_back(word);
      c->vals.push_back({docs, d == Detail::kFull ? cnt : 0, 0});
    } else if (vt->type == kCol && d == Detail::kNone) {
      c->terms.push_back(word);
      c->colname.push_back(std::string(1, '\0'));  // NULL column name
      c->vals.push_back({docs, 0, 0});
    } else if (vt->type == kCol) {
      for (auto& [col, dc] : per_col) {
        c->terms.push_back(word);
        c->colname.push_back(t->cfg.cols[col]);
        c->vals.push_back({dc.first, d == Detail::kFull ? dc.second : 0, 0});
      }
    }
  }
  return SQLITE_OK;
}

int Next(sqlite3_vtab_cursor* vc) {
  ++reinterpret_cast<VocabCursor*>(vc)->at;
  return SQLITE_OK;
}
int Eof(sqlite3_vtab_cursor* vc) {
  auto* c = reinterpret_cast<VocabCursor*>(vc);
  return c->at >= c->terms.size();
}
int Column(sqlite3_vtab_cursor* vc, sqlite3_context* ctx, int col) {
  auto* c = reinterpret_cast<VocabCursor*>(vc);
  auto* vt = reinterpret_cast<VocabTable*>(vc->pVtab);
  if (col == 0) {
    sqlite3_result_text(ctx, c->terms[c->at].data(), static_cast<int>(c->terms[c->at].size()),
                        SQLITE_TRANSIENT);
    return SQLITE_OK;
  }
  const auto& v = c->vals[c->at];
  if (vt->type == kCol) {
    if (col == 1) {
      const std::string& name = c->colname[c->at];
      if (name != std::string(1, '\0'))
        sqlite3_result_text(ctx, name.c_str(), -1, SQLITE_TRANSIENT);
    } else if (v[col - 2] > 0) {  // zero counts (detail!=full) read as NULL
      sqlite3_result_int64(ctx, v[col - 2]);
    }
    return SQLITE_OK;
  }
  if (vt->type == kInstance && col == 2) {
    auto it = vt->g->tables.find(TableKey(vt->schema, vt->table));
    if (v[1] >= 0 && it != vt->g->tables.end()) {
      const auto* t = static_cast<const Table*>(it->second);
      sqlite3_result_text(ctx, t->cfg.cols[v[1]].c_str(), -1, SQLITE_TRANSIENT);
    }
    return SQLITE_OK;
  }
  int64_t x = v[col - 1];
  if (vt->type == kInstance ? x >= 0 : x > 0) sqlite3_result_int64(ctx, x);
  return SQLITE_OK;
}
int Rowid(sqlite3_vtab_cursor* vc, sqlite3_int64* out) {
  *out = static_cast<sqlite3_int64>(reinterpret_cast<VocabCursor*>(vc)->at + 1);
  return SQLITE_OK;
}

const sqlite3_module kVocab = {2,       Connect, Connect, BestIndex, Disconnect, Disconnect,
                               Open,    Close,   Filter,  Next,      Eof,        Column,
                               Rowid,   nullptr, nullptr, nullptr,   nullptr,    nullptr,
                               nullptr, nullptr, nullptr, nullptr,   nullptr,    nullptr};

}  // namespace

const sqlite3_module* Fts5VocabModule() { return &kVocab; }

}  // namespace basalt::fts5
