// basalt-bench: the storage workloads of the file-format issue, run through
// the sqlite3 C API on Basalt's library and on the system libsqlite3 in the
// same process, alternating, and reported as Basalt/SQLite time ratios.
//
//   basalt-bench [--dir DIR] [--reps N] [--rows N] [--only NAME[,NAME]]
//                [--bulk-rows N] [--memory | --wal] [--fts5-docs N]
//                [--sort-rows N]
// The bulk cases (cases_bulk.cc) use --bulk-rows rows (default 200000) on
// file databases (rollback journal, or WAL with --wal) or, with --memory,
// on ":memory:". --sort-rows N adds sort_big and index_big: ORDER BY over,
// and CREATE INDEX on, an N-row table in a file (e.g. 10000000; slow, so
// not run by default).
//
// Every workload runs on both engines; each engine's time is the best of N
// repetitions. Each run is a forked child, so that its peak resident set
// (wait4's ru_maxrss) is that engine's alone: the table shows each engine's
// largest peak over the repetitions and their ratio. The parent holds only
// the two loaded libraries, the same baseline for both. The lookup and scan workloads read a
// database written by the system sqlite3 (copied afresh for each run), so both engines read
// identical files.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "api.h"
#include "cases_bulk.h"
#include "cases_fts5.h"
#include "cases_rtree.h"
#include "child.h"

