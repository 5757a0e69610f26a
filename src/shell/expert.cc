// .expert ?--verbose? ?--sample PERCENT?: the next SQL given to the shell
// is analysed, not run (steps 3 and 4 of expert.h), and the report printed:
//   [-- Candidates ---... and every candidate, with --verbose]
//   per statement: [-- Query N ---... and its SQL], the proposed indexes
//   the plan uses (or "(no new indexes)"), then that plan's lines.
// With --sample, sqlite_stat1 data guides the plans (expert_stat.cc).
#include "shell/expert.h"

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "shell/shell.h"

namespace shell {
namespace {

std::string Mprintf(const char* fmt, const std::string& a) {
  char* z = sqlite3_mprintf(fmt, a.c_str());
  std::string s = z ? z : "";
  sqlite3_free(z);
  return s;
}

bool NeedsQuotes(const std::string& id) {
  if (sqlite3_keyword_check(id.c_str(), static_cast<int>(id.size()))) return true;
  for (char c : id) {
    const bool ok =
        c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!ok) return true;
  }
  return false;
}

std::string ColumnDef(const ExpertTable& tab, const ExpertTerm& t) {
  const ExpertColumn& c = tab.cols[static_cast<size_t>(t.col)];
  std::string s = NeedsQuotes(c.name) ? Mprintf("%Q", c.name) : c.name;
  if (sqlite3_stricmp(c.coll.c_str(), t.coll.c_str()) != 0) {
    s += " COLLATE " + (NeedsQuotes(t.coll) ? Mprintf("%Q", t.coll) : t.coll);
  }
  if (t.desc) s += " DESC";
  return s;
}

bool HasColumn(const std::vector<ExpertTerm>& terms, int col) {
  for (const ExpertTerm& t : terms) {
    if (t.col == col) return true;
  }
  return false;
}

bool SameColl(const std::string& a, const unsigned char* b) {
  return b != nullptr && sqlite3_stricmp(a.c_str(), reinterpret_cast<const char*>(b)) == 0;
}

// An index of dbm already serving the terms: eq's columns (any order) as
// its first keys, then tail's in order.
bool HasCompatible(sqlite3* dbm, const ExpertTable& tab, const std::vector<ExpertTerm>& eq,
                   const std::vector<ExpertTerm>& tail) {
  std::vector<std::string> names;
  ForEachRow(dbm, Mprintf("PRAGMA index_list=%Q", tab.name),
             [&](sqlite3_stmt* st) { names.push_back(ColText(st, 1)); });
  for (const std::string& idx : names) {
    bool match = true;
    std::vector<bool> used(eq.size(), false);
    size_t t = 0;
    sqlite3_stmt* st = nullptr;
    sqlite3_prepare_v2(dbm, Mprintf("PRAGMA index_xinfo=%Q", idx).c_str(), -1, &st, nullptr);
    while (match && st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
      const size_t seq = static_cast<size_t>(sqlite3_column_int(st, 0));
      const int col = sqlite3_column_int(st, 1);
      const unsigned char* coll = sqlite3_column_text(st, 4);
      if (seq < eq.size()) {
        size_t k = 0;
        while (k < eq.size() && (used[k] || eq[k].col != col || !SameColl(eq[k].coll, coll))) ++k;
        if (k == eq.size()) match = false;
        if (match) used[k] = true;
      } else if (t < tail.size()) {
        if (tail[t].col != col || !SameColl(tail[t].coll, coll)) match = false;
        ++t;
      }
    }
    sqlite3_finalize(st);
    if (match) return true;
  }
  return false;
}

// Proposes (and creates in dbm) the index on eq's columns then tail's.
int CreateFromTerms(Expert* e, const ExpertScan& scan, const std::vector<ExpertTerm>& eq,
                    const std::vector<ExpertTerm>& tail, std::string* err) {
  const ExpertTable& tab = e->tables[static_cast<size_t>(scan.table)];
  if ((eq.empty() && tail.empty()) || HasCompatible(e->dbm, tab, eq, tail)) return SQLITE_OK;
  std::string cols;
  for (const ExpertTerm& t : eq) cols += (cols.empty() ? "" : ", ") + ColumnDef(tab, t);
  for (const ExpertTerm& t : tail) cols += (cols.empty() ? "" : ", ") + ColumnDef(tab, t);
  unsigned h = 0;
  for (char c : cols) h += (h << 3) + static_cast<unsigned>(static_cast<int>(c));
  char hex[16];
  std::snprintf(hex, sizeof hex, "%08x", h);
  const std::string name = tab.name + "_idx_" + hex;
  char* z = NeedsQuotes(tab.name) ? sqlite3_mprintf("CREATE INDEX \"%w\" ON \"%w\"(%s)",
                                                    name.c_str(), tab.name.c_str(), cols.c_str())
                                  : sqlite3_mprintf("CREATE INDEX %s ON %s(%s)", name.c_str(),
                                                    tab.name.c_str(), cols.c_str());
  const std::string sql = z;
  sqlite3_free(z);
  char* msg = nullptr;
  const int rc = sqlite3_exec(e->dbm, sql.c_str(), nullptr, nullptr, &msg);
  if (rc != SQLITE_OK) {
    *err = msg ? msg : sqlite3_errmsg(e->dbm);
    sqlite3_free(msg);
    return rc;
  }
  for (const ExpertCandidate& c : e->candidates) {
    if (c.name == name) return SQLITE_OK;
  }
  e->candidates.insert(e->candidates.begin(), {name, sql, ""});
  return SQLITE_OK;
}

// The == columns not in tail (in constraint order), with tail; without a
// tail, also with each range column in turn.
int CreateFromWhere(Expert* e, const ExpertScan& scan, const std::vector<ExpertTerm>& tail,
                    std::string* err) {
  std::vector<ExpertTerm> eq;
  for (auto it = scan.eq.rbegin(); it != scan.eq.rend(); ++it) {
    if (!HasColumn(eq, it->col) && !HasColumn(tail, it->col)) eq.insert(eq.begin(), *it);
  }
  int rc = CreateFromTerms(e, scan, eq, tail, err);
  if (!tail.empty()) return rc;
  for (auto it = scan.range.rbegin(); rc == SQLITE_OK && it != scan.range.rend(); ++it) {
    if (!HasColumn(eq, it->col)) rc = CreateFromTerms(e, scan, eq, {*it}, err);
  }
  return rc;
}

// Adds the statements of sql (each must compile on the user's database).
int AddStatements(Expert* e, const char* sql, std::string* err) {
  const char* at = sql;
  while (at != nullptr && *at != '\0') {
    sqlite3_stmt* st = nullptr;
    if (sqlite3_prepare_v2(e->db, at, -1, &st, nullptr) != SQLITE_OK) {
      *err = sqlite3_errmsg(e->db);
      return SQLITE_ERROR;
    }
    sqlite3_finalize(st);
    const char* tail = nullptr;
    if (sqlite3_prepare_v2(e->dbv, at, -1, &st, &tail) != SQLITE_OK) {
      *err = sqlite3_errmsg(e->dbv);
      return SQLITE_ERROR;
    }
    if (st != nullptr) e->statements.emplace_back(sqlite3_sql(st));
    sqlite3_finalize(st);
    at = tail;
  }
  return SQLITE_OK;
}

// Step 4 for one statement: the proposed indexes its plan uses (newest
// first) and the plan's lines.
int PlanOf(Expert* e, const std::string& sql, std::string* idx, std::string* plan,
           std::string* err) {
  std::vector<std::string> used;
  sqlite3_stmt* st = nullptr;
  if (sqlite3_prepare_v2(e->dbm, ("EXPLAIN QUERY PLAN " + sql).c_str(), -1, &st, nullptr) !=
      SQLITE_OK) {
    *err = sqlite3_errmsg(e->dbm);
    return SQLITE_ERROR;
  }
  while (sqlite3_step(st) == SQLITE_ROW) {
    const std::string detail = ColText(st, 3);
    for (const char* key : {" USING INDEX ", " USING COVERING INDEX "}) {
      const size_t at = detail.find(key);
      if (at == std::string::npos) continue;
      const size_t from = at + std::strlen(key);
      const size_t end = detail.find(" (", from);
      const std::string name = detail.substr(from, end == std::string::npos ? end : end - from);
      for (const ExpertCandidate& c : e->candidates) {
        bool seen = false;
        for (const std::string& u : used) seen = seen || u == c.sql;
        if (c.name == name && !seen) used.insert(used.begin(), c.sql);
      }
      break;
    }
    if (detail[0] != '-') *plan += detail + "\n";
  }
  sqlite3_finalize(st);
  for (const std::string& u : used) *idx += u + ";\n";
  return SQLITE_OK;
}

int Analyze(Shell& sh, Expert* e, std::string* err) {
  int rc = SQLITE_OK;
  for (auto it = e->scans.rbegin(); rc == SQLITE_OK && it != e->scans.rend(); ++it) {
    rc = CreateFromWhere(e, *it, {}, err);
    if (rc == SQLITE_OK && !it->order.empty()) rc = CreateFromWhere(e, *it, it->order, err);
  }
  if (rc == SQLITE_OK) rc = ExpertStat1(e, err);
  std::vector<std::string> idx(e->statements.size()), plan(e->statements.size());
  for (size_t i = 0; rc == SQLITE_OK && i < e->statements.size(); ++i) {
    rc = PlanOf(e, e->statements[i], &idx[i], &plan[i], err);
  }
  if (rc != SQLITE_OK) return rc;
  FILE* out = sh.out;
  if (e->verbose) {
    std::string cands;
    for (const ExpertCandidate& c : e->candidates) {
      cands += c.sql + ";" + (c.stat.empty() ? "" : " -- stat1: " + c.stat) + "\n";
    }
    std::fprintf(out, "-- Candidates -----------------------------\n%s\n",
                 e->candidates.empty() ? "(null)" : cands.c_str());
  }
  for (size_t i = 0; i < e->statements.size(); ++i) {
    if (e->verbose) {
      std::fprintf(out, "-- Query %d --------------------------------\n%s\n\n",
                   static_cast<int>(i + 1), e->statements[i].c_str());
    }
    std::fprintf(out, "%s\n", idx[i].empty() ? "(no new indexes)\n" : idx[i].c_str());
    std::fprintf(out, "%s\n", plan[i].empty() ? "(null)" : plan[i].c_str());
  }
  return SQLITE_OK;
}

}  // namespace

