#!/bin/sh
# Runs the limits_api driver linked with Basalt and with the system SQLite;
# the outputs must be identical.
set -eu
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$1" >"$out/basalt.txt" 2>&1
"$2" >"$out/sqlite.txt" 2>&1
if ! cmp -s "$out/basalt.txt" "$out/sqlite.txt"; then
  echo "output differs (< basalt, > sqlite):"
  diff "$out/basalt.txt" "$out/sqlite.txt" || true
  exit 1
fi
echo "identical output: $(wc -l <"$out/basalt.txt") lines"
