#!/bin/sh
# EXPLAIN output layout: Basalt's VM programs differ from SQLite's, so the
# layout is compared on the same programs -- Basalt's shell against
# Debian's sqlite3 shell loading Basalt's library (LD_LIBRARY_PATH). Column
# widths, the indentation of loop bodies, .explain on/off/auto and EXPLAIN
# in other modes must be byte-identical.
# usage: explain_layout.sh BASALT_SHELL BASALT_LIBRARY WORK_DIR
set -u
shell=${1:?usage: explain_layout.sh BASALT_SHELL BASALT_LIBRARY WORK_DIR}
lib=${2:?usage: explain_layout.sh BASALT_SHELL BASALT_LIBRARY WORK_DIR}
work=${3:?usage: explain_layout.sh BASALT_SHELL BASALT_LIBRARY WORK_DIR}
system=$(command -v sqlite3) || { echo "sqlite3 not installed: skipped"; exit 0; }
rm -rf "$work"
mkdir -p "$work/lib"
ln -s "$(cd "$(dirname "$lib")" && pwd)/$(basename "$lib")" "$work/lib/libsqlite3.so.0"
run() {
  "$@" :memory: "create table t(a, b); create table u(x, y); create index ux on u(x);" \
    "explain select * from t where a > 1 order by b" \
    "explain select a, count(*) from t group by a" \
    "explain select * from t, u where t.a = u.x" \
    "explain with recursive c(x) as (select 1 union all select x+1 from c where x < 5) select x from c" \
    "explain select * from t where a in (select x from u)" \
    "explain insert into t select * from t" \
    "explain update t set a = a + 1 where b in (1, 2)" \
    "explain delete from u where x > 3" \
    "explain select * from (select a from t order by a limit 2) join u on x = a" \
    ".explain off" "explain select 1" ".explain on" "explain select 1" ".explain auto" \
    ".mode box" "explain select 1" ".mode list" ".headers on" "explain select 1" 2>&1
}
LD_LIBRARY_PATH="$work/lib" run "$system" > "$work/system.out"
run "$shell" > "$work/basalt.out"
if cmp -s "$work/system.out" "$work/basalt.out"; then
  echo "ok   EXPLAIN layout ($(wc -l < "$work/basalt.out") lines identical)"
else
  diff "$work/system.out" "$work/basalt.out" | head -40
  exit 1
fi
