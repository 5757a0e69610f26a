#!/bin/sh
# Runs each case here through Basalt's shell and the system sqlite3 and
# requires byte-identical standard output, standard error, exit status and
# files written:
#   *.sql  a script fed to the shell's standard input (no arguments);
#   *.cmd  one command line per line (lines starting with # are comments),
#          run by sh with "sqlite3" on PATH naming the shell under test,
#          in a fresh directory that holds the files of tests/shell/data.
# Both shells run with HOME set to an empty directory (no ~/.sqliterc).
set -u
shell=${1:?usage: compare.sh BASALT_SHELL}
here=$(cd "$(dirname "$0")" && pwd)
if ! command -v sqlite3 >/dev/null 2>&1; then
  echo "sqlite3 not installed: skipped"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin_basalt" "$tmp/bin_sqlite"
ln -s "$shell" "$tmp/bin_basalt/sqlite3"
ln -s "$(command -v sqlite3)" "$tmp/bin_sqlite/sqlite3"
fail=0
cases=0

# Lists the files a run left behind: names, and the content of text files.
snapshot() {
  (cd "$1" && find . -type f ! -name '*.out' | sort | while read -r f; do
    case "$f" in
      *.db) echo "file $f" ;;
      *) echo "file $f"; cat "$f" ;;
    esac
  done)
}

# run WHICH SCRIPT-OR-LINE KIND: output in $tmp/WHICH.out
run() {
  work="$tmp/work"  # one name for both shells: paths in output agree
  rm -rf "$work" "$tmp/home"
  mkdir -p "$work" "$tmp/home"
  [ -d "$here/data" ] && cp -R "$here/data/." "$work/"
  if [ "$3" = sql ]; then
    (cd "$work" && HOME="$tmp/home" PATH="$tmp/bin_$1:$PATH" sqlite3 < "$2" > "$tmp/$1.out" 2>&1; echo "exit $?" >> "$tmp/$1.out")
  else
    (cd "$work" && HOME="$tmp/home" PATH="$tmp/bin_$1:$PATH" sh -c "$2" < /dev/null > "$tmp/$1.out" 2>&1; echo "exit $?" >> "$tmp/$1.out")
  fi
  snapshot "$work" >> "$tmp/$1.out"
}

# XFAIL_FILE (optional): lines "CASE<TAB>reason" naming cases (FILE:LINE)
# known to differ, each for a stated reason; they are reported, not failed.
xfail_reason() {
  [ -n "${XFAIL_FILE:-}" ] && [ -f "$XFAIL_FILE" ] || return 1
  awk -F '\t' -v c="$1" '$1 == c { print $2; found = 1 } END { exit !found }' "$XFAIL_FILE"
}

check() {
  cases=$((cases + 1))
  if cmp -s "$tmp/basalt.out" "$tmp/sqlite.out"; then
    printf 'ok   %s\n' "$1"
  elif reason=$(xfail_reason "${1%%: *}"); then
    printf 'xfail %s (%s)\n' "${1%%: *}" "$reason"
  else
    printf 'FAIL %s\n' "$1"
    diff "$tmp/sqlite.out" "$tmp/basalt.out" | head -20
    fail=1
  fi
}

for script in "$here"/*.sql; do
  name=$(basename "$script")
  run basalt "$script" sql
  run sqlite "$script" sql
  check "$name"
done
for file in "$here"/*.cmd; do
  [ -f "$file" ] || continue
  n=0
  while IFS= read -r line; do
    n=$((n + 1))
    case "$line" in ''|'#'*) continue ;; esac
    run basalt "$line" cmd
    run sqlite "$line" cmd
    check "$(basename "$file"):$n: $line"
  done < "$file"
done
echo "$cases case(s)"
exit $fail
