#!/usr/bin/env bash
# The shard-and-merge workflow with local processes: N shards of SCENARIO in
# parallel, `reloadbench merge`, then (with --check) the merged CSV files
# compared byte for byte with a single run of the same scenario. The array-job
# recipes next to this file do the same on CI runners, Kubernetes and Slurm.
#
#   docs/recipes/local.sh SCENARIO N OUT [--check]
#   e.g. docs/recipes/local.sh Scenarios/default.json 4 /tmp/shards --check
#
# Each shard gets its index the way an array job does (JOB_COMPLETION_INDEX,
# from 0) and the count from --shard-count; RELOADBENCH is the binary to use
# (default .build/release/reloadbench).
set -euo pipefail
scenario=${1:?usage: local.sh SCENARIO N OUT [--check]}
n=${2:?usage: local.sh SCENARIO N OUT [--check]}
out=${3:?usage: local.sh SCENARIO N OUT [--check]}
bin=${RELOADBENCH:-.build/release/reloadbench}
rm -rf "$out/parts" "$out/merged" "$out/single"
mkdir -p "$out/parts"

pids=()
for ((i = 0; i < n; i++)); do
  JOB_COMPLETION_INDEX=$i "$bin" run "$scenario" --shard-count "$n" --out "$out/parts" --threads 1 --quiet &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done   # set -e: a failed shard fails the recipe

"$bin" merge "$out"/parts/shard-*-of-"$n".rbpart --out "$out/merged" --quiet
ls -l "$out"/parts

if [[ "${4:-}" == "--check" ]]; then
  "$bin" run "$scenario" --out "$out/single" --quiet
  for f in summary.csv timeseries.csv staleness.csv; do
    cmp "$out/single/$f" "$out/merged/$f"
  done
  echo "merged $n shards: summary.csv, timeseries.csv, staleness.csv identical to the single run"
fi
