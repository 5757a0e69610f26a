// A small speed probe for the FTS4 auxiliary functions: builds an fts4
// table of N random documents (12 words, 30 + 20 tokens per row) in memory,
// then runs one query R times. Link it with the system SQLite and compare
// instruction counts of run_queries with Basalt's library put first:
//   gcc -O2 -o /tmp/bench_aux tools/fts/bench_aux.c -lsqlite3
//   valgrind --tool=callgrind --toggle-collect=run_queries /tmp/bench_aux 2000 "SQL" 3
//   mkdir -p /tmp/bl && ln -sf $PWD/build/libbasalt.so /tmp/bl/libsqlite3.so.0
//   LD_LIBRARY_PATH=/tmp/bl valgrind --tool=callgrind
//       --toggle-collect=run_queries /tmp/bench_aux 2000 "SQL" 3   (one line)
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
static const char* W[] = {"alpha", "beta",  "gamma", "delta", "eps", "zeta",
                          "eta",   "theta", "iota",  "kappa", "lam", "mu"};
static void build(sqlite3* db, int n) {
  sqlite3_exec(db, "CREATE VIRTUAL TABLE t USING fts4(x, y); BEGIN", 0, 0, 0);
  sqlite3_stmt* s;
  sqlite3_prepare_v2(db, "INSERT INTO t(docid,x,y) VALUES(?,?,?)", -1, &s, 0);
  unsigned r = 12345;
  char a[4000], b[4000];
  for (int i = 1; i <= n; i++) {
    int la = 0, lb = 0;
    a[0] = b[0] = 0;
    for (int k = 0; k < 30; k++) {
      r = r * 1103515245 + 12345;
      la += sprintf(a + la, "%s ", W[(r >> 16) % 12]);
    }
    for (int k = 0; k < 20; k++) {
      r = r * 1103515245 + 12345;
      lb += sprintf(b + lb, "%s ", W[(r >> 16) % 12]);
    }
    sqlite3_bind_int(s, 1, i);
    sqlite3_bind_text(s, 2, a, -1, SQLITE_STATIC);
    sqlite3_bind_text(s, 3, b, -1, SQLITE_STATIC);
    sqlite3_step(s);
    sqlite3_reset(s);
  }
  sqlite3_finalize(s);
  sqlite3_exec(db, "COMMIT", 0, 0, 0);
}
long run_queries(sqlite3* db, const char* q, int reps) {
  long tot = 0;
  for (int i = 0; i < reps; i++) {
    sqlite3_stmt* s;
    if (sqlite3_prepare_v2(db, q, -1, &s, 0)) {
      printf("%s\n", sqlite3_errmsg(db));
      exit(1);
    }
    while (sqlite3_step(s) == SQLITE_ROW)
      tot += sqlite3_column_bytes(s, 1) + sqlite3_column_int(s, 0);
    sqlite3_finalize(s);
  }
  return tot;
}
int main(int argc, char** argv) {
  sqlite3* db;
  sqlite3_open(":memory:", &db);
  build(db, atoi(argv[1]));
  printf("%ld\n", run_queries(db, argv[2], atoi(argv[3])));
  return 0;
}
