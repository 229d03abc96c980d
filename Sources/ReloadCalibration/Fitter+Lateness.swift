import WidgetModel

/// The lateness of `.after` / `.atEnd` reloads and its growth with the
/// budget spent: a reload is d x used^e late, `used` the share of the
/// budget spent at the request (docs/model.md#lateness,
/// #lateness-pressure; Scenarios/log-format.md#what-the-fit-reads).
extension Fitter {
  /// What to log when no lateness shows.
  static let latenessMissing =
    "No .after or .atEnd request more than 5 minutes ahead on a widget that is not saturated: log the policy and "
    + "next of every timeline."

  static func hasLateness(_ s: DeviceSummary) -> Bool { !s.lateness.isEmpty }

  /// An exponent below this reads as no pressure (`lateness_pressure: none`).
  static let noPressure = 0.2

  /// The lateness as seen, the exponent e and the lateness d before
  /// pressure, and every lateness seen (for the chart). `capacityShare`
  /// is the bucket's capacity for the replay (not identified: the model's
  /// default).
  func fitLateness(budget: BudgetReading, capacityShare: Double) -> (parameters: [P], lateness: [Double]) {
    let byDevice = summaries.map { spentShares($0, budget: budget, capacityShare: capacityShare) }
    let pressure = PressureRegression(byDevice, cutRate: latenessCutRate)
    let observed = fitObservedLateness(byDevice)
    let fitted = fitPressureExponent(pressure, budget: budget)
    var exponent = fitted.parameter
    let assumed = fitted.assumed
    let e = exponent.status == .identified ? exponent.estimate ?? 0 : (assumed ? 1 : 0)
    // With the exponent fitted, d is the regression's value at used = 1, and
    // each resample refits the exponent too: d extrapolates from the spent
    // shares seen to 1, so its interval must carry the exponent's.
    let joint = exponent.status == .identified && e >= Self.noPressure
    var base = fitLatenessBeforePressure(byDevice, pressure, exponent: e, joint: joint)
    if joint { separateUnderWindow(&exponent, &base, byDevice, exponent: e) }
    if base.status == .identified, let d = base.estimate {
      let v = byDevice.joined().compactMap { Self.beforePressure($0, exponent: e) }
      let sigma = Stats.standardDeviation(v.map { Double.log($0) })
      if let dist = Self.logNormal(median: d, sigma: sigma) { base.settings.set(.reloadLateness, dist) }
      base.note =
        "Log-normal, sigma \(Self.fmt(sigma)), fitted to lateness divided by used^e"
        + (assumed ? " with e = 1 assumed (the default; the exponent is not identified)." : ".")
    }
    return ([observed, exponent, base], byDevice.joined().map(\.lateness))
  }

  // MARK: - The budget spent at each request

  /// Each lateness of `s` with the budget spent at its request, replayed
  /// from its instance's budgeted reloads with B as the simulator reads it
  /// (none spent without B). Under a window a request the full window held
  /// is read from when its slot freed.
  func spentShares(_ s: DeviceSummary, budget: BudgetReading, capacityShare: Double) -> [SpentLateness] {
    guard let b = budget.perDay else { return s.lateness.map { SpentLateness(lateness: $0.lateness, used: 0) } }
    guard budget.bucket else {
      return s.lateness.map { x in
        let window = WindowReplay.spent(times: s.budgetTimes[x.instance], perDay: b, at: x.requestTime)
        return SpentLateness(lateness: x.lateness - window.heldSeconds, used: window.used)
      }
    }
    let bucket = TokenReplay(s.budgetTimes, perDay: b, capacity: max(1, capacityShare * b))
    return s.lateness.map {
      SpentLateness(lateness: $0.lateness, used: bucket.spent(instance: $0.instance, at: $0.requestTime))
    }
  }

  // MARK: - The estimates

  /// A lateness shows only if no reload of the app's (foreground, a push)
  /// came first; those come at a rate of their own, per second: the cut
  /// requests over the time all waited.
  var latenessCutRate: Double {
    let cut = summaries.reduce(0) { $0 + $1.latenessCut }
    let waited = summaries.reduce(0) { $0 + $1.latenessWaitS }
    return waited > 0 ? Double(cut) / waited : 0
  }

