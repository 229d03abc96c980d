// swift-tools-version:6.2
//
// ReloadBench: a discrete-event simulator of WidgetKit timeline reloads.
//
// Dependencies point one way (nothing imports upward; the two leaves use the
// Swift standard library and the C library only):
//
//   ReloadEngine   -> (none)          ReloadMetrics -> (none)
//   WidgetModel    -> ReloadEngine, ReloadMetrics
//   ActivityModel  -> ReloadEngine, ReloadMetrics, WidgetModel (Live Activities: ActivityKit's
//                     second budget, simulated on the widget model's devices and content)
//   ReloadStrategies -> WidgetModel, ReloadEngine
//   ReloadReports  -> ReloadMetrics
//   ReloadCalibration -> ReloadEngine, ReloadMetrics, WidgetModel, ReloadReports
//                        (reload logs and the fit of `calibrate`: fields named by the model's
//                        parameter catalogue, the fit a typed model patch; its page drawn by
//                        ReloadReports' CalibrationPage, which knows nothing of the fit)
//   ReloadBenchCLI -> all of the above + Foundation (the only module with I/O)
//   reloadbench    -> ReloadBenchCLI  (main.swift only)
//   ReloadBenchCommand -> reloadbench (a command plugin: `swift package reloadbench ...`)
//
// Platforms: macOS 15 (Sequoia) and later, Linux with Swift 6.2 and later (README.md,
// "Requirements"): macOS 15 is the first with Synchronization's Mutex and Atomic and
// the standard library's UInt128; 6.2 is the Swift of Xcode 26, the oldest that CI
// (.github/workflows/ci.yml) builds and tests with.
//
// Internal consistency checks (heap order, ring invariants) are compiled in
// only when RELOADBENCH_INTERNAL_CHECKS is defined; uncomment the define below
// to turn them on. `reloadbench run` prints a banner when they are on, because
// figures measured with them are much slower than normal.
import PackageDescription

let checks: [SwiftSetting] = [
  // .define("RELOADBENCH_INTERNAL_CHECKS"),
]

let package = Package(
  name: "ReloadBench",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "reloadbench", targets: ["reloadbench"]),
    .library(
      name: "ReloadBench",
      targets: [
        "ReloadEngine", "ReloadMetrics", "WidgetModel", "ActivityModel", "ReloadStrategies",
        "ReloadReports", "ReloadCalibration", "ReloadBenchCLI",
      ]),
    // `swift package reloadbench check Scenarios/ours.json` (and run, sweep, ...) in a
    // package that depends on this one: Plugins/ReloadBenchCommand.
    .plugin(name: "ReloadBenchCommand", targets: ["ReloadBenchCommand"]),
  ],
  targets: [
    .target(name: "ReloadEngine", exclude: ["README.md"], swiftSettings: checks),
    .target(name: "ReloadMetrics", swiftSettings: checks),
    .target(
      name: "WidgetModel", dependencies: ["ReloadEngine", "ReloadMetrics"], exclude: ["README.md"],
      swiftSettings: checks),
    .target(
      name: "ActivityModel", dependencies: ["ReloadEngine", "ReloadMetrics", "WidgetModel"], swiftSettings: checks),
    .target(name: "ReloadStrategies", dependencies: ["WidgetModel", "ReloadEngine"], swiftSettings: checks),
    .target(name: "ReloadReports", dependencies: ["ReloadMetrics"], swiftSettings: checks),
    .target(
      name: "ReloadCalibration", dependencies: ["ReloadEngine", "ReloadMetrics", "WidgetModel", "ReloadReports"],
      swiftSettings: checks),
    .target(
      name: "ReloadBenchCLI",
      dependencies: [
        "ReloadEngine", "ReloadMetrics", "WidgetModel", "ActivityModel", "ReloadStrategies", "ReloadReports",
        "ReloadCalibration",
      ],
      swiftSettings: checks),
    .executableTarget(name: "reloadbench", dependencies: ["ReloadBenchCLI"]),
    .plugin(
      name: "ReloadBenchCommand",
      capability: .command(
        intent: .custom(
          verb: "reloadbench",
          description: "Run reloadbench (check, run, sweep, baseline save, ...) in this package's folder."),
        permissions: [
          .writeToPackageDirectory(
            reason:
              "reloadbench writes its reports (Reports/<name>/), baselines (Scenarios/baselines/) and check files in the package's folder."
          )
        ]),
      dependencies: ["reloadbench"]),
    .testTarget(name: "ReloadEngineTests", dependencies: ["ReloadEngine"]),
    .testTarget(name: "ReloadMetricsTests", dependencies: ["ReloadMetrics", "ReloadEngine"]),
    .testTarget(
      name: "WidgetModelTests", dependencies: ["WidgetModel", "ReloadStrategies", "ReloadEngine"]),
    .testTarget(name: "ReloadStrategiesTests", dependencies: ["ReloadStrategies", "WidgetModel"]),
    .testTarget(
      name: "ActivityModelTests", dependencies: ["ActivityModel", "WidgetModel", "ReloadMetrics", "ReloadEngine"]),
    .testTarget(name: "ReloadReportsTests", dependencies: ["ReloadReports", "ReloadMetrics"]),
    .testTarget(
      name: "ReloadCalibrationTests",
      dependencies: ["ReloadCalibration", "WidgetModel", "ReloadEngine"]),
    .testTarget(
      name: "ReloadBenchCLITests", dependencies: ["ReloadBenchCLI", "reloadbench", "WidgetModel", "ReloadEngine"],
      exclude: ["Fixtures"]),
    // The documented behaviours of docs/model.md, one scenario of Scenarios/golden/ each.
    .testTarget(
      name: "GoldenBehaviourTests",
      dependencies: ["ReloadBenchCLI", "WidgetModel", "ReloadMetrics", "ReloadReports"]),
  ]
)
