// Bulk workloads: inserts with 0/1/3 indexes, DELETE and refill, CREATE
// INDEX, unindexed scans (BETWEEN, LIKE, ORDER BY ... LIMIT), GROUP BY,
// DISTINCT, EXCEPT, INSERT ... SELECT from a recursive CTE, UPDATE of one
// column, range queries on REAL and TEXT indexes, and a sort of every row.
// The table's values are computed in SQL from the row number, so both
// engines see the same data.
#include "cases_bulk.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace basalt::bench {
namespace {

bool use_wal = false;  // BulkUseWal

double Seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

[[noreturn]] void Fail(const Api& a, sqlite3* db, const std::string& what) {
  std::fprintf(stderr, "basalt-bench: %s: %s\n", what.c_str(), a.errmsg(db));
  std::exit(2);
}

// One connection with checked calls.
class Conn {
 public:
  Conn(const Api& a, const std::string& path) : a_(a) {
    for (const char* suffix : {"", "-journal", "-wal", "-shm"}) ::unlink((path + suffix).c_str());
    if (a_.open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
      Fail(a_, db_, "open " + path);
    }
    if (use_wal && path != ":memory:") Exec("PRAGMA journal_mode=WAL");
  }
  ~Conn() { a_.close(db_); }
  void Exec(const std::string& sql) {
    if (a_.exec(db_, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) Fail(a_, db_, sql);
  }
  sqlite3_stmt* Prepare(const std::string& sql) {
    sqlite3_stmt* st = nullptr;
    if (a_.prepare_v2(db_, sql.c_str(), -1, &st, nullptr) != SQLITE_OK) Fail(a_, db_, sql);
    return st;
  }
  // Runs a query, returning the number of rows; *sum gets the integer sum
  // of the first column.
  int64_t Query(const std::string& sql, int64_t* sum = nullptr) {
    sqlite3_stmt* st = Prepare(sql);
    int64_t rows = 0, s = 0;
    int rc;
    while ((rc = a_.step(st)) == SQLITE_ROW) {
      ++rows;
      s += a_.column_int64(st, 0);
    }
    if (rc != SQLITE_DONE) Fail(a_, db_, sql);
    a_.finalize(st);
    if (sum) *sum = s;
    return rows;
  }
  const Api& api() const { return a_; }
  sqlite3* db() const { return db_; }

 private:
  const Api& a_;
  sqlite3* db_ = nullptr;
};

const char* kTable = "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL)";

// The row expressions over the row number i, shared by every case.
std::string RowSelect(int64_t rows) {
  return "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
         std::to_string(rows) +
         ") SELECT (i * 7919) % 1000003, printf('row-%07d-%d', (i * 31337) % 1000003, i % 97), "
         "((i * 104729) % 100003) / 7.0 FROM n";
}

void Fill(Conn* c, int64_t rows) {
  c->Exec(kTable);
  c->Exec("INSERT INTO t(a, b, c) " + RowSelect(rows));
}

// Inserts rows one statement at a time, in one transaction, into a table
// with `indexes` indexes (0..3).
double InsertWith(const Api& a, int64_t rows, const std::string& path, int indexes) {
  Conn c(a, path);
  c.Exec(kTable);
  const char* idx[] = {"CREATE INDEX t_a ON t(a)", "CREATE INDEX t_b ON t(b)",
                       "CREATE INDEX t_c ON t(c)"};
  for (int i = 0; i < indexes; ++i) c.Exec(idx[i]);
  double t0 = Seconds();
  c.Exec("BEGIN");
  sqlite3_stmt* st = c.Prepare("INSERT INTO t(a, b, c) VALUES(?, ?, ?)");
  char text[40];
  for (int64_t i = 1; i <= rows; ++i) {
    int n =
        std::snprintf(text, sizeof text, "row-%07lld-%lld",
                      static_cast<long long>(i * 31337 % 1000003), static_cast<long long>(i % 97));
    a.bind_int64(st, 1, i * 7919 % 1000003);
    a.bind_text(st, 2, text, n, SQLITE_TRANSIENT);
    a.bind_double(st, 3, static_cast<double>(i * 104729 % 100003) / 7.0);
    if (a.step(st) != SQLITE_DONE) Fail(a, c.db(), "insert");
    a.reset(st);
  }
  a.finalize(st);
  c.Exec("COMMIT");
  return Seconds() - t0;
}

double Insert0(const Api& a, int64_t rows, const std::string& p) {
  return InsertWith(a, rows, p, 0);
}
double Insert1(const Api& a, int64_t rows, const std::string& p) {
  return InsertWith(a, rows, p, 1);
}
double Insert3(const Api& a, int64_t rows, const std::string& p) {
  return InsertWith(a, rows, p, 3);
}

double DeleteRefill(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  c.Exec("CREATE INDEX t_a ON t(a)");
  double t0 = Seconds();
  c.Exec("BEGIN");
  c.Exec("DELETE FROM t");
  c.Exec("INSERT INTO t(a, b, c) " + RowSelect(rows));
  c.Exec("COMMIT");
  return Seconds() - t0;
}

double CreateIndex(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  double t0 = Seconds();
  c.Exec("CREATE INDEX t_a ON t(a)");
  c.Exec("CREATE INDEX t_b ON t(b)");
  c.Exec("CREATE INDEX t_ca ON t(c, a)");
  return Seconds() - t0;
}

// Times `sql` run `times` times, each $K in it replaced by the run's number
// (0..times-1).
double TimeQueries(Conn* c, const std::string& sql, int times, int64_t min_rows) {
  double t0 = Seconds();
  int64_t rows = 0;
  for (int k = 0; k < times; ++k) {
    std::string q;
    for (size_t i = 0; i < sql.size(); ++i) {
      if (sql[i] == '$' && i + 1 < sql.size() && sql[i + 1] == 'K') {
        q += std::to_string(k);
        ++i;
      } else {
        q += sql[i];
      }
    }
    rows += c->Query(q);
  }
  double t = Seconds() - t0;
  if (rows < min_rows) Fail(c->api(), c->db(), "too few rows from " + sql);
  return t;
}

double ScanBetween(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  return TimeQueries(
      &c, "SELECT count(*), avg(c) FROM t WHERE a BETWEEN $K * 50000 AND $K * 50000 + 20000", 10,
      10);
}

double ScanLike(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  return TimeQueries(&c, "SELECT count(*) FROM t WHERE b LIKE '%1$K3%'", 10, 10);
}

double OrderLimit(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  double t = TimeQueries(&c, "SELECT id, b FROM t ORDER BY a LIMIT 10 OFFSET $K", 5, 50);
  t += TimeQueries(&c, "SELECT id FROM t ORDER BY c DESC, b LIMIT 10", 3, 30);
  return t + TimeQueries(&c, "SELECT b FROM t WHERE a > $K * 1000 ORDER BY b LIMIT 25", 2, 50);
}

double GroupBy(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  return TimeQueries(&c, "SELECT a % 100, count(*), sum(c) FROM t GROUP BY 1", 3, 300);
}

double Distinct(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  return TimeQueries(&c, "SELECT DISTINCT a / 100 FROM t", 2, 2);
}

double Except(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  return TimeQueries(&c, "SELECT a FROM t EXCEPT SELECT a FROM t WHERE id % 2 = 0", 1, 1);
}

double InsertSelectCte(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  c.Exec(kTable);
  double t0 = Seconds();
  c.Exec("INSERT INTO t(a, b, c) " + RowSelect(rows));
  return Seconds() - t0;
}

double UpdateAll(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  double t0 = Seconds();
  c.Exec("UPDATE t SET c = c + 1");
  return Seconds() - t0;
}

double RangeReal(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  c.Exec("CREATE INDEX t_c ON t(c)");
  return TimeQueries(&c, "SELECT id, c FROM t WHERE c BETWEEN $K * 7.5 AND $K * 7.5 + 20.0", 2000,
                     2000);
}

double RangeText(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  c.Exec("CREATE INDEX t_b ON t(b)");
  return TimeQueries(&c, "SELECT id, b FROM t WHERE b >= 'row-00$K' AND b < 'row-00$K5'", 2000,
                     100);
}

double SortAll(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  return TimeQueries(&c, "SELECT b, id FROM t ORDER BY b DESC", 1, rows);
}

}  // namespace

void BulkUseWal(bool on) { use_wal = on; }

double BigSort(const Api& a, int64_t rows, const std::string& path) {
  return SortAll(a, rows, path);
}

double BigIndex(const Api& a, int64_t rows, const std::string& path) {
  Conn c(a, path);
  Fill(&c, rows);
  double t0 = Seconds();
  c.Exec("CREATE INDEX t_b ON t(b)");
  return Seconds() - t0;
}

const std::vector<BulkCase>& BulkCases() {
  static const std::vector<BulkCase> cases = {
      {"bulk_insert0", "INSERT rows one at a time, one transaction, no index", Insert0},
      {"bulk_insert1", "INSERT rows one at a time, one transaction, 1 index", Insert1},
      {"bulk_insert3", "INSERT rows one at a time, one transaction, 3 indexes", Insert3},
      {"delete_refill", "DELETE every row and refill (1 index), one transaction", DeleteRefill},
      {"create_index", "CREATE INDEX on INTEGER, TEXT and (REAL, INTEGER)", CreateIndex},
      {"scan_between", "10 unindexed scans with BETWEEN", ScanBetween},
      {"scan_like", "10 unindexed scans with LIKE '%..%'", ScanLike},
      {"order_limit", "10 unindexed ORDER BY ... LIMIT [OFFSET]", OrderLimit},
      {"group_by", "GROUP BY into 100 groups (x3)", GroupBy},
      {"distinct", "SELECT DISTINCT a / 100 (x2)", Distinct},
      {"except", "EXCEPT of two large SELECTs", Except},
      {"insert_select", "INSERT ... SELECT from a recursive CTE", InsertSelectCte},
      {"update_all", "UPDATE one column of every row", UpdateAll},
      {"range_real", "2000 range queries on a REAL index", RangeReal},
      {"range_text", "2000 range queries on a TEXT index", RangeText},
      {"sort_all", "ORDER BY a TEXT column over every row", SortAll},
  };
  return cases;
}

}  // namespace basalt::bench
