#!/bin/sh
# Database files exchanged between Basalt's shell and the system sqlite3:
#   1. Basalt writes workload.sql; sqlite3 finds the file intact
#      (integrity_check) and holding what sqlite3 itself writes (.dump).
#   2. sqlite3 writes it; Basalt answers queries.sql exactly as sqlite3 does
#      on the same file, passes its own integrity_check, applies modify.sql,
#      and the result is intact and equal to sqlite3 doing the same.
#   3. Basalt runs vacuum.sql on that file (and VACUUMs it into the other
#      auto-vacuum mode, then to another page size), sqlite3 finds it
#      intact, with an empty freelist
#      and the same content; sqlite3 VACUUMs Basalt's file of step 1 and
#      Basalt reads it as sqlite3 does.
# Each runs under several page sizes, auto-vacuum and journal modes.
set -u
basalt=${1:?usage: run.sh BASALT_SHELL}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "sqlite3 not installed: skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0

# $1: name, $2: what was expected, $3: what came
same() {
  if cmp -s "$2" "$3"; then return 0; fi
  echo "FAIL $1"
  diff "$2" "$3" | head -20
  fail=1
  return 1
}

# Runs stdin through an engine on a database: engine, file.
run() {
  if [ "$1" = basalt ]; then "$basalt" "$2"; else sqlite3 "$2"; fi
}

variants="default
PRAGMA page_size=512;
PRAGMA page_size=65536;
PRAGMA auto_vacuum=FULL;
PRAGMA auto_vacuum=INCREMENTAL;
PRAGMA journal_mode=WAL;
PRAGMA journal_mode=TRUNCATE;
PRAGMA journal_mode=PERSIST;
PRAGMA journal_mode=MEMORY;
PRAGMA journal_mode=OFF;
PRAGMA page_size=1024; PRAGMA auto_vacuum=FULL; PRAGMA journal_mode=WAL;
PRAGMA encoding='UTF-16le';
PRAGMA encoding='UTF-16be'; PRAGMA page_size=1024;"

