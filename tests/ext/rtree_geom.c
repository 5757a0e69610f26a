/* MATCH constraints on an R*Tree through sqlite3_rtree_geometry_callback()
** and sqlite3_rtree_query_callback(), and one tree used by two connections,
** run against Basalt's library and the
** system libsqlite3 (the same source linked with each); the outputs must be
** identical. Plain C against sqlite3.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sqlite3.h"

static int destroyed = 0;

/* circle(x, y, r): boxes that meet the circle's bounding square. */
static int circle_geom(sqlite3_rtree_geometry* g, int n, sqlite3_rtree_dbl* c, int* hit) {
  double x, y, r, cx, cy;
  if (g->nParam != 3 || n != 4) return SQLITE_ERROR;
  x = g->aParam[0];
  y = g->aParam[1];
  r = g->aParam[2];
  cx = (c[0] + c[1]) / 2;
  cy = (c[2] + c[3]) / 2;
  /* Small boxes (entries) must have their centre in the circle; larger
  ** ones (nodes) only meet its bounding square. */
  *hit = c[0] <= x + r && c[1] >= x - r && c[2] <= y + r && c[3] >= y - r &&
         (c[1] - c[0] > 10 || (cx - x) * (cx - x) + (cy - y) * (cy - y) <= r * r);
  return SQLITE_OK;
}

/* near(x, y, label): every entry, nearest centre first (the score), and
** for a text third argument only boxes whose level is reported. */
static int near_query(sqlite3_rtree_query_info* q) {
  double cx = (q->aCoord[0] + q->aCoord[1]) / 2;
  double cy = (q->aCoord[2] + q->aCoord[3]) / 2;
  double dx = cx - q->aParam[0], dy = cy - q->aParam[1];
  if (q->nParam >= 3 && sqlite3_value_type(q->apSqlParam[2]) != SQLITE_TEXT) return SQLITE_ERROR;
  q->rScore = dx * dx + dy * dy;
  q->eWithin = q->rScore < 2500 ? PARTLY_WITHIN : NOT_WITHIN;
  if (q->iLevel > 0) q->eWithin = PARTLY_WITHIN;
  if (q->iLevel == 0 && q->rScore >= 2500) q->eWithin = NOT_WITHIN;
  return SQLITE_OK;
}

static void on_destroy(void* p) { destroyed += (p == (void*)&destroyed); }

static void run(sqlite3* db, const char* sql) {
  sqlite3_stmt* st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  printf("> %s\n", sql);
  if (rc != SQLITE_OK) {
    printf("prepare error %d: %s\n", rc, sqlite3_errmsg(db));
    return;
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    int i;
    for (i = 0; i < sqlite3_column_count(st); ++i) {
      printf("%s%s", i ? "|" : "", (const char*)sqlite3_column_text(st, i));
    }
    printf("\n");
  }
  if (rc != SQLITE_DONE) printf("error %d: %s\n", rc, sqlite3_errmsg(db));
  sqlite3_finalize(st);
}

/* A tree changed by one connection is seen by another that read it
** before (its node cache must not go stale). */
static void two_connections(void) {
  char path[64];
  sqlite3 *a = NULL, *b = NULL;
  snprintf(path, sizeof path, "/tmp/rtree_geom_%d.db", (int)getpid());
  remove(path);
  sqlite3_open(path, &a);
  sqlite3_open(path, &b);
  run(a, "CREATE VIRTUAL TABLE r USING rtree(id, x0, x1)");
  run(a,
      "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 500) "
      "INSERT INTO r SELECT i, i, i + 1 FROM c");
  run(a, "SELECT count(*) FROM r WHERE x0 < 100");
  run(b, "DELETE FROM r WHERE id < 50");
  run(a, "SELECT count(*) FROM r WHERE x0 < 100");
  run(a, "INSERT INTO r VALUES(1000, 1, 2)");
  run(b, "SELECT count(*), rtreecheck('r') FROM r WHERE x0 < 100");
  run(b, "BEGIN");
  run(b, "INSERT INTO r VALUES(1001, 1, 2)");
  run(b, "COMMIT");
  run(a, "BEGIN");
  run(a, "INSERT INTO r VALUES(1002, 1, 2)");
  run(a, "COMMIT");
  run(a, "SELECT count(*), rtreecheck('r') FROM r WHERE x0 < 100");
  sqlite3_close(a);
  sqlite3_close(b);
  remove(path);
}

int main(void) {
  sqlite3* db = NULL;
  int i;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) return 1;
  printf("geometry %d\n", sqlite3_rtree_geometry_callback(db, "circle", circle_geom, NULL));
  printf("query %d\n",
         sqlite3_rtree_query_callback(db, "near", near_query, &destroyed, on_destroy));
  run(db, "CREATE VIRTUAL TABLE r USING rtree(id, x0, x1, y0, y1)");
  run(db, "BEGIN");
  for (i = 1; i <= 3000; ++i) {
    char sql[160];
    unsigned v = (unsigned)i * 2654435761u;
    double x = (v % 1000) / 1.0, y = ((v >> 10) % 1000) / 1.0;
    snprintf(sql, sizeof sql, "INSERT INTO r VALUES(%d, %g, %g, %g, %g)", i, x, x + (v % 7), y,
             y + (v % 5));
    if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK) printf("insert %d failed\n", i);
  }
  run(db, "COMMIT");
  run(db, "SELECT id FROM r WHERE id MATCH circle(500, 500, 30)");
  run(db, "SELECT count(*) FROM r WHERE id MATCH circle(100, 900, 80) AND x0 > 100");
  run(db, "SELECT id FROM r WHERE id MATCH near(250, 750)");
  run(db, "SELECT id FROM r WHERE id MATCH near(250, 750, 'text') AND y0 < 760");
  run(db, "SELECT id FROM r WHERE id MATCH near(250, 750, 3)");
  run(db, "SELECT id FROM r WHERE id MATCH circle(1, 2)");
  run(db, "SELECT id FROM r WHERE id MATCH 1");
  run(db, "SELECT id FROM r WHERE id MATCH x'00000000000000000000000000000000'");
  sqlite3_close(db);
  printf("destroyed %d\n", destroyed);
  two_connections();
  return 0;
}
