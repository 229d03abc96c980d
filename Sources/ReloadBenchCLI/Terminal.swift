import Foundation
import ReloadReports

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

/// What a run is and how big, said once on stderr in a log (off a
/// terminal) before its first progress line: a CI log then says what is
/// running before it says how far it got.
final class RunHeader: @unchecked Sendable {
  let text: String
  private let lock = NSLock()
  private var said = false

  init(_ text: String) { self.text = text }

  /// Prints the header, the first time only.
  func say() {
    lock.lock()
    defer { lock.unlock() }
    guard !said else { return }
    said = true
    Terminal.err(text + "\n")
  }
}

/// Progress on stderr. On a terminal, one line rewritten in place at most
/// five times a second: the scenario, percent, simulated device-days per
/// wall second, an ETA. Elsewhere (CI logs), the same figures as a new line
/// about every `logInterval` seconds, the first after that long (after the
/// run's `header`), so short runs print nothing.
final class ProgressLine: @unchecked Sendable {
  enum Mode {
    case off
    case terminal
    case log
  }

  /// Seconds between two progress lines in a log. `RELOADBENCH_PROGRESS_INTERVAL`
  /// (seconds; 0: a line whenever a chunk of devices is done) replaces the
  /// default of 10.
  static let logInterval: Double = {
    if let text = ProcessInfo.processInfo.environment["RELOADBENCH_PROGRESS_INTERVAL"], let s = Double(text),
      s.isFinite, s >= 0
    {
      return s
    }
    return 10
  }()

  private let label: String
  private let mode: Mode
  private let header: RunHeader?
  private let start = ContinuousClock.now
  private var lastDraw = ContinuousClock.now
  private let lock = NSLock()
  private var drawn = false

  init(label: String, mode: Mode, header: RunHeader? = nil) {
    // The label names a scenario: escaped, since the terminal line is written raw.
    self.label = TerminalText.escaped(label, keepLines: false)
    self.mode = mode
    self.header = header
  }

  /// The mode of a run's progress: none with `--quiet`, else in place on a
  /// terminal and as log lines elsewhere.
  static func mode(quiet: Bool) -> Mode { quiet ? .off : Terminal.stderrIsTerminal ? .terminal : .log }

  /// Progress for a run (`mode(quiet:)`); `header` goes before the first log line.
  convenience init(label: String, quiet: Bool, header: RunHeader? = nil) {
    self.init(label: label, mode: Self.mode(quiet: quiet), header: header)
  }

  /// `fraction` of the work is done; `deviceDays` simulated so far (each
  /// device's days, warm-up included, summed).
  func update(fraction: Double, deviceDays: Double) {
    guard mode != .off else { return }
    lock.lock()
    defer { lock.unlock() }
    let now = ContinuousClock.now
    let elapsed = Self.seconds(now - start)
    let rate = NumberFormat.short(elapsed > 0 ? deviceDays / elapsed : 0)
    let eta = fraction > 0 ? elapsed * (1 - fraction) / fraction : 0
    switch mode {
    case .off: return
    case .terminal:
      guard now - lastDraw > .milliseconds(200) || fraction >= 1 else { return }
      lastDraw = now
      let text = String(
        format: "\r\u{1B}[2K  %@: %3.0f%%  %@ device-days/s  ETA %@", label, fraction * 100, rate, Self.clock(eta))
      Terminal.errControl(text)
      drawn = true
    case .log:
      guard Self.seconds(now - lastDraw) >= Self.logInterval, fraction < 1 else { return }
      lastDraw = now
      header?.say()
      Terminal.err(
        String(
          format: "progress: %@: %.1f%% after %@, %@ device-days/s, ETA %@\n", label, fraction * 100,
          Self.clock(elapsed), rate, Self.clock(eta)))
    }
  }

  func finish() {
    guard mode == .terminal, drawn else { return }
    Terminal.errControl("\r\u{1B}[2K")
  }

  static func seconds(_ d: Duration) -> Double {
    let (s, atto) = d.components
    return Double(s) + Double(atto) * 1e-18
  }

  /// "42s", "3m05s", "2h07m", "3d04h".
  static func clock(_ seconds: Double) -> String {
    guard seconds.isFinite, seconds < 1e12 else { return "?" }
    let s = Int(seconds.rounded())
    if s >= 86_400 { return "\(s / 86_400)d\(String(format: "%02d", s % 86_400 / 3600))h" }
    if s >= 3600 { return "\(s / 3600)h\(String(format: "%02d", s % 3600 / 60))m" }
    return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
  }
}
