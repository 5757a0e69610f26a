#!/bin/sh
# R*Tree file interoperability between Basalt and the system sqlite3.
# usage: rtree_interop.sh BASALT_SHELL SQLITE3_SHELL SQL_DIR WORK_DIR
# For each engine as the builder: the builder makes the tables
# (rtree_build.sql); then both engines read the file (rtree_read.sql, with
# PRAGMA integrity_check and rtreecheck()), each changes its own copy
# (rtree_update.sql), and every engine reads every copy. All outputs must
# be identical, node blobs included. The error messages and query plans
# of rtree_errors.sql must be identical too.
set -eu
basalt=$1
sqlite=$2
sql=$3
work=$4
rm -rf "$work"
mkdir -p "$work"
fail=0

same() {  # same FILE1 FILE2 WHAT
  if ! cmp -s "$1" "$2"; then
    echo "FAIL: $3 differ:"
    diff "$1" "$2" | head -20
    fail=1
  else
    echo "ok: $3 ($(wc -l < "$1") lines)"
  fi
}

for builder in basalt sqlite; do
  eval "make_db=\$$builder"
  db="$work/$builder-built.db"
  "$make_db" "$db" < "$sql/rtree_build.sql" > "$work/build.out" 2>&1
  if [ -s "$work/build.out" ]; then echo "FAIL: build by $builder:"; cat "$work/build.out"; fail=1; fi
  "$basalt" "$db" < "$sql/rtree_read.sql" > "$work/$builder-read-by-basalt.out" 2>&1
  "$sqlite" "$db" < "$sql/rtree_read.sql" > "$work/$builder-read-by-sqlite.out" 2>&1
  same "$work/$builder-read-by-basalt.out" "$work/$builder-read-by-sqlite.out" \
    "reads of the tree $builder built"
  for updater in basalt sqlite; do
    eval "change=\$$updater"
    copy="$work/$builder-built-$updater-updated.db"
    cp "$db" "$copy"
    "$change" "$copy" < "$sql/rtree_update.sql" > "$work/update.out" 2>&1
    if [ -s "$work/update.out" ]; then echo "FAIL: update by $updater:"; cat "$work/update.out"; fail=1; fi
    for reader in basalt sqlite; do
      eval "read=\$$reader"
      "$read" "$copy" < "$sql/rtree_read.sql" > "$work/$builder-$updater-$reader.out" 2>&1
    done
    same "$work/$builder-$updater-basalt.out" "$work/$builder-$updater-sqlite.out" \
      "reads of the tree $builder built and $updater changed"
  done
  same "$work/$builder-basalt-basalt.out" "$work/$builder-sqlite-sqlite.out" \
    "the tree $builder built changed by basalt and by sqlite"
done
same "$work/basalt-basalt-basalt.out" "$work/sqlite-sqlite-sqlite.out" "the trees of the two builders"
grep -q '^ok$' "$work/basalt-sqlite-sqlite.out" || { echo "FAIL: no ok from checks"; fail=1; }

"$basalt" "$work/err-basalt.db" < "$sql/rtree_errors.sql" > "$work/err-basalt.out" 2>&1 || true
"$sqlite" "$work/err-sqlite.db" < "$sql/rtree_errors.sql" > "$work/err-sqlite.out" 2>&1 || true
same "$work/err-basalt.out" "$work/err-sqlite.out" "error messages and plans"
exit $fail
