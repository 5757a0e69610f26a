#!/bin/sh
# The "xor" user VFS on Basalt's library and on the system libsqlite3: the
# same program gives the same output on each, and each reads and changes
# the files the other wrote through the VFS.
# usage: run.sh BASALT_BUILD SQLITE_BUILD
set -u
b=$1
s=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
same() {  # label, basalt output, sqlite output
  if ! cmp -s "$2" "$3"; then
    echo "DIFFERENT: $1"
    diff "$2" "$3" | head -20
    fail=1
  fi
}
for mode in delete wal; do
  "$b" write "$dir/b-$mode.db" $mode >"$dir/bw-$mode.out" 2>&1
  "$s" write "$dir/s-$mode.db" $mode >"$dir/sw-$mode.out" 2>&1
  same "write $mode" "$dir/bw-$mode.out" "$dir/sw-$mode.out"
  # Each library reads and changes the other's file.
  "$s" read "$dir/b-$mode.db" >"$dir/sr-$mode.out" 2>&1
  "$b" read "$dir/s-$mode.db" >"$dir/br-$mode.out" 2>&1
  same "cross read $mode" "$dir/br-$mode.out" "$dir/sr-$mode.out"
done
"$b" default "$dir/bd.db" >"$dir/bd.out" 2>&1
"$s" default "$dir/sd.db" >"$dir/sd.out" 2>&1
same "default vfs" "$dir/bd.out" "$dir/sd.out"
cat "$dir/bw-wal.out"
[ $fail = 0 ] && echo "uvfs: identical on both libraries"
exit $fail