namespace basalt::bench {
namespace {

struct Options {
  std::string dir = "bench-data";
  int reps = 3;
  int64_t rows = 1000000;
  int64_t txns = 100000;
  int64_t lookups = 200000;
  int64_t big_bytes = int64_t{1} << 30;
  int64_t bulk_rows = 200000;  // rows of the bulk cases (cases_bulk.cc)
  bool bulk_memory = false;    // the bulk cases on ":memory:" databases
  int64_t fts5_docs = 20000;   // the FTS5 cases; --fts5-docs 100000 for the full size
  int64_t sort_rows = 0;       // sort_big / index_big rows (0: not run)
  std::vector<std::string> only;
};

[[noreturn]] void Die(const std::string& what) {
  std::fprintf(stderr, "basalt-bench: %s\n", what.c_str());
  std::exit(2);
}

double Now() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// A deterministic pseudo-random sequence (same for both engines).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed * 2654435761u + 1) {}
  uint64_t Next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

// A connection with checked calls.
class Db {
 public:
  Db(const Api& a, const std::string& path, int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
      : a_(a) {
    if (a_.open_v2(path.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
      Die("open " + path + ": " + a_.errmsg(db_));
    }
  }
  ~Db() { a_.close(db_); }
  void Exec(const char* sql) {
    char* err = nullptr;
    if (a_.exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
      Die(std::string(sql) + ": " + (err ? err : a_.errmsg(db_)));
    }
  }
  sqlite3_stmt* Prepare(const char* sql) {
    sqlite3_stmt* st = nullptr;
    if (a_.prepare_v2(db_, sql, -1, &st, nullptr) != SQLITE_OK) {
      Die(std::string(sql) + ": " + a_.errmsg(db_));
    }
    return st;
  }
  void StepDone(sqlite3_stmt* st) {
    int rc = a_.step(st);
    if (rc != SQLITE_DONE) Die(std::string("step: ") + a_.errmsg(db_));
    a_.reset(st);
  }
  const Api& api() const { return a_; }

 private:
  const Api& a_;
  sqlite3* db_ = nullptr;
};

void RemoveDb(const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    ::unlink((path + suffix).c_str());
  }
}

void CopyFile(const std::string& from, const std::string& to) {
  RemoveDb(to);
  std::string cmd = "cp '" + from + "' '" + to + "'";
  if (std::system(cmd.c_str()) != 0) Die("cannot copy " + from);
}

bool Exists(const std::string& path) {
  struct stat sb;
  return ::stat(path.c_str(), &sb) == 0;
}

// The row every workload inserts for key i.
void BindRow(const Api& a, sqlite3_stmt* st, Rng& rng, int first_param) {
  char text[40];
  uint64_t r = rng.Next();
  int n = std::snprintf(text, sizeof text, "row-%llu-%llu",
                        static_cast<unsigned long long>(r % 1000003),
                        static_cast<unsigned long long>(r >> 40));
  a.bind_int64(st, first_param, static_cast<int64_t>(r % 1000000007));
  a.bind_text(st, first_param + 1, text, n, SQLITE_TRANSIENT);
  a.bind_double(st, first_param + 2, static_cast<double>(r % 100000) / 7.0);
}

const char* kCreate = "CREATE TABLE t(id INTEGER PRIMARY KEY, a INTEGER, b TEXT, c REAL)";

// ---- workloads: each returns the seconds it took ----

double InsertMillion(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  double t0 = Now();
  {
    Db db(a, path);
    db.Exec(kCreate);
    db.Exec("BEGIN");
    sqlite3_stmt* ins = db.Prepare("INSERT INTO t(a,b,c) VALUES(?,?,?)");
    Rng rng(1);
    for (int64_t i = 0; i < o.rows; ++i) {
      BindRow(a, ins, rng, 1);
      db.StepDone(ins);
    }
    a.finalize(ins);
    db.Exec("COMMIT");
  }
  return Now() - t0;
}

double InsertMillionIndexed(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  double t0 = Now();
  {
    Db db(a, path);
    db.Exec(kCreate);
    db.Exec("CREATE INDEX t_a ON t(a)");
    db.Exec("BEGIN");
    sqlite3_stmt* ins = db.Prepare("INSERT INTO t(a,b,c) VALUES(?,?,?)");
    Rng rng(1);
    for (int64_t i = 0; i < o.rows; ++i) {
      BindRow(a, ins, rng, 1);
      db.StepDone(ins);
    }
    a.finalize(ins);
    db.Exec("COMMIT");
  }
  return Now() - t0;
}

double SmallTransactions(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  double t0 = Now();
  {
    Db db(a, path);
    db.Exec("PRAGMA synchronous=OFF");
    db.Exec(kCreate);
    sqlite3_stmt* ins = db.Prepare("INSERT INTO t(a,b,c) VALUES(?,?,?)");
    Rng rng(2);
    for (int64_t i = 0; i < o.txns; ++i) {
      BindRow(a, ins, rng, 1);
      db.StepDone(ins);
    }
    a.finalize(ins);
  }
  return Now() - t0;
}

double LookupRowid(const Api& a, const Options& o, const std::string& path) {
  double t0 = Now();
  {
    Db db(a, path, SQLITE_OPEN_READONLY);
    sqlite3_stmt* q = db.Prepare("SELECT a, b FROM t WHERE id=?");
    Rng rng(3);
    int64_t found = 0;
    for (int64_t i = 0; i < o.lookups; ++i) {
      a.bind_int64(q, 1, static_cast<int64_t>(rng.Next() % static_cast<uint64_t>(o.rows)) + 1);
      while (a.step(q) == SQLITE_ROW) found += a.column_bytes(q, 1) > 0;
      a.reset(q);
    }
    a.finalize(q);
    if (found != o.lookups) Die("rowid lookups found " + std::to_string(found) + " rows");
  }
  return Now() - t0;
}

double LookupIndex(const Api& a, const Options& o, const std::string& path) {
  // The keys to look up: the values of column a, as inserted.
  std::vector<int64_t> keys;
  {
    Rng rng(1);
    for (int64_t i = 0; i < o.rows; ++i)
      keys.push_back(static_cast<int64_t>(rng.Next() % 1000000007));
  }
  double t0 = Now();
  {
    Db db(a, path, SQLITE_OPEN_READONLY);
    sqlite3_stmt* q = db.Prepare("SELECT id FROM t WHERE a=?");
    Rng rng(4);
    int64_t found = 0;
    for (int64_t i = 0; i < o.lookups; ++i) {
      a.bind_int64(q, 1, keys[rng.Next() % keys.size()]);
      while (a.step(q) == SQLITE_ROW) found += a.column_int64(q, 0) > 0;
      a.reset(q);
    }
    a.finalize(q);
    if (found < o.lookups) Die("index lookups found " + std::to_string(found) + " rows");
  }
  return Now() - t0;
}

// Point lookups by the text primary key of a WITHOUT ROWID table. Each
// engine first writes the table itself (not timed; the file formats are
// the same), then looks rows up by key.
double LookupWithoutRowid(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  auto key = [](int64_t i, char* buf) {
    return std::snprintf(buf, 32, "key%010lld", static_cast<long long>(i * 7919 % 1000000007));
  };
  char buf[32];
  {
    Db db(a, path);
    db.Exec("CREATE TABLE w(k TEXT PRIMARY KEY, a INTEGER, b TEXT, c REAL) WITHOUT ROWID");
    db.Exec("BEGIN");
    sqlite3_stmt* ins = db.Prepare("INSERT INTO w VALUES(?, ?, ?, ?)");
    Rng rng(5);
    for (int64_t i = 0; i < o.rows; ++i) {
      int n = key(i, buf);
      a.bind_text(ins, 1, buf, n, SQLITE_TRANSIENT);
      BindRow(a, ins, rng, 2);
      db.StepDone(ins);
    }
    a.finalize(ins);
    db.Exec("COMMIT");
  }
  double t0 = Now();
  {
    Db db(a, path, SQLITE_OPEN_READONLY);
    sqlite3_stmt* q = db.Prepare("SELECT a, b FROM w WHERE k=?");
    Rng rng(6);
    int64_t found = 0;
    for (int64_t i = 0; i < o.lookups; ++i) {
      int n = key(static_cast<int64_t>(rng.Next() % static_cast<uint64_t>(o.rows)), buf);
      a.bind_text(q, 1, buf, n, SQLITE_TRANSIENT);
      while (a.step(q) == SQLITE_ROW) found += a.column_bytes(q, 1) > 0;
      a.reset(q);
    }
    a.finalize(q);
    if (found != o.lookups) Die("WITHOUT ROWID lookups found " + std::to_string(found) + " rows");
  }
  return Now() - t0;
}

double FullScan(const Api& a, const Options& o, const std::string& path) {
  double t0 = Now();
  {
    Db db(a, path, SQLITE_OPEN_READONLY);
    sqlite3_stmt* q = db.Prepare("SELECT id, a, b, c FROM t");
    int64_t rows = 0;
    double sum = 0;
    while (a.step(q) == SQLITE_ROW) {
      ++rows;
      sum +=
          static_cast<double>(a.column_int64(q, 1)) + a.column_double(q, 3) + a.column_bytes(q, 2);
    }
    a.finalize(q);
    if (rows != o.rows || sum <= 0) Die("scan saw " + std::to_string(rows) + " rows");
  }
  return Now() - t0;
}

double OpenBig(const Api& a, const Options&, const std::string& path) {
  double t0 = Now();
  for (int i = 0; i < 200; ++i) {
    Db db(a, path, SQLITE_OPEN_READONLY);
    sqlite3_stmt* q = db.Prepare("SELECT length(v) FROM big WHERE k=12345");
    int rc = a.step(q);
    if (rc != SQLITE_ROW || a.column_int64(q, 0) <= 0) Die("big lookup failed");
    a.finalize(q);
  }
  return Now() - t0;
}

// ---- writes of the SQL-features issue (setup untimed) ----

// UPSERT of o.rows rows into a table that holds every even key already:
// half of them conflict and update the row.
double UpsertHalfConflicting(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  db.Exec("CREATE TABLE u(id INTEGER PRIMARY KEY, k INTEGER UNIQUE, n INTEGER)");
  db.Exec("BEGIN");
  sqlite3_stmt* fill = db.Prepare("INSERT INTO u(k, n) VALUES(?, 1)");
  for (int64_t k = 0; k < o.rows; k += 2) {
    a.bind_int64(fill, 1, k);
    db.StepDone(fill);
  }
  a.finalize(fill);
  db.Exec("COMMIT");
  double t0 = Now();
  db.Exec("BEGIN");
  sqlite3_stmt* up = db.Prepare(
      "INSERT INTO u(k, n) VALUES(?, 1) ON CONFLICT(k) DO UPDATE SET n = n + excluded.n");
  for (int64_t k = 0; k < o.rows; ++k) {
    a.bind_int64(up, 1, k);
    db.StepDone(up);
  }
  a.finalize(up);
  db.Exec("COMMIT");
  return Now() - t0;
}

// One UPDATE ... RETURNING handing back o.rows / 10 rows.
double ReturningRows(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  db.Exec(kCreate);
  db.Exec("BEGIN");
  sqlite3_stmt* ins = db.Prepare("INSERT INTO t(a,b,c) VALUES(?,?,?)");
  Rng rng(5);
  int64_t n = o.rows / 10;
  for (int64_t i = 0; i < n; ++i) {
    BindRow(a, ins, rng, 1);
    db.StepDone(ins);
  }
  a.finalize(ins);
  db.Exec("COMMIT");
  double t0 = Now();
  sqlite3_stmt* q = db.Prepare("UPDATE t SET a = a + 1 RETURNING id, a, b");
  int64_t rows = 0, bytes = 0;
  while (a.step(q) == SQLITE_ROW) {
    ++rows;
    bytes += a.column_int64(q, 1) > 0 ? a.column_bytes(q, 2) : 0;
  }
  a.finalize(q);
  if (rows != n || bytes <= 0) Die("RETURNING gave " + std::to_string(rows) + " rows");
  return Now() - t0;
}

// json_extract(doc, '$.b.c') over o.rows JSON documents of about 90 bytes
// (the table is written first, untimed, by the engine under test).
double JsonExtract(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  db.Exec("CREATE TABLE docs(id INTEGER PRIMARY KEY, doc TEXT)");
  std::string fill =
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " +
      std::to_string(o.rows) +
      ") INSERT INTO docs(doc) SELECT printf('{\"a\":%d,\"b\":{\"c\":%d,\"d\":\"row-%d\"},"
      "\"e\":[1,2.5,true,null],\"f\":\"x\"}', i % 1000, i * 7919 % 100000 + 1, i) FROM n";
  db.Exec(fill.c_str());
  double t0 = Now();
  sqlite3_stmt* q = db.Prepare("SELECT json_extract(doc, '$.b.c') FROM docs");
  int64_t rows = 0, sum = 0;
  while (a.step(q) == SQLITE_ROW) {
    ++rows;
    sum += a.column_int64(q, 0);
  }
  a.finalize(q);
  if (rows != o.rows || sum <= 0) Die("json_extract saw " + std::to_string(rows) + " rows");
  return Now() - t0;
}

// A FULL JOIN of two tables of o.rows/10 rows each on an indexed key, a
// third of the keys of each side matching (written first, untimed, by the
// engine under test): every joined row is read.
double FullJoin(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  const std::string n = std::to_string(std::max<int64_t>(o.rows / 10, 1));
  db.Exec("CREATE TABLE l(id INTEGER PRIMARY KEY, k INTEGER, v INTEGER)");
  db.Exec("CREATE TABLE r(id INTEGER PRIMARY KEY, k INTEGER, w INTEGER)");
  db.Exec(("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + n +
           ") INSERT INTO l(k, v) SELECT i * 2, i FROM n")
              .c_str());
  db.Exec(("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + n +
           ") INSERT INTO r(k, w) SELECT i * 3, i FROM n")
              .c_str());
  db.Exec("CREATE INDEX r_k ON r(k)");
  double t0 = Now();
  sqlite3_stmt* q = db.Prepare("SELECT l.v, r.w FROM l FULL JOIN r ON l.k = r.k");
  int64_t rows = 0, sum = 0;
  while (a.step(q) == SQLITE_ROW) {
    ++rows;
    sum += a.column_int64(q, 0) + a.column_int64(q, 1);
  }
  a.finalize(q);
  if (rows <= 0 || sum <= 0) Die("FULL JOIN saw " + std::to_string(rows) + " rows");
  return Now() - t0;
}

// ALTER TABLE ADD COLUMN on the fixture's table, then a scan that reads the
// new column (its default, from every row that predates it).
double AlterAddColumn(const Api& a, const Options& o, const std::string& path) {
  Db db(a, path);
  double t0 = Now();
  db.Exec("ALTER TABLE t ADD COLUMN d INTEGER DEFAULT 7");
  sqlite3_stmt* q = db.Prepare("SELECT count(*) FROM t WHERE d = 7");
  if (a.step(q) != SQLITE_ROW || a.column_int64(q, 0) != o.rows) Die("ADD COLUMN scan failed");
  a.finalize(q);
  return Now() - t0;
}

// The table of the window benchmarks: o.rows rows, x random, g in 1000
// groups.
void FillWindowTable(const Api& a, const Options& o, const std::string& path, Db* db) {
  (void)path;
  db->Exec("CREATE TABLE w(id INTEGER PRIMARY KEY, g INTEGER, x INTEGER)");
  db->Exec("BEGIN");
  sqlite3_stmt* ins = db->Prepare("INSERT INTO w(g, x) VALUES(?, ?)");
  Rng rng(11);
  for (int64_t i = 0; i < o.rows; ++i) {
    a.bind_int64(ins, 1, static_cast<int64_t>(rng.Next() % 1000));
    a.bind_int64(ins, 2, static_cast<int64_t>(rng.Next() % 1000000));
    db->StepDone(ins);
  }
  a.finalize(ins);
  db->Exec("COMMIT");
}

// Reads every row of a one-column window query; returns the time.
double TimeWindowQuery(const Api& a, const Options& o, Db* db, const char* sql) {
  double t0 = Now();
  sqlite3_stmt* q = db->Prepare(sql);
  int64_t rows = 0, sum = 0;
  while (a.step(q) == SQLITE_ROW) {
    ++rows;
    sum += a.column_int64(q, 0);
  }
  a.finalize(q);
  if (rows != o.rows || sum <= 0) Die(std::string("window query gave wrong rows: ") + sql);
  return Now() - t0;
}

// A sliding frame of 21 rows over every row.
double WindowSum(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  FillWindowTable(a, o, path, &db);
  return TimeWindowQuery(
      a, o, &db,
      "SELECT sum(x) OVER (ORDER BY id ROWS BETWEEN 10 PRECEDING AND 10 FOLLOWING) FROM w");
}

// rank() in 1000 partitions (a sort by g, x).
double WindowRank(const Api& a, const Options& o, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  FillWindowTable(a, o, path, &db);
  return TimeWindowQuery(a, o, &db, "SELECT rank() OVER (PARTITION BY g ORDER BY x) FROM w");
}

// A cascading delete: 1000 parent rows, 100 children each (100k rows, an
// index on the child key); the time is that of `DELETE FROM parent`, which
// deletes every child through ON DELETE CASCADE.
double FkCascade(const Api& a, const Options&, const std::string& path) {
  RemoveDb(path);
  Db db(a, path);
  db.Exec("PRAGMA foreign_keys=ON");
  db.Exec("CREATE TABLE parent(id INTEGER PRIMARY KEY, name TEXT)");
  db.Exec(
      "CREATE TABLE child(id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(id) "
      "ON DELETE CASCADE, v TEXT)");
  db.Exec("CREATE INDEX child_pid ON child(pid)");
  db.Exec("BEGIN");
  sqlite3_stmt* ins = db.Prepare("INSERT INTO parent VALUES(?, 'parent')");
  for (int64_t i = 1; i <= 1000; ++i) {
    a.bind_int64(ins, 1, i);
    db.StepDone(ins);
  }
  a.finalize(ins);
  ins = db.Prepare("INSERT INTO child(pid, v) VALUES(?, 'child row')");
  Rng rng(5);
  for (int64_t i = 0; i < 100000; ++i) {
    a.bind_int64(ins, 1, static_cast<int64_t>(rng.Next() % 1000) + 1);
    db.StepDone(ins);
  }
  a.finalize(ins);
  db.Exec("COMMIT");
  double t0 = Now();
  db.Exec("DELETE FROM parent");
  double t = Now() - t0;
  sqlite3_stmt* q = db.Prepare("SELECT count(*) FROM child");
  if (a.step(q) != SQLITE_ROW || a.column_int64(q, 0) != 0) Die("fk_cascade left child rows");
  a.finalize(q);
  return t;
}

// ---- fixtures (written by the system sqlite3) ----

void MakeFixture(const Api& sqlite, const Options& o, const std::string& path) {
  if (Exists(path)) return;
  std::string tmp = path + ".tmp";
  InsertMillionIndexed(sqlite, o, tmp);
  if (std::rename(tmp.c_str(), path.c_str()) != 0) Die("rename " + tmp);
}

void MakeBig(const Api& sqlite, const Options& o, const std::string& path) {
  if (Exists(path)) return;
  std::string tmp = path + ".tmp";
  RemoveDb(tmp);
  {
    Db db(sqlite, tmp);
    db.Exec("CREATE TABLE big(k INTEGER PRIMARY KEY, v BLOB)");
    db.Exec("CREATE TABLE small(x, y)");
    db.Exec("CREATE INDEX small_x ON small(x)");
    db.Exec("BEGIN");
    sqlite3_stmt* ins = db.Prepare("INSERT INTO big(k, v) VALUES(?, zeroblob(1000))");
    int64_t n = o.big_bytes / 1024;
    for (int64_t i = 1; i <= n; ++i) {
      sqlite.bind_int64(ins, 1, i);
      db.StepDone(ins);
    }
    sqlite.finalize(ins);
    db.Exec("COMMIT");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) Die("rename " + tmp);
}

struct Workload {
  const char* name;
  const char* what;
  std::function<double(const Api&, const Options&, const std::string&)> run;
  bool reads_fixture;  // runs on a copy of the sqlite3-written fixture
  bool reads_big;
};

bool Wanted(const Options& o, const char* name) {
  return o.only.empty() || std::find(o.only.begin(), o.only.end(), name) != o.only.end();
}

int Main(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) Die("missing value for " + arg);
      return argv[++i];
    };
    if (arg == "--dir") {
      o.dir = value();
    } else if (arg == "--reps") {
      o.reps = std::max(1, std::atoi(value().c_str()));
    } else if (arg == "--rows") {
      o.rows = std::max<int64_t>(1000, std::atoll(value().c_str()));
    } else if (arg == "--bulk-rows") {
      o.bulk_rows = std::max<int64_t>(1000, std::atoll(value().c_str()));
    } else if (arg == "--memory") {
      o.bulk_memory = true;
    } else if (arg == "--wal") {
      BulkUseWal(true);
    } else if (arg == "--big-mb") {
      o.big_bytes = std::max<int64_t>(1, std::atoll(value().c_str())) << 20;
    } else if (arg == "--sort-rows") {
      o.sort_rows = std::max<int64_t>(0, std::atoll(value().c_str()));
    } else if (arg == "--fts5-docs") {
      o.fts5_docs = std::max<int64_t>(100, std::atoll(value().c_str()));
    } else if (arg == "--only") {
      std::string v = value();
      size_t p = 0;
      while (p <= v.size()) {
        size_t c = v.find(',', p);
        if (c == std::string::npos) c = v.size();
        o.only.push_back(v.substr(p, c - p));
        p = c + 1;
      }
    } else {
      Die("unknown option " + arg +
          " (usage: basalt-bench [--dir DIR] [--reps N] [--rows N] [--big-mb N] [--only a,b] "
          "[--bulk-rows N] [--memory] [--wal] [--fts5-docs N] [--sort-rows N])");
    }
  }
  o.txns = std::max<int64_t>(1000, o.rows / 10);
  o.lookups = std::max<int64_t>(1000, o.rows / 5);
  ::mkdir(o.dir.c_str(), 0755);

