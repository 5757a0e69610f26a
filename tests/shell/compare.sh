#!/bin/sh
# Runs each *.sql script here through Basalt's shell and the system sqlite3
# and requires byte-identical standard output, standard error and exit status.
set -u
shell=${1:?usage: compare.sh BASALT_SHELL}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "sqlite3 not installed: skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for script in "$here"/*.sql; do
  name=$(basename "$script")
  (cd "$tmp" && "$shell" < "$script" > basalt.out 2>&1; echo "exit $?" >> basalt.out)
  (cd "$tmp" && sqlite3 < "$script" > sqlite.out 2>&1; echo "exit $?" >> sqlite.out)
  if cmp -s "$tmp/basalt.out" "$tmp/sqlite.out"; then
    echo "ok   $name"
  else
    echo "FAIL $name"
    diff "$tmp/sqlite.out" "$tmp/basalt.out" | head -20
    fail=1
  fi
done
exit $fail
