/* sqlite3_limit through the C API: the value each limit reports, clamping to
 * the build's maxima, and what each lowered limit does to statements (the
 * result code and error message, or the rows). Built twice, against Basalt's
 * library and the system libsqlite3; run.sh requires identical output. */
#include <stdio.h>
#include <string.h>

#include "sqlite3.h"

static sqlite3* db;

/* Runs every statement of sql, printing each row and the final result. */
static void Run(const char* sql) {
  const char* tail = sql;
  printf("> %.70s%s\n", sql, strlen(sql) > 70 ? "..." : "");
  while (tail && *tail) {
    sqlite3_stmt* st = NULL;
    int rc = sqlite3_prepare_v2(db, tail, -1, &st, &tail);
    if (rc != SQLITE_OK) {
      printf("  prepare rc=%d (%d) %s\n", rc, sqlite3_extended_errcode(db), sqlite3_errmsg(db));
      return;
    }
    if (st == NULL) return;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      printf("  row:");
      for (int i = 0; i < sqlite3_column_count(st); ++i) {
        const unsigned char* t = sqlite3_column_text(st, i);
        printf(" %.40s", t ? (const char*)t : "NULL");
      }
      printf("\n");
    }
    if (rc != SQLITE_DONE) printf("  step rc=%d %s\n", rc, sqlite3_errmsg(db));
    sqlite3_finalize(st);
  }
}

/* Sets limit id to v and prints the previous and the new value. */
static void Limit(const char* name, int id, int v) {
  int old = sqlite3_limit(db, id, v);
  printf("limit %s: was %d, set %d, now %d\n", name, old, v, sqlite3_limit(db, id, -1));
}

static void Fresh(void) {
  if (db) sqlite3_close(db);
  sqlite3_open(":memory:", &db);
}