echo "$variants" | while IFS= read -r v; do
  [ "$v" = default ] && v=""
  label=${v:-default}
  d="$tmp/case"
  rm -rf "$d" && mkdir -p "$d"
  # ---- 1. Basalt writes, sqlite3 checks.
  { echo "$v"; cat "$here/workload.sql"; } | run basalt "$d/b.db" >"$d/b.out" 2>&1
  { echo "$v"; cat "$here/workload.sql"; } | run sqlite "$d/s.db" >"$d/s.out" 2>&1
  same "basalt writes [$label]: output" "$d/s.out" "$d/b.out" || continue
  echo ok >"$d/ok"
  sqlite3 "$d/b.db" "PRAGMA integrity_check" >"$d/ic" 2>&1
  same "basalt writes [$label]: sqlite3 integrity_check" "$d/ok" "$d/ic" || continue
  sqlite3 "$d/b.db" .dump >"$d/b.dump"
  sqlite3 "$d/s.db" .dump >"$d/s.dump"
  same "basalt writes [$label]: content" "$d/s.dump" "$d/b.dump" || continue
  for p in page_size auto_vacuum journal_mode user_version encoding; do
    echo "PRAGMA $p;"
  done >"$d/pragmas.sql"
  sqlite3 "$d/b.db" <"$d/pragmas.sql" >"$d/b.pr"
  sqlite3 "$d/s.db" <"$d/pragmas.sql" >"$d/s.pr"
  same "basalt writes [$label]: settings" "$d/s.pr" "$d/b.pr" || continue
  # ---- 2. sqlite3 writes, Basalt reads and modifies.
  run basalt "$d/s.db" <"$here/queries.sql" >"$d/bq.out" 2>&1
  run sqlite "$d/s.db" <"$here/queries.sql" >"$d/sq.out" 2>&1
  same "sqlite3 writes [$label]: queries" "$d/sq.out" "$d/bq.out" || continue
  echo "PRAGMA integrity_check;" | run basalt "$d/s.db" >"$d/bic" 2>&1
  same "sqlite3 writes [$label]: Basalt's integrity_check" "$d/ok" "$d/bic" || continue
  cp "$d/s.db" "$d/s2.db"
  [ -f "$d/s.db-wal" ] && cp "$d/s.db-wal" "$d/s2.db-wal"
  run basalt "$d/s.db" <"$here/modify.sql" >"$d/bm.out" 2>&1
  run sqlite "$d/s2.db" <"$here/modify.sql" >"$d/sm.out" 2>&1
  same "sqlite3 writes [$label]: modify output" "$d/sm.out" "$d/bm.out" || continue
  sqlite3 "$d/s.db" "PRAGMA integrity_check" >"$d/ic2" 2>&1
  same "sqlite3 writes, Basalt modifies [$label]: integrity_check" "$d/ok" "$d/ic2" || continue
  sqlite3 "$d/s.db" .dump >"$d/m1.dump"
  sqlite3 "$d/s2.db" .dump >"$d/m2.dump"
  same "sqlite3 writes, Basalt modifies [$label]: content" "$d/m2.dump" "$d/m1.dump" || continue
  # ---- 3. VACUUM both ways. Basalt vacuums the file sqlite3 wrote and
  # modified (its freelist is not empty), then switches its auto-vacuum
  # mode by VACUUM; sqlite3 finds it intact, compact and unchanged.
  cp "$d/s2.db" "$d/v.db"
  run basalt "$d/v.db" <"$here/vacuum.sql" >"$d/bv.out" 2>&1
  echo "ok" >"$d/ok0"
  echo "0" >>"$d/ok0"
  same "Basalt vacuums [$label]: output" /dev/null "$d/bv.out" || continue
  sqlite3 "$d/v.db" "PRAGMA integrity_check; PRAGMA freelist_count" >"$d/vic" 2>&1
  same "Basalt vacuums [$label]: sqlite3 integrity_check" "$d/ok0" "$d/vic" || continue
  sqlite3 "$d/v.db" .dump >"$d/v.dump"
  same "Basalt vacuums [$label]: content" "$d/m2.dump" "$d/v.dump" || continue
  sqlite3 "$d/v.db" <"$d/pragmas.sql" >"$d/v.pr"
  sqlite3 "$d/s2.db" <"$d/pragmas.sql" >"$d/s2.pr"
  same "Basalt vacuums [$label]: settings" "$d/s2.pr" "$d/v.pr" || continue
  av=$(sqlite3 "$d/v.db" "PRAGMA auto_vacuum")
  if [ "$av" = 0 ]; then flip=FULL; want=1; else flip=NONE; want=0; fi
  echo "PRAGMA auto_vacuum=$flip; VACUUM; PRAGMA auto_vacuum;" | run basalt "$d/v.db" >"$d/bv2.out" 2>&1
  echo "$want" >"$d/want"
  same "Basalt vacuums to auto_vacuum=$flip [$label]: output" "$d/want" "$d/bv2.out" || continue
  sqlite3 "$d/v.db" "PRAGMA integrity_check; PRAGMA freelist_count" >"$d/vic2" 2>&1
  same "Basalt vacuums to auto_vacuum=$flip [$label]: sqlite3 integrity_check" "$d/ok0" "$d/vic2" || continue
  sqlite3 "$d/v.db" .dump >"$d/v2.dump"
  same "Basalt vacuums to auto_vacuum=$flip [$label]: content" "$d/m2.dump" "$d/v2.dump" || continue
  # A new page size through VACUUM (not in WAL mode), as sqlite3 does it.
  cp "$d/v.db" "$d/vs.db"
  echo "PRAGMA page_size=8192; VACUUM; PRAGMA page_size;" >"$d/ps.sql"
  run basalt "$d/v.db" <"$d/ps.sql" >"$d/bps.out" 2>&1
  run sqlite "$d/vs.db" <"$d/ps.sql" >"$d/sps.out" 2>&1
  same "Basalt vacuums to page_size=8192 [$label]: output" "$d/sps.out" "$d/bps.out" || continue
  sqlite3 "$d/v.db" "PRAGMA integrity_check; PRAGMA freelist_count" >"$d/vic3" 2>&1
  same "Basalt vacuums to page_size=8192 [$label]: sqlite3 integrity_check" "$d/ok0" "$d/vic3" ||
    continue
  sqlite3 "$d/v.db" .dump >"$d/v3.dump"
  same "Basalt vacuums to page_size=8192 [$label]: content" "$d/m2.dump" "$d/v3.dump" || continue
  # sqlite3 vacuums the file Basalt wrote; Basalt reads and checks it.
  cp "$d/b.db" "$d/bs.db"
  sqlite3 "$d/bs.db" "VACUUM" >"$d/sv.out" 2>&1
  same "sqlite3 vacuums [$label]: output" /dev/null "$d/sv.out" || continue
  run basalt "$d/bs.db" <"$here/queries.sql" >"$d/bsq.out" 2>&1
  run sqlite "$d/bs.db" <"$here/queries.sql" >"$d/ssq.out" 2>&1
  same "sqlite3 vacuums [$label]: queries" "$d/ssq.out" "$d/bsq.out" || continue
  echo "PRAGMA integrity_check; PRAGMA freelist_count;" | run basalt "$d/bs.db" >"$d/bsic" 2>&1
  same "sqlite3 vacuums [$label]: Basalt's integrity_check" "$d/ok0" "$d/bsic" || continue
  echo "ok   $label"
