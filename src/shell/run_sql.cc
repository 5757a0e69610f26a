// Running SQL: each statement of a chunk is prepared, bound from
// temp.sqlite_parameters, optionally preceded by its query plan (.eqp),
// rendered in the current mode and finalized. Errors come back as sqlite3's
// message text, which the callers prefix as sqlite3 does.
#include <sys/resource.h>
#include <sys/time.h>

#include <cstring>
#include <string>
#include <vector>

#include "shell/expert.h"
#include "shell/shell.h"

namespace shell {
namespace {

bool IsSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

// The excerpt of `sql` around the error offset, with a marker under it
// ("" when the error has no offset).
std::string ErrorContext(sqlite3* db, const char* sql) {
  int off = sqlite3_error_offset(db);
  if (off < 0) return "";
  const char* z = sql;
  while (off > 50) {
    --off;
    ++z;
    while ((static_cast<unsigned char>(*z) & 0xc0) == 0x80) {
      ++z;
      --off;
    }
  }
  size_t len = std::strlen(z);
  if (len > 78) {
    len = 78;
    while ((static_cast<unsigned char>(z[len]) & 0xc0) == 0x80) --len;
  }
  std::string code(z, len);
  for (char& c : code) {
    if (IsSpace(c)) c = ' ';
  }
  std::string out = "\n  " + code + "\n  ";
  if (off < 25) {
    out += std::string(static_cast<size_t>(off), ' ') + "^--- error here";
  } else {
    out += std::string(static_cast<size_t>(off - 14), ' ') + "error here ---^";
  }
  return out;
}

std::string ErrMsg(sqlite3* db, const char* phase, int rc, const char* sql) {
  std::string msg = std::string(phase) + ", " + sqlite3_errmsg(db);
  if (rc > 1) msg += " (" + std::to_string(rc) + ")";  // not for plain SQLITE_ERROR
  if (sql) msg += ErrorContext(db, sql);
  return msg;
}

// Steps a statement in a row-at-a-time mode (or counts rows).
void StepRows(Shell& sh, sqlite3_stmt* stmt) {
  int rc = sqlite3_step(stmt);
  if (rc != SQLITE_ROW) return;
  const int n = sqlite3_column_count(stmt);
  std::vector<const char*> cols(static_cast<size_t>(n)), vals(static_cast<size_t>(n));
  std::vector<int> types(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) cols[static_cast<size_t>(i)] = sqlite3_column_name(stmt, i);
  unsigned long long rows = 0;
  do {
    ++rows;
    for (int i = 0; i < n; ++i) {
      const size_t u = static_cast<size_t>(i);
      types[u] = sqlite3_column_type(stmt, i);
      if (types[u] == SQLITE_BLOB && (sh.cmode == Mode::kInsert || sh.cmode == Mode::kQuote)) {
        vals[u] = "";
      } else {
        vals[u] = reinterpret_cast<const char*>(sqlite3_column_text(stmt, i));
      }
    }
    RenderRow(sh, n, vals.data(), cols.data(), types.data());
  } while (sqlite3_step(stmt) == SQLITE_ROW);
  if (sh.cmode == Mode::kJson) {
    std::fputs("]\n", sh.out);
  } else if (sh.cmode == Mode::kCount) {
    std::printf("%llu row%s\n", rows, rows != 1 ? "s" : "");
  }
}

void ExecPrepared(Shell& sh, sqlite3_stmt* stmt) {
  if (IsColumnar(sh.cmode)) {
    RenderColumnar(sh, stmt);
  } else {
    StepRows(sh, stmt);
  }
}

// .eqp on/full: the plan (and for full, the program) of each statement
// before its rows.
void AutoExplain(Shell& sh, const char* stmt_sql) {
  sqlite3_stmt* ex = nullptr;
  std::string q = std::string("EXPLAIN QUERY PLAN ") + stmt_sql;
  if (sqlite3_prepare_v2(sh.db, q.c_str(), -1, &ex, nullptr) == SQLITE_OK && ex) {
    while (sqlite3_step(ex) == SQLITE_ROW) {
      sh.eqp_rows.push_back({sqlite3_column_int(ex, 0), sqlite3_column_int(ex, 1), ColText(ex, 3)});
    }
    RenderEqp(sh);
  }
  sqlite3_finalize(ex);
  if (sh.eqp >= 2) {
    q = std::string("EXPLAIN ") + stmt_sql;
    ex = nullptr;
    if (sqlite3_prepare_v2(sh.db, q.c_str(), -1, &ex, nullptr) == SQLITE_OK && ex) {
      sh.cmode = Mode::kExplain;
      sh.stmt = ex;
      sh.cnt = 0;
      PrepareExplainIndent(sh, ex);
      ExecPrepared(sh, ex);
      sh.explain_indent.clear();
    }
    sqlite3_finalize(ex);
  }
}

}  // namespace

void BindParameters(Shell& sh, sqlite3_stmt* stmt) {
  const int n = sqlite3_bind_parameter_count(stmt);
  if (n == 0) return;
  sqlite3_stmt* q = nullptr;
  if (sqlite3_prepare_v2(sh.db, "SELECT value FROM temp.sqlite_parameters WHERE key=?1", -1, &q,
                         nullptr) != SQLITE_OK ||
      q == nullptr) {
    sqlite3_finalize(q);
    return;
  }
  for (int i = 1; i <= n; ++i) {
    const char* name = sqlite3_bind_parameter_name(stmt, i);
    std::string key = name ? name : "?" + std::to_string(i);
    sqlite3_bind_text(q, 1, key.c_str(), -1, SQLITE_TRANSIENT);
    if (sqlite3_step(q) == SQLITE_ROW) {
      sqlite3_bind_value(stmt, i, sqlite3_column_value(q, 0));
    } else {
      sqlite3_bind_null(stmt, i);
    }
    sqlite3_reset(q);
  }
  sqlite3_finalize(q);
}

int ExecSql(Shell& sh, const char* sql, std::string* err) {
  if (sh.expert != nullptr) return ExpertRunSql(sh, sql, err);  // analysed, not run
  int rc = SQLITE_OK;
  while (sql[0] && rc == SQLITE_OK) {
    sqlite3_stmt* stmt = nullptr;
    const char* left = nullptr;
    rc = sqlite3_prepare_v2(sh.db, sql, -1, &stmt, &left);
    if (rc != SQLITE_OK) {
      if (err) *err = ErrMsg(sh.db, "in prepare", rc, sql);
      break;
    }
    if (stmt == nullptr) {  // a comment or white space
      sql = left;
      while (IsSpace(*sql)) ++sql;
      continue;
    }
    const char* stmt_sql = sqlite3_sql(stmt);
    if (stmt_sql == nullptr) stmt_sql = "";
    while (IsSpace(*stmt_sql)) ++stmt_sql;
    sh.stmt = stmt;
    sh.cnt = 0;
    if (sh.eqp && sqlite3_stmt_isexplain(stmt) == 0) {
      std::string keep = stmt_sql;
      AutoExplain(sh, keep.c_str());
      sqlite3_finalize(stmt);
      stmt = nullptr;
      sqlite3_prepare_v2(sh.db, sql, -1, &stmt, nullptr);
      sh.stmt = stmt;  // cnt goes on from the EXPLAIN rows, as in sqlite3
    }
    sh.cmode = sh.mode;
    if (sh.autoexplain) {
      if (sqlite3_stmt_isexplain(stmt) == 1) sh.cmode = Mode::kExplain;
      if (sqlite3_stmt_isexplain(stmt) == 2) sh.cmode = Mode::kEqp;
    }
    if (sh.cmode == Mode::kExplain) PrepareExplainIndent(sh, stmt);
    BindParameters(sh, stmt);
    ExecPrepared(sh, stmt);
    sh.explain_indent.clear();
    RenderEqp(sh);
    if (sh.stats) DisplayStats(sh);
    rc = sqlite3_finalize(stmt);
    sh.stmt = nullptr;
    if (rc == SQLITE_OK) {
      sql = left;
      while (IsSpace(*sql)) ++sql;
    } else if (err) {
      *err = ErrMsg(sh.db, "stepping", rc, nullptr);
    }
  }
  return rc;
}

namespace {

double Now() {
  struct timeval tv;
  gettimeofday(&tv, nullptr);
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

double TvSeconds(const struct timeval& tv) {
  return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) * 1e-6;
}

}  // namespace

// One complete chunk of SQL from the input (starting on `startline`): run,
// then errors reported as "Parse error near line N: ...".
int RunSqlLine(Shell& sh, const std::string& sql, int startline) {
  if (!OpenDb(sh, false)) return 1;
  if (sh.echo) std::printf("%s\n", sql.c_str());
  std::string err;
  struct rusage r0;
  double t0 = 0;
  if (sh.timer) {
    getrusage(RUSAGE_SELF, &r0);
    t0 = Now();
  }
  int rc = ExecSql(sh, sql.c_str(), &err);
  if (sh.timer) {
    struct rusage r1;
    getrusage(RUSAGE_SELF, &r1);
    std::printf("Run Time: real %.3f user %f sys %f\n", Now() - t0,
                TvSeconds(r1.ru_utime) - TvSeconds(r0.ru_utime),
                TvSeconds(r1.ru_stime) - TvSeconds(r0.ru_stime));
  }
  if (rc != SQLITE_OK || !err.empty()) {
    const char* type = "Error";
    std::string tail = err.empty() ? sqlite3_errmsg(sh.db) : err;
    if (err.compare(0, 12, "in prepare, ") == 0) {
      type = "Parse error";
      tail = err.substr(12);
    } else if (err.compare(0, 10, "stepping, ") == 0) {
      type = "Runtime error";
      tail = err.substr(10);
    }
    if (sh.in != nullptr || !sh.interactive) {
      std::fprintf(stderr, "%s near line %d: %s\n", type, startline, tail.c_str());
    } else {
      std::fprintf(stderr, "%s: %s\n", type, tail.c_str());
    }
    return 1;
  }
  if (sh.count_changes) {
    std::fprintf(sh.out, "changes: %lld   total_changes: %lld\n", sqlite3_changes64(sh.db),
                 sqlite3_total_changes64(sh.db));
  }
  return 0;
}

}  // namespace shell
