// swift-tools-version:6.0
//
// A team's own ReloadBench executable: the whole `reloadbench` command line
// (run, sweep, check, baseline save, bench, list) with a strategy written in
// Swift registered by name. See README.md.
//
//   electricity-prices  Electricity Prices' widget strategy, in Swift
//   swift-poll-bench    poll-15m written in Swift (measures what a Swift
//                       strategy costs against the same strategy in JSON)
import Foundation
import PackageDescription

// The repository is two folders up; SwiftPM names a path dependency after
// its folder, whatever the clone is called.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let reloadBench = Target.Dependency.product(name: "ReloadBench", package: repository.lastPathComponent)

let package = Package(
  name: "CustomStrategy",
  // A package that depends on ReloadBench's library declares at least its platforms.
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "../..")],
  targets: [
    .executableTarget(name: "electricity-prices", dependencies: [reloadBench]),
    .executableTarget(name: "swift-poll-bench", dependencies: [reloadBench]),
  ]
)
