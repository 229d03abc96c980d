// swift-tools-version:6.0
//
// libFuzzer targets for ReloadBench (a separate package, so the main one
// keeps no extra targets). Build and run with ./run.sh; see README.md.
//
//   fuzz-scenario  scenario decode + validate
//   fuzz-simulate  decode + simulate a tiny scenario + render every report
//   fuzz-baseline  baseline loading
//   fuzz-sweep     sweep expansion
//   fuzz-calibrate reload log parsing (whole and in blocks) + fit
//   fuzz-merge     part decoding and merge (the checksum made valid)
import Foundation
import PackageDescription

// The repository is the parent folder; SwiftPM names a path dependency
// after its folder, whatever the clone is called.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

func fuzzTarget(_ name: String) -> Target {
  .executableTarget(name: name, dependencies: ["FuzzSupport"])
}

let package = Package(
  name: "ReloadBenchFuzz",
  dependencies: [.package(path: "..")],
  targets: [
    // Declares libFuzzer's LLVMFuzzerRunDriver (linked by run.sh from the
    // toolchain's no-main runtime).
    .target(name: "FuzzDriver"),
    .target(
      name: "FuzzSupport",
      dependencies: ["FuzzDriver", .product(name: "ReloadBench", package: repository.lastPathComponent)]),
    fuzzTarget("fuzz-scenario"),
    fuzzTarget("fuzz-simulate"),
    fuzzTarget("fuzz-baseline"),
    fuzzTarget("fuzz-sweep"),
    fuzzTarget("fuzz-calibrate"),
    fuzzTarget("fuzz-merge"),
  ]
)
