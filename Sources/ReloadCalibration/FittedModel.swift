/// The identified parameters as a scenario's `model` block
/// (Scenarios/README.md#model): what `calibration.json` offers to paste,
/// and what `calibrate --scenario` simulates for the observed-against-simulated charts.
public struct FittedModel: Sendable, Equatable {
  public var accrual: String?
  public var maxPerDay: Int?
  public var burstFraction: Double?
  public var lowPowerMultiplier: Double?
  public var minIntervalS: Double?
  public var asap: String?
  public var latenessPressure: String?
  public var latenessPressureExponent: Double?
  public var latenessMedianS: Double?
  public var latenessSigma: Double?
  public var backgroundLatencyMedianS: Double?
  public var backgroundLatencySigma: Double?
  public var burst: String?

  public init() {}

  public init(_ c: Calibration) {
    func ok(_ f: String) -> Calibration.Parameter? {
      guard let p = c.parameter(f), p.status == .identified else { return nil }
      return p
    }
    func sigma(_ p: Calibration.Parameter?) -> Double? {
      guard let choice = p?.choice, choice.hasPrefix("sigma=") else { return nil }
      return Double(choice.dropFirst(6)).flatMap { $0.isFinite ? $0 : nil }
    }
    accrual = ok("budget.accrual")?.choice
    maxPerDay = ok("budget.max_per_day")?.estimate.map { max(1, min(1440, Int($0.rounded()))) }
    if accrual == "token_bucket" {
      burstFraction = ok("budget.token_bucket_burst_fraction")?.estimate.map { Self.round(min(1, max(0.01, $0)), 3) }
    }
    lowPowerMultiplier = ok("budget.low_power_multiplier")?.estimate.map { Self.round(min(1, max(0, $0)), 3) }
    minIntervalS = ok("budget.min_interval_s")?.estimate.map { Self.round(max(0, $0), 1) }
    asap = ok("reload.asap")?.choice
    if let e = ok("reload.lateness_pressure_exponent") {
      latenessPressure = e.choice
      if e.choice == "budget" { latenessPressureExponent = e.estimate.map { Self.round(min(10, max(0, $0)), 3) } }
    }
    if let l = ok("reload.lateness"), let m = l.estimate, let s = sigma(l) {
      latenessMedianS = Self.round(m, 1)
      latenessSigma = Self.round(s, 3)
    }
    if let l = ok("app_reload.background_latency"), let m = l.estimate, let s = sigma(l) {
      backgroundLatencyMedianS = Self.round(m, 1)
      backgroundLatencySigma = Self.round(s, 3)
    }
    burst = ok("app_reload.burst")?.choice
  }

  static func round(_ v: Double, _ digits: Int) -> Double {
    let f = Double.pow(10, Double(digits))
    return (v * f).rounded() / f
  }

  /// The `model` block as JSON text, indented by `indent` spaces.
  public func json(indent: Int = 0) -> String {
    func number(_ v: Double) -> String {
      v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
    var budget: [(String, String)] = []
    if let accrual { budget.append(("accrual", "\"\(accrual)\"")) }
    if let maxPerDay { budget.append(("max_per_day", String(maxPerDay))) }
    if let burstFraction { budget.append(("token_bucket_burst_fraction", number(burstFraction))) }
    if let lowPowerMultiplier { budget.append(("low_power_multiplier", number(lowPowerMultiplier))) }
    if let minIntervalS { budget.append(("min_interval_s", number(minIntervalS))) }
    var reload: [(String, String)] = []
    if let asap { reload.append(("asap", "\"\(asap)\"")) }
    if let latenessMedianS, let latenessSigma {
      reload.append(("lateness", "{\"dist\": \"lognormal\", \"median_s\": \(number(latenessMedianS)), \"sigma\": \(number(latenessSigma))}"))
    }
    if let latenessPressure { reload.append(("lateness_pressure", "\"\(latenessPressure)\"")) }
    if let latenessPressureExponent { reload.append(("lateness_pressure_exponent", number(latenessPressureExponent))) }
    var app: [(String, String)] = []
    if let backgroundLatencyMedianS, let backgroundLatencySigma {
      app.append(
        ("background_latency", "{\"dist\": \"lognormal\", \"median_s\": \(number(backgroundLatencyMedianS)), \"sigma\": \(number(backgroundLatencySigma))}"))
    }
    if let burst { app.append(("burst", "\"\(burst)\"")) }
    let pad = String(repeating: " ", count: indent)
    var blocks: [String] = []
    for (name, fields) in [("budget", budget), ("reload", reload), ("app_reload", app)] where !fields.isEmpty {
      let inner = fields.map { "\(pad)    \"\($0.0)\": \($0.1)" }.joined(separator: ",\n")
      blocks.append("\(pad)  \"\(name)\": {\n\(inner)\n\(pad)  }")
    }
    return blocks.isEmpty ? "{}" : "{\n" + blocks.joined(separator: ",\n") + "\n\(pad)}"
  }
}
