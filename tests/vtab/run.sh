#!/bin/sh
# Runs the kv module script on Basalt and on the system SQLite; the outputs
# must be identical, and both runs must have used each part of the module
# protocol (equality, range and ORDER BY plans, xUpdate, transactions).
set -eu
basalt=$1
sqlite=$2
script=$3
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$basalt" "$script" >"$out/basalt.txt" 2>"$out/basalt.err"
"$sqlite" "$script" >"$out/sqlite.txt" 2>"$out/sqlite.err"
if ! cmp -s "$out/basalt.txt" "$out/sqlite.txt"; then
  echo "output differs (< basalt, > sqlite):"
  diff "$out/basalt.txt" "$out/sqlite.txt" || true
  exit 1
fi
for who in basalt sqlite; do
  stats=$(cat "$out/$who.err")
  echo "$who $stats"
  for field in best_index eq range order_by filters updates replaces begins syncs commits rollbacks savepoints rollback_tos destroys; do
    n=$(echo "$stats" | sed -n "s/.* $field \([0-9]*\).*/\1/p")
    if [ -z "$n" ] || [ "$n" -eq 0 ]; then
      echo "$who: the module's $field count is 0"
      exit 1
    fi
  done
done
echo "identical output: $(wc -l <"$out/basalt.txt") lines"