done | tee "$tmp/log"

# ---- 3. integrity_check finds what sqlite3 finds in files whose schema was
# edited under them (NOT NULL added over NULLs, index definitions and root
# pages swapped, STRICT types changed), message for message (table order
# aside).
d="$tmp/ic"
mkdir -p "$d"
sqlite3 "$d/a.db" "CREATE TABLE t(a, b); INSERT INTO t VALUES(1,NULL),(2,3),(NULL,4);
  CREATE INDEX i ON t(a); CREATE INDEX j ON t(b) WHERE b > 3;
  CREATE TABLE u(x COLLATE NOCASE, y); INSERT INTO u VALUES('A',1),('b',2),('C',3),('d',4);
  CREATE INDEX k ON u(x, y DESC);
  PRAGMA writable_schema=ON;
  UPDATE sqlite_schema SET sql='CREATE TABLE t(a, b NOT NULL)' WHERE name='t';
  UPDATE sqlite_schema SET sql='CREATE INDEX i ON t(b)' WHERE name='i';"
sqlite3 "$d/b.db" "CREATE TABLE t(a); INSERT INTO t VALUES(1),(2),(3); CREATE INDEX i ON t(a);
  CREATE TABLE u(x COLLATE NOCASE, y); INSERT INTO u VALUES('A',1),('b',2),('C',3),('d',4),('E',5);
  CREATE INDEX k ON u(x, y DESC);
  PRAGMA writable_schema=ON;
  UPDATE sqlite_schema SET rootpage = CASE name WHEN 'i' THEN 5 ELSE 3 END
    WHERE name IN ('i', 'k');"
test "$(sqlite3 "$d/b.db" "SELECT group_concat(rootpage) FROM sqlite_schema")" = "2,5,4,3" ||
  echo "FAIL damaged file b: unexpected root pages" | tee -a "$tmp/log"
