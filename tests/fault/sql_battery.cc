#include "sql_battery.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace basalt::faulttest {
namespace {

namespace fs = std::filesystem;

// The database every loop starts from: a 1 KiB page size (more pages, so
// more page reads and writes per step) and a WITHOUT ROWID table the
// delete trigger counts in.
constexpr const char* kInitial =
    "PRAGMA page_size=1024; PRAGMA journal_mode=DELETE;"
    "CREATE TABLE meta(k TEXT PRIMARY KEY, v INT) WITHOUT ROWID;"
    "INSERT INTO meta VALUES('deletes', 0), ('version', 1)";

const std::vector<BatteryStep> kSteps = {
    {nullptr,
     "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT NOT NULL, c REAL CHECK(c >= 0), d BLOB)"},
    {nullptr, "CREATE TABLE log(id INTEGER PRIMARY KEY, what TEXT, n INT)"},
    {nullptr, "CREATE INDEX tb ON t(b)"},
    {nullptr, "CREATE INDEX tcd ON t(c DESC, d) WHERE c > 10"},
    {nullptr,
     "CREATE TRIGGER tr AFTER INSERT ON t BEGIN "
     "INSERT INTO log(what, n) VALUES('ins', new.a); END"},
    {nullptr,
     "CREATE TRIGGER tu AFTER UPDATE OF c ON t WHEN new.c > 50 BEGIN "
     "INSERT INTO log(what, n) VALUES('upd', new.a); END"},
    {nullptr,
     "CREATE TRIGGER td BEFORE DELETE ON t BEGIN "
     "UPDATE meta SET v = v + 1 WHERE k = 'deletes'; END"},
    {nullptr, "CREATE VIEW v AS SELECT b, count(*) AS n, sum(c) AS s FROM t GROUP BY b"},
    {nullptr,
     "INSERT INTO t(b, c, d) WITH RECURSIVE s(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM s "
     "WHERE i < 80) SELECT 'row' || (i % 13), i * 1.5, "
     "CAST(printf('%0*d', CASE WHEN i % 9 = 0 THEN i * 23 ELSE i * 3 END, i) AS BLOB) FROM s"},
    {nullptr,
     "BEGIN; UPDATE t SET c = c * 2 WHERE a % 3 = 0; DELETE FROM t WHERE a % 7 = 0;"
     "INSERT INTO t(b, c, d) SELECT b || 'x', c + 1, d FROM t WHERE a < 10; COMMIT"},
    {nullptr,
     "UPDATE t SET b = upper(b) WHERE a IN (SELECT n FROM log WHERE what = 'upd' AND n % 2 = 0)"},
    {nullptr,
     "CREATE TABLE agg AS SELECT b, count(*) AS n, sum(c) AS s, max(length(d)) AS m FROM t "
     "GROUP BY b ORDER BY s DESC"},
    {nullptr, "SELECT b, n, s FROM v ORDER BY n DESC, b"},
    {nullptr,
     "SELECT a, (SELECT count(*) FROM log WHERE n = t.a) FROM t "
     "WHERE c > (SELECT avg(c) FROM t) ORDER BY b, a"},
    {nullptr,
     "SELECT b, group_concat(a, ',') FROM (SELECT * FROM t ORDER BY a DESC) GROUP BY b "
     "HAVING count(*) > 1 ORDER BY 2"},
    {nullptr, "SELECT DISTINCT substr(b, 1, 4) FROM t UNION SELECT what FROM log ORDER BY 1"},
    {nullptr,
     "SELECT a, sum(c) OVER (PARTITION BY b ORDER BY a), "
     "rank() OVER (ORDER BY length(d) DESC) FROM t ORDER BY a"},
    {nullptr, "DELETE FROM t WHERE b IN (SELECT b FROM agg WHERE n < 6)"},
    {nullptr, "ALTER TABLE t ADD COLUMN e TEXT DEFAULT 'e'"},
    {nullptr, "ALTER TABLE log RENAME TO events"},
    {nullptr, "DROP INDEX tcd"},
    {nullptr, "VACUUM"},
    {nullptr, "PRAGMA journal_mode=WAL"},
    {nullptr, "INSERT INTO t(b, c, d) SELECT b || 'w', c / 2, d FROM t WHERE a % 2 = 0"},
    {nullptr,
     "BEGIN; UPDATE t SET c = c + 100 WHERE a % 5 = 1; DELETE FROM t WHERE a % 11 = 0;"
     "CREATE INDEX te ON t(e, b); COMMIT"},
    {"UPDATE t SET c = c + 1 WHERE a % 2 = 0; INSERT INTO events(what, n) VALUES('pre', 1)",
     "PRAGMA wal_checkpoint(TRUNCATE)"},
    {nullptr, "SELECT count(*), sum(c), group_concat(DISTINCT b) FROM t"},
    {"UPDATE t SET e = 'f' WHERE a % 3 = 0", "VACUUM"},
    {"DELETE FROM events WHERE id % 2 = 0", "PRAGMA journal_mode=DELETE"},
};

// FNV-1a over the rows a step returns (no allocation: it runs while the
// fault is armed).
struct RowHash {
  uint64_t h = 1469598103934665603ull;
  void Add(const char* s) {
    if (s == nullptr) s = "\x01NULL";
    for (; *s != 0; ++s) h = (h ^ static_cast<unsigned char>(*s)) * 1099511628211ull;
    h = (h ^ 0xff) * 1099511628211ull;
  }
};

int HashRow(void* arg, int n, char** values, char**) {
  auto* rh = static_cast<RowHash*>(arg);
  for (int i = 0; i < n; ++i) rh->Add(values[i]);
  rh->Add("\n");
  return 0;
}

// Rows of one query as text; false on error.
bool Collect(sqlite3* db, const std::string& sql, std::string* out, long* rows) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), -1, &s, nullptr) != SQLITE_OK) return false;
  int rc;
  while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
    ++*rows;
    for (int i = 0; i < sqlite3_column_count(s); ++i) {
      const unsigned char* t = sqlite3_column_text(s, i);
      out->append(t != nullptr ? reinterpret_cast<const char*>(t) : "NULL");
      out->push_back('|');
    }
    out->push_back('\n');
  }
  sqlite3_finalize(s);
  return rc == SQLITE_DONE;
}

