/* Drives the "xor" user VFS (xor_vfs.c) through one library: Basalt's or
 * the system libsqlite3, whichever this program was linked with. run.sh
 * compares the outputs of the two builds and exchanges their files.
 *
 *   uvfs_main write DB delete|wal   build a database through the VFS
 *   uvfs_main read DB               check and change one built by either
 *   uvfs_main default DB            the VFS registered as the default */
#include <stdio.h>
#include <string.h>

#include "sqlite3.h"
#include "xor_vfs.h"

static int print_row(void* arg, int n, char** v, char** names) {
  (void)arg;
  (void)names;
  for (int i = 0; i < n; i++) printf("%s%s", i ? "|" : "", v[i] ? v[i] : "NULL");
  printf("\n");
  return 0;
}

static void run(sqlite3* db, const char* sql) {
  char* err = 0;
  int rc = sqlite3_exec(db, sql, print_row, 0, &err);
  if (rc != SQLITE_OK) printf("error %d: %s\n", rc, err ? err : "");
  sqlite3_free(err);
}

static sqlite3* open_db(const char* name, int flags, const char* vfs) {
  sqlite3* db = 0;
  int rc = sqlite3_open_v2(name, &db, flags, vfs);
  if (rc != SQLITE_OK) printf("open %s: %d %s\n", vfs ? vfs : "(default)", rc, sqlite3_errmsg(db));
  return db;
}

static void check(sqlite3* db) {
  run(db, "PRAGMA integrity_check; SELECT count(*), sum(c), max(b) FROM t;");
  run(db, "SELECT a, b FROM t WHERE b BETWEEN 'k100' AND 'k1003' ORDER BY b;");
}

static void counters(int want_shm) {
  XorCounters* c = xor_counters();
  printf("vfs used: open %d read %d write %d sync %d lock %d shm %d companion %d\n", c->opens > 0,
         c->reads > 0, c->writes > 0, c->syncs > 0, c->locks > 0, want_shm ? c->shm_maps > 0 : 0,
         c->companions > 0);
}

static int do_write(const char* path, const char* mode) {
  int rw = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  sqlite3* db = open_db(path, rw, "xor");
  char sql[128];
  snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s;", mode);
  run(db, sql);
  run(db,
      "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c);"
      "CREATE INDEX tb ON t(b);"
      "BEGIN;"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 3000)"
      "  INSERT INTO t SELECT i, 'k' || i, randomblob(20) IS NOT NULL FROM n;"
      "COMMIT;"
      "BEGIN; DELETE FROM t WHERE a % 3 = 0; ROLLBACK;"
      "UPDATE t SET c = a * 2 WHERE a % 5 = 0;");
  check(db);
  counters(strcmp(mode, "wal") == 0);
  sqlite3_close(db);
  /* Through the plain unix VFS the file is noise. */
  db = open_db(path, SQLITE_OPEN_READONLY, "unix");
  run(db, "SELECT count(*) FROM sqlite_schema;");
  sqlite3_close(db);
  /* A URI selects the VFS as well. */
  char uri[4200];
  snprintf(uri, sizeof uri, "file:%s?vfs=xor", path);
  db = open_db(uri, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, 0);
  run(db, "SELECT count(*) FROM t WHERE c > 1000;");
  sqlite3_close(db);
  db = open_db(path, SQLITE_OPEN_READWRITE, "nope");
  sqlite3_close(db);
  snprintf(uri, sizeof uri, "file:%s?vfs=nope", path);
  db = open_db(uri, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, 0);
  printf("uri vfs=nope: %s\n", sqlite3_errmsg(db));
  sqlite3_close(db);
  return 0;
}

static int do_read(const char* path) {
  sqlite3* db = open_db(path, SQLITE_OPEN_READWRITE, "xor");
  check(db);
  run(db, "INSERT INTO t(b, c) VALUES ('added', 1); DELETE FROM t WHERE a < 100;");
  check(db);
  sqlite3_close(db);
  return 0;
}

static int do_default(const char* path) {
  sqlite3_vfs* before = sqlite3_vfs_find(0);
  xor_vfs_register(1);
  printf("default: %s (was %s)\n", sqlite3_vfs_find(0)->zName, before->zName);
  sqlite3* db = open_db(path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, 0);
  run(db,
      "PRAGMA journal_mode=wal; CREATE TABLE d(x); INSERT INTO d VALUES (1), (2);"
      "SELECT sum(x) FROM d;");
  sqlite3_close(db);
  db = open_db(path, SQLITE_OPEN_READONLY, "unix");
  run(db, "SELECT count(*) FROM sqlite_schema;");
  sqlite3_close(db);
  sqlite3_vfs_unregister(sqlite3_vfs_find("xor"));
  printf("after unregister: %s\n", sqlite3_vfs_find(0)->zName);
  return 0;
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  if (strcmp(argv[1], "default") == 0) return do_default(argv[2]);
  xor_vfs_register(0);
  if (strcmp(argv[1], "write") == 0 && argc == 4) return do_write(argv[2], argv[3]);
  if (strcmp(argv[1], "read") == 0) return do_read(argv[2]);
  return 2;
}
