// R*Tree workloads: inserts of random small boxes into a 2-D rtree, and
// window queries over it. Both engines see the same boxes and windows.
#include "cases_rtree.h"

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

namespace basalt::bench {
namespace {

constexpr int kRows = 100000;
constexpr int kQueries = 10000;

double Seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

// xorshift: the same sequence for both engines.
struct Xorshift {
  uint64_t s;
  explicit Xorshift(uint64_t seed) : s(seed * 2654435761u + 7) {}
  double Unit() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return double(s % 1000000) / 1000000.0;
  }
};

[[noreturn]] void Fail(const Api& a, sqlite3* db, const char* what) {
  std::fprintf(stderr, "basalt-bench: %s: %s\n", what, a.errmsg(db));
  std::exit(2);
}

void Exec(const Api& a, sqlite3* db, const char* sql) {
  if (a.exec(db, sql, nullptr, nullptr, nullptr) != SQLITE_OK) Fail(a, db, sql);
}

sqlite3* Open(const Api& a, const std::string& path) {
  for (const char* suffix : {"", "-journal", "-wal"}) ::unlink((path + suffix).c_str());
  sqlite3* db = nullptr;
  if (a.open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    Fail(a, db, "open");
  }
  return db;
}

// Fills table r with kRows boxes of side up to 10 in [0,1000]^2.
void Fill(const Api& a, sqlite3* db) {
  Exec(a, db, "CREATE VIRTUAL TABLE r USING rtree(id, x0, x1, y0, y1)");
  Exec(a, db, "BEGIN");
  sqlite3_stmt* st = nullptr;
  if (a.prepare_v2(db, "INSERT INTO r VALUES(?,?,?,?,?)", -1, &st, nullptr) != SQLITE_OK) {
    Fail(a, db, "prepare insert");
  }
  Xorshift rng(1);
  for (int i = 1; i <= kRows; ++i) {
    double x = rng.Unit() * 1000, y = rng.Unit() * 1000;
    a.bind_int64(st, 1, i);
    a.bind_double(st, 2, x);
    a.bind_double(st, 3, x + rng.Unit() * 10);
    a.bind_double(st, 4, y);
    a.bind_double(st, 5, y + rng.Unit() * 10);
    if (a.step(st) != SQLITE_DONE) Fail(a, db, "insert");
    a.reset(st);
  }
  a.finalize(st);
  Exec(a, db, "COMMIT");
}

}  // namespace

double RtreeInsert(const Api& a, const std::string& path) {
  sqlite3* db = Open(a, path);
  double t0 = Seconds();
  Fill(a, db);
  double t = Seconds() - t0;
  a.close(db);
  return t;
}

double RtreeQuery(const Api& a, const std::string& path) {
  sqlite3* db = Open(a, path);
  Fill(a, db);
  sqlite3_stmt* st = nullptr;
  if (a.prepare_v2(db, "SELECT id FROM r WHERE x0<=?2 AND x1>=?1 AND y0<=?4 AND y1>=?3", -1, &st,
                   nullptr) != SQLITE_OK) {
    Fail(a, db, "prepare query");
  }
  Xorshift rng(2);
  int64_t found = 0;
  double t0 = Seconds();
  for (int q = 0; q < kQueries; ++q) {
    double x = rng.Unit() * 1000, y = rng.Unit() * 1000;
    a.bind_double(st, 1, x);
    a.bind_double(st, 2, x + 20);
    a.bind_double(st, 3, y);
    a.bind_double(st, 4, y + 20);
    while (a.step(st) == SQLITE_ROW) found += a.column_int64(st, 0);
    a.reset(st);
  }
  double t = Seconds() - t0;
  a.finalize(st);
  a.close(db);
  if (found == 0) std::fprintf(stderr, "basalt-bench: rtree_query found nothing\n");
  return t;
}

}  // namespace basalt::bench
