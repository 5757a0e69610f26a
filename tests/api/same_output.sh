#!/bin/sh
# Runs a ctypes script (tests/api/*.py) on Basalt's library and on the
# system library: identical output required.
# usage: same_output.sh SCRIPT BASALT_LIBRARY SYSTEM_LIBRARY
set -u
script=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$script" "$2" >"$dir/basalt" 2>&1
python3 "$script" "$3" >"$dir/system" 2>&1
if ! cmp -s "$dir/basalt" "$dir/system"; then
  diff "$dir/system" "$dir/basalt"
  exit 1
fi
echo "$(basename "$script"): $(wc -l <"$dir/basalt") lines identical"