  /// `observed.lateness_median_s`: the median lateness as seen (a window's
  /// held requests read from when their slot freed), with p10, p90 and the
  /// early ones in the note.
  func fitObservedLateness(_ byDevice: [[SpentLateness]]) -> P {
    let lateness = Pool(devices: summaries.count) { byDevice[$0].map(\.lateness) }
    var m = estimate(
      .observed(.latenessMedian), "Lateness of .after/.atEnd reloads (median, as observed)", "s", salt: 7,
      need: Self.hasLateness, values: { $0.lateness.map(\.lateness) }, missing: Self.latenessMissing,
      status: .observed
    ) { w in
      lateness.count(w) < 10 ? nil : lateness.median(w)
    }
    if m.status == .observed {
      let v = byDevice.joined().map(\.lateness)
      m.note =
        "p10 \(Self.fmt(Stats.quantile(v, 0.1))) s, p90 \(Self.fmt(Stats.quantile(v, 0.9))) s; "
        + "\(v.filter { $0 < 0 }.count) of \(v.count) early."
    }
    return m
  }

  /// `reload.lateness_pressure_exponent` (and `reload.lateness_pressure`,
  /// which it decides): the slope of log lateness on log spent share; and
  /// whether the spent shares vary too little to tell it, so that d is to
  /// be read with e = 1 assumed (the default).
  ///
  /// Under a token bucket the budget spent at a request stays between
  /// 1 - capacity/B and 1, so lateness hardly varies with it: a wide
  /// interval means the log does not tell the exponent; when the share is
  /// the same at every request (the bucket never drops below its last whole
  /// token) the slope has no points to rest on at all. Under a window a
  /// fitted exponent's precision is judged by the lateness it leaves
  /// (`separateUnderWindow`); one read as none only by its interval.
  func fitPressureExponent(_ pressure: PressureRegression, budget: BudgetReading) -> (parameter: P, assumed: Bool) {
    var exponent = estimate(
      .model(.reloadLatenessPressureExponent), "Growth of lateness with the budget spent (exponent e of used^e)", "",
      salt: 8, need: Self.hasLateness, values: { $0.lateness.map(\.lateness) }, missing: Self.latenessMissing,
      pressure.exponent)
    // Without B there is no spent share to regress on, however many
    // requests: the exponent is as far from known as B.
    if budget.perDay == nil && exponent.status != .notIdentifiable && exponent.devices >= Self.minDevices {
      exponent.withdraw(
        budget.perDayStatus == .notIdentifiable ? .notIdentifiable : .tooFewData,
        note: "The budget spent at each request needs B, which this log does not identify (budget.max_per_day). "
          + Self.budgetMissing)
    }
    let flat =
      budget.bucket && budget.perDay != nil && exponent.status == .tooFewData && exponent.devices >= Self.minDevices
      && pressure.points >= Self.minValues
    let wide = (exponent.high ?? .infinity) - (exponent.low ?? -.infinity) > 1
    let readAsNone = wide && (exponent.estimate ?? 0) < Self.noPressure
    if flat || exponent.status == .identified && (budget.bucket || readAsNone) {
      let spread =
        flat
        ? "it was the same at every request"
        : "interval \(Self.fmt(exponent.low ?? .nan)) to \(Self.fmt(exponent.high ?? .nan))"
      let why = budget.bucket ? "a token bucket keeps it above 1 - capacity/B" : "widgets far from their budget"
      exponent.withdraw(
        .tooFewData,
        note: "The budget spent at the requests varies too little (\(why)) to tell the exponent (\(spread)): log a "
          + "cohort asking every 15-30 minutes, whose spent share varies over the day.")
      return (exponent, true)
    }
    guard exponent.status == .identified else { return (exponent, false) }
    let e = exponent.estimate ?? 0
    let reading: ReloadTiming.LatenessPressure = e < Self.noPressure ? .none : .budget
    exponent.settings.set(.reloadLatenessPressure, .choice(of: reading))
    if reading == .budget {
      exponent.settings.setClamped(.reloadLatenessPressureExponent, .number(Self.rounded(e, decimals: 3)))
    }
    exponent.note =
      "Least squares of log lateness on log used (used: the budget spent at the request, replayed from the widget's "
      + "reloads with the fitted B; each lateness weighted by the inverse of its chance to be seen before a reload "
      + "of the app's cut it short). "
      + (reading == .none
        ? "Near 0: lateness does not grow with the budget spent (lateness_pressure none)."
        : "lateness_pressure budget.")
    return (exponent, false)
  }

