#!/bin/sh
# Runs one libFuzzer target over its seed corpus, then fuzzes for a bounded time.
#   run.sh FUZZER SRC_DIR SECONDS WORK_DIR [extra libFuzzer flags...]
# FUZZER is build-fuzz/fuzz_<name>; SRC_DIR is tests/fuzz (corpus/<name>/,
# <name>.dict). New inputs go to WORK_DIR/<name>/corpus, never into the repo;
# a crash leaves its reproducer in WORK_DIR/<name>/ and fails the run. The
# fuzzer runs inside WORK_DIR/<name>/scratch so no input can write elsewhere.
set -eu
fuzzer=$1
src=$2
seconds=$3
work=$4
shift 4
name=$(basename "$fuzzer")
name=${name#fuzz_}
dir="$work/$name"
mkdir -p "$dir/corpus" "$dir/scratch"
dict=""
maxlen=8192
[ "$name" = dbfile ] && maxlen=32768
[ -f "$src/$name.dict" ] && dict="-dict=$src/$name.dict"
cd "$dir/scratch"
# 1. Every seed (and every kept reproducer) once.
"$fuzzer" -runs=0 -rss_limit_mb=2048 -timeout=20 "$src/corpus/$name"
# 2. Bounded fuzzing from the seeds, one job.
# shellcheck disable=SC2086
exec "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=20 -max_len=$maxlen \
  -artifact_prefix="$dir/" -print_final_stats=1 $dict "$@" "$dir/corpus" "$src/corpus/$name"
