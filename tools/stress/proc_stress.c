/* Process stress on one database file: writers and readers in separate
 * processes, half of them on Basalt's library and half on the system
 * libsqlite3 (the same program linked with each), for a bounded time, in
 * rollback-journal (DELETE) or WAL mode, waiting for each other through
 * sqlite3_busy_timeout.
 *
 *   proc_stress coordinate DB MODE SECONDS SELF OTHER
 *       creates DB in MODE (delete or wal), starts 4 writers and 4
 *       readers (even ids run SELF, odd ids OTHER), waits, then has both
 *       programs verify the file; exit status 0 when all is well.
 *   proc_stress writer|reader DB ID SECONDS     (started by coordinate)
 *   proc_stress verify DB                       (prints the accounting)
 *
 * Accounting: writer w commits transactions of 1-4 rows (w, seq) with
 * seq = 1, 2, ... in order, and adds the rows to counters(w) in the same
 * transaction; it knows exactly which transactions committed. At the end
 * every writer's rows must be seq 1..committed, no more, no fewer, and
 * counters(w) = committed. Readers check inside each read transaction
 * that every writer's row count, largest seq and counter agree (a torn
 * commit would show), and run quick_check now and then. The final file
 * must pass integrity_check on both libraries. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "sqlite3.h"

enum { kWriters = 4, kReaders = 4, kProcs = kWriters + kReaders };

static double Now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void Nap(int ms) {
  struct timespec ts = {0, (long)ms * 1000000L};
  nanosleep(&ts, NULL);
}

static unsigned Rand(unsigned* s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 16) & 0x7fff;
}

static int IsBusy(int rc) {
  rc &= 0xff;
  return rc == SQLITE_BUSY || rc == SQLITE_LOCKED;
}

static sqlite3* OpenDb(const char* path) {
  sqlite3* db = NULL;
  if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    fprintf(stderr, "open %s: %s\n", path, db ? sqlite3_errmsg(db) : "?");
    exit(2);
  }
  sqlite3_busy_timeout(db, 10000);
  return db;
}

static void WriteResult(const char* db_path, int id, const char* text) {
  char path[4096];
  snprintf(path, sizeof path, "%s.result%d", db_path, id);
  FILE* f = fopen(path, "w");
  if (f == NULL) exit(2);
  fputs(text, f);
  fclose(f);
}

/* One transaction of k rows after `seq`: 1 committed, 0 not (busy), -1 an
 * unexpected error (message in db). */
static int WriteTxn(sqlite3* db, sqlite3_stmt* ins, sqlite3_stmt* upd, int id, long long seq, int k,
                    unsigned* rng) {
  int rc = sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc != SQLITE_OK) return IsBusy(rc) ? 0 : -1;
  for (int j = 1; j <= k && rc == SQLITE_OK; ++j) {
    sqlite3_bind_int(ins, 1, id);
    sqlite3_bind_int64(ins, 2, seq + j);
    sqlite3_bind_int(ins, 3, 10 + (int)(Rand(rng) % 300));
    rc = sqlite3_step(ins) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
    sqlite3_reset(ins);
  }
  if (rc == SQLITE_OK) {
    sqlite3_bind_int(upd, 1, k);
    sqlite3_bind_int(upd, 2, id);
    rc = sqlite3_step(upd) == SQLITE_DONE ? SQLITE_OK : sqlite3_errcode(db);
    sqlite3_reset(upd);
  }
  if (rc == SQLITE_OK) {
    /* COMMIT answering BUSY leaves the transaction open: try again. */
    for (int tries = 0; tries < 50; ++tries) {
      rc = sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
      if (!IsBusy(rc)) break;
      Nap(2);
    }
  }
  if (rc == SQLITE_OK) return 1;
  int busy = IsBusy(rc);
  if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return busy ? 0 : -1;
}

