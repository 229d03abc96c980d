import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Standard output and error, and whether they are terminals.
enum Terminal {
  static var stderrIsTerminal: Bool { isatty(2) == 1 }
  static var stdoutIsTerminal: Bool { isatty(1) == 1 }

  /// Writes `text` to stdout. Control characters (from names in a
  /// scenario: escape sequences, carriage returns) are escaped, so user
  /// text cannot move the cursor, retitle the terminal or fake a line.
  static func out(_ text: String) {
    FileHandle.standardOutput.write(Data(TerminalText.escaped(text, keepLines: true).utf8))
  }

  /// Writes `text` to stderr, control characters escaped as for `out`.
  static func err(_ text: String) {
    FileHandle.standardError.write(Data(TerminalText.escaped(text, keepLines: true).utf8))
  }

  /// Writes the tool's own terminal control text (a progress line's
  /// carriage return and erase) to stderr as it is.
  static func errControl(_ text: String) {
    FileHandle.standardError.write(Data(text.utf8))
  }
}

/// A progress line on stderr, only when stderr is a terminal: percent,
/// simulated days per wall second, and an ETA. Rewritten in place at most
/// five times a second.
final class ProgressLine: @unchecked Sendable {
  private let label: String
  private let enabled: Bool
  private let start = ContinuousClock.now
  private var lastDraw = ContinuousClock.now
  private let lock = NSLock()
  private var drawn = false

  init(label: String, enabled: Bool) {
    self.label = label
    self.enabled = enabled
  }

  /// `fraction` of the work is done; `simulatedDays` of fleet time so far.
  func update(fraction: Double, simulatedDays: Double) {
    guard enabled else { return }
    lock.lock()
    defer { lock.unlock() }
    let now = ContinuousClock.now
    guard now - lastDraw > .milliseconds(200) || fraction >= 1 else { return }
    lastDraw = now
    let elapsed = Self.seconds(now - start)
    let rate = elapsed > 0 ? simulatedDays / elapsed : 0
    let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
    let text = String(
      format: "\r\u{1B}[2K  %@: %3.0f%%  %.1f sim-days/s  ETA %@", label, fraction * 100, rate, Self.clock(eta))
    Terminal.errControl(text)
    drawn = true
  }

  func finish() {
    guard enabled, drawn else { return }
    Terminal.errControl("\r\u{1B}[2K")
  }

  static func seconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) + Double(atto) * 1e-18
  }

  static func clock(_ seconds: Double) -> String {
    let s = Int(seconds.rounded())
    return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
  }
}