  Engine basalt{"basalt", BasaltLibrary(), {}};
  Engine sqlite{"sqlite", "libsqlite3.so.0", {}};
  std::string err;
  if (!LoadApi(&basalt, &err) || !LoadApi(&sqlite, &err)) Die(err);

  std::vector<Workload> all = {
      {"insert", "insert rows in one transaction", InsertMillion, false, false},
      {"insert_indexed", "insert rows in one transaction, indexed column", InsertMillionIndexed,
       false, false},
      {"txns", "single-row transactions, synchronous=OFF", SmallTransactions, false, false},
      {"lookup_rowid", "point lookups by rowid", LookupRowid, true, false},
      {"lookup_index", "point lookups by index", LookupIndex, true, false},
      {"lookup_wr", "point lookups by WITHOUT ROWID primary key", LookupWithoutRowid, false, false},
      {"scan", "full scan reading every column", FullScan, true, false},
      {"open_big", "open a 1 GB database and read one row (x200)", OpenBig, false, true},
      {"upsert", "UPSERT rows in one transaction, half conflicting", UpsertHalfConflicting, false,
       false},
      {"returning", "UPDATE ... RETURNING of rows/10 rows", ReturningRows, false, false},
      {"fk_cascade", "DELETE of 1k parents cascading to 100k indexed children", FkCascade, false,
       false},
      {"alter_add", "ALTER TABLE ADD COLUMN, then scan the new column", AlterAddColumn, true,
       false},
      {"json_extract", "json_extract(doc, '$.b.c') over rows JSON documents", JsonExtract, false,
       false},
      {"window_sum", "sum() OVER a sliding 21-row ROWS frame, every row", WindowSum, false, false},
      {"window_rank", "rank() OVER (PARTITION BY g ORDER BY x), 1k groups", WindowRank, false,
       false},
      {"full_join", "FULL JOIN of two rows/10-row tables on an indexed key", FullJoin, false,
       false},
      {"rtree_insert", "100k inserts into a 2-D rtree, one transaction",
       [](const Api& a, const Options&, const std::string& p) { return RtreeInsert(a, p); }, false,
       false},
      {"rtree_query", "10k window queries on a 100k-row 2-D rtree",
       [](const Api& a, const Options&, const std::string& p) { return RtreeQuery(a, p); }, false,
       false},
      {"fts5_build", "FTS5 index over --fts5-docs ~1 KB documents, one transaction",
       [](const Api& a, const Options& o, const std::string& p) {
         return Fts5Build(a, p, o.fts5_docs);
       },
       false, false},
      {"fts5_query", "10k bm25-ranked MATCH queries (ORDER BY rank LIMIT 10)",
       [](const Api& a, const Options& o, const std::string& p) {
         return Fts5Query(a, p, o.fts5_docs);
       },
       false, false},
  };
  for (const BulkCase& bc : BulkCases()) {
    auto run = bc.run;
    all.push_back({bc.name, bc.what,
                   [run](const Api& a, const Options& opt, const std::string& p) {
                     return run(a, opt.bulk_rows, opt.bulk_memory ? ":memory:" : p);
                   },
                   false, false});
  }
  if (o.sort_rows > 0) {
    // Always on a file: the table itself must not count as sort memory.
    all.push_back({"sort_big", "ORDER BY a TEXT column over --sort-rows rows",
                   [](const Api& a, const Options& opt, const std::string& p) {
                     return BigSort(a, opt.sort_rows, p);
                   },
                   false, false});
    all.push_back({"index_big", "CREATE INDEX on a TEXT column of --sort-rows rows",
                   [](const Api& a, const Options& opt, const std::string& p) {
                     return BigIndex(a, opt.sort_rows, p);
                   },
                   false, false});
  }
  std::string fixture = o.dir + "/fixture-" + std::to_string(o.rows) + ".db";
  std::string big = o.dir + "/big-" + std::to_string(o.big_bytes >> 20) + "mb.db";
  bool need_fixture = false, need_big = false;
  for (auto& w : all) {
    if (!Wanted(o, w.name)) continue;
    need_fixture |= w.reads_fixture;
    need_big |= w.reads_big;
  }
  if (need_fixture) MakeFixture(sqlite.api, o, fixture);
  if (need_big) MakeBig(sqlite.api, o, big);

