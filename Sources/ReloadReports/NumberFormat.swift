/// Number formatting without Foundation: fixed decimals for CSV (a `.`
/// decimal point whatever the locale) and short human forms for people.
public enum NumberFormat {
  /// `x` with exactly `decimals` digits after the point; "" for NaN/inf.
  ///
  ///     NumberFormat.fixed(3.14159, decimals: 2)   // "3.14"
  ///     NumberFormat.fixed(-0.004, decimals: 2)    // "0.00"
  public static func fixed(_ x: Double, decimals: Int) -> String {
    guard x.isFinite else { return "" }
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = (abs(x) * scale).rounded()
    if scaled >= 9.0e18 {
      // Beyond Int64: Swift's shortest round-trip form ("1e+19").
      guard abs(x) < 9.0e18 else { return "\(x)" }
      return (x < 0 ? "-" : "") + String(Int64(abs(x).rounded()))
        + (decimals > 0 ? "." + String(repeating: "0", count: decimals) : "")
    }
    let n = UInt64(scaled)
    let negative = x < 0 && n != 0
    let p = UInt64(scale)
    let intPart = n / p
    var s = (negative ? "-" : "") + String(intPart)
    if decimals > 0 {
      var frac = String(n % p)
      while frac.count < decimals { frac = "0" + frac }
      s += "." + frac
    }
    return s
  }

  /// A short human form: 1.2k, 3.4M, 37, 0.52, 4.5.
  public static func short(_ x: Double) -> String {
    guard x.isFinite else { return "–" }
    let a = abs(x)
    if a >= 1e9 { return trim(fixed(x / 1e9, decimals: 1)) + "G" }
    if a >= 1e6 { return trim(fixed(x / 1e6, decimals: 1)) + "M" }
    if a >= 1e4 { return trim(fixed(x / 1e3, decimals: 0)) + "k" }
    if a >= 1e3 { return trim(fixed(x / 1e3, decimals: 1)) + "k" }
    if a >= 100 { return fixed(x, decimals: 0) }
    if a >= 10 { return trim(fixed(x, decimals: 1)) }
    if a >= 1 { return trim(fixed(x, decimals: 2)) }
    if a == 0 { return "0" }
    return trim(fixed(x, decimals: 3))
  }

  /// A value in a summary table: one decimal at most, none from 100 up
  /// (`decimals` caps it): "84.0", "2500", "0.1".
  public static func brief(_ x: Double, decimals: Int) -> String {
    fixed(x, decimals: min(decimals, abs(x) >= 100 ? 0 : 1))
  }

  /// `n` and `noun`, plural unless `n` is 1: "1 strategy", "3 strategies",
  /// "1 run", "0 runs". `text` replaces how `n` is written ("3,000").
  public static func count(_ n: Int, _ noun: String, text: String? = nil) -> String {
    (text ?? String(n)) + " " + (n == 1 ? noun : plural(noun))
  }

  /// The same for a count that may be fractional ("1 day", "2.5 days").
  public static func count(_ x: Double, _ noun: String, decimals: Int = 2) -> String {
    trim(fixed(x, decimals: decimals)) + " " + (x == 1 ? noun : plural(noun))
  }

  /// The English plural of `noun` (its last word): "strategy" ->
  /// "strategies", "pass" -> "passes", "device" -> "devices".
  public static func plural(_ noun: String) -> String {
    let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
    if noun.hasSuffix("y"), noun.count > 1, !vowels.contains(noun[noun.index(noun.endIndex, offsetBy: -2)]) {
      return noun.dropLast() + "ies"
    }
    if ["s", "x", "sh", "ch"].contains(where: { noun.hasSuffix($0) }) { return noun + "es" }
    return noun + "s"
  }

  /// Drops trailing zeros after a decimal point ("1.50" -> "1.5", "2.0" -> "2").
  public static func trim(_ s: String) -> String {
    guard s.contains(".") else { return s }
    var t = s
    while t.hasSuffix("0") { t.removeLast() }
    if t.hasSuffix(".") { t.removeLast() }
    return t
  }

  /// A local hour of day as hh:mm ("13:40").
  public static func clock(_ hours: Double) -> String {
    let total = Int((hours * 60).rounded())
    let h = (total / 60) % 24
    let m = total % 60
    return (h < 10 ? "0" : "") + String(h) + ":" + (m < 10 ? "0" : "") + String(m)
  }

  /// A duration in minutes, humanised: "45 s", "4.5 min", "2.3 h", "1.5 d".
  public static func minutes(_ m: Double) -> String {
    guard m.isFinite else { return "–" }
    if m < 1 { return trim(fixed(m * 60, decimals: 0)) + " s" }
    if m < 120 { return trim(fixed(m, decimals: m < 10 ? 1 : 0)) + " min" }
    if m < 2880 { return trim(fixed(m / 60, decimals: 1)) + " h" }
    return trim(fixed(m / 1440, decimals: 1)) + " d"
  }
}
