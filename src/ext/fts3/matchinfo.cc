// matchinfo(T[, format]): a blob of native-order 32-bit unsigned integers,
// by format character (default "pcx"):
//   p  number of phrases;             c  number of columns;
//   n  number of documents (FTS4);    a  average tokens per column (FTS4);
//   l  tokens of each column of this row (FTS4);
//   x  per phrase and column: hits in this row, hits in all rows, rows hit;
//   y  per phrase and column: hits in this row;
//   b  per phrase: a bitmap of the columns it hits, 32 columns a word;
//   s  per column: the longest run of consecutive query phrases found in
//      order in the column.
#include <cstring>

#include "ext/fts3/aux_internal.h"
#include "ext/fts3/fts_update.h"

namespace basalt::fts {
namespace {

int DocSizes(FtsCursor* c, std::vector<uint32_t>* out) {
  FtsTable* t = c->table;
  out->assign(t->ncol(), 0);
  Stmt s;
  int rc = Prep(t, &s, "SELECT size FROM " + t->Shadow("_docsize") + " WHERE docid=?");
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(s, 1, c->docid);
  if (sqlite3_step(s) != SQLITE_ROW) return SQLITE_CORRUPT_VTAB;
  auto* p = static_cast<const uint8_t*>(sqlite3_column_blob(s, 0));
  const uint8_t* end = p + sqlite3_column_bytes(s, 0);
  for (auto& v : *out) {
    uint64_t x = 0;
    if (p == nullptr || !GetVarint(&p, end, &x)) break;
    v = static_cast<uint32_t>(x);
  }
  return SQLITE_OK;
}

// Longest run of query phrases i, i+1, ... at consecutive offsets.
uint32_t LongestRun(const std::vector<std::vector<int>>& last, const std::vector<int>& ntok) {
  uint32_t best = 0;
  for (size_t i = 0; i < last.size(); ++i) {
    for (int p : last[i]) {
      uint32_t run = 1;
      int at = p;
      for (size_t j = i + 1; j < last.size(); ++j) {
        int want = at + ntok[j];
        if (std::find(last[j].begin(), last[j].end(), want) == last[j].end()) break;
        at = want;
        ++run;
      }
      best = std::max(best, run);
    }
  }
  return best;
}

}  // namespace

void MatchinfoFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  FtsCursor* c = CursorArg(ctx, argv[0], "matchinfo");
  if (c == nullptr) return;
  FtsTable* t = c->table;
  std::string fmt = t->matchinfo_fts3 ? "pcx" : "pcx";
  if (argc > 1) {
    const char* z = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    fmt = z ? z : "";
  }
  if (!c->expr) {
    sqlite3_result_blob(ctx, "", 0, SQLITE_STATIC);
    return;
  }
  for (char f : fmt) {
    bool fts4_only = f == 'n' || f == 'a' || f == 'l';
    if (std::strchr("pcnalxybs", f) == nullptr || (fts4_only && !t->fts4)) {
      std::string m = "unrecognized matchinfo request: ";
      m.push_back(f);
      sqlite3_result_error(ctx, m.c_str(), -1);
      return;
    }
  }
  const QueryResult& r = c->result;
  size_t np = static_cast<size_t>(r.naux);
  int ncol = t->ncol();
  std::vector<int> ntok;
  for (size_t i = 0; i < np; ++i) ntok.push_back(static_cast<int>(r.phrases[i]->tokens.size()));
  // SQLite computes its per-query values (and gathers 'x' totals) when the
  // format differs from the previous call's.
  bool global = !c->mi_valid || c->mi_format != fmt;
  c->mi_valid = true;
  c->mi_format = fmt;
  std::vector<uint32_t> out;
  std::vector<int64_t> stat;
  for (char f : fmt) {
    switch (f) {
      case 'p':
        out.push_back(static_cast<uint32_t>(np));
        break;
      case 'c':
        out.push_back(static_cast<uint32_t>(ncol));
        break;
      case 'n':
      case 'a':
        if (stat.empty() && ReadStat(t, &stat) != SQLITE_OK) stat.assign(ncol + 2, 0);
        if (f == 'n') {
          out.push_back(static_cast<uint32_t>(stat[0]));
        } else {
          for (int k = 0; k < ncol; ++k) {
            uint64_t nd = static_cast<uint64_t>(stat[0]);
            out.push_back(
                nd ? static_cast<uint32_t>((static_cast<uint32_t>(stat[k + 1]) + nd / 2) / nd) : 0);
          }
        }
        break;
      case 'l': {
        std::vector<uint32_t> sz;
        int rc = DocSizes(c, &sz);
        if (rc != SQLITE_OK) {
          sqlite3_result_error_code(ctx, rc);
          return;
        }
        out.insert(out.end(), sz.begin(), sz.end());
        break;
      }
      case 'x':
        if (global) {
          for (size_t i = 0; i < np; ++i) c->engine.Totals(static_cast<int>(i));
          c->engine.Retest();
        }
        for (size_t i = 0; i < np; ++i) {
          const std::vector<uint32_t>& tot = c->engine.Totals(static_cast<int>(i));
          for (int k = 0; k < ncol; ++k) {
            out.push_back(static_cast<uint32_t>(c->engine.Poslist(static_cast<int>(i), k).size()));
            out.push_back(tot[static_cast<size_t>(k) * 2]);
            out.push_back(tot[static_cast<size_t>(k) * 2 + 1]);
          }
        }
        break;
      case 'y':
      case 'b': {
        size_t per = f == 'y' ? static_cast<size_t>(ncol) : static_cast<size_t>((ncol + 31) / 32);
        std::vector<uint32_t> v(np * per, 0);
        c->engine.LocalHits(f == 'b', &v);
        out.insert(out.end(), v.begin(), v.end());
        break;
      }
      case 's':
        for (int k = 0; k < ncol; ++k) {
          std::vector<std::vector<int>> last;
          for (size_t i = 0; i < np; ++i) last.push_back(c->engine.Poslist(static_cast<int>(i), k));
          out.push_back(LongestRun(last, ntok));
        }
        break;
    }
  }
  sqlite3_result_blob(ctx, out.data(), static_cast<int>(out.size() * 4), SQLITE_TRANSIENT);
}

}  // namespace basalt::fts
