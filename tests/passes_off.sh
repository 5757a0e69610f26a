#!/bin/sh
# The compiler's passes (src/planner/passes.h) change plans, never results:
# tests/sql runs with each pass switched off in turn, and the core set of the
# sqllogictest suite with all of them off. Files whose expected results
# depend on SQLite's own plan are left out (their reasons below).
set -eu
runner=${1:?usage: passes_off.sh BASALT_SLT SOURCE_DIR [SLT_DIR]}
src=${2:?usage: passes_off.sh BASALT_SLT SOURCE_DIR [SLT_DIR]}
slt=${3:-}
# Plan-dependent expectations:
#   select/minmax_ties.test   which of the values equal under NOCASE min()/max()
#                             returns follows the index the optimization reads;
#   select/minmax_ties_collation.test, select/tlp_seed8198_1.test,
#   select/tlp_seed5387_1.test, select/tlp_seed7814_1.test,
#   select/right_join_unmatched_order.test  likewise;
#   select/rowid_lookup.test  rowid = <real beyond 2^53> finds nothing through
#                             the rowid lookup but matches in a full scan;
#   vacuum/vacuum.test        INSERT ... SELECT without ORDER BY numbers rows
#                             in scan order, and freelist_count depends on it;
#   func/json_pending.test    a JSON subtype survives a FROM subquery only
#                             when SQLite flattens it (a virtual table column).
status=0
run() {
  # Prints the summary line; a failure is remembered for the exit status.
  out=$("$@" 2>&1) || { status=1; echo "$out" | grep -v '^  \|^$' | head -20; }
  echo "$out" | tail -1
}
files=$(find "$src/tests/sql" -name '*.test' | LC_ALL=C sort |
        grep -v -e '/select/rowid_lookup.test$' -e '/select/minmax_ties.test$' -e '/vacuum/vacuum.test$' \
                -e '/select/minmax_ties_collation.test$' -e '/select/tlp_seed8198_1.test$' \
                -e '/select/tlp_seed5387_1.test$' -e '/select/tlp_seed7814_1.test$' \
                -e '/select/right_join_unmatched_order.test$' \
                -e '/func/json_pending.test$')
for pass in flatten or_to_in const_fold subquery_once coroutine index_lookup covering_index \
            order_by_index; do
  echo "== $pass off"
  these=$files
  # select/ephemeral_spill.test runs its IN subqueries over 10,000-row
  # tables with cache_size=1: without subquery_once each is rebuilt for
  # every outer row through a spilling temporary B-tree, which takes hours.
  if [ "$pass" = subquery_once ]; then
    these=$(echo "$files" | grep -v -e '/select/ephemeral_spill.test$')
  fi
  # shellcheck disable=SC2086
  run env BASALT_DISABLE_PASSES=$pass "$runner" --jobs 2 --quiet $these
done
if [ -n "$slt" ]; then
  echo "== all passes off: core set"
  run env BASALT_DISABLE_PASSES=all "$runner" --jobs 2 --quiet "$slt/select1.test" \
    "$slt/select2.test" "$slt/select3.test" "$slt/select4.test" "$slt/evidence"
  # select5's joins of up to 64 tables have no indexes: without index_lookup
  # (which also builds automatic indexes) each is a nested scan of every
  # combination and runs for hours, so that one pass stays on there.
  echo "== all passes but index_lookup off: select5"
  run env BASALT_DISABLE_PASSES=flatten,or_to_in,const_fold,subquery_once,coroutine,covering_index,order_by_index \
    "$runner" --jobs 2 --quiet "$slt/select5.test"
fi
exit $status
