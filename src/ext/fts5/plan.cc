// Query planning and filtering of the fts5 module, and xUpdate.
//
// idxStr lists the constraints passed to xFilter, in argv order:
//   M<col>  a MATCH (or = on the table-named column; col = ncol for all)
//   r       rank MATCH 'function(args)'
//   L<col>  col LIKE pattern, G<col> col GLOB pattern (trigram tables: the
//           pattern's literal runs narrow the rows; SQLite still tests
//           the operator on each)
//   =       rowid equality;  <  rowid upper bound;  >  rowid lower bound
// idxNum (as SQLite 3.40): 0x20 ORDER BY rank, 0x40 ORDER BY rowid, 0x80
// descending.
#include <algorithm>
#include <cstring>

#include "ext/fts5/module.h"

namespace basalt::fts5 {
namespace {

constexpr int kOrderRank = 0x20;
constexpr int kOrderRowid = 0x40;
constexpr int kOrderDesc = 0x80;

Table* Tab(sqlite3_vtab* v) { return reinterpret_cast<Table*>(v); }
Cursor* Cur(sqlite3_vtab_cursor* c) { return reinterpret_cast<Cursor*>(c); }

int StartScan(Cursor* c, bool lookup, int64_t lo, int64_t hi, bool desc) {
  Table* t = c->tab;
  std::string sql;
  std::string col;
  if (t->cfg.content == Content::kNone) {
    if (!t->cfg.columnsize) {
      c->eof = true;
      return SQLITE_OK;
    }
    sql = "SELECT id FROM " + t->cfg.Shadow("_docsize") + " AS T";
    col = "id";
  } else {
    sql = t->ContentSelect();
    col = t->cfg.content == Content::kExternal ? QuoteIdent(t->cfg.content_rowid) : "id";
  }
  if (lookup) {
    sql += " WHERE T." + col + "=?";
  } else {
    sql += " WHERE T." + col + ">=? AND T." + col + "<=? ORDER BY T." + col +
           (desc ? " DESC" : " ASC");
  }
  int rc = c->scan.Prepare(t->cfg.db, sql);
  if (rc != SQLITE_OK) return rc;
  sqlite3_bind_int64(c->scan, 1, lo);
  if (!lookup) sqlite3_bind_int64(c->scan, 2, hi);
  rc = sqlite3_step(c->scan);
  c->eof = rc != SQLITE_ROW;
  if (!c->eof) c->rowid = sqlite3_column_int64(c->scan, 0);
  return c->eof && rc != SQLITE_DONE ? sqlite3_reset(c->scan) : SQLITE_OK;
}

// The special queries MATCH '*reads' (leaf reads so far) and '*id' (this
// cursor's id): one row whose table-named column holds the number.
int StartSpecial(Cursor* c, const std::string& what) {
  const char* w = what.c_str();
  size_t n = what.size();
  if (n > 0 && sqlite3_strnicmp("reads", w, static_cast<int>(n)) == 0) {
    c->special = c->tab->index->store()->reads();
  } else if (n > 0 && sqlite3_strnicmp("id", w, static_cast<int>(n)) == 0) {
    c->special = c->id;
  } else {
    c->tab->SetError("unknown special query: " + what);
    return SQLITE_ERROR;
  }
  c->mode = Cursor::kSpecial;
  c->eof = false;
  c->rowid = 0;
  return SQLITE_OK;
}

int StartSorted(Cursor* c, bool desc) {
  Table* t = c->tab;
  std::string err;
  int rc = c->FindRank(&err);
  if (rc != SQLITE_OK) {
    t->SetError(err);
    return rc;
  }
  std::string sql = "SELECT rowid, rank FROM " + QuoteIdent(t->cfg.schema) + "." +
                    QuoteIdent(t->cfg.name) + " ORDER BY " + c->rank_fn + "(" +
                    QuoteIdent(t->cfg.name) + (c->rank_args.empty() ? "" : ", ") + c->rank_args +
                    ")" + (desc ? " DESC" : " ASC");
  t->sort_src = c;
  rc = c->sorter.Prepare(t->cfg.db, sql);
  if (rc == SQLITE_OK) {
    rc = sqlite3_step(c->sorter);
    c->eof = rc != SQLITE_ROW;
    if (!c->eof) c->rowid = sqlite3_column_int64(c->sorter, 0);
    rc = c->eof && rc != SQLITE_DONE ? sqlite3_reset(c->sorter) : SQLITE_OK;
  } else {
    t->SetError(sqlite3_errmsg(t->cfg.db));
  }
  t->sort_src = nullptr;
  return rc;
}

// Whether the table narrows `col <op> pattern` by its index (SQLite's
// rule: a case-folding trigram table takes LIKE and GLOB, a case-sensitive
// one GLOB only).
bool UsesPattern(const Config& cfg, int op) {
  if (cfg.pattern == SQLITE_INDEX_CONSTRAINT_GLOB) return op == SQLITE_INDEX_CONSTRAINT_GLOB;
  return cfg.pattern == SQLITE_INDEX_CONSTRAINT_LIKE &&
         (op == SQLITE_INDEX_CONSTRAINT_LIKE || op == SQLITE_INDEX_CONSTRAINT_GLOB);
}

int AppendPhrase(void* ctx, int, const char* tok, int n, int, int) {
  auto* q = static_cast<std::string*>(ctx);
  *q += '"';
  for (int i = 0; i < n; ++i) {
    *q += tok[i];
    if (tok[i] == '"') *q += '"';
  }
  *q += "\" ";
  return SQLITE_OK;
}

// The MATCH query a LIKE/GLOB pattern implies, as SQLite builds it: each
// run of at least three bytes free of wildcards (LIKE: % _; GLOB: * ? and
// [...] sets) is required. With detail=full a run is a phrase; otherwise
// its tokens are required one by one (positions are not kept). Empty when
// no run is long enough (then the pattern narrows nothing).
int PatternQuery(const Config& cfg, bool glob, const std::string& z, std::string* q) {
  const char s0 = glob ? '*' : '_', s1 = glob ? '?' : '%', s2 = glob ? '[' : '\0';
  const size_t n = z.size();
  size_t first = 0;
  for (size_t i = 0; i <= n; ++i) {
    const char ch = i < n ? z[i] : '\0';
    if (i < n && ch != s0 && ch != s1 && (ch != s2 || s2 == '\0')) continue;
    if (i - first >= 3) {
      std::string run = z.substr(first, i - first);
      if (cfg.detail == Detail::kFull) {
        AppendPhrase(q, 0, run.data(), static_cast<int>(run.size()), 0, 0);
      } else {
        int rc = cfg.Tokenize(FTS5_TOKENIZE_QUERY, run.data(), static_cast<int>(run.size()), q,
                              &AppendPhrase);
        if (rc != SQLITE_OK) return rc;
      }
    }
    if (glob && i < n && ch == '[') {
      // Skip the set: its first character may be ']' (or follow '^').
      i += 2;
      if (i - 1 < n && z[i - 1] == '^') ++i;
      while (i < n && z[i] != ']') ++i;
    }
    first = i + 1;
  }
  return SQLITE_OK;
}

}  // namespace

int XBestIndex(sqlite3_vtab* v, sqlite3_index_info* info) {
  Table* t = Tab(v);
  const int ncol = t->cfg.ncol();
  std::string idx;
  int ncons = 0, nmatch = 0;
  bool seen_eq = false, seen_lt = false, seen_gt = false, seen_rank = false;
  for (int i = 0; i < info->nConstraint; ++i) {
    const auto& p = info->aConstraint[i];
    int col = p.iColumn;
    if (p.op == SQLITE_INDEX_CONSTRAINT_MATCH ||
        (p.op == SQLITE_INDEX_CONSTRAINT_EQ && col >= ncol)) {
      if (!p.usable || col < 0) {
        info->estimatedCost = 1e50;
        return SQLITE_OK;
      }
      if (col == ncol + 1) {
        if (seen_rank) continue;
        idx += 'r';
        seen_rank = true;
      } else {
        ++nmatch;
        idx += 'M' + std::to_string(col);
      }
      info->aConstraintUsage[i].argvIndex = ++ncons;
      info->aConstraintUsage[i].omit = 1;
    } else if (p.usable && col >= 0 && col < ncol && UsesPattern(t->cfg, p.op)) {
      // (Not a MATCH for the cost or ORDER BY rank, as in SQLite.)
      idx += (p.op == SQLITE_INDEX_CONSTRAINT_LIKE ? 'L' : 'G') + std::to_string(col);
      info->aConstraintUsage[i].argvIndex = ++ncons;
    } else if (p.usable && !seen_eq && p.op == SQLITE_INDEX_CONSTRAINT_EQ && col < 0) {
      idx += '=';
      seen_eq = true;
      info->aConstraintUsage[i].argvIndex = ++ncons;
    }
  }
  if (!seen_eq) {
    for (int i = 0; i < info->nConstraint; ++i) {
      const auto& p = info->aConstraint[i];
      if (p.iColumn >= 0 || !p.usable) continue;
      if (p.op == SQLITE_INDEX_CONSTRAINT_LT || p.op == SQLITE_INDEX_CONSTRAINT_LE) {
        if (seen_lt) continue;
        idx += '<';
        info->aConstraintUsage[i].argvIndex = ++ncons;
        seen_lt = true;
      } else if (p.op == SQLITE_INDEX_CONSTRAINT_GT || p.op == SQLITE_INDEX_CONSTRAINT_GE) {
        if (seen_gt) continue;
        idx += '>';
        info->aConstraintUsage[i].argvIndex = ++ncons;
        seen_gt = true;
      }
    }
  }
  int flags = 0;
  if (info->nOrderBy == 1) {
    int sort = info->aOrderBy[0].iColumn;
    if (sort == ncol + 1 && nmatch > 0)
      flags |= kOrderRank;
    else if (sort == -1)
      flags |= kOrderRowid;
    if (flags) {
      info->orderByConsumed = 1;
      if (info->aOrderBy[0].desc) flags |= kOrderDesc;
    }
  }
  if (seen_eq) {
    info->estimatedCost = nmatch ? 1000.0 : 10.0;
    if (nmatch == 0) {
      info->idxFlags |= SQLITE_INDEX_SCAN_UNIQUE;
      info->estimatedRows = 1;
    }
  } else if (seen_lt && seen_gt) {
    info->estimatedCost = nmatch ? 5000.0 : 250000.0;
  } else if (seen_lt || seen_gt) {
    info->estimatedCost = nmatch ? 7500.0 : 750000.0;
  } else {
    info->estimatedCost = nmatch ? 10000.0 : 1000000.0;
  }
  for (int i = 1; i < nmatch; ++i) info->estimatedCost *= 0.4;
  info->idxNum = flags;
  info->idxStr = sqlite3_mprintf("%s", idx.c_str());
  info->needToFreeIdxStr = 1;
  return SQLITE_OK;
}

int XFilter(sqlite3_vtab_cursor* vc, int flags, const char* idx_str, int argc,
            sqlite3_value** argv) {
  Cursor* c = Cur(vc);
  Table* t = c->tab;
  c->ResetRow();
  c->ClearAux();
  c->scan.Finalize();
  c->sorter.Finalize();
  c->own_expr = Expr();
  c->expr = nullptr;
  c->rowids.clear();
  c->at = 0;
  c->rank_fn.clear();
  c->rank_args.clear();
  c->rank = nullptr;
  c->eof = true;
  bool desc = (flags & kOrderDesc) != 0;
  if (t->sort_src != nullptr) {  // the inner statement of a rank-ordered cursor
    Cursor* src = t->sort_src;
    t->sort_src = nullptr;
    c->mode = Cursor::kSource;
    c->expr = src->expr;
    c->rowids = src->rowids;
    c->rank_fn = src->rank_fn;
    c->rank_args = src->rank_args;
    c->eof = c->rowids.empty();
    if (!c->eof) c->rowid = c->rowids[0];
    return SQLITE_OK;
  }
  int64_t lo = INT64_MIN, hi = INT64_MAX, eq = 0;
  bool has_eq = false, has_match = false;
  const char* s = idx_str ? idx_str : "";
  int a = 0;
  for (; *s && a < argc; ++s) {
    sqlite3_value* v = argv[a++];
    switch (*s) {
      case 'M': {
        int col = 0;
        while (s[1] >= '0' && s[1] <= '9') col = col * 10 + (*++s - '0');
        const char* q = reinterpret_cast<const char*>(sqlite3_value_text(v));
        std::string query = q ? q : "";
        if (!query.empty() && query[0] == '*') return StartSpecial(c, query.substr(1));
        Expr e;
        std::string err;
        int rc = ParseExpr(t->cfg, query, col < t->cfg.ncol() ? col : -1, &e, &err);
        if (rc != SQLITE_OK) {
          if (!err.empty()) t->SetError(err);
          return rc;
        }
        if (!has_match) {
          c->own_expr = std::move(e);
        } else {
          AndExpr(&c->own_expr, &e);
        }
        has_match = true;
        break;
      }
      case 'L':
      case 'G': {
        const bool glob = *s == 'G';
        int col = 0;
        while (s[1] >= '0' && s[1] <= '9') col = col * 10 + (*++s - '0');
        const char* z = reinterpret_cast<const char*>(sqlite3_value_text(v));
        if (z == nullptr) break;
        std::string query;
        int rc = PatternQuery(t->cfg, glob, z, &query);
        if (rc != SQLITE_OK) return rc;
        if (query.empty()) break;
        Expr e;
        std::string err;
        const int ecol = t->cfg.detail == Detail::kNone || col >= t->cfg.ncol() ? -1 : col;
        if ((rc = ParseExpr(t->cfg, query, ecol, &e, &err)) != SQLITE_OK) {
          if (!err.empty()) t->SetError(err);
          return rc;
        }
        if (!has_match) {
          c->own_expr = std::move(e);
        } else {
          AndExpr(&c->own_expr, &e);
        }
        has_match = true;
        break;
      }
      case 'r': {
        const char* r = reinterpret_cast<const char*>(sqlite3_value_text(v));
        std::string fn, args;
        if (r == nullptr || ParseRank(r, &fn, &args) != SQLITE_OK) {
          t->SetError(std::string("parse error in rank function: ") + (r ? r : ""));
          return SQLITE_ERROR;
        }
        c->rank_fn = fn;
        c->rank_args = args;
        break;
      }
      case '=':
        eq = sqlite3_value_int64(v);
        has_eq = true;
        break;
      case '<':
        hi = sqlite3_value_int64(v);
        break;
      case '>':
        lo = sqlite3_value_int64(v);
        break;
      default:
        break;
    }
  }
  if (has_eq) lo = hi = eq;
  if (has_match) {
    c->expr = &c->own_expr;
    int rc = EvalExpr(t->index.get(), t->cfg, c->expr, &c->rowids);
    if (rc != SQLITE_OK) return rc;
    if (lo != INT64_MIN || hi != INT64_MAX) {
      std::vector<int64_t> kept;
      for (int64_t r : c->rowids) {
        if (r >= lo && r <= hi) kept.push_back(r);
      }
      c->rowids.swap(kept);
    }
    if (flags & kOrderRank) {
      c->mode = Cursor::kSorted;
      return StartSorted(c, desc);
    }
    if (desc) std::reverse(c->rowids.begin(), c->rowids.end());
    c->mode = Cursor::kMatch;
    c->eof = c->rowids.empty();
    if (!c->eof) c->rowid = c->rowids[0];
    return SQLITE_OK;
  }
  c->mode = has_eq ? Cursor::kLookup : Cursor::kScan;
  return StartScan(c, has_eq, lo, hi, desc);
}

int XUpdate(sqlite3_vtab* v, int argc, sqlite3_value** argv, sqlite3_int64* out_rowid) {
  Table* t = Tab(v);
  const Config& cfg = t->cfg;
  int ncol = cfg.ncol();
  int rc = SQLITE_OK;
  int type0 = sqlite3_value_type(argv[0]);
  if (argc > 1 && type0 == SQLITE_NULL && sqlite3_value_type(argv[2 + ncol]) != SQLITE_NULL) {
    const char* cmd = reinterpret_cast<const char*>(sqlite3_value_text(argv[2 + ncol]));
    if (cfg.content != Content::kNormal && sqlite3_stricmp(cmd, "delete") == 0) {
      if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER) return SQLITE_OK;
      return t->Delete(sqlite3_value_int64(argv[1]), argv + 2);
    }
    return SpecialInsert(t, cmd, argv[3 + ncol]);
  }
  if (type0 == SQLITE_INTEGER && cfg.content == Content::kNone) {
    t->SetError(std::string("cannot ") + (argc == 1 ? "DELETE from" : "UPDATE") +
                " contentless fts5 table: " + cfg.name);
    return SQLITE_ERROR;
  }
  if (argc == 1) return t->Delete(sqlite3_value_int64(argv[0]), nullptr);
  int type1 = sqlite3_value_numeric_type(argv[1]);
  if (type1 != SQLITE_INTEGER && type1 != SQLITE_NULL) return SQLITE_MISMATCH;
  int64_t rowid = 0;
  bool replace = sqlite3_vtab_on_conflict(cfg.db) == SQLITE_REPLACE;
  if (type0 != SQLITE_INTEGER) {  // INSERT
    if (replace && type1 == SQLITE_INTEGER) rc = t->Delete(sqlite3_value_int64(argv[1]), nullptr);
    if (rc == SQLITE_OK) rc = t->ContentInsert(argv, &rowid);
    if (rc == SQLITE_OK) rc = t->IndexInsert(argv + 2, rowid);
  } else {  // UPDATE
    int64_t old_id = sqlite3_value_int64(argv[0]);
    int64_t new_id = sqlite3_value_int64(argv[1]);
    if (type1 == SQLITE_INTEGER && old_id != new_id) {
      if (replace) {
        rc = t->Delete(old_id, nullptr);
        if (rc == SQLITE_OK) rc = t->Delete(new_id, nullptr);
        if (rc == SQLITE_OK) rc = t->ContentInsert(argv, &rowid);
        if (rc == SQLITE_OK) rc = t->IndexInsert(argv + 2, rowid);
      } else {
        rc = t->ContentInsert(argv, &rowid);
        if (rc == SQLITE_OK) rc = t->Delete(old_id, nullptr);
        if (rc == SQLITE_OK) rc = t->IndexInsert(argv + 2, rowid);
      }
    } else {
      rc = t->Delete(old_id, nullptr);
      if (rc == SQLITE_OK) rc = t->ContentInsert(argv, &rowid);
      if (rc == SQLITE_OK) rc = t->IndexInsert(argv + 2, rowid);
    }
  }
  *out_rowid = rowid;
  return rc;
}

}  // namespace basalt::fts5
