/* Runs an SQL script with the "kv" module registered, printing every
** statement's rows or error. Built twice from the same source: against
** Basalt's library and against the system libsqlite3; their outputs must
** be identical (tests/vtab/run.sh). Module counters go to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sqlite3.h"

#include "kv_module.h"

static char* read_file(const char* path) {
  FILE* f = fopen(path, "rb");
  long n;
  char* buf;
  if (f == NULL) return NULL;
  fseek(f, 0, SEEK_END);
  n = ftell(f);
  fseek(f, 0, SEEK_SET);
  buf = (char*)malloc((size_t)n + 1);
  if (fread(buf, 1, (size_t)n, f) != (size_t)n) n = 0;
  buf[n] = 0;
  fclose(f);
  return buf;
}

static void print_sql(const char* sql, int n) {
  int i;
  printf("> ");
  for (i = 0; i < n; i++) putchar(sql[i] == '\n' ? ' ' : sql[i]);
  putchar('\n');
}

int main(int argc, char** argv) {
  sqlite3* db = NULL;
  char* script;
  const char* sql;
  if (argc != 2) {
    fprintf(stderr, "usage: %s SCRIPT.sql\n", argv[0]);
    return 2;
  }
  script = read_file(argv[1]);
  if (script == NULL || sqlite3_open(":memory:", &db) != SQLITE_OK || kv_register(db) != SQLITE_OK) {
    fprintf(stderr, "setup failed\n");
    return 2;
  }
  sql = script;
  while (*sql) {
    sqlite3_stmt* st = NULL;
    const char* tail = NULL;
    int rc;
    while (*sql == ' ' || *sql == '\n' || *sql == '\t' || *sql == '\r') sql++;
    if (*sql == 0) break;
    if (sql[0] == '-' && sql[1] == '-') {
      while (*sql && *sql != '\n') sql++;
      continue;
    }
    rc = sqlite3_prepare_v2(db, sql, -1, &st, &tail);
    print_sql(sql, (int)(tail - sql));
    sql = tail;
    if (rc != SQLITE_OK) {
      printf("error %d: %s\n", rc, sqlite3_errmsg(db));
      continue;
    }
    if (st == NULL) continue;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      int i, n = sqlite3_column_count(st);
      for (i = 0; i < n; i++) {
        const unsigned char* t = sqlite3_column_text(st, i);
        printf("%s%s", i ? "|" : "", t ? (const char*)t : "NULL");
      }
      putchar('\n');
    }
    if (rc != SQLITE_DONE) printf("error %d: %s\n", rc, sqlite3_errmsg(db));
    sqlite3_finalize(st);
  }
  fprintf(stderr,
          "kv: connects %d destroys %d best_index %d eq %d range %d order_by %d filters %d "
          "updates %d replaces %d begins %d syncs %d commits %d rollbacks %d savepoints %d "
          "rollback_tos %d\n",
          kv_stats.connects, kv_stats.destroys, kv_stats.best_index, kv_stats.eq, kv_stats.range,
          kv_stats.order_by, kv_stats.filters, kv_stats.updates, kv_stats.replaces,
          kv_stats.begins, kv_stats.syncs, kv_stats.commits, kv_stats.rollbacks,
          kv_stats.savepoints, kv_stats.rollback_tos);
  sqlite3_close(db);
  free(script);
  return 0;
}
