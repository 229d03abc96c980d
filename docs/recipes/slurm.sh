#!/usr/bin/env bash
# Slurm: a job array of N shards, then the merge as a job that starts when
# every task of the array has succeeded. Submit from the repository root (a
# release build in .build/release, made with Swift 6.2 or newer, e.g. in the
# swift:6.3 image; parts on a shared file system):
#
#   bash docs/recipes/slurm.sh Scenarios/fleet-1m.json 8 /shared/reloadbench/fleet-1m
#
# Each task reads its index from SLURM_ARRAY_TASK_ID, which must run from 0:
# the array is submitted as --array=0-(N-1).
set -euo pipefail
scenario=${1:?usage: slurm.sh SCENARIO N OUT}
n=${2:?usage: slurm.sh SCENARIO N OUT}
out=${3:?usage: slurm.sh SCENARIO N OUT}
bin=$PWD/.build/release/reloadbench
mkdir -p "$out/parts" "$out/logs"

shards=$(sbatch --parsable --job-name=reloadbench-shards --array=0-$((n - 1)) \
  --cpus-per-task=2 --mem=1G --time=02:00:00 --output="$out/logs/shard-%a.log" \
  --wrap="$bin run $scenario --shard-count $n --threads 2 --out $out/parts --quiet")

sbatch --job-name=reloadbench-merge --dependency=afterok:"$shards" --cpus-per-task=2 --mem=2G \
  --time=00:20:00 --output="$out/logs/merge.log" \
  --wrap="$bin merge $out/parts/shard-*-of-$n.rbpart --out $out/reports"
echo "submitted shards $shards (0-$((n - 1))) and their merge; reports in $out/reports"