  /// A seen lateness divided by used^e: the lateness before pressure, when
  /// it rests on a spent share (lateness over a second; used over 2 %
  /// unless there is no pressure).
  static func beforePressure(_ x: SpentLateness, exponent e: Double) -> Double? {
    guard x.lateness > 1 && (x.used > 0.02 || e < noPressure) else { return nil }
    return e < noPressure ? x.lateness : x.lateness / Double.pow(x.used, e)
  }

  /// `reload.lateness`: d, the median lateness before pressure (a
  /// log-normal): with the exponent fitted (`joint`), the regression's value
  /// at used = 1, else the median of lateness / used^e.
  func fitLatenessBeforePressure(
    _ byDevice: [[SpentLateness]], _ pressure: PressureRegression, exponent e: Double, joint: Bool
  ) -> P {
    let beforePressure = Pool(devices: summaries.count) {
      byDevice[$0].compactMap { Self.beforePressure($0, exponent: e) }
    }
    return estimate(
      .model(.reloadLateness), "Lateness before budget pressure (log-normal median)", "s", salt: 13,
      need: Self.hasLateness, values: { $0.lateness.map(\.lateness) }, missing: Self.latenessMissing
    ) { w in
      guard joint else { return beforePressure.count(w) < 10 ? nil : beforePressure.median(w) }
      return pressure.latenessAtFullBudget(w)
    }
  }

  /// Neither d nor e as a number unless d is known to within 10 %.
  ///
  /// Under a sliding window the spent share at a request is the widget's
  /// reloads of the last 24 h over B: for a widget far from its budget it
  /// barely moves over the day (the window always spans a whole day), so
  /// its lateness is d x used^e at nearly one used, and the log pins only
  /// that product. d and e trade off along it (d = lateness / used^e):
  /// unless the shares spread enough, d is known to no better than +-10 %.
  func separateUnderWindow(_ exponent: inout P, _ base: inout P, _ byDevice: [[SpentLateness]], exponent e: Double) {
    guard base.status == .identified, let d = base.estimate,
      !((base.low.map { $0 >= 0.9 * d } ?? false) && (base.high.map { $0 <= 1.1 * d } ?? false))
    else { return }
    let shares = byDevice.joined().filter { $0.lateness > 1 && $0.used > 0.02 }.map(\.used)
    let usual = "\(Self.fmt(Stats.quantile(shares, 0.1))) to \(Self.fmt(Stats.quantile(shares, 0.9)))"
    let found =
      "d \(Self.fmt(d)) s [\(Self.fmt(base.low ?? .nan)), \(Self.fmt(base.high ?? .nan))], "
      + "e \(Self.fmt(e)) [\(Self.fmt(exponent.low ?? .nan)), \(Self.fmt(exponent.high ?? .nan))]"
    let what =
      "To separate them, log a cohort at another spent share: a widget asking every 20-30 minutes (a share near 1) "
      + "beside an hourly one, or more device-days."
    exponent.withdraw(
      .tooFewData,
      note: "Under a sliding window the budget spent at a request is the widget's last 24 h of reloads over B, which "
        + "hardly moves for a widget far from its budget (here \(usual) of B, p10 to p90): the log gives the lateness "
        + "at that share (observed above), d x used^e, not d and e apart (the fit reads \(found), d not within "
        + "10 %). " + what)
    base.withdraw(
      .tooFewData,
      note: "Lateness is d x used^e, and the spent shares (\(usual) of B) are too alike to tell d from e: d is an "
        + "extrapolation to a spent budget by the exponent, whose interval leaves it unknown to within 10 % "
        + "(\(found)). " + what)
  }
}
