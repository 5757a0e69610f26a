#!/bin/sh
# CI's bounded fuzzing (the ctest `fuzz_smoke` of a normal build): configures
# a clang build with -DBASALT_FUZZ=ON in BUILD_DIR, builds the four targets,
# then runs each over its seed corpus and fuzzes it for SECONDS (run.sh).
#   ci.sh SOURCE_DIR BUILD_DIR SECONDS
set -eu
src=$1
build=$2
seconds=$3
launcher=""
command -v ccache >/dev/null 2>&1 && launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache"
start=$(date +%s)
# -O1: quicker to compile than the offline builds' -O2, enough for a bounded run.
# shellcheck disable=SC2086
CC=clang CXX=clang++ cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_CXX_FLAGS_RELEASE=-O1 -DCMAKE_C_FLAGS_RELEASE=-O1 -DBASALT_FUZZ=ON $launcher >/dev/null
cmake --build "$build" -j2 --target fuzz_sql fuzz_dbfile fuzz_record fuzz_json >/dev/null
built=$(date +%s)
echo "fuzz targets built in $((built - start)) s"
for t in sql dbfile record json; do
  echo "== fuzz_$t: corpus, then $seconds s"
  sh "$src/tests/fuzz/run.sh" "$build/fuzz_$t" "$src/tests/fuzz" "$seconds" "$build/fuzz-work" \
    2>"$build/fuzz_$t.log" || { tail -60 "$build/fuzz_$t.log"; exit 1; }
  grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/fuzz_$t.log" || true
done
echo "fuzzing done in $(($(date +%s) - start)) s"