std::string IntegrityCheck(sqlite3* db) {
  std::string out;
  long rows = 0;
  if (!Collect(db, "PRAGMA integrity_check", &out, &rows)) {
    return std::string("integrity_check failed: ") + sqlite3_errmsg(db);
  }
  if (out == "ok|\n") return "ok";
  return out;
}

void CopyFile(const fs::path& from, const fs::path& to) {
  std::ifstream in(from, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream out(to, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

void RemoveDb(const fs::path& db) {
  for (const char* suffix : {"", "-journal", "-wal", "-shm"}) {
    std::error_code ec;
    fs::remove(db.string() + suffix, ec);
  }
}

// What the reference run recorded for one step.
struct Expected {
  fs::path snapshot;       // the database file before the step
  std::string before;      // digest after the prelude
  std::string after;       // digest after the step
  uint64_t rows_hash = 0;  // hash of the rows the step returned
};

struct Loop {
  fs::path dir;
  const FaultHooks& hooks;
  bool persistent;
  LoopResult result;
  std::vector<Expected> expected;

  sqlite3* Open(const fs::path& db, const char* vfs) {
    sqlite3* h = nullptr;
    int rc = sqlite3_open_v2(db.c_str(), &h, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, vfs);
    if (rc != SQLITE_OK) {
      Problem("open " + db.string() + ": " + sqlite3_errstr(rc));
      sqlite3_close(h);
      return nullptr;
    }
    sqlite3_exec(h, hooks.setup, nullptr, nullptr, nullptr);
    return h;
  }

  void Problem(const std::string& what) {
    if (result.problems.size() < 8) result.problems.push_back(what);
  }

  bool Reference();
  void Trial(size_t step, long n, bool* fired);
  void CheckAfter(sqlite3* db, const fs::path& path, size_t step, const std::string& where);
};

bool Loop::Reference() {
  fs::path db = dir / "ref.db";
  RemoveDb(db);
  sqlite3* h = Open(db, nullptr);
  if (h == nullptr) return false;
  if (sqlite3_exec(h, kInitial, nullptr, nullptr, nullptr) != SQLITE_OK) {
    Problem(std::string("initial: ") + sqlite3_errmsg(h));
    sqlite3_close(h);
    return false;
  }
  for (size_t i = 0; i < kSteps.size(); ++i) {
    sqlite3_close(h);
    Expected e;
    e.snapshot = dir / ("step" + std::to_string(i) + ".db");
    CopyFile(db, e.snapshot);
    h = Open(db, nullptr);
    if (h == nullptr) return false;
    long rows = 0;
    if (kSteps[i].prelude != nullptr) {
      sqlite3_exec(h, kSteps[i].prelude, nullptr, nullptr, nullptr);
    }
    e.before = Digest(h, &rows);
    RowHash rh;
    if (sqlite3_exec(h, kSteps[i].sql, HashRow, &rh, nullptr) != SQLITE_OK) {
      Problem("reference step " + std::to_string(i) + ": " + sqlite3_errmsg(h));
      sqlite3_close(h);
      return false;
    }
    e.rows_hash = rh.h;
    e.after = Digest(h, &rows);
    expected.push_back(e);
  }
  sqlite3_close(h);
  RemoveDb(db);
  return true;
}

// With faults off: roll back what is open, then the state must be the one
// before or after the step, on this connection and on a new one.
void Loop::CheckAfter(sqlite3* db, const fs::path& path, size_t step, const std::string& where) {
  const Expected& e = expected[step];
  if (sqlite3_get_autocommit(db) == 0) {
    int rc = sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) Problem(where + ": ROLLBACK answered " + sqlite3_errstr(rc));
  }
  std::string ic = IntegrityCheck(db);
  if (ic != "ok") Problem(where + ": integrity_check: " + ic);
  long rows = 0;
  std::string got = Digest(db, &rows);
  result.rows_checked += rows;
  if (got != e.before && got != e.after) {
    Problem(where + ": rows neither before nor after" +
            (std::getenv("BASALT_FAULT_VERBOSE") ? "\n" + got + "before:\n" + e.before : ""));
  }
  int rc = sqlite3_close(db);
  if (rc != SQLITE_OK) Problem(where + ": close answered " + sqlite3_errstr(rc));
  sqlite3* again = Open(path, hooks.vfs);
  if (again == nullptr) return;
  ic = IntegrityCheck(again);
  if (ic != "ok") Problem(where + ": reopened, integrity_check: " + ic);
  rows = 0;
  std::string reopened = Digest(again, &rows);
  result.rows_checked += rows;
  if (reopened != got) Problem(where + ": reopened, rows differ from the first connection's");
  sqlite3_close(again);
}

void Loop::Trial(size_t step, long n, bool* fired) {
  const Expected& e = expected[step];
  fs::path path = dir / "trial.db";
  std::string where = "step " + std::to_string(step) + " (" + kSteps[step].sql + ") fault " +
                      std::to_string(n) + (persistent ? " on" : "");
  RemoveDb(path);
  CopyFile(e.snapshot, path);
  long live_before = hooks.live_count ? hooks.live_count() : 0;
  {
    sqlite3* db = Open(path, hooks.vfs);
    if (db == nullptr) return;
    if (kSteps[step].prelude != nullptr) {
      sqlite3_exec(db, kSteps[step].prelude, nullptr, nullptr, nullptr);
    }
    RowHash rh;
    hooks.arm(n, persistent);
    int rc = sqlite3_exec(db, kSteps[step].sql, HashRow, &rh, nullptr);
    *fired = hooks.disarm();
    ++result.runs;
    if (*fired) ++result.fault_points;
    if (rc == SQLITE_OK && rh.h != e.rows_hash) Problem(where + ": returned other rows");
    if (rc != SQLITE_OK) rc = sqlite3_extended_errcode(db);
    static const bool verbose = std::getenv("BASALT_FAULT_VERBOSE") != nullptr;
    if (verbose) std::fprintf(stderr, "%s: answered %d\n", where.c_str(), rc);
    if (rc != SQLITE_OK && !hooks.acceptable_error(rc)) {
      Problem(where + ": answered " + std::to_string(rc) + " " + sqlite3_errmsg(db));
    }
    if (rc != SQLITE_OK && !*fired) Problem(where + ": failed without a fault");
    CheckAfter(db, path, step, where);
  }
  if (hooks.live_count) {
    long leaked = hooks.live_count() - live_before;
    if (leaked != 0) Problem(where + ": " + std::to_string(leaked) + " allocation(s) not freed");
  }
}

}  // namespace

const std::vector<BatteryStep>& Battery() { return kSteps; }

std::string Digest(sqlite3* db, long* rows) {
  std::string out;
  if (!Collect(db, "SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY name", &out,
               rows)) {
    return std::string("error: ") + sqlite3_errmsg(db);
  }
  std::string names;
  long ignored = 0;
  if (!Collect(db, "SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name", &names,
               &ignored)) {
    return std::string("error: ") + sqlite3_errmsg(db);
  }
  size_t pos = 0;
  while (pos < names.size()) {
    size_t end = names.find("|\n", pos);
    std::string name = names.substr(pos, end - pos);
    pos = end + 2;
    std::string order = name == "meta" ? "k" : "rowid";
    out += "-- " + name + "\n";
    if (!Collect(db, "SELECT * FROM \"" + name + "\" ORDER BY " + order, &out, rows)) {
      return std::string("error: ") + sqlite3_errmsg(db);
    }
  }
  return out;
}

LoopResult RunFaultLoop(const std::string& dir, const FaultHooks& hooks, bool persistent) {
  Loop loop{dir, hooks, persistent, {}, {}};
  fs::create_directories(loop.dir);
  if (!loop.Reference()) return loop.result;
  // BASALT_FAULT_STEP=S[:N] runs step S alone (from fault point N).
  const char* only = std::getenv("BASALT_FAULT_STEP");
  size_t first_step = 0, last_step = kSteps.size() - 1;
  long first_n = 1;
  if (only != nullptr) {
    first_step = last_step = std::strtoul(only, nullptr, 10);
    if (const char* colon = std::strchr(only, ':')) first_n = std::atol(colon + 1);
  }
  for (size_t i = first_step; i <= last_step && i < kSteps.size(); ++i) {
    for (long n = first_n;; ++n) {
      bool fired = false;
      size_t problems = loop.result.problems.size();
      loop.Trial(i, n, &fired);
      if (!fired || loop.result.problems.size() >= 8) break;
      if (only != nullptr && loop.result.problems.size() > problems) break;
    }
    if (loop.result.problems.size() >= 8) break;
  }
  for (const Expected& e : loop.expected) {
    std::error_code ec;
    fs::remove(e.snapshot, ec);
  }
  RemoveDb(loop.dir / "trial.db");
  return loop.result;
}

}  // namespace basalt::faulttest
