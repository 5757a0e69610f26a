#!/bin/sh
# FTS5 files exchanged between Basalt and the system sqlite3.
#   fts5_interop.sh BASALT_SHELL SQLITE3_SHELL WORKDIR
# 1. The same script (3,000 documents over 50 transactions with deletes and
#    updates: level-0 flushes, automerges, crisismerges, multi-leaf doclists
#    with doclist indexes, a prefix index) builds one file with each engine;
#    their %_data, %_idx, %_docsize and %_config must be identical.
# 2. Each engine queries, updates and integrity-checks the file the other
#    built; every MATCH answer (and every error message) must be the same
#    from both engines.
# 3. The statements of fts5_errors.sql fail with the same messages.
set -eu
BASALT=$1
SQLITE=$2
WORK=$3
SRC=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$WORK"
cd "$WORK"
rm -f b.db s.db build.sql queries.sql update_b.sql update_s.sql

python3 - <<'PY'
import random
random.seed(5)
words = ["w%d" % i for i in range(1500)] + ["alpha", "beta", "gamma", "delta", "running", "runner"] * 5
def doc(n):
    return " ".join(random.choice(words) for _ in range(n))
with open("build.sql", "w") as f:
    f.write("CREATE VIRTUAL TABLE t USING fts5(a, b, prefix='2');\n")
    f.write("INSERT INTO t(t, rank) VALUES('pgsz', 1000);\n")
    for txn in range(50):
        f.write("BEGIN;\n")
        for _ in range(60):
            f.write("INSERT INTO t(a, b) VALUES('%s', '%s');\n" % (doc(12), doc(random.randint(0, 60))))
        if txn % 10 == 9:
            f.write("DELETE FROM t WHERE rowid %% 13 = %d;\n" % (txn % 13))
        f.write("COMMIT;\n")
    f.write("DELETE FROM t WHERE rowid % 7 = 0;\n")
    f.write("UPDATE t SET a = 'alpha beta ' || a WHERE rowid % 11 = 0;\n")
with open("queries.sql", "w") as f:
    for q in ["alpha", "w1*", "w12*", "\"alpha beta\"", "NEAR(alpha w10, 3)", "beta OR gamma",
              "w100 OR w200 OR w300", "a:alpha", "b:w5*", "(alpha OR gamma) NOT beta", "run*",
              "delta", "w1 w2", "w99*", "^alpha", "{a b}:gamma", "-a:delta", "NEAR(w1 w2, 20)",
              "alpha AND (", "nosuchcol:x", "NEAR(a b, x)"]:
        f.write("SELECT '%s', count(*), sum(rowid) FROM t WHERE t MATCH '%s';\n" % (q, q))
        f.write("SELECT rowid, a FROM t WHERE t MATCH '%s' ORDER BY rowid DESC LIMIT 5;\n" % q)
    f.write("SELECT count(*), sum(rowid) FROM t;\n")
    f.write("SELECT hex(block) FROM t_data WHERE id = 10;\n")
for name, seed in (("update_b.sql", 1), ("update_s.sql", 2)):
    random.seed(seed)
    with open(name, "w") as f:
        f.write("BEGIN;\n")
        for _ in range(100):
            f.write("INSERT INTO t(a, b) VALUES('%s', 'gamma %s');\n" % (doc(6), doc(3)))
        f.write("DELETE FROM t WHERE rowid %% 17 = %d;\n" % seed)
        f.write("COMMIT;\n")
        f.write("INSERT INTO t(t) VALUES('integrity-check');\n")
PY

dump() {  # dump DB: the shadow tables, as sqlite3 shows them
  "$SQLITE" "$1" "SELECT id, hex(block) FROM t_data; SELECT segid, hex(term), pgno FROM t_idx;
                  SELECT id, hex(sz) FROM t_docsize; SELECT k, v FROM t_config;"
}
"$BASALT" b.db < build.sql
"$SQLITE" s.db < build.sql
dump b.db > b.dump
dump s.db > s.dump
cmp b.dump s.dump || { echo "FAIL: files built by the two engines differ"; exit 1; }

check() {  # check DB: both engines answer queries.sql the same
  "$SQLITE" "$1" "INSERT INTO t(t) VALUES('integrity-check');"
  "$BASALT" "$1" "INSERT INTO t(t) VALUES('integrity-check');"
  "$SQLITE" "$1" < queries.sql > q_s.out 2>&1 || true
  "$BASALT" "$1" < queries.sql > q_b.out 2>&1 || true
  cmp q_s.out q_b.out || { echo "FAIL: MATCH answers differ on $1"; diff q_s.out q_b.out | head; exit 1; }
}
check b.db
check s.db
# Cross updates: sqlite3 changes the Basalt-built file and the reverse.
"$SQLITE" b.db < update_s.sql
"$BASALT" s.db < update_s.sql
check b.db
check s.db
dump b.db > b.dump
dump s.db > s.dump
cmp b.dump s.dump || { echo "FAIL: cross-updated files differ"; exit 1; }
# Merge and optimize on each side, then check again.
"$BASALT" b.db "INSERT INTO t(t, rank) VALUES('merge', 200); INSERT INTO t(t) VALUES('optimize');"
"$SQLITE" s.db "INSERT INTO t(t, rank) VALUES('merge', 200); INSERT INTO t(t) VALUES('optimize');"
check b.db
check s.db
dump b.db > b.dump
dump s.db > s.dump
cmp b.dump s.dump || { echo "FAIL: optimized files differ"; exit 1; }
# Error messages, byte for byte.
rm -f e_b.db e_s.db
"$BASALT" e_b.db < "$SRC/fts5_errors.sql" > e_b.out 2>&1 || true
"$SQLITE" e_s.db < "$SRC/fts5_errors.sql" > e_s.out 2>&1 || true
cmp e_b.out e_s.out || { echo "FAIL: error messages differ"; diff e_b.out e_s.out | head; exit 1; }
echo "fts5 interop: ok"
