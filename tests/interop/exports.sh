#!/bin/sh
# Every sqlite3_* (and session/changeset/changegroup/rebaser) symbol the
# system libsqlite3.so.0 exports, functions and data, is exported by
# Basalt's library too.
# usage: exports.sh BASALT_LIBRARY SYSTEM_LIBRARY
set -u
pattern='^(sqlite3_|sqlite3session_|sqlite3changeset_|sqlite3changegroup_|sqlite3rebaser_)'
list() { nm -D --defined-only "$1" | awk '{print $3}' | sed 's/@.*//' | grep -E "$pattern" | sort -u; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
list "$2" >"$dir/system"
list "$1" >"$dir/basalt"
missing=$(comm -23 "$dir/system" "$dir/basalt")
echo "system exports $(wc -l <"$dir/system"), Basalt exports $(wc -l <"$dir/basalt")"
if [ -n "$missing" ]; then
  echo "missing from Basalt:"
  echo "$missing"
  exit 1
fi
echo "every system export is present"
