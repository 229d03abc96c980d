#!/usr/bin/env bash
# Builds reloadbench with profile-guided optimisation (PGO), for the fastest
# binary on Linux:
#
#   1. an instrumented release build (LLVM IR counters on every branch and
#      call) in .build/pgo-instrumented (LLVM_PROFILE_FILE says where the
#      counters go);
#   2. a training run of that binary over a fixed set of the shipped scenarios
#      (below), which writes the counters;
#   3. the release build again, from scratch, with those counts
#      (llvm-profdata merge, then swiftc -ir-profile-use), in .build/pgo: the
#      compiler lays out hot paths and inlines by measured frequency instead
#      of by guess.
#
# The code and its arithmetic are the same, so the results are byte-identical
# to the plain `swift build -c release` (step 4 checks it on the training
# scenarios against the instrumented build; .ci/pgo checks it against the
# plain build). It takes two release builds of the tool (about 4.5 minutes in
# all on 2 cores, with the training run of about 15 s). The binary's `bench`
# output says "release, profile-guided build".
#
#   scripts/build-pgo.sh            build, then print the binary's path
#
# Exit status: 0 built; 2 when the toolchain has no llvm-profdata or profile
# runtime (install the swift.org toolchain for Linux, which has both); 3 when
# a build, the training run or the check failed.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

fail() { echo "build-pgo: $1" >&2; exit "$2"; }

# The toolchain's own llvm-profdata and clang profile runtime (the ones that
# match its LLVM), found from the compiler's resource folder (usr/lib/swift),
# which also works when swiftc on PATH is a proxy (swiftly).
command -v swiftc >/dev/null || fail "no swiftc on PATH: install Swift 6.2 or newer (swift.org) and put its usr/bin on PATH" 2
resources="$(swiftc -print-target-info 2>/dev/null | sed -n 's/.*"runtimeResourcePath": *"\([^"]*\)".*/\1/p' || true)"
usr="$(cd "$resources/../.." 2>/dev/null && pwd || true)"
[ -n "$resources" ] && [ -n "$usr" ] || fail "swiftc -print-target-info names no runtimeResourcePath: use a Swift 6 toolchain from swift.org" 2
profdata="$usr/bin/llvm-profdata"
[ -x "$profdata" ] || fail "no llvm-profdata in $usr/bin: use the swift.org toolchain, which ships it" 2
arch="$(uname -m)"
runtime=""
for candidate in "$usr"/lib/clang/*/lib/linux/libclang_rt.profile-"$arch".a \
  "$usr"/lib/clang/*/lib/"$arch"-unknown-linux-gnu/libclang_rt.profile.a; do
  if [ -f "$candidate" ]; then runtime="$candidate"; break; fi
done
[ -n "$runtime" ] || fail "no clang profile runtime (libclang_rt.profile) under $usr/lib/clang: use the swift.org toolchain for Linux" 2

instrumented="$root/.build/pgo-instrumented"
final="$root/.build/pgo"
profile="$instrumented/reloadbench.profdata"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
raw="$work/raw"
mkdir -p "$raw"

echo "build-pgo: 1/4 instrumented build (.build/pgo-instrumented)" >&2
swift build -c release --product reloadbench --build-path "$instrumented" \
  -Xswiftc -Xfrontend -Xswiftc -ir-profile-generate \
  -Xlinker "$runtime" -Xlinker -u__llvm_profile_runtime >&2 \
  || fail "the instrumented build failed (output above)" 3
trainer="$instrumented/release/reloadbench"

# The training set: what people run, not one benchmark. Each run writes its
# own counters (%p: the process id); llvm-profdata adds them up. The counts
# vary a little from build to build (threads race on them, and the report
# stage's work is split by timing); the results never do.
echo "build-pgo: 2/4 training run" >&2
train() { # NAME ARGUMENTS...
  local name="$1"; shift
  LLVM_PROFILE_FILE="$raw/$name-%p.profraw" "$trainer" "$@" --quiet >/dev/null \
    || fail "training run '$name' failed: $trainer $*" 3
}
train default run Scenarios/default.json --out "$work/out/default"       # 8 strategies, 3,000 devices
train fleet run Scenarios/fleet-1m.json --shard 1/40 --out "$work/out/fleet"  # 25,000 devices of the capacity fleet
train r1 run Scenarios/r1-polling.json --out "$work/out/r1"              # R1: 10,000 widgets, 7 days
train sweep sweep Scenarios/sweep-poll-interval.json --out "$work/out/sweep"
train golden check Scenarios/golden/*.json Scenarios/example.json --out "$work/out/golden"  # every documented behaviour
"$profdata" merge -o "$profile" "$raw"/*.profraw || fail "llvm-profdata merge failed" 3

# From scratch: SwiftPM does not see a new profile as a change, and a module
# built with an older one would keep it.
echo "build-pgo: 3/4 release build with the profile (.build/pgo)" >&2
rm -rf "$final"
swift build -c release --product reloadbench --build-path "$final" \
  -Xswiftc -Xfrontend -Xswiftc -ir-profile-use="$profile" \
  -Xswiftc -DRELOADBENCH_PROFILE_GUIDED >&2 \
  || fail "the profile-guided build failed (output above)" 3
binary="$final/release/reloadbench"

echo "build-pgo: 4/4 same bytes as the instrumented build on the default scenario, the fleet shard and R1" >&2
"$binary" run Scenarios/default.json --quiet --out "$work/check/default" >/dev/null
"$binary" run Scenarios/fleet-1m.json --shard 1/40 --quiet --out "$work/check/fleet" >/dev/null
"$binary" run Scenarios/r1-polling.json --quiet --out "$work/check/r1" >/dev/null
for f in {default,r1}/{summary,timeseries,staleness}.csv fleet/shard-1-of-40.rbpart; do
  cmp -s "$work/out/$f" "$work/check/$f" || fail "$f differs from the instrumented build's" 3
done

echo "$binary"