  std::printf("basalt: %s (%s)\nsqlite: %s (%s)\nrows %lld, %d repetitions (best of)\n\n",
              basalt.library.c_str(), basalt.api.libversion(), sqlite.library.c_str(),
              sqlite.api.libversion(), static_cast<long long>(o.rows), o.reps);
  // Each engine's resident set after opening a database and running one
  // statement: the fixed part of every peak below (code pages, tables).
  // (The child's "seconds" carry its file-backed resident KiB: code pages.)
  RunResult base[2];
  for (int e = 0; e < 2; ++e) {
    const Api& api = (e == 0 ? basalt : sqlite).api;
    base[e] = RunInChild([&] {
      Db db(api, ":memory:");
      db.Exec("CREATE TABLE t(x); INSERT INTO t VALUES(1); SELECT * FROM t ORDER BY x");
      return static_cast<double>(ResidentFileKb());
    });
  }
  std::printf(
      "peak RSS of opening a database and one statement: basalt %.1f MB, sqlite %.1f MB "
      "(file-backed: %.1f / %.1f MB)\n\n",
      static_cast<double>(base[0].max_rss_kb) / 1024,
      static_cast<double>(base[1].max_rss_kb) / 1024, base[0].seconds / 1024,
      base[1].seconds / 1024);
  std::printf("%-15s %10s %10s %7s %9s %9s %6s  %s\n", "workload", "basalt s", "sqlite s", "ratio",
              "basalt MB", "sqlite MB", "rss", "what");
  double worst = 0, worst_rss = 0, log_sum = 0;
  int n_run = 0;
  for (auto& w : all) {
    if (!Wanted(o, w.name)) continue;
    double best[2] = {1e300, 1e300};
    long rss[2] = {0, 0};
    for (int r = 0; r < o.reps; ++r) {
      std::fprintf(stderr, "\r%-15s run %d/%d ", w.name, r + 1, o.reps);
      for (int e = 0; e < 2; ++e) {
        // Alternate which engine goes first, so neither always runs warm.
        int which = (r % 2 == 0) ? e : 1 - e;
        Engine& eng = which == 0 ? basalt : sqlite;
        std::string path = o.dir + "/run-" + eng.name + ".db";
        if (w.reads_fixture) CopyFile(fixture, path);
        const std::string& target = w.reads_big ? big : path;
        RunResult res = RunInChild([&] { return w.run(eng.api, o, target); });
        best[which] = std::min(best[which], res.seconds);
        rss[which] = std::max(rss[which], res.max_rss_kb);
      }
    }
    std::fprintf(stderr, "\r%-30s\r", "");
    double ratio = best[0] / best[1];
    double rss_ratio = static_cast<double>(rss[0]) / static_cast<double>(std::max(rss[1], 1L));
    worst = std::max(worst, ratio);
    worst_rss = std::max(worst_rss, rss_ratio);
    log_sum += std::log(ratio);
    ++n_run;
    std::printf("%-15s %10.3f %10.3f %7.2f %9.1f %9.1f %6.2f  %s\n", w.name, best[0], best[1],
                ratio, static_cast<double>(rss[0]) / 1024, static_cast<double>(rss[1]) / 1024,
                rss_ratio, w.what);
    std::fflush(stdout);
  }
  std::printf("\nworst ratio %.2f, geometric mean %.2f, worst peak-RSS ratio %.2f\n", worst,
              n_run ? std::exp(log_sum / n_run) : 0.0, worst_rss);
  for (const char* e : {"basalt", "sqlite"}) RemoveDb(o.dir + "/run-" + std::string(e) + ".db");
  return 0;
}

}  // namespace
}  // namespace basalt::bench

int main(int argc, char** argv) { return basalt::bench::Main(argc, argv); }
