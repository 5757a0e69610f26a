#!/bin/sh
# Differential test: random queries (gen_queries.py) answered by the system
# SQLite, then by Basalt; any difference fails, unless classify.py shows it
# is a known SQLite 3.40.1 bug (tests/diff/sqlite_bugs/): the query has the
# bug's shape and Basalt answers what SQLite answers to the query rewritten
# join by join (join_oracle.py). Those are reported as explained.
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
status=0
"$slt" --engine basalt --jobs 2 --no-progress "$dir/expected" > "$dir/basalt.log" 2>&1 || status=$?
cat "$dir/basalt.log"
if [ "$status" -ne 0 ]; then
  # Exit status 1 only when some failure is not a known SQLite bug.
  python3 "$here/classify.py" "$slt" "$dir/basalt.log" "$dir/classify"
fi