static int Writer(const char* path, int id, double seconds) {
  sqlite3* db = OpenDb(path);
  sqlite3_stmt *ins = NULL, *upd = NULL;
  if (sqlite3_prepare_v2(db, "INSERT INTO log(writer, seq, payload) VALUES(?1, ?2, randomblob(?3))",
                         -1, &ins, NULL) != SQLITE_OK ||
      sqlite3_prepare_v2(db, "UPDATE counters SET n = n + ?1 WHERE writer = ?2", -1, &upd, NULL) !=
          SQLITE_OK) {
    fprintf(stderr, "writer %d: prepare: %s\n", id, sqlite3_errmsg(db));
    return 2;
  }
  unsigned rng = 7919u * (unsigned)(id + 1);
  long long seq = 0, txns = 0, busy = 0, errors = 0;
  double end = Now() + seconds;
  while (Now() < end) {
    int k = 1 + (int)(Rand(&rng) % 4);
    int r = WriteTxn(db, ins, upd, id, seq, k, &rng);
    if (r == 1) {
      seq += k;
      ++txns;
      /* A pause between transactions, so that a writer whose busy handler
       * sleeps (SQLite's) gets the lock now and then. */
      Nap(1 + (int)(Rand(&rng) % 2));
    } else if (r == 0) {
      ++busy;
    } else {
      if (errors++ < 5) fprintf(stderr, "writer %d: %s\n", id, sqlite3_errmsg(db));
    }
  }
  sqlite3_finalize(ins);
  sqlite3_finalize(upd);
  sqlite3_close(db);
  char text[200];
  snprintf(text, sizeof text, "%lld %lld %lld %lld\n", seq, txns, busy, errors);
  WriteResult(path, id, text);
  return errors == 0 ? 0 : 1;
}

/* Inside one read transaction: each writer's rows agree with its counter.
 * 1 consistent, 0 busy, -1 torn, -2 error. */
static int ReadCheck(sqlite3* db, long long* rows) {
  int rc = sqlite3_exec(db, "BEGIN", NULL, NULL, NULL);
  if (rc != SQLITE_OK) return IsBusy(rc) ? 0 : -2;
  sqlite3_stmt* s = NULL;
  int result = 1;
  rc =
      sqlite3_prepare_v2(db,
                         "SELECT c.writer, c.n, (SELECT count(*) FROM log WHERE writer = c.writer),"
                         " (SELECT ifnull(max(seq), 0) FROM log WHERE writer = c.writer)"
                         " FROM counters AS c",
                         -1, &s, NULL);
  while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
    long long n = sqlite3_column_int64(s, 1);
    *rows += n;
    if (sqlite3_column_int64(s, 2) != n || sqlite3_column_int64(s, 3) != n) result = -1;
    rc = SQLITE_OK;
  }
  if (rc != SQLITE_DONE && rc != SQLITE_OK) result = IsBusy(rc) ? 0 : -2;
  sqlite3_finalize(s);
  sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
  if (!sqlite3_get_autocommit(db)) sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
  return result;
}

static int Reader(const char* path, int id, double seconds, int wal) {
  sqlite3* db = OpenDb(path);
  long long checks = 0, busy = 0, torn = 0, errors = 0, rows = 0, quick = 0;
  double end = Now() + seconds;
  for (long long i = 0; Now() < end; ++i) {
    int r = ReadCheck(db, &rows);
    if (r == 1) ++checks;
    if (r == 0) ++busy;
    if (r == -1 && torn++ < 5) fprintf(stderr, "reader %d: counters and rows disagree\n", id);
    if (r == -2 && errors++ < 5) fprintf(stderr, "reader %d: %s\n", id, sqlite3_errmsg(db));
    if (i % 40 == 39) {
      sqlite3_stmt* s = NULL;
      int rc = sqlite3_prepare_v2(db, "PRAGMA quick_check", -1, &s, NULL);
      if (rc == SQLITE_OK) rc = sqlite3_step(s);
      if (rc == SQLITE_ROW) {
        ++quick;
        if (strcmp((const char*)sqlite3_column_text(s, 0), "ok") != 0 && errors++ < 5) {
          fprintf(stderr, "reader %d: quick_check: %s\n", id, sqlite3_column_text(s, 0));
        }
      } else if (!IsBusy(rc) && errors++ < 5) {
        fprintf(stderr, "reader %d: quick_check: %s\n", id, sqlite3_errmsg(db));
      }
      sqlite3_finalize(s);
    }
    if (wal && id == kProcs - 1 && i % 25 == 24) {
      int rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
      if (rc != SQLITE_OK && !IsBusy(rc) && errors++ < 5) {
        fprintf(stderr, "reader %d: checkpoint: %s\n", id, sqlite3_errmsg(db));
      }
    }
  }
  sqlite3_close(db);
  char text[200];
  snprintf(text, sizeof text, "%lld %lld %lld %lld %lld %lld\n", checks, busy, torn, errors, rows,
           quick);
  WriteResult(path, id, text);
  return torn == 0 && errors == 0 ? 0 : 1;
}

