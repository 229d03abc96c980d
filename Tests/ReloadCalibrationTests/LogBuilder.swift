import Foundation
import ReloadCalibration
import Testing
import WidgetModel

/// Reload logs with a known answer, written line by line: each test lays
/// out the reloads a rule would give and checks that the fit reads the
/// rule back.
///
/// A device's days are 0 ... `days` + 1: days 1 ... `days` are complete
/// (lines on both neighbours), days 0 and `days` + 1 are its partial first
/// and last days. Times are UTC with a logged offset of 0.
struct LogBuilder {
  static let minute: Int64 = 60_000
  static let hour: Int64 = 3_600_000
  static let day: Int64 = 86_400_000

  var log = ReloadLog()

  /// The time `ms` after midnight of `day`.
  static func at(_ day: Int, _ ms: Int64) -> Int64 { LogTime.simulationEpoch + Int64(day) * Self.day + ms }

  /// A timeline line: a reload of `instance`, which then asks for the next
  /// one `asks` ms ahead (`.after`; nil: `.never`).
  mutating func reload(
    _ device: String, _ instance: String, at t: Int64, asks: Int64?, family: String = "systemSmall",
    kind: String = "live", lowPower: Bool = false, trigger: String = ""
  ) {
    var l = line(.timeline, device, t)
    l.kind = kind
    l.family = family
    l.instance = instance
    l.entries = 1
    l.policy = asks == nil ? .never : .after
    l.next = asks.map { t + $0 } ?? ReloadLog.none
    l.lowPower = lowPower
    l.foreground = false
    l.trigger = trigger
    log.append(l)
  }

  /// The app's `reloadTimelines` call for `kind` from the background.
  mutating func call(_ device: String, at t: Int64, kind: String = "live", trigger: String) {
    var l = line(.reloadCall, device, t)
    l.kind = kind
    l.foreground = false
    l.trigger = trigger
    log.append(l)
  }

  /// A line of the app's (a silent push received, a BGAppRefresh run).
  mutating func event(_ type: ReloadLog.LineType, _ device: String, at t: Int64) {
    log.append(line(type, device, t))
  }

  func line(_ type: ReloadLog.LineType, _ device: String, _ t: Int64) -> ReloadLog.Line {
    var l = ReloadLog.Line(type: type, time: t, device: device)
    l.utcOffsetMinutes = 0
    return l
  }

  /// Reloads of `instance` on `day` at `times` (ms after midnight), each
  /// asking `asks` ahead.
  mutating func reloads(
    _ device: String, _ instance: String, day: Int, at times: [Int64], asks: Int64?, family: String = "systemSmall",
    lowPower: Bool = false
  ) {
    for t in times { reload(device, instance, at: Self.at(day, t), asks: asks, family: family, lowPower: lowPower) }
  }

  /// `count` times from `start` every `step` (ms after midnight).
  static func every(_ step: Int64, from start: Int64, count: Int) -> [Int64] {
    (0..<count).map { start + Int64($0) * step }
  }

  /// Times from `start` every `step` up to `end`.
  static func every(_ step: Int64, from start: Int64, through end: Int64) -> [Int64] {
    Array(stride(from: start, through: end, by: Int(step)).map { Int64($0) })
  }

  /// A saturated widget's day under a token bucket of `perDay` reloads:
  /// from 07:00, `burst` reloads 5 minutes apart (the capacity), then one
  /// every 24 h / `perDay` until 23:00. It asks every 5 minutes.
  static func bucketDay(perDay: Int64, burst: Int) -> [Int64] {
    let start = 7 * hour, fast = 5 * minute
    let burstEnd = start + Int64(burst - 1) * fast
    let steady = day / perDay
    return every(fast, from: start, count: burst) + every(steady, from: burstEnd + steady, through: 23 * hour)
  }

  /// A saturated widget's day under a sliding window of `perDay`: from
  /// 07:00 it reloads every 5 minutes until the window is full.
  static func windowDay(perDay: Int) -> [Int64] { every(5 * minute, from: 7 * hour, count: perDay) }

  /// `n` values of median `median` and log-standard deviation about
  /// `sigma`: median x exp(sigma x z) for z in a symmetric cycle (so the
  /// median of whole cycles is exact).
  static func logNormalCycle(median: Double, sigma: Double, count n: Int) -> [Double] {
    (0..<n).map { median * exp(sigma * zCycle[$0 % zCycle.count]) }
  }

  static let zCycle: [Double] = [0, -1, 1, -0.5, 0.5, -1.5, 1.5]

  /// The sample standard deviation of `values`.
  static func standardDeviation(_ values: [Double]) -> Double {
    let mean = values.reduce(0, +) / Double(values.count)
    return (values.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(values.count - 1)).squareRoot()
  }
}

extension Calibration {
  /// The fitted model parameter `p`; the test fails when the fit left it out.
  func of(_ p: ModelParameter, sourceLocation: SourceLocation = #_sourceLocation) throws -> Calibration.Parameter {
    try #require(parameter(.model(p)), "\(p.path) is not in the fit", sourceLocation: sourceLocation)
  }

  /// The observed quantity `q`; the test fails when the fit left it out.
  func of(_ q: ObservedQuantity, sourceLocation: SourceLocation = #_sourceLocation) throws -> Calibration.Parameter {
    try #require(parameter(.observed(q)), "observed.\(q.key) is not in the fit", sourceLocation: sourceLocation)
  }
}
