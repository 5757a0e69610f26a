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
  if (c->docsize_sql.empty()) {
    c->docsize_sql = "SELECT size FROM " + t->Shadow("_docsize") + " WHERE docid=?";
  }
  int rc = Prep(t, &s, c->docsize_sql);
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

size_t MatchinfoSize(char f, size_t np, size_t ncol) {
  switch (f) {
    case 'p':
    case 'c':
    case 'n':
      return 1;
    case 'a':
    case 'l':
    case 's':
      return ncol;
    case 'x':
      return np * ncol * 3;
    case 'y':
      return np * ncol;
    default:  // 'b'
      return np * ((ncol + 31) / 32);
  }
}

// Fills c->mi_buf for format `fmt` (already checked); per-query values
// only when `global`.
int MatchinfoValues(FtsCursor* c, std::string_view fmt, bool global) {
  FtsTable* t = c->table;
  Engine& en = c->engine;
  const size_t np = static_cast<size_t>(c->result.naux);
  const size_t ncol = static_cast<size_t>(t->ncol());
  uint32_t* out = c->mi_buf.data();
  std::vector<int64_t> stat;
  for (char f : fmt) {
    switch (f) {
      case 'p':
        if (global) out[0] = static_cast<uint32_t>(np);
        break;
      case 'c':
        if (global) out[0] = static_cast<uint32_t>(ncol);
        break;
      case 'n':
      case 'a':
        if (!global) break;
        if (stat.empty() && ReadStat(t, &stat) != SQLITE_OK) stat.assign(ncol + 2, 0);
        if (f == 'n') {
          out[0] = static_cast<uint32_t>(stat[0]);
          break;
        }
        for (size_t k = 0; k < ncol; ++k) {
          uint64_t nd = static_cast<uint64_t>(stat[0]);
          out[k] =
              nd ? static_cast<uint32_t>((static_cast<uint32_t>(stat[k + 1]) + nd / 2) / nd) : 0;
        }
        break;
      case 'l': {
        std::vector<uint32_t> sz;
        int rc = DocSizes(c, &sz);
        if (rc != SQLITE_OK) return rc;
        std::copy(sz.begin(), sz.end(), out);
        break;
      }
      case 'x':
        if (global) {
          for (size_t i = 0; i < np; ++i) {
            const std::vector<uint32_t>& tot = en.Totals(static_cast<int>(i));
            for (size_t k = 0; k < ncol; ++k) {
              out[(i * ncol + k) * 3 + 1] = tot[k * 2];
              out[(i * ncol + k) * 3 + 2] = tot[k * 2 + 1];
            }
          }
          if (en.corrupt()) return SQLITE_CORRUPT_VTAB;
          en.Retest();
        }
        for (size_t i = 0; i < np; ++i) {
          for (size_t k = 0; k < ncol; ++k) {
            out[(i * ncol + k) * 3] = en.PoslistSize(static_cast<int>(i), static_cast<int>(k));
          }
        }
        break;
      case 'y':
      case 'b': {
        std::vector<uint32_t> v(MatchinfoSize(f, np, ncol), 0);
        en.LocalHits(f == 'b', &v);
        std::copy(v.begin(), v.end(), out);
        break;
      }
      case 's': {
        std::vector<int> ntok;
        for (size_t i = 0; i < np; ++i) {
          ntok.push_back(static_cast<int>(c->result.phrases[i]->tokens.size()));
        }
        std::vector<std::vector<int>> last(np);
        for (size_t k = 0; k < ncol; ++k) {
          for (size_t i = 0; i < np; ++i)
            en.Poslist(static_cast<int>(i), static_cast<int>(k), &last[i]);
          out[k] = LongestRun(last, ntok);
        }
        break;
      }
    }
    out += MatchinfoSize(f, np, ncol);
  }
  return SQLITE_OK;
}

}  // namespace

void MatchinfoFunc(sqlite3_context* ctx, int argc, sqlite3_value** argv) {
  FtsCursor* c = CursorArg(ctx, argv[0], "matchinfo");
  if (c == nullptr) return;
  FtsTable* t = c->table;
  std::string_view fmt = "pcx";
  if (argc > 1) {
    const char* z = reinterpret_cast<const char*>(sqlite3_value_text(argv[1]));
    fmt = z ? z : "";
  }
  if (!c->expr) {
    sqlite3_result_blob(ctx, "", 0, SQLITE_STATIC);
    return;
  }
  // As SQLite, the per-query values (p c n a, 'x' totals) are computed when
  // the format differs from the previous call's (which checks it); other
  // calls keep them from the previous result and recompute only the
  // per-row values.
  bool global = !c->mi_valid || c->mi_format != fmt;
  for (char f : global ? fmt : std::string_view()) {
    bool fts4_only = f == 'n' || f == 'a';
    if (std::strchr("pcnalxybs", f) == nullptr || (fts4_only && !t->fts4) ||
        (f == 'l' && !t->has_docsize)) {
      std::string m = "unrecognized matchinfo request: ";
      m.push_back(f);
      sqlite3_result_error(ctx, m.c_str(), -1);
      return;
    }
  }
  const QueryResult& r = c->result;
  size_t np = static_cast<size_t>(r.naux);
  size_t ncol = static_cast<size_t>(t->ncol());
  if (global) {
    size_t n = 0;
    for (char f : fmt) n += MatchinfoSize(f, np, ncol);
    c->mi_buf.assign(n, 0);
  }
  c->mi_valid = true;
  if (global) c->mi_format = fmt;
  int rc = MatchinfoValues(c, fmt, global);
  if (rc != SQLITE_OK) {
    c->mi_valid = false;
    sqlite3_result_error_code(ctx, rc);
    return;
  }
  sqlite3_result_blob(ctx, c->mi_buf.data(), static_cast<int>(c->mi_buf.size() * 4),
                      SQLITE_TRANSIENT);
}

}  // namespace basalt::fts