int main(void) {
  Fresh();
  /* Defaults, clamping to the hard maxima, and ids out of range. */
  for (int id = 0; id <= SQLITE_LIMIT_WORKER_THREADS; ++id) {
    int def = sqlite3_limit(db, id, -1);
    int big = sqlite3_limit(db, id, 0x7fffffff);
    printf("limit %d: default %d, clamped %d\n", id, def, sqlite3_limit(db, id, -1));
    sqlite3_limit(db, id, big);
  }
  printf("limit -1: %d, limit 12: %d\n", sqlite3_limit(db, -1, 5), sqlite3_limit(db, 12, 5));

  Limit("length", SQLITE_LIMIT_LENGTH, 1000);
  Run("SELECT length(zeroblob(1000)), length(zeroblob(999))");
  Run("SELECT zeroblob(1001)");
  Run("SELECT randomblob(2000)");
  Run("SELECT printf('%.2000c', 'x') IS NULL, length(printf('%.999c', 'x'))");
  Run("SELECT length(printf('%.1000c', 'x'))");
  Run("SELECT hex(zeroblob(600))");
  Run("SELECT length(replace(printf('%.100c','x'), 'x', printf('%.20c','y')))");
  Run("SELECT printf('%.600c','a') || printf('%.600c','b')");
  Run("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r WHERE i<500) "
      "SELECT length(group_concat(i)) FROM r");
  Run("CREATE TABLE t(a); INSERT INTO t VALUES(printf('%.1500c','z'))");
  Run("SELECT count(*) FROM t");
  {
    sqlite3_stmt* st = NULL;
    char big[2000];
    memset(big, 'q', sizeof big);
    sqlite3_prepare_v2(db, "SELECT length(?1)", -1, &st, NULL);
    printf("bind_text 2000: %d\n", sqlite3_bind_text(st, 1, big, 2000, SQLITE_TRANSIENT));
    printf("bind_blob 1000: %d\n", sqlite3_bind_blob(st, 1, big, 1000, SQLITE_TRANSIENT));
    printf("bind_zeroblob 5000: %d\n", sqlite3_bind_zeroblob(st, 1, 5000));
    sqlite3_finalize(st);
  }

  Fresh();
  Limit("sql_length", SQLITE_LIMIT_SQL_LENGTH, 100);
  Run("SELECT 1 AS "
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  Run("SELECT 1 AS "
      "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
      "aaaaaaa");

  Fresh();
  /* (sqlite_schema itself has 5 columns: a lower limit makes every schema unreadable.) */
  Limit("column", SQLITE_LIMIT_COLUMN, 6);
  Run("CREATE TABLE c6(a,b,c,d,e,f)");
  Run("CREATE TABLE c7(a,b,c,d,e,f,g)");
  Run("SELECT 1,2,3,4,5,6");
  Run("SELECT 1,2,3,4,5,6,7");
  Run("SELECT *, 1 FROM c6");
  Run("SELECT 1 ORDER BY 1,1,1,1,1,1,1");
  Run("SELECT 1 GROUP BY 1,1,1,1,1,1,1");
  Run("SELECT row_number() OVER (PARTITION BY 1,1,1,1 ORDER BY 1,1,1) FROM c6");
  Run("CREATE INDEX i7 ON c6(a,b,c,d,e,f,a)");
  Run("CREATE INDEX i6 ON c6(a,b,c,d,e,f)");
  Run("UPDATE c6 SET a=1,b=1,c=1,d=1,e=1,f=1,a=2");
  Run("INSERT INTO c6 VALUES(1,2,3,4,5,6) RETURNING *, 7");
  Run("VALUES(1,2,3,4,5,6,7)");

  Fresh();
  Limit("expr_depth", SQLITE_LIMIT_EXPR_DEPTH, 10);
  Run("SELECT 1+1+1+1+1+1+1+1+1");
  Run("SELECT 1+1+1+1+1+1+1+1+1+1+1+1");
  Run("SELECT abs(abs(abs(abs(abs(abs(abs(abs(abs(abs(abs(1)))))))))))");
  Run("SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT (SELECT 1)))))))))");
  Run("SELECT (SELECT (SELECT (SELECT 1)))");

  Fresh();
  Limit("compound_select", SQLITE_LIMIT_COMPOUND_SELECT, 3);
  Run("SELECT 1 UNION SELECT 2 UNION SELECT 3");
  Run("SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4");
  Run("VALUES(1),(2),(3),(4),(5)");

  Fresh();
  Limit("function_arg", SQLITE_LIMIT_FUNCTION_ARG, 2);
  Run("SELECT max(1,2)");
  Run("SELECT max(1,2,3)");
  Run("SELECT coalesce(NULL,NULL,3)");

  Fresh();
  Limit("attached", SQLITE_LIMIT_ATTACHED, 1);
  Run("ATTACH ':memory:' AS a1");
  Run("ATTACH ':memory:' AS a2");

  Fresh();
  Limit("like_pattern_length", SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 5);
  Run("SELECT 'aaaaa' LIKE 'aaaaa', 'aaaaa' GLOB 'a*'");
  Run("SELECT 'aaaaaa' LIKE 'aaaaaa'");
  Run("SELECT 'aaaaaa' GLOB 'aaaaaa'");

  Fresh();
  Limit("variable_number", SQLITE_LIMIT_VARIABLE_NUMBER, 3);
  Run("SELECT ?1, ?2, ?3");
  Run("SELECT ?4");
  Run("SELECT ?, ?, ?");
  Run("SELECT ?, ?, ?, ?");
  Run("SELECT :a, :b, :c, :d");

  Fresh();
  Limit("trigger_depth", SQLITE_LIMIT_TRIGGER_DEPTH, 5);
  Run("PRAGMA recursive_triggers=1; CREATE TABLE r(a); "
      "CREATE TRIGGER rt AFTER INSERT ON r BEGIN INSERT INTO r SELECT new.a+1 WHERE new.a<(SELECT "
      "n FROM lim); END; "
      "CREATE TABLE lim(n); INSERT INTO lim VALUES(5)");
  Run("INSERT INTO r VALUES(1); SELECT count(*) FROM r");
  Run("DELETE FROM r; UPDATE lim SET n=6");
  Run("INSERT INTO r VALUES(1)");
  Run("SELECT count(*) FROM r");

  Fresh();
  /* (SQLITE_LIMIT_VDBE_OP counts instructions: programs differ between engines.) */
  Limit("vdbe_op", SQLITE_LIMIT_VDBE_OP, 25);
  Limit("worker_threads", SQLITE_LIMIT_WORKER_THREADS, 4);
  sqlite3_close(db);
  return 0;
}
