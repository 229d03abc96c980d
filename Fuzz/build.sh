#!/usr/bin/env bash
# Builds the fuzz targets (AddressSanitizer, libFuzzer coverage) into
# Fuzz/.build/release/fuzz-* (campaign.sh), or Fuzz/.build/debug/fuzz-* with
# FUZZ_CONFIGURATION=debug (run.sh, the CI step).
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
fuzzer_lib=$(ls "$swift_bin"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1 || true)
if [ -z "$fuzzer_lib" ]; then
  echo "error: libclang_rt.fuzzer_no_main-x86_64.a not found in the Swift toolchain (fix: use a Swift toolchain for Linux, which ships libFuzzer)" >&2
  exit 2
fi
# FUZZ_CONFIGURATION: release (default: the campaign's throughput) or debug
# (Fuzz/run.sh's CI smoke run: about a third of the build time, assertions on).
swift build -c "${FUZZ_CONFIGURATION:-release}" \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xcc -fsanitize=address \
  -Xlinker "$fuzzer_lib" -Xlinker -lstdc++ \
  "$@"
