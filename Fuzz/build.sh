#!/usr/bin/env bash
# Builds the fuzz targets (release, AddressSanitizer, libFuzzer coverage)
# into Fuzz/.build/release/fuzz-*. Used by run.sh and campaign.sh.
set -euo pipefail
cd "$(dirname "$0")"
export PATH="/opt/swift/usr/bin:$PATH"
swift_bin=$(dirname "$(readlink -f "$(command -v swift)")")
fuzzer_lib=$(ls "$swift_bin"/../lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1 || true)
if [ -z "$fuzzer_lib" ]; then
  echo "error: libclang_rt.fuzzer_no_main-x86_64.a not found in the Swift toolchain (fix: use a Swift toolchain for Linux, which ships libFuzzer)" >&2
  exit 2
fi
swift build -c release \
  -Xswiftc -sanitize=address \
  -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table \
  -Xcc -fsanitize=address \
  -Xlinker "$fuzzer_lib" -Xlinker -lstdc++ \
  "$@"
