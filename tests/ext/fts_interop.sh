#!/bin/sh
# FTS4 files exchanged between Basalt and the system sqlite3.
#   fts_interop.sh BASALT_SHELL SQLITE3_SHELL WORKDIR
# 1. The same script (2,400 documents over 40 transactions: 40 level-0
#    segments, two merges into level 1, leaves and interior nodes) builds one
#    file with each engine; the two dumps must be identical.
# 2. Each engine queries, updates and integrity-checks the file the other
#    built; every MATCH answer must be the same from both engines.
set -eu
BASALT=$1
SQLITE=$2
WORK=$3
mkdir -p "$WORK"
cd "$WORK"
rm -f b.db s.db build.sql queries.sql update_b.sql update_s.sql

python3 - <<'PY'
import random
random.seed(17)
words = ["w%d" % i for i in range(1500)] + ["alpha", "beta", "gamma", "delta", "running", "runner"]
def doc(n):
    return " ".join(random.choice(words) for _ in range(n))
with open("build.sql", "w") as f:
    f.write("CREATE VIRTUAL TABLE t USING fts4(a, b, prefix='2,3');\n")
    for txn in range(40):
        f.write("BEGIN;\n")
        for _ in range(60):
            f.write("INSERT INTO t(a, b) VALUES('%s', '%s');\n" % (doc(8), doc(5)))
        f.write("COMMIT;\n")
    f.write("DELETE FROM t WHERE docid % 7 = 0;\n")
    f.write("UPDATE t SET a = 'alpha beta ' || a WHERE docid % 11 = 0;\n")
with open("queries.sql", "w") as f:
    for q in ["alpha", "w1*", "w12*", "\"alpha beta\"", "alpha NEAR/3 w10", "beta OR gamma",
              "w100 OR w200 OR w300", "a:alpha", "b:w5*", "(alpha OR gamma) NOT beta", "run*",
              "delta", "w1 w2", "w99*"]:
        f.write("SELECT '%s', count(*), sum(docid) FROM t WHERE t MATCH '%s';\n" % (q, q))
        f.write("SELECT docid, offsets(t), hex(matchinfo(t, 'pcnalx')) FROM t WHERE t MATCH '%s' "
                "ORDER BY docid LIMIT 20;\n" % q)
    f.write("SELECT count(*), sum(docid) FROM t;\n")
    f.write("SELECT level, idx, start_block, leaves_end_block, end_block FROM t_segdir ORDER BY 1, 2;\n")
for name, seed in (("update_b.sql", 1), ("update_s.sql", 2)):
    random.seed(seed)
    with open(name, "w") as f:
        f.write("BEGIN;\n")
        for _ in range(100):
            f.write("INSERT INTO t(a, b) VALUES('%s', 'gamma %s');\n" % (doc(6), doc(3)))
        f.write("DELETE FROM t WHERE docid %% 13 = %d;\n" % seed)
        f.write("COMMIT;\n")
        f.write("INSERT INTO t(t) VALUES('integrity-check');\n")
PY

"$BASALT" b.db < build.sql
"$SQLITE" s.db < build.sql
"$SQLITE" b.db .dump > b.dump
"$SQLITE" s.db .dump > s.dump
cmp b.dump s.dump || { echo "FAIL: files built by the two engines differ"; exit 1; }

check() {  # check DB: both engines answer queries.sql the same
  "$SQLITE" "$1" "INSERT INTO t(t) VALUES('integrity-check');"
  "$BASALT" "$1" "INSERT INTO t(t) VALUES('integrity-check');"
  "$SQLITE" "$1" < queries.sql > q_s.out
  "$BASALT" "$1" < queries.sql > q_b.out
  cmp q_s.out q_b.out || { echo "FAIL: MATCH answers differ on $1"; diff q_s.out q_b.out | head; exit 1; }
}
check b.db
check s.db
# Cross updates: sqlite3 changes the Basalt-built file and the reverse.
"$SQLITE" b.db < update_s.sql
"$BASALT" s.db < update_s.sql
cmp b.db s.db >/dev/null 2>&1 || true
check b.db
check s.db
"$SQLITE" b.db .dump > b.dump
"$SQLITE" s.db .dump > s.dump
cmp b.dump s.dump || { echo "FAIL: cross-updated files differ"; exit 1; }
# Optimize on each side, then check again.
"$BASALT" b.db "INSERT INTO t(t) VALUES('optimize');"
"$SQLITE" s.db "INSERT INTO t(t) VALUES('optimize');"
check b.db
check s.db
"$SQLITE" b.db .dump > b.dump
"$SQLITE" s.db .dump > s.dump
cmp b.dump s.dump || { echo "FAIL: optimized files differ"; exit 1; }
echo "fts interop: ok ($(wc -l < q_s.out) lines of answers compared)"
