#!/usr/bin/env bash
# Writes every shipped scenario's outputs with one binary into OUTDIR, so that
# two builds can be compared byte for byte (diff -r A B):
#   bash scripts/reference-outputs.sh .build/release/reloadbench /tmp/ref-new
# Runs: each scenario of Scenarios/, Scenarios/golden/, apps/ and evidence/
# (summary.csv, timeseries.csv, staleness.csv, results.json, report.html);
# the sweeps (sweep.csv, sweep.json, sweep.html); one 25,000-device shard of
# fleet-1m (its part file); check on the golden and example scenarios
# (Markdown, JUnit, JSON); calibrate on the demo deployment's emitted log.
# Wall and phase times are masked (scripts/normalize-timings.py). About 20 s
# with a release build.
set -euo pipefail
bin="${1:?usage: reference-outputs.sh BIN OUTDIR}"
out="${2:?usage: reference-outputs.sh BIN OUTDIR}"
cd "$(dirname "$0")/.."
rm -rf "$out"
mkdir -p "$out"
for f in Scenarios/*.json Scenarios/golden/*.json Scenarios/apps/*.json Scenarios/evidence/*.json; do
  case "$f" in
    *schema.json | Scenarios/fleet-1m.json | Scenarios/sweep-*.json | Scenarios/calibration-1k.json) continue ;;
  esac
  name="${f#Scenarios/}"; name="${name%.json}"
  "$bin" run "$f" --out "$out/run/$name" --quiet
done
for f in Scenarios/sweep-*.json; do
  name="$(basename "$f" .json)"
  "$bin" sweep "$f" --out "$out/sweep/$name" --quiet
done
"$bin" run Scenarios/fleet-1m.json --shard 3/40 --out "$out/fleet" --quiet
"$bin" check Scenarios/golden/*.json Scenarios/example.json --tolerance 0 --quiet \
  --out "$out/check/reports" --markdown "$out/check/check.md" --junit "$out/check/junit.xml" --json "$out/check/check.json" || true
"$bin" run Scenarios/calibration-demo.json --out "$out/calibration-run" --quiet --emit-log "$out/calibration-log.csv"
"$bin" calibrate "$out/calibration-log.csv" --scenario Scenarios/calibration-demo.json --out "$out/calibration" --quiet
python3 "$(dirname "$0")/normalize-timings.py" "$out"
find "$out" -type f | wc -l | sed 's/^/files: /'
