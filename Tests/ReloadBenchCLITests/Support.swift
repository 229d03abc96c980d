import Foundation
import Testing
import WidgetModel

/// Runs the built `reloadbench` binary, as a user would.
struct Binary {
  struct Result {
    let status: Int32
    let stdout: String
    let stderr: String
  }

  /// The `reloadbench` next to the test bundle (same build folder).
  static let path: String = {
    var dir = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = dir.appendingPathComponent("reloadbench").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
      dir = dir.deletingLastPathComponent()
    }
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    for config in ["debug", "release"] {
      let candidate = root.appendingPathComponent(".build/\(config)/reloadbench").path
      if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    return "reloadbench"
  }()

  /// Runs `arguments` in `directory`, with an optional extra environment.
  /// With `timeout` (seconds), a run still going then is terminated (status
  /// 15), so a hang fails the test instead of stalling the suite.
  @discardableResult
  static func run(
    _ arguments: [String], in directory: URL, environment: [String: String] = [:], timeout: Double? = nil
  ) throws -> Result {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    if let timeout {
      let watched = Watched(process)
      DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        if watched.process.isRunning { watched.process.terminate() }
      }
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Result(
      status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
      stderr: String(decoding: errData, as: UTF8.self))
  }
}

/// A process handed to the timeout watchdog.
private final class Watched: @unchecked Sendable {
  let process: Process
  init(_ process: Process) { self.process = process }
}

/// A fresh temporary folder, removed by the caller's `defer`.
func temporaryDirectory() throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("reloadbench-tests-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}

/// The repository root (for committed files such as Scenarios/).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

func fixture(_ name: String) -> URL {
  URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/\(name)")
}

/// A small valid scenario, as JSON text, written for `modelVersion` (the
/// current model version; nil: no `model_version`, as before the field).
func smallScenario(
  name: String = "small", devices: Int = 60, days: Double = 2,
  strategies: String = #"["poll-15m", "hybrid", "on-demand"]"#, modelVersion: Int? = ModelVersion.current
) -> String {
  """
  {\(modelVersion.map { "\n  \"model_version\": \($0)," } ?? "")
    "name": "\(name)",
    "seed": 3,
    "days": \(days == days.rounded() ? String(Int(days)) : String(days)),
    "warmup_days": 0.5,
    "devices": \(devices),
    "kinds": [
      { "name": "forecast", "scheduled": { "every_min": 60 }, "unpredictable": { "per_day": 4 } },
      { "name": "news", "scope": "shared", "unpredictable": { "per_day": 12 } }
    ],
    "segments": [
      { "name": "a", "weight": 2, "utc_offsets": [{ "hours": 1 }, { "hours": -5 }],
        "low_power_mode": { "share": 0.3 }, "force_quit_share": 0.2,
        "widgets": [{ "kind": "forecast" }, { "kind": "news", "probability": 0.5 }] },
      { "name": "b", "app_sessions_per_day": 1, "home_views_per_day": 10,
        "widgets": [{ "kind": "forecast", "placement": "smart_stack" }] }
    ],
    "strategies": \(strategies)
  }
  """
}

/// Where two texts first differ, as a few readable lines (nil: they are equal),
/// so a failed comparison of a committed file prints a short diff, not bytes.
func firstDifference(_ expected: String, _ actual: String, context: Int = 160) -> String? {
  if expected == actual { return nil }
  let a = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let b = actual.split(separator: "\n", omittingEmptySubsequences: false)
  let line = zip(a, b).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(a.count, b.count)
  let left = line < a.count ? a[line] : nil
  let right = line < b.count ? b[line] : nil
  // Long lines (the HTML page's embedded data) are cut around the first differing character.
  let column = zip(left ?? "", right ?? "").prefix { $0 == $1 }.count
  func excerpt(_ text: Substring?) -> String {
    guard let text else { return "(no such line: the text ends)" }
    let start = text.index(text.startIndex, offsetBy: min(max(0, column - context / 2), text.count))
    let end = text.index(start, offsetBy: min(context, text.distance(from: start, to: text.endIndex)))
    return (start > text.startIndex ? "…" : "") + text[start..<end] + (end < text.endIndex ? "…" : "")
  }
  return "line \(line + 1), column \(column + 1) (committed \(a.count) lines, fresh \(b.count)):\n"
    + "- \(excerpt(left))\n+ \(excerpt(right))"
}