/* Prints "integrity" and, per writer, "w rows min max counter". */
static int Verify(const char* path) {
  sqlite3* db = OpenDb(path);
  sqlite3_stmt* s = NULL;
  int rc = sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &s, NULL);
  if (rc == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
    printf("%s\n", (const char*)sqlite3_column_text(s, 0));
  } else {
    printf("integrity_check: %s\n", sqlite3_errmsg(db));
  }
  sqlite3_finalize(s);
  rc = sqlite3_prepare_v2(db,
                          "SELECT c.writer, (SELECT count(*) FROM log WHERE writer = c.writer),"
                          " (SELECT ifnull(min(seq), 0) FROM log WHERE writer = c.writer),"
                          " (SELECT ifnull(max(seq), 0) FROM log WHERE writer = c.writer), c.n"
                          " FROM counters AS c ORDER BY 1",
                          -1, &s, NULL);
  while (rc == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
    printf("%lld %lld %lld %lld %lld\n", sqlite3_column_int64(s, 0), sqlite3_column_int64(s, 1),
           sqlite3_column_int64(s, 2), sqlite3_column_int64(s, 3), sqlite3_column_int64(s, 4));
  }
  sqlite3_finalize(s);
  sqlite3_close(db);
  return 0;
}

static int Create(const char* path, const char* mode) {
  char name[4200];
  const char* suffixes[] = {"", "-journal", "-wal", "-shm"};
  for (int i = 0; i < 4; ++i) {
    snprintf(name, sizeof name, "%s%s", path, suffixes[i]);
    unlink(name);
  }
  sqlite3* db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) return 2;
  char sql[600];
  snprintf(sql, sizeof sql,
           "PRAGMA journal_mode=%s;"
           "CREATE TABLE log(writer INT, seq INT, payload BLOB, PRIMARY KEY(writer, seq));"
           "CREATE INDEX log_seq ON log(seq, writer);"
           "CREATE TABLE counters(writer INTEGER PRIMARY KEY, n INT NOT NULL);"
           "INSERT INTO counters VALUES(0, 0), (1, 0), (2, 0), (3, 0)",
           mode);
  int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);
  if (rc != SQLITE_OK) fprintf(stderr, "create: %s\n", sqlite3_errmsg(db));
  sqlite3_close(db);
  return rc == SQLITE_OK ? 0 : 2;
}

/* Runs `program verify DB` and checks its output against the writers'
 * committed counts. */