# STRICT column types changed under their rows; generated columns with an
# index on a VIRTUAL one (intact).
sqlite3 "$d/e.db" "CREATE TABLE e(a INT, b TEXT, c REAL, d BLOB, g INT AS (a) STORED, n ANY) STRICT;
  INSERT INTO e(a, b, c, d, n) VALUES(1, 'x', 2.5, x'00', 1), (2, 'y', 3, NULL, 'z'), (NULL, '4', 5, x'01', x'02');
  CREATE TABLE h(a, v AS (a * 2), s AS (a + 1) STORED); CREATE INDEX hv ON h(v); CREATE INDEX hs ON h(s, v);
  INSERT INTO h(a) VALUES(1), (2), (NULL);
  PRAGMA writable_schema=ON;
  UPDATE sqlite_schema SET sql='CREATE TABLE e(a TEXT, b INT, c BLOB, d REAL, g TEXT AS (a) STORED, n INTEGER NOT NULL) STRICT'
    WHERE name='e';"
for f in a b e; do
  for c in integrity_check quick_check; do
    sqlite3 "$d/$f.db" "PRAGMA $c" | sort >"$d/s.ic"
    echo "PRAGMA $c;" | "$basalt" "$d/$f.db" 2>&1 | sort >"$d/b.ic"
    if same "integrity_check messages [$f, $c]" "$d/s.ic" "$d/b.ic"; then
      echo "ok   $c on damaged file $f"
    fi
  done
done | tee -a "$tmp/log"
# An index entry whose row is missing: SQLITE_CORRUPT, as sqlite3 says.
sqlite3 "$d/c.db" "CREATE TABLE t(a, b); INSERT INTO t VALUES(1, 2), (3, 4); CREATE INDEX i ON t(a);
  CREATE TABLE e(a, b); PRAGMA writable_schema=ON;
  UPDATE sqlite_schema SET rootpage=(SELECT rootpage FROM sqlite_schema WHERE name='e')
    WHERE name='t';"
for q in "SELECT b FROM t WHERE a = 1" "SELECT b FROM t WHERE a > 0"; do
  sqlite3 "$d/c.db" "$q" >"$d/s.q" 2>&1
  echo "s:$?" >>"$d/s.q"
  "$basalt" "$d/c.db" "$q" >"$d/b.q" 2>&1
  echo "s:$?" >>"$d/b.q"
  if same "index entry without its row [$q]" "$d/s.q" "$d/b.q"; then
    echo "ok   index entry without its row: $q"
  fi
done | tee -a "$tmp/log"

# ---- 4. VACUUM keeps the bytes a database reserves at the end of each page.
d="$tmp/rv"
mkdir -p "$d"
sqlite3 "$d/r.db" "CREATE TABLE t(a, b); CREATE INDEX tb ON t(b);
  INSERT INTO t SELECT value, randomblob(300) FROM generate_series(1, 200);" >/dev/null
sqlite3 "$d/r.db" ".filectrl reserve_bytes 16" "VACUUM" >/dev/null
sqlite3 "$d/r.db" "DELETE FROM t WHERE a % 2 = 0"
sqlite3 "$d/r.db" "SELECT a, hex(b) FROM t ORDER BY a" >"$d/before"
echo "VACUUM; PRAGMA page_size=1024; VACUUM;" | "$basalt" "$d/r.db" >"$d/out" 2>&1
sqlite3 "$d/r.db" ".filectrl reserve_bytes" "PRAGMA integrity_check" "PRAGMA page_size" \
  "PRAGMA freelist_count" >"$d/got" 2>&1
printf '16\nok\n1024\n0\n' >"$d/want"
sqlite3 "$d/r.db" "SELECT a, hex(b) FROM t ORDER BY a" >"$d/after"
if same "VACUUM keeps reserved bytes" "$d/want" "$d/got" &&
  same "VACUUM keeps reserved bytes: content" "$d/before" "$d/after"; then
  echo "ok   VACUUM keeps 16 reserved bytes per page"
fi | tee -a "$tmp/log"
grep -q '^FAIL' "$tmp/log" && exit 1
exit 0
