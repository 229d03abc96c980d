import ReloadReports
import WidgetModel

/// The estimators, one function per fitted parameter (Fitter+Budget,
/// Fitter+Reload, Fitter+Lateness, Fitter+App). Each estimator reads a
/// multiset of devices (the whole log, or a bootstrap resample: how often
/// each device was drawn) and returns a value or nil; `estimate` turns it
/// into a `Calibration.Parameter` with its interval and support.
struct Fitter {
  let summaries: [DeviceSummary]
  let seed: UInt64
  let replicates: Int
  let families: ReloadLog.Names

  /// The least support of an estimate: devices, and values over them.
  static let minDevices = 5
  static let minValues = 20

  init(summaries: [DeviceSummary], seed: UInt64, replicates: Int, families: ReloadLog.Names) {
    self.summaries = summaries
    self.seed = seed
    self.replicates = replicates
    self.families = families
  }

  typealias P = Calibration.Parameter

  /// Every parameter in the report's order, the lateness seen (for the
  /// chart), the assumptions' verdicts and the held requests' replay.
  func fitAll() -> (parameters: [P], lateness: [Double], verdicts: [AssumptionVerdict], replay: HoldReplay?) {
    var (accrual, reading) = fitAccrual()
    var budgetPerDay = fitMaxPerDay(accrual: accrual, reading: reading)
    let holds = fitHolds()
    // Saturated widgets read B and the accrual directly; without them, the requests the budget held back do.
    if let holds, holds.identified, accrual.status != .identified || budgetPerDay.status != .identified {
      (accrual, budgetPerDay, reading) = holdParameters(holds)
    }
    let budget = BudgetReading(accrual: reading, perDay: budgetPerDay.estimate, perDayStatus: budgetPerDay.status)
    var minInterval = fitMinInterval(budget: budget)
    let asap = fitAsap(budget: budget)
    if asap.settings[.reloadAsap] == .choice(of: ReloadTiming.Asap.immediate), minInterval.status != .identified {
      minInterval = minIntervalOfImmediateAsap(replacing: minInterval)
    }
    // The capacity is not identified (fitCapacity): the replay takes the model's default share.
    let lateness = fitLateness(budget: budget, capacityShare: 0.25)
    var out = [accrual, budgetPerDay]
    out += fitFamilyBudgets(budget: budget)
    out += [fitCapacity(budget: budget), fitLowPowerMultiplier(budget: budget), lowPowerDeviceShare()]
    out += [minInterval, asap]
    out += lateness.parameters
    out += [fitBackgroundLatency(), fitBurst()]
    out += fitArrivalRates()
    out += notIdentifiable()
    return (out, lateness.lateness, verdicts(holds: holds, parameters: out), holds.map(holdReplay))
  }

  /// What the log says of the budget, which later estimates read: how it
  /// accrues (a token bucket unless the log reads as a window) and B, if
  /// identified (else why not).
  struct BudgetReading {
    var accrual: BudgetParameters.Accrual
    var perDay: Double?
    var perDayStatus: P.Status

    var bucket: Bool { accrual == .tokenBucket }
  }

  // MARK: - The bootstrap

  /// An estimate with its 95 % bootstrap interval over devices (NaN ends
  /// when fewer than half the resamples give a value). The estimator reads
  /// a resample as how often each device was drawn.
  func bootstrap(_ salt: UInt64, _ estimator: (Weights) -> Double?) -> (Double, Double, Double)? {
    let n = summaries.count
    guard let point = estimator(Weights(repeating: 1, count: n)), point.isFinite else { return nil }
    var rng = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ salt)
    var values: [Double] = []
    values.reserveCapacity(replicates)
    var w = Weights(repeating: 0, count: n)
    for _ in 0..<replicates {
      for i in w.indices { w[i] = 0 }
      for _ in 0..<n { w[Int(rng.next() % UInt64(n))] += 1 }
      if let v = estimator(w), v.isFinite { values.append(v) }
    }
    guard values.count >= replicates / 2 else { return (point, .nan, .nan) }
    values.sort()
    return (point, Stats.sortedQuantile(values, 0.025), Stats.sortedQuantile(values, 0.975))
  }

  /// The devices for which `has` holds, and their complete days.
  func support(_ has: (DeviceSummary) -> Bool) -> (devices: Int, days: Int) {
    var d = 0
    var n = 0
    for s in summaries where has(s) {
      d += 1
      n += s.days
    }
    return (d, n)
  }

  /// The figure `key` of every device, for quantiles of resamples.
  func pool(_ key: (DeviceSummary) -> [Double]) -> Pool { Pool(devices: summaries.count) { key(summaries[$0]) } }

  /// The parameter `field` estimated by `estimator` with its bootstrap
  /// interval (`salt` picks the resamples), or, below `minDevices` devices
  /// with `need` or `minValues` of `values`, too few data (no device:
  /// not identifiable) with `missing`, what to log, as its note.
  func estimate(
    _ field: CalibratedField, _ label: String, _ unit: String, salt: UInt64, need: (DeviceSummary) -> Bool,
    minValues: Int = Fitter.minValues, values: (DeviceSummary) -> [Double], missing: String,
    status: P.Status = .identified, _ estimator: (Weights) -> Double?
  ) -> P {
    let (devices, days) = support(need)
    let count = summaries.reduce(0) { $0 + values($1).count }
    var p = P(field: field, label: label, unit: unit, status: status, devices: devices, days: days, note: "")
    guard devices >= Self.minDevices, count >= minValues, let (e, lo, hi) = bootstrap(salt, estimator) else {
      p.status = devices == 0 ? .notIdentifiable : .tooFewData
      p.note =
        devices == 0
        ? missing
        : "\(Self.count(devices, "device")), \(Self.count(count, "value")): too few to estimate "
          + "(needs \(Self.minDevices) devices and \(minValues) values). " + missing
      return p
    }
    p.estimate = e
    p.low = lo.isNaN ? nil : lo
    p.high = hi.isNaN ? nil : hi
    return p
  }

  // MARK: - Numbers

  /// A fitted log-normal as a model value: the median to a tenth of a
  /// second, sigma to the digits the report shows (`fmt`); nil when either
  /// is not a number.
  static func logNormal(median: Double, sigma: Double) -> ParameterValue? {
    guard median.isFinite, sigma.isFinite else { return nil }
    let m = rounded(median, decimals: 1)
    return .distribution(.logNormal(median: .seconds(m), sigma: rounded(sigma, decimals: decimals(sigma))))
  }

  /// `v` to `decimals` digits after the point: the precision an estimate
  /// goes into the model with.
  static func rounded(_ v: Double, decimals: Int) -> Double {
    let f = Double.pow(10, Double(decimals))
    return (v * f).rounded() / f
  }

  /// The digits after the point `fmt` writes `v` with: about three
  /// significant ones.
  static func decimals(_ v: Double) -> Int {
    let a = abs(v)
    return a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3
  }

  /// `v` with `decimals(v)` digits after the point ("70.0", "0.583",
  /// "439"), "n/a" when not finite: how the reports write an estimate.
  static func fmt(_ v: Double) -> String {
    guard v.isFinite else { return "n/a" }
    return NumberFormat.fixed(v, decimals: decimals(v))
  }

  /// "1 device", "3 devices": a count and its noun, pluralised with an s.
  static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}

extension Calibration.Parameter {
  /// The estimate taken back: `status` with `note`, no number, interval
  /// or model settings.
  mutating func withdraw(_ status: Status, note: String) {
    self.status = status
    self.note = note
    estimate = nil
    low = nil
    high = nil
    settings = ModelPatch()
  }
}
