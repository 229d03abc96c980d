/// A problem in a scenario file: where (JSON path), what, and how to fix it.
struct ScenarioError: Error, Equatable {
  /// `$.model.budget.max_per_day`, `$.segments[0].widgets[1].kind`, ...
  let path: String
  let message: String
  let fix: String

  /// One line for stderr: `FILE: PATH: message (fix: ...)`.
  func line(file: String) -> String { "\(file): \(path): \(message) (fix: \(fix))" }
}

/// An error the CLI reports on one line of stderr before exiting.
package struct CLIError: Error {
  package let message: String
  package let exitCode: Int32

  /// Bad input: scenario, baseline, flags, paths (exit 2).
  static func badInput(_ message: String) -> CLIError { CLIError(message: message, exitCode: 2) }
  /// A check failed (exit 1).
  static func failure(_ message: String) -> CLIError { CLIError(message: message, exitCode: 1) }
}

/// Exit statuses, documented in `reloadbench --help`.
enum ExitStatus {
  static let success: Int32 = 0
  /// An expectation failed or a metric regressed.
  static let failure: Int32 = 1
  /// Bad input: scenario, baseline, flags or paths.
  static let badInput: Int32 = 2
}
