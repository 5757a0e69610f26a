#!/bin/sh
# tests/api/db_config.py on Basalt's library and on the system library:
# identical output required.
# usage: db_config.sh BASALT_LIBRARY SYSTEM_LIBRARY
set -u
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
python3 "$here/db_config.py" "$1" >"$dir/basalt" 2>&1
python3 "$here/db_config.py" "$2" >"$dir/system" 2>&1
if ! cmp -s "$dir/basalt" "$dir/system"; then
  diff "$dir/system" "$dir/basalt"
  exit 1
fi
echo "db_config: $(wc -l <"$dir/basalt") lines identical"
