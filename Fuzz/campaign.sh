#!/usr/bin/env bash
# A long fuzzing campaign: every target in turn (or the ones named), each
# for HOURS hours on all cores, growing the committed corpus in place
# (Fuzz/corpus/<target>/; commit what it adds, minimised with -merge=1 as
# README.md shows). Crashes go to Fuzz/artifacts/.
#
#   usage: Fuzz/campaign.sh [HOURS] [TARGET ...]     (default: 2 hours, all six)
#   JOBS=N overrides the number of parallel jobs (default: all cores)
set -euo pipefail
cd "$(dirname "$0")"
hours=${1:-2}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(scenario sweep baseline simulate calibrate merge)
jobs=${JOBS:-$(nproc)}
./build.sh >/dev/null
mkdir -p artifacts logs
for target in "${targets[@]}"; do
  dict=scenario.dict
  case $target in
    baseline) max_len=65536 ;;
    merge) max_len=65536 dict=merge.dict ;;
    calibrate) max_len=16384 dict=calibrate.dict ;;
    *) max_len=16384 ;;
  esac
  timeout=10
  [ "$target" = simulate ] && timeout=60
  echo "fuzz-$target: $hours h on $jobs jobs; logs in Fuzz/logs/$target/"
  # Each target runs in a folder of its own, where libFuzzer writes its
  # jobs' fuzz-N.log: campaigns of two targets may run at once.
  here=$PWD
  rm -rf "logs/$target" && mkdir -p "logs/$target"
  (cd "logs/$target" && ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_abort=1 "$here/.build/release/fuzz-$target" \
    -jobs="$jobs" -workers="$jobs" -max_total_time="$(awk "BEGIN { print int($hours * 3600) }")" \
    -timeout="$timeout" -rss_limit_mb=2048 -max_len="$max_len" -dict="$here/$dict" -close_fd_mask=1 \
    -print_final_stats=1 -artifact_prefix="$here/artifacts/$target-" "$here/corpus/$target" \
    >driver.log 2>&1) || echo "fuzz-$target: stopped with a finding (see Fuzz/artifacts/)"
done
