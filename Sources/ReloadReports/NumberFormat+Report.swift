import ReloadMetrics

/// Human number forms for the HTML report: percentages, three significant
/// digits, metric values with their units, axis tick labels.
extension NumberFormat {
  /// A percentage with a thin gap before the sign: "37 %", "4.2 %", "99.5 %".
  ///
  /// One decimal below 10 and between 99 and 100 (where it matters that it
  /// is not 100); none elsewhere unless `decimals` is given.
  ///
  ///     NumberFormat.percent(37.2)      // "37 %"
  ///     NumberFormat.percent(99.54)     // "99.5 %"
  ///     NumberFormat.percent(82.52, decimals: 1)   // "82.5 %"
  public static func percent(_ x: Double, decimals: Int? = nil) -> String {
    guard x.isFinite else { return "–" }
    let d = decimals ?? ((abs(x) < 10 || (x > 99 && x < 100)) ? 1 : 0)
    return trim(fixed(x, decimals: d)) + " %"
  }

  /// `x` to about `digits` significant digits, with k/M/G above 10,000:
  /// 0.523, 4.52, 45.2, 452, 4,520 -> "4520", 45,200 -> "45.2k".
  ///
  ///     NumberFormat.significant(2.8657)    // "2.87"
  ///     NumberFormat.significant(250_000)   // "250k"
  public static func significant(_ x: Double, digits: Int = 3) -> String {
    guard x.isFinite else { return "–" }
    let a = abs(x)
    if a == 0 { return "0" }
    if a >= 1e9 { return significant(x / 1e9, digits: digits) + "G" }
    if a >= 1e6 { return significant(x / 1e6, digits: digits) + "M" }
    if a >= 1e4 { return significant(x / 1e3, digits: digits) + "k" }
    var integerDigits = 1
    var p = 10.0
    while a >= p {
      integerDigits += 1
      p *= 10
    }
    var decimals = max(0, digits - integerDigits)
    // Below 1, count significant digits from the first non-zero one.
    if a < 1 {
      var q = a
      decimals = digits
      while q < 0.1 && decimals < 15 {
        q *= 10
        decimals += 1
      }
    }
    return trim(fixed(x, decimals: decimals))
  }

  /// A metric value with its unit, for table cells and data tables:
  /// "82.5 %", "44 min", "08:52", "59.2", "250k".
  ///
  /// Units with a word-long symbol (per widget-day, req/s) are left to the
  /// column header.
  public static func metric(_ x: Double, unit: MetricUnit) -> String {
    guard x.isFinite else { return "–" }
    // A value that is not zero but would print as zero, or as a long run of
    // zeros, reads as a bound: "< 0.1 %", "< 0.01 h", "< 1 s".
    let a = abs(x)
    let bound = x < 0 ? "> -" : "< "
    switch unit {
    case .percent: return a > 0 && a < 0.05 ? "\(bound)0.1 %" : trim(fixed(x, decimals: 1)) + " %"
    case .minutes: return a > 0 && a < 1.0 / 120 ? "\(bound)1 s" : minutes(x)
    case .hours: return a > 0 && a < 0.01 ? "\(bound)0.01 h" : significant(x) + " h"
    case .hourOfDay: return clock(x)
    case .seconds: return a > 0 && a < 0.01 ? "\(bound)0.01 s" : significant(x) + " s"
    default: return a > 0 && a < 0.001 ? "\(bound)0.001" : significant(x)
    }
  }

  /// A tick label for an axis in `unit`: "20 %", "1.2k", "6 h".
  public static func tick(_ x: Double, unit: MetricUnit) -> String {
    switch unit {
    case .percent: return short(x) + " %"
    case .minutes: return minutes(x)
    case .hourOfDay: return clock(x)
    default: return short(x)
    }
  }

  /// A wall-clock duration in seconds: "2.33 s", "66 ms", "< 1 ms".
  public static func seconds(_ s: Double) -> String {
    guard s.isFinite else { return "–" }
    if s < 0.001 { return "< 1 ms" }
    if s < 1 { return significant(s * 1000, digits: 2) + " ms" }
    return significant(s) + " s"
  }

  /// A tick label on a time axis in minutes, in the unit that reads
  /// best: "10 s", "1 min", "6 h", "1 d", "7 d".
  public static func durationTick(_ m: Double) -> String {
    guard m.isFinite else { return "–" }
    if m < 1 { return short(m * 60) + " s" }
    if m < 60 { return short(m) + " min" }
    if m < 1440 { return short(m / 60) + " h" }
    return short(m / 1440) + " d"
  }

  /// An integer with thousands separators: 3940 -> "3,940".
  public static func grouped(_ n: Int) -> String {
    let digits = String(n.magnitude)
    var out = ""
    for (i, c) in digits.enumerated() {
      if i > 0 && (digits.count - i) % 3 == 0 { out.append(",") }
      out.append(c)
    }
    return (n < 0 ? "-" : "") + out
  }
}

extension NumberFormat {
  /// An interval in `short` form, with as many significant digits as it
  /// takes to tell its ends apart: "38k–41k", "12.2k–12.4k" (never
  /// "12k–12k"). Equal ends print once.
  public static func range(_ lo: Double, _ hi: Double) -> String {
    var a = short(lo)
    var b = short(hi)
    var digits = 3
    while a == b && lo != hi && digits <= 8 {
      a = significant(lo, digits: digits)
      b = significant(hi, digits: digits)
      digits += 1
    }
    return a == b ? a : a + "–" + b
  }
}