static int CheckWith(const char* program, const char* path, const long long* committed) {
  char cmd[8400];
  snprintf(cmd, sizeof cmd, "'%s' verify '%s'", program, path);
  FILE* p = popen(cmd, "r");
  if (p == NULL) return 1;
  char line[512];
  int bad = 0, seen = 0;
  if (fgets(line, sizeof line, p) == NULL || strcmp(line, "ok\n") != 0) {
    fprintf(stderr, "%s: integrity_check: %s", program, line);
    bad = 1;
  }
  long long w, rows, lo, hi, n;
  while (fgets(line, sizeof line, p) != NULL &&
         sscanf(line, "%lld %lld %lld %lld %lld", &w, &rows, &lo, &hi, &n) == 5) {
    if (w < 0 || w >= kWriters) continue;
    ++seen;
    long long c = committed[w];
    if (rows != c || hi != c || n != c || (c > 0 && lo != 1)) {
      fprintf(stderr,
              "%s: writer %lld committed %lld, file has %lld rows (%lld..%lld), counter %lld\n",
              program, w, c, rows, lo, hi, n);
      bad = 1;
    }
  }
  pclose(p);
  return bad || seen != kWriters;
}

static int Coordinate(const char* path, const char* mode, double seconds, const char* self,
                      const char* other) {
  if (Create(path, mode) != 0) return 2;
  pid_t pids[kProcs];
  for (int id = 0; id < kProcs; ++id) {
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
      const char* program = id % 2 == 0 ? self : other;
      char ids[16], secs[32];
      snprintf(ids, sizeof ids, "%d", id);
      snprintf(secs, sizeof secs, "%g", seconds);
      execl(program, program, id < kWriters ? "writer" : "reader", path, ids, secs, mode,
            (char*)NULL);
      _exit(127);
    }
    pids[id] = pid;
  }
  int failed = 0;
  for (int id = 0; id < kProcs; ++id) {
    int status = 0;
    waitpid(pids[id], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      fprintf(stderr, "process %d (%s) ended with status %d\n", id, id % 2 == 0 ? "self" : "other",
              status);
      failed = 1;
    }
  }
  long long committed[kWriters] = {0}, total = 0, txns = 0, busy = 0;
  long long checks = 0, rows = 0, quick = 0;
  for (int id = 0; id < kProcs; ++id) {
    char name[4200];
    snprintf(name, sizeof name, "%s.result%d", path, id);
    FILE* f = fopen(name, "r");
    long long a = 0, b = 0, c = 0, d = 0, e = 0, g = 0;
    if (f == NULL || fscanf(f, "%lld %lld %lld %lld %lld %lld", &a, &b, &c, &d, &e, &g) < 4) {
      fprintf(stderr, "process %d left no result\n", id);
      failed = 1;
    }
    if (f != NULL) fclose(f);
    unlink(name);
    if (id < kWriters) {
      committed[id] = a;
      total += a;
      txns += b;
      busy += c;
    } else {
      checks += a;
      busy += b;
      rows += e;
      quick += g;
    }
  }
  failed |= CheckWith(self, path, committed);
  failed |= CheckWith(other, path, committed);
  printf(
      "%s: %d processes, %g s: %lld rows in %lld commits (per writer %lld %lld %lld %lld), "
      "%lld reader checks over %lld rows, %lld quick_checks, %lld busy retries: %s\n",
      mode, kProcs, seconds, total, txns, committed[0], committed[1], committed[2], committed[3],
      checks, rows, quick, busy, failed ? "FAILED" : "0 lost commits, integrity ok");
  return failed;
}

int main(int argc, char** argv) {
  if (argc >= 7 && strcmp(argv[1], "coordinate") == 0) {
    return Coordinate(argv[2], argv[3], atof(argv[4]), argv[5], argv[6]);
  }
  if (argc >= 5 && strcmp(argv[1], "writer") == 0)
    return Writer(argv[2], atoi(argv[3]), atof(argv[4]));
  if (argc >= 6 && strcmp(argv[1], "reader") == 0) {
    return Reader(argv[2], atoi(argv[3]), atof(argv[4]), strcmp(argv[5], "wal") == 0);
  }
  if (argc >= 3 && strcmp(argv[1], "verify") == 0) return Verify(argv[2]);
  fprintf(stderr,
          "usage: %s coordinate DB delete|wal SECONDS SELF OTHER\n"
          "       %s verify DB\n",
          argv[0], argv[0]);
  return 2;
}
