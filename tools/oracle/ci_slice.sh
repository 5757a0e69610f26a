#!/bin/sh
# A bounded slice of the TLP/NoREC oracle for ctest: the same seeds on
# Basalt's library and on the system libsqlite3; fails on a mismatch that
# Basalt shows and SQLite does not (those SQLite shows too are the oracle's
# own limits or SQLite's behaviour, reported but not failed).
# usage: ci_slice.sh LIBBASALT FIRST_SEED SEEDS CHECKS
set -u
lib=${1:?usage: ci_slice.sh LIBBASALT FIRST SEEDS CHECKS}
first=${2:-100}; seeds=${3:-100}; checks=${4:-300}
here=$(cd "$(dirname "$0")" && pwd)
sys=$(ls /usr/lib/*/libsqlite3.so.0 2>/dev/null | head -1)
if [ -z "$sys" ]; then echo "system libsqlite3 not found: skipped"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 "$here/tlp_norec.py" --lib "$lib" --seed "$first" --seeds "$seeds" --checks "$checks" --out "$tmp/b"
python3 "$here/tlp_norec.py" --lib "$sys" --seed "$first" --seeds "$seeds" --checks "$checks" --out "$tmp/s"
mkdir -p "$tmp/b" "$tmp/s"
only=$(cd "$tmp/b" && for f in *.sql; do [ -e "$f" ] && [ ! -e "$tmp/s/$f" ] && echo "$f"; done)
if [ -n "$only" ]; then
  for f in $only; do echo "== Basalt only: $f"; cat "$tmp/b/$f"; done
  exit 1
fi
echo "ok: no mismatch on Basalt that SQLite does not show"
