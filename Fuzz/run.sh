#!/usr/bin/env bash
# CI step: builds the fuzz targets and runs each for a short fixed budget
# from the committed corpus (Fuzz/corpus/<target>/). Fails on any crash,
# sanitizer report, timeout or out-of-memory; the input is saved as
# Fuzz/artifacts/<target>-crash-*, -timeout-* or -oom-* (replay it with
# `Fuzz/.build/debug/fuzz-<target> FILE`). New inputs found go to a
# temporary folder, so the committed corpus does not change.
#
#   FUZZ_SECONDS        seconds per target (default 10)
#   FUZZ_JOBS           targets run at once (default 2)
#   FUZZ_CONFIGURATION  debug (default: a smoke run; builds in about 45 s
#                       against 150 s for release on 2 cores, with Swift's
#                       assertions on) or release (Fuzz/campaign.sh's)
set -euo pipefail
cd "$(dirname "$0")"
seconds=${FUZZ_SECONDS:-10}
export FUZZ_CONFIGURATION=${FUZZ_CONFIGURATION:-debug}
./build.sh >/dev/null
python3 make-dict.py --check
mkdir -p artifacts
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Each target is one process on one core: FUZZ_JOBS of them run at once
# (default 2, the CI machine's cores), so the six take three rounds, not six.
jobs=${FUZZ_JOBS:-2}
fuzz_one() {
  local target=$1 max_len=16384 timeout=10 dict=scenario.dict
  [ "$target" = baseline ] && max_len=65536
  # A part (its checksum added by the target) is 14 to 36 KB for the seeds.
  [ "$target" = merge ] && max_len=65536 && dict=merge.dict
  [ "$target" = calibrate ] && dict=calibrate.dict
  # A simulate input runs the tool three or four times (about 4 s of CPU
  # for the largest seed under AddressSanitizer): a longer timeout.
  [ "$target" = simulate ] && timeout=60
  mkdir -p "$scratch/$target"
  local log="$scratch/$target.log"
  # detect_leaks=0: Foundation leaks on some error paths; every other
  # AddressSanitizer report is fatal.
  if ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:handle_abort=1 ".build/$FUZZ_CONFIGURATION/fuzz-$target" \
      -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 -max_len="$max_len" \
      -dict="$dict" -close_fd_mask=1 -print_final_stats=1 \
      -artifact_prefix="artifacts/$target-" "$scratch/$target" "corpus/$target" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
    echo "fuzz-$target: ok, $runs runs in ${seconds} s" >"$scratch/$target.result"
  else
    { echo "fuzz-$target: FAILED (input saved in Fuzz/artifacts/); the end of its log:"; tail -40 "$log"; } \
      >"$scratch/$target.result"
    return 1
  fi
}
status=0
# A pool of FUZZ_JOBS, the longest first: simulate replays its corpus (about
# 50 s in a debug build) while the other slot runs the rest one by one.
targets=(simulate scenario sweep baseline calibrate merge)
running=0
for target in "${targets[@]}"; do
  if ((running >= jobs)); then
    wait -n || status=1
    running=$((running - 1))
  fi
  fuzz_one "$target" &
  running=$((running + 1))
done
while ((running > 0)); do
  wait -n || status=1
  running=$((running - 1))
done
for target in scenario sweep baseline simulate calibrate merge; do cat "$scratch/$target.result"; done
exit $status
