// swift-tools-version:6.0
//
// ReloadLogger: the file a team adds to its widget extension and app to
// collect the reload log `reloadbench calibrate` fits (Scenarios/log-format.md).
// No dependencies; builds and tests on Linux (WidgetKit lines are compiled
// only where WidgetKit exists).
import PackageDescription

let package = Package(
  name: "ReloadLogger",
  // On a Mac the WidgetKit lines compile too (WidgetKit: macOS 11; ProcessInfo's
  // isLowPowerModeEnabled: macOS 12); ReloadBench's own platforms, for one rule.
  platforms: [.macOS(.v15)],
  products: [.library(name: "ReloadLogger", targets: ["ReloadLogger"])],
  targets: [
    .target(name: "ReloadLogger"),
    .testTarget(name: "ReloadLoggerTests", dependencies: ["ReloadLogger"]),
  ]
)
