// FTS5 workloads: building a full-text index over ~1 KB documents drawn
// from a skewed 20,000-word vocabulary, and bm25-ranked MATCH queries of
// one or two words (some with a prefix). Both engines see the same text.
#include "cases_fts5.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace basalt::bench {
namespace {

constexpr int kVocab = 20000;
constexpr int kQueries = 10000;

double Seconds() {
  using namespace std::chrono;
  return duration<double>(steady_clock::now().time_since_epoch()).count();
}

struct Xorshift {
  uint64_t s;
  explicit Xorshift(uint64_t seed) : s(seed * 2654435761u + 11) {}
  uint64_t Next() {
    s ^= s << 13;
    s ^= s >> 7;
    s ^= s << 17;
    return s;
  }
};

// Word i of the vocabulary: letters spelling i, so words differ in length.
std::string Word(int i) {
  static const char kLetters[] = "etaoinshrdlucmfwypvbgkqjxz";
  std::string w;
  do {
    w.push_back(kLetters[i % 26]);
    i /= 26;
  } while (i > 0);
  w.push_back(kLetters[(w.size() * 7) % 26]);
  return w;
}

// A skewed word choice: low indexes are far more frequent.
int PickWord(Xorshift* rng) {
  double u = double(rng->Next() % 1000000) / 1000000.0;
  return static_cast<int>(std::pow(u, 3.0) * kVocab);
}

std::string Document(Xorshift* rng) {
  std::string d;
  while (d.size() < 1000) {
    if (!d.empty()) d.push_back(' ');
    d += Word(PickWord(rng));
  }
  return d;
}

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

void Fill(const Api& a, sqlite3* db, int64_t docs) {
  Exec(a, db, "CREATE VIRTUAL TABLE f USING fts5(title, body)");
  Exec(a, db, "BEGIN");
  sqlite3_stmt* st = nullptr;
  if (a.prepare_v2(db, "INSERT INTO f(title, body) VALUES(?, ?)", -1, &st, nullptr) != SQLITE_OK) {
    Fail(a, db, "prepare insert");
  }
  Xorshift rng(1);
  for (int64_t i = 0; i < docs; ++i) {
    std::string title = Word(PickWord(&rng)) + " " + Word(PickWord(&rng));
    std::string body = Document(&rng);
    a.bind_text(st, 1, title.c_str(), static_cast<int>(title.size()), SQLITE_TRANSIENT);
    a.bind_text(st, 2, body.c_str(), static_cast<int>(body.size()), SQLITE_TRANSIENT);
    if (a.step(st) != SQLITE_DONE) Fail(a, db, "insert");
    a.reset(st);
  }
  a.finalize(st);
  Exec(a, db, "COMMIT");
}

}  // namespace

double Fts5Build(const Api& a, const std::string& path, int64_t docs) {
  sqlite3* db = Open(a, path);
  double t0 = Seconds();
  Fill(a, db, docs);
  double t = Seconds() - t0;
  a.close(db);
  return t;
}

double Fts5Query(const Api& a, const std::string& path, int64_t docs) {
  sqlite3* db = Open(a, path);
  Fill(a, db, docs);
  sqlite3_stmt* st = nullptr;
  if (a.prepare_v2(db, "SELECT rowid, rank FROM f WHERE f MATCH ? ORDER BY rank LIMIT 10", -1, &st,
                   nullptr) != SQLITE_OK) {
    Fail(a, db, "prepare query");
  }
  Xorshift rng(2);
  int64_t found = 0;
  double t0 = Seconds();
  for (int q = 0; q < kQueries; ++q) {
    // Mid-frequency words: a few hundred to a few thousand documents each.
    std::string query = Word(200 + static_cast<int>(rng.Next() % 3000));
    if (q % 3 == 1) query += " " + Word(50 + static_cast<int>(rng.Next() % 500));
    if (q % 7 == 3) query = Word(30 + static_cast<int>(rng.Next() % 600)) + "*";
    a.bind_text(st, 1, query.c_str(), static_cast<int>(query.size()), SQLITE_TRANSIENT);
    int rc;
    while ((rc = a.step(st)) == SQLITE_ROW) found += a.column_int64(st, 0);
    if (rc != SQLITE_DONE) Fail(a, db, "query");
    a.reset(st);
  }
  double t = Seconds() - t0;
  a.finalize(st);
  a.close(db);
  if (found == 0) std::fprintf(stderr, "basalt-bench: fts5_query found nothing\n");
  return t;
}

}  // namespace basalt::bench