void ExpertCancel(Shell& sh) {
  if (sh.expert == nullptr) return;
  ExpertClose(sh.expert);
  delete sh.expert;
  sh.expert = nullptr;
}

int ExpertRunSql(Shell& sh, const char* sql, std::string* err) {
  Expert* e = sh.expert;
  int rc = AddStatements(e, sql, err);
  if (rc == SQLITE_OK) rc = Analyze(sh, e, err);
  ExpertCancel(sh);
  return rc;
}

int DotExpert(Shell& sh, const std::vector<std::string>& a) {
  OpenDb(sh, true);
  bool verbose = false;
  int sample = 0;
  int rc = SQLITE_OK;
  for (size_t i = 1; rc == SQLITE_OK && i < a.size(); ++i) {
    const char* z = a[i].c_str();
    if (z[0] == '-' && z[1] == '-') ++z;
    const size_t n = std::strlen(z);
    if (n >= 2 && std::strncmp(z, "-verbose", n) == 0) {
      verbose = true;
    } else if (n >= 2 && std::strncmp(z, "-sample", n) == 0) {
      if (i + 1 == a.size()) {
        std::fprintf(stderr, "option requires an argument: %s\n", z);
        rc = SQLITE_ERROR;
      } else {
        sample = static_cast<int>(IntegerValue(a[++i]));
        if (sample < 0 || sample > 100) {
          std::fprintf(stderr, "value out of range: %s\n", a[i].c_str());
          rc = SQLITE_ERROR;
        }
      }
    } else {
      std::fprintf(stderr, "unknown option: %s\n", z);
      rc = SQLITE_ERROR;
    }
  }
  if (rc != SQLITE_OK) return 0;  // the reference ignores .expert's failures
  auto* e = new Expert();
  e->db = sh.db;
  e->verbose = verbose;
  e->sample = sample;
  std::string err;
  if (ExpertSetup(e, &err) != SQLITE_OK) {
    std::fprintf(stderr, "sqlite3_expert_new: %s\n", err.c_str());
    ExpertClose(e);
    delete e;
    return 0;
  }
  sh.expert = e;
  return SQLITE_OK;
}

}  // namespace shell
