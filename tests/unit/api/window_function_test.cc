// sqlite3_create_window_function: a user aggregate with xValue and xInverse
// over sliding frames, the same function as a plain aggregate, the
// registration rules (xValue and xInverse both or neither; all NULL
// removes), compared with the system libsqlite3.
#include <gtest/gtest.h>

#include <string>

#include "engines.h"
#include "transcript.h"

namespace basalt::apitest {
namespace {

// The callbacks run inside whichever library is being tested; they reach
// its entry points through this.
const Api* g_api = nullptr;
int g_inverse_calls = 0;

void SumStep(sqlite3_context* c, int, sqlite3_value** argv) {
  auto* p = static_cast<long long*>(g_api->aggregate_context(c, sizeof(long long)));
  if (p != nullptr) *p += g_api->value_int64(argv[0]);
}
void SumInverse(sqlite3_context* c, int, sqlite3_value** argv) {
  ++g_inverse_calls;
  auto* p = static_cast<long long*>(g_api->aggregate_context(c, sizeof(long long)));
  if (p != nullptr) *p -= g_api->value_int64(argv[0]);
}
void SumValue(sqlite3_context* c) {
  auto* p = static_cast<long long*>(g_api->aggregate_context(c, 0));
  g_api->result_int64(c, p != nullptr ? *p : 0);
}

// Every row of `sql`, one line per row ("a|b"), or the error.
void Rows(const Api& a, sqlite3* db, Transcript* t, const char* sql) {
  sqlite3_stmt* s = nullptr;
  int rc = a.prepare_v2(db, sql, -1, &s, nullptr);
  if (rc != SQLITE_OK) {
    t->Str(std::string(sql) + " prepare", a.errmsg(db));
    return;
  }
  std::string out;
  while ((rc = a.step(s)) == SQLITE_ROW) {
    for (int i = 0; i < a.column_count(s); ++i) {
      if (i) out += "|";
      const unsigned char* v = a.column_text(s, i);
      out += v ? reinterpret_cast<const char*>(v) : "NULL";
    }
    out += " ";
  }
  t->Str(sql, out.c_str());
  t->Int("  step", rc);
  a.finalize(s);
}

TEST(WindowFunction, SumIntAsSqlite) {
  std::string dir = TempDir("winfunc");
  int basalt_inverse = -1;
  std::string t = SameAsSqlite([&](const Api& a, Transcript* t) {
    g_api = &a;
    g_inverse_calls = 0;
    sqlite3* db = nullptr;
    std::string path = dir + "/" + a.name + ".db";
    t->Int("open",
           a.open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr));
    a.exec(db, "CREATE TABLE t3(x INTEGER, g TEXT)", nullptr, nullptr, nullptr);
    a.exec(db,
           "INSERT INTO t3 VALUES(1,'a'),(2,'b'),(3,'a'),(4,'b'),(5,'a'),(6,'b'),(7,'a'),(8,'a')",
           nullptr, nullptr, nullptr);
    t->Int("create sumint", a.create_window_function(db, "sumint", 1, SQLITE_UTF8, nullptr, SumStep,
                                                     SumValue, SumValue, SumInverse, nullptr));
    Rows(a, db, t,
         "SELECT x, sumint(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM t3");
    Rows(a, db, t,
         "SELECT x, sumint(x) OVER (PARTITION BY g ORDER BY x ROWS 2 PRECEDING) FROM t3 "
         "ORDER BY x");
    Rows(a, db, t, "SELECT x, sumint(x) OVER (ORDER BY x DESC) FROM t3");
    Rows(a, db, t,
         "SELECT x, sumint(x) OVER (ORDER BY x ROWS BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM t3");
    Rows(a, db, t, "SELECT sumint(x), g FROM t3 GROUP BY g ORDER BY g");
    t->Bool("inverse was called", g_inverse_calls > 0);
    if (std::string(a.name) == "basalt") basalt_inverse = g_inverse_calls;
    // Without xValue and xInverse: an ordinary aggregate, no window function.
    t->Int("create plain", a.create_window_function(db, "plainsum", 1, SQLITE_UTF8, nullptr,
                                                    SumStep, SumValue, nullptr, nullptr, nullptr));
    Rows(a, db, t, "SELECT plainsum(x) FROM t3");
    Rows(a, db, t, "SELECT plainsum(x) OVER () FROM t3");
    // xValue without xInverse (and the reverse) is misuse.
    t->Int("value only", a.create_window_function(db, "bad", 1, SQLITE_UTF8, nullptr, SumStep,
                                                  SumValue, SumValue, nullptr, nullptr));
    t->Int("inverse only", a.create_window_function(db, "bad", 1, SQLITE_UTF8, nullptr, SumStep,
                                                    SumValue, nullptr, SumInverse, nullptr));
    // All callbacks NULL removes the function.
    t->Int("remove", a.create_window_function(db, "sumint", 1, SQLITE_UTF8, nullptr, nullptr,
                                              nullptr, nullptr, nullptr, nullptr));
    Rows(a, db, t, "SELECT sumint(x) OVER () FROM t3");
    t->Int("close", a.close(db));
  });
  EXPECT_NE(t.find("1|3 2|6 3|9 4|12 5|15 6|18 7|21 8|15 "), std::string::npos) << t;
  // The sliding frame removes rows through xInverse rather than recomputing.
  EXPECT_GT(basalt_inverse, 0);
}

}  // namespace
}  // namespace basalt::apitest
