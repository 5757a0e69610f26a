#!/bin/sh
# Runs a fixed sample of the index/ and random/ sets (every tenth file in
# sorted order) through basalt-slt: the CI-sized slice of the full suite.
set -eu
runner=${1:?usage: slt_sample.sh BASALT_SLT SLT_DIR}
dir=${2:?usage: slt_sample.sh BASALT_SLT SLT_DIR}
files=$(find "$dir/index" "$dir/random" -name '*.test' | LC_ALL=C sort | awk 'NR % 10 == 1')
# shellcheck disable=SC2086
exec "$runner" --jobs 2 $files
