#!/usr/bin/env bash
# Runs `reloadbench check` on an app repository's scenarios: what the GitHub
# Action (action.yml) and the GitLab recipe in README.md ("Use in CI") run, and
# what .ci/run tests against a folder that holds only a scenario and its
# baseline. Usable on any CI or by hand; configured by environment variables:
#
#   RELOADBENCH_SCENARIOS   scenario files or globs, separated by spaces or
#                           newlines, relative to the working directory
#                           (default: Scenarios/*.json, where a scenario with
#                           neither a baseline nor expectations is skipped with a
#                           note; named ones must have one or the other)
#   RELOADBENCH_BASELINE    empty (default): each scenario's
#                           Scenarios/baselines/<name>.json; or a folder holding
#                           <name>.json for each scenario (<name>: the scenario's
#                           "name", as `baseline save` names it); or one file
#                           per scenario, in the scenarios' order
#   RELOADBENCH_TOLERANCE   check --tolerance PCT (default: the defaults per unit)
#   RELOADBENCH_ARGS        more check options, split on spaces (e.g. --fail-on-change)
#   RELOADBENCH_WORKDIR     the app's folder, where check runs (default: .)
#   RELOADBENCH_OUT         where the check's files go, relative to the working
#                           directory (default: reloadbench-check): check.md,
#                           check-junit*.xml, check*.json and reports/<name>/ (of
#                           one scenario, or with RELOADBENCH_BASELINE, <name> is
#                           the scenario file's name; else the scenario's "name")
#   RELOADBENCH_BIN         a reloadbench binary to use instead of building one
#   RELOADBENCH_SRC         the ReloadBench package to build (default: the
#                           checkout this script is in)
#   RELOADBENCH_CACHE_DIR   keep the built binary here and reuse it while the
#                           sources and the Swift version are the same (CI caches)
#   RELOADBENCH_BUILD_DIR   SwiftPM's scratch folder (default: $RELOADBENCH_SRC/.build)
#   GITHUB_STEP_SUMMARY     check appends its Markdown there (this script adds a
#                           line only when check could not run)
#   GITHUB_OUTPUT           when set, gets status, out, markdown, junit, json, bin
#
# Exit status: check's own (0 ok, 1 an expectation failed or a metric
# regressed, 2 bad input, nothing checked), also 2 when the settings above are
# wrong; 3 when ReloadBench could not be built.
#
#   scripts/reloadbench-check.sh               check (building reloadbench if needed)
#   scripts/reloadbench-check.sh --build-only  build or reuse the binary, print its path
#   scripts/reloadbench-check.sh --cache-key   print the cache key of the binary
#                                              (Swift version and a hash of the sources)
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
absolute() { case "$1" in /*) printf '%s' "$1" ;; *) printf '%s/%s' "$PWD" "$1" ;; esac; }

src="$(absolute "${RELOADBENCH_SRC:-$here/..}")"
cache_dir="${RELOADBENCH_CACHE_DIR:+$(absolute "$RELOADBENCH_CACHE_DIR")}"
build_dir="$(absolute "${RELOADBENCH_BUILD_DIR:-$src/.build}")"
bin="${RELOADBENCH_BIN:+$(absolute "$RELOADBENCH_BIN")}"

# A failure before check ran: one line on stderr and in the job summary.
fail() {
  local status="$1"; shift
  echo "reloadbench-check: error: $*" >&2
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    printf '## ReloadBench check: ⚠️ not run (exit status %s)\n\n```\nerror: %s\n```\n\n' "$status" "$*" >>"$GITHUB_STEP_SUMMARY"
  fi
  output status "$status"
  exit "$status"
}
output() { if [ -n "${GITHUB_OUTPUT:-}" ]; then printf '%s=%s\n' "$1" "$2" >>"$GITHUB_OUTPUT"; fi; }

sha256() { if command -v sha256sum >/dev/null; then sha256sum; else shasum -a 256; fi | cut -c1-16; }

# What the binary depends on: the Swift toolchain and every source file.
cache_key() {
  local swift_line sources
  swift_line="$(swift --version 2>/dev/null | grep -m1 -o 'Swift version [^ ]*')" ||
    fail 3 "no Swift toolchain on PATH (install Swift 6.2 or newer, e.g. run in the swift:6.3 image)"
  test -f "$src/Package.swift" || fail 2 "$src is not a ReloadBench checkout (no Package.swift; fix: RELOADBENCH_SRC)"
  sources="$(cd "$src" && find Package.swift Sources -type f | LC_ALL=C sort | while read -r f; do
    printf '%s ' "$f"; sha256 <"$f"; done | sha256)"
  printf 'swift%s-%s\n' "${swift_line#Swift version }" "$sources"
}

# Sets $bin: RELOADBENCH_BIN, the cached binary when its key matches, or a fresh build.
build() {
  if [ -n "$bin" ]; then
    test -x "$bin" || fail 2 "RELOADBENCH_BIN=$RELOADBENCH_BIN is not an executable file"
    return
  fi
  local key
  key="$(cache_key)" || exit $?
  if [ -n "$cache_dir" ] && [ -x "$cache_dir/reloadbench" ] && [ "$(cat "$cache_dir/reloadbench.key" 2>/dev/null)" = "$key" ]; then
    bin="$cache_dir/reloadbench"
    echo "reloadbench-check: reusing $bin ($key)" >&2
    return
  fi
  echo "reloadbench-check: building reloadbench in release ($key) in $build_dir" >&2
  swift build -c release --product reloadbench --package-path "$src" --scratch-path "$build_dir" >&2 ||
    fail 3 "swift build of ReloadBench ($src) failed; see the log above"
  bin="$(swift build -c release --package-path "$src" --scratch-path "$build_dir" --show-bin-path)/reloadbench"
  if [ -n "$cache_dir" ]; then
    mkdir -p "$cache_dir" && cp "$bin" "$cache_dir/reloadbench" && printf '%s\n' "$key" >"$cache_dir/reloadbench.key" &&
      bin="$cache_dir/reloadbench"
  fi
}

case "${1:-}" in
  --cache-key) cache_key; exit ;;
  --build-only) build; output bin "$bin"; printf '%s\n' "$bin"; exit 0 ;;
  "") ;;
  *) fail 2 "unknown argument $1 (this script takes its settings from RELOADBENCH_* variables; see its header)" ;;
esac

build
output bin "$bin"
cd "${RELOADBENCH_WORKDIR:-.}" || fail 2 "RELOADBENCH_WORKDIR=${RELOADBENCH_WORKDIR:-} is not a folder"

# The scenarios: every word of RELOADBENCH_SCENARIOS, globs expanded here.
scenarios=()
for pattern in ${RELOADBENCH_SCENARIOS:-Scenarios/*.json}; do
  matched=0
  for f in $pattern; do
    if [ -f "$f" ]; then scenarios+=("$f"); matched=1; fi
  done
  [ "$matched" = 1 ] || fail 2 "no scenario file matches $pattern in $PWD (fix: RELOADBENCH_SCENARIOS, the action's 'scenarios' input)"
done

# The baseline of each scenario, or none (check's default for every scenario).
baselines=()
folder_options=()
read -r -a given <<<"${RELOADBENCH_BASELINE:-}"
if [ "${#given[@]}" = 1 ] && [ -d "${given[0]}" ]; then
  # check finds <name>.json there for each scenario, as `baseline save` names it.
  folder_options=(--baselines "${given[0]}")
elif [ "${#given[@]}" -gt 0 ]; then
  [ "${#given[@]}" = "${#scenarios[@]}" ] || {
    n="${#scenarios[@]} scenario"; [ "${#scenarios[@]}" = 1 ] || n="${n}s"
    fail 2 "RELOADBENCH_BASELINE names ${#given[@]} files for $n (fix: one file per scenario, in the same order, or one folder)"
  }
  baselines=("${given[@]}")
fi

out="${RELOADBENCH_OUT:-reloadbench-check}"
# An earlier call's files go (a stale JUnit file would be uploaded), but only
# this script's own: reports/ only when it holds the mark this script leaves.
mark=".written-by-reloadbench-check"
if [ -d "$out/reports" ] && [ -n "$(ls -A "$out/reports")" ] && [ ! -f "$out/reports/$mark" ]; then
  fail 2 "$out/reports in $PWD holds files this script did not write (fix: RELOADBENCH_OUT, the action's 'out' input, names another folder)"
fi
rm -rf "$out/reports" && mkdir -p "$out/reports" && touch "$out/reports/$mark" ||
  fail 2 "cannot create $out/reports in $PWD (fix: RELOADBENCH_OUT)"
out="$(cd "$out" && pwd)"
rm -f "$out"/check*.md "$out"/check-junit*.xml "$out"/check*.json

options=(${folder_options[@]+"${folder_options[@]}"})
# The default glob takes every file in Scenarios/: one with nothing to check is skipped with a note.
if [ -z "${RELOADBENCH_SCENARIOS:-}" ]; then options+=(--skip-unchecked); fi
if [ -n "${RELOADBENCH_TOLERANCE:-}" ]; then options+=(--tolerance "$RELOADBENCH_TOLERANCE"); fi
read -r -a extra <<<"${RELOADBENCH_ARGS:-}"
options+=(${extra[@]+"${extra[@]}"})

stem() { local b; b="$(basename "$1")"; printf '%s' "${b%.json}"; }
status=0
if [ "${#baselines[@]}" = 0 ]; then
  # One check of every scenario: one report, one JUnit file.
  reports="$out/reports"
  if [ "${#scenarios[@]}" = 1 ]; then reports="$out/reports/$(stem "${scenarios[0]}")"; fi
  "$bin" check "${scenarios[@]}" --out "$reports" --markdown "$out/check.md" \
    --junit "$out/check-junit.xml" --json "$out/check.json" ${options[@]+"${options[@]}"} || status=$?
else
  # check takes --baseline for one scenario at a time: one check each; the
  # worst status wins (2 over 1 over 0), the Markdown reports are joined.
  for i in "${!scenarios[@]}"; do
    s="${scenarios[$i]}" n="$(stem "${scenarios[$i]}")" st=0
    "$bin" check "$s" --baseline "${baselines[$i]}" --out "$out/reports/$n" --markdown "$out/check-$n.md" \
      --junit "$out/check-junit-$n.xml" --json "$out/check-$n.json" ${options[@]+"${options[@]}"} || st=$?
    if [ -f "$out/check-$n.md" ]; then cat "$out/check-$n.md" >>"$out/check.md"; fi
    if [ "$st" -gt "$status" ]; then status=$st; fi
  done
fi

cat "$out/check.md" 2>/dev/null
output status "$status"
output out "$out"
output markdown "$out/check.md"
files() { (cd "$out" && for f in $1; do if [ -f "$f" ]; then printf '%s\n' "$out/$f"; fi; done) | paste -sd ' ' -; }
output junit "$(files 'check-junit*.xml')"
output json "$(files 'check*.json')"
exit "$status"
