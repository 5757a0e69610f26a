#!/bin/sh
# Differential test: random queries (gen_queries.py) answered by the system
# SQLite, then by Basalt; any difference fails.
#   run.sh BASALT_SLT FIRST_SEED SEEDS QUERIES_PER_SEED [WORKDIR]
set -eu
slt=${1:?usage: run.sh BASALT_SLT FIRST_SEED SEEDS QUERIES_PER_SEED [WORKDIR]}
first=${2:?}
seeds=${3:?}
per=${4:?}
dir=${5:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$dir/in" "$dir/expected"
seed=$first
while [ "$seed" -lt $((first + seeds)) ]; do
  python3 "$here/gen_queries.py" --seed "$seed" --queries "$per" > "$dir/in/diff_$seed.test"
  seed=$((seed + 1))
done
"$slt" --engine sqlite --quiet --no-progress --complete "$dir/expected" "$dir/in" > /dev/null
exec "$slt" --engine basalt --jobs 2 --no-progress "$dir/expected"
