import WidgetModel

/// `reloadbench calibrate`: the model's parameters estimated from reload
/// logs, each with a bootstrap interval over devices, or a plain statement
/// that the log cannot identify it and what to log instead
/// (Scenarios/log-format.md#what-the-fit-reads; the rules are docs/model.md's).
public struct Calibration: Sendable {
  /// One estimated parameter.
  public struct Parameter: Sendable {
    public enum Status: String, Sendable {
      /// Estimated; goes into the `model` block.
      case identified
      /// The log has too few devices or days for it.
      case tooFewData = "too_few_data"
      /// The log cannot tell it, whatever its size.
      case notIdentifiable = "not_identifiable"
      /// Estimated, but not a model field (a property of the users, for comparison).
      case observed
    }

    /// A model parameter (`budget.max_per_day`) or an observed quantity
    /// (`observed.silent_pushes_per_device_day`).
    public var field: CalibratedField
    public var label: String
    public var unit: String
    public var status: Status
    public var estimate: Double?
    public var low: Double?
    public var high: Double?
    /// Devices and device-days whose lines the estimate rests on.
    public var devices: Int
    public var days: Int
    /// Why not identified and what to log; or how it was read.
    public var note: String
    /// What the estimate gives the model, each value in its parameter's
    /// unit and range: the number itself, the choice it decides
    /// (`budget.accrual` from a ratio of intervals) or a distribution. In
    /// the fitted model (`Calibration.model`) when `status` is identified.
    public var settings = ModelPatch()

    /// The word the estimate reads as when it decides a choice
    /// (`token_bucket`, `paced`).
    public var choice: String? {
      for s in settings.settings { if case .choice(let word) = s.value { return word } }
      return nil
    }
  }

  public var parameters: [Parameter] = []
  /// The log after cleaning: devices, complete device-days, lines.
  public var devices = 0
  public var deviceDays = 0
  public var lines = 0
  public var files: [String] = []
  /// What was dropped, in words and counts (`duplicate lines`: 12).
  public var dropped: [(what: String, count: Int)] = []
  /// The observed curves for the report.
  public var curves = Curves()

  public struct Curves: Sendable {
    public var reloadsPerDay: [Double] = []
    public var intervalsMin: [Double] = []
    public var latenessS: [Double] = []
    public init() {}
  }

  public func parameter(_ field: CalibratedField) -> Parameter? { parameters.first { $0.field == field } }

  /// The identified parameters as a typed model patch: the `model` block
  /// calibration.json offers to paste, and what `calibrate --scenario`
  /// lays over the scenario's model to simulate it.
  public var model: ModelPatch {
    parameters.filter { $0.status == .identified }.reduce(ModelPatch()) { $0.merging($1.settings) }
  }

  /// Fits `log`; `seed` fixes the bootstrap, `replicates` its size.
  /// `assumed` gives values to use where the log cannot tell (the budget's
  /// capacity share when the lateness pressure needs it).
  public static func fit(_ log: ReloadLog, seed: UInt64 = 1, replicates: Int = 200) -> Calibration {
    var c = Calibration()
    c.files = log.files
    c.lines = log.count
    var summarizer = Summarizer()
    let groups = Summarizer.byDevice(log)
    let summaries = groups.map { summarizer.summarize(log, lines: $0) }.filter { $0.days > 0 || !$0.name.isEmpty }
    c.devices = summaries.filter { $0.days > 0 }.count
    c.deviceDays = summaries.reduce(0) { $0 + $1.days }
    c.dropped = [
      ("malformed lines skipped (--max-bad-lines)", log.badLines),
      ("duplicate lines", summarizer.dropped.duplicates),
      ("partial device-days (first or last day of a device, or next to a missing day)", summarizer.dropped.edgeDays),
      ("devices without utc_offset_min (days read in UTC)", summarizer.dropped.unknownOffsetDevices),
      ("devices without a complete day", summaries.filter { $0.days == 0 }.count),
    ]
    c.curves.reloadsPerDay = summaries.flatMap(\.reloadsPerDay)
    c.curves.intervalsMin = summaries.flatMap(\.intervals)
    let fitter = Fitter(summaries: summaries.filter { $0.days > 0 }, seed: seed, replicates: replicates, families: log.families)
    let fitted = fitter.fitAll()
    c.parameters = fitted.parameters
    c.curves.latenessS = fitted.lateness
    return c
  }
}

/// The estimators. Each reads a multiset of devices (the whole log, or a
/// bootstrap resample) and returns a value or nil.
struct Fitter {
  let summaries: [DeviceSummary]
  let seed: UInt64
  let replicates: Int
  let families: ReloadLog.Names

  static let minDevices = 5
  static let minValues = 20

  init(summaries: [DeviceSummary], seed: UInt64, replicates: Int, families: ReloadLog.Names) {
    self.summaries = summaries
    self.seed = seed
    self.replicates = replicates
    self.families = families
  }

  typealias P = Calibration.Parameter

  /// An estimate with its 95 % bootstrap interval over devices. The
  /// estimator reads a resample as how often each device was drawn.
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

  func support(_ has: (DeviceSummary) -> Bool) -> (devices: Int, days: Int) {
    var d = 0, n = 0
    for s in summaries where has(s) {
      d += 1
      n += s.days
    }
    return (d, n)
  }

  /// The figure `key` of every device, for quantiles of resamples.
  func pool(_ key: (DeviceSummary) -> [Double]) -> Pool { Pool(devices: summaries.count) { key(summaries[$0]) } }

  func param(
    _ field: CalibratedField, _ label: String, _ unit: String, salt: UInt64, need: (DeviceSummary) -> Bool,
    minValues: Int = Fitter.minValues, values: (DeviceSummary) -> [Double], missing: String,
    note: String = "", status: P.Status = .identified, _ estimator: (Weights) -> Double?
  ) -> P {
    let (devices, days) = support(need)
    let count = summaries.reduce(0) { $0 + values($1).count }
    var p = P(field: field, label: label, unit: unit, status: status, devices: devices, days: days, note: note)
    guard devices >= Self.minDevices, count >= minValues, let (e, lo, hi) = bootstrap(salt, estimator) else {
      p.status = devices == 0 ? .notIdentifiable : .tooFewData
      p.note =
        devices == 0
        ? missing
        : "\(Self.count(devices, "device")), \(Self.count(count, "value")): too few to estimate (needs \(Self.minDevices) devices and \(minValues) values). "
          + missing
      return p
    }
    p.estimate = e
    p.low = lo.isNaN ? nil : lo
    p.high = hi.isNaN ? nil : hi
    return p
  }

  func fitAll() -> (parameters: [P], lateness: [Double]) {
    var out: [P] = []
    let saturatedNeed: (DeviceSummary) -> Bool = { !$0.lateIntervals.isEmpty }
    let budgetMissing =
      "The budget shows only on widgets that ask more often than it allows: log a test cohort whose widget returns "
      + ".after(now + 5 min) (or one entry with .atEnd) for a few days."

    // Window or bucket: a bucket lets a widget spend its capacity at the
    // pace it asks, then holds it to B per 24 h (late intervals longer than
    // early ones); a window keeps the asked pace until B are spent.
    let early = pool(\.earlyIntervals), lateIv = pool(\.lateIntervals)
    let ratio: (Weights) -> Double? = { w in
      guard early.count(w) >= 3 else { return nil }
      return lateIv.median(w) / early.median(w)
    }
    var accrual = param(
      .model(.budgetAccrual), "How the budget accrues (late-day / early-day reload interval)", "ratio", salt: 1,
      need: saturatedNeed, values: \.lateIntervals, missing: budgetMissing, ratio)
    var bucket = true
    if let r = accrual.estimate {
      bucket = r >= 1.2
      let reading: BudgetParameters.Accrual = bucket ? .tokenBucket : .slidingWindow
      accrual.settings.set(.budgetAccrual, .choice(of: reading))
      accrual.note =
        bucket
        ? "Saturated widgets reload at their own pace early in the day, then at a slower steady pace: a token bucket (docs/model.md#budget-accrual)."
        : "Saturated widgets keep one pace until the day's budget is spent: a sliding 24 h window (docs/model.md#budget-accrual)."
      if let lo = accrual.low, let hi = accrual.high, lo < 1.2 && hi >= 1.2 {
        accrual.note += " The interval straddles 1.2, so the log does not decide between them."
        accrual.status = .tooFewData
      }
    }
    out.append(accrual)

    // The daily budget: the bucket's refill pace, or the most reloads a window let into 24 h.
    let dayCounts = pool(\.saturatedDayCounts)
    let budgetOf: (Weights) -> Double? = { w in
      if bucket { return lateIv.count(w) == 0 ? nil : 1440 / lateIv.median(w) }
      return dayCounts.count(w) == 0 ? nil : dayCounts.median(w)
    }
    var budget = param(
      .model(.budgetMaxPerDay), "Daily budget B of a saturated widget", "reloads per 24 h", salt: 2, need: saturatedNeed,
      values: \.lateIntervals, missing: budgetMissing, budgetOf)
    if budget.status == .identified {
      budget.note =
        bucket
        ? "24 h over the median steady interval of widgets asking every 10 minutes or sooner."
        : "Median over complete days of the most budgeted reloads in 24 h (a window never allows more than B) of widgets asking every 10 minutes or sooner."
      budget.note += " It is the budget of the widgets logged; how it depends on views is not in a log (iOS does not tell a widget when it is seen), so compare families below."
    }
    if accrual.status != .identified, budget.status == .identified {
      // Undecided accrual: the two readings of the same log differ.
      let l = summaries.flatMap(\.lateIntervals), n = summaries.flatMap(\.saturatedDayCounts)
      let bucketReading = l.isEmpty ? Double.nan : 1440 / Stats.median(l)
      let windowReading = n.isEmpty ? Double.nan : Stats.median(n)
      budget.status = .tooFewData
      budget.note =
        "The accrual is undecided, and B depends on it: \(Self.fmt(windowReading)) read as a window (the most reloads in 24 h), "
        + "\(Self.fmt(bucketReading)) read as a bucket (the late-day pace). Log saturated widgets for whole days (.after(now + 5 min)): "
        + "the bucket shows as a slower pace late in the day."
      budget.estimate = nil
      budget.low = nil
      budget.high = nil
    }
    if !bucket && accrual.status == .identified && budget.status != .identified {
      budget.status = .notIdentifiable
      budget.note =
        "The saturated widgets ask at once and are paced, which under a sliding window never reaches the budget: "
        + "log a cohort returning .after(now + 5 min), whose busiest 24 h then hold B reloads."
    }
    if budget.status == .identified, let e = budget.estimate { budget.settings.setClamped(.budgetMaxPerDay, .number(e)) }
    out.append(budget)
    let b = budget.estimate

    // Per family.
    for f in 0..<families.count {
      let fam = Int32(f)
      let famLate = pool { $0.familyLate[fam] ?? [] }, famCounts = pool { $0.familyCounts[fam] ?? [] }
      var p = param(
        .observed(.budgetPerDay(family: families[fam])), "Daily budget, family \(families[fam])", "reloads per 24 h",
        salt: 100 + UInt64(f), need: { ($0.familyLate[fam] ?? []).count > 0 },
        values: { $0.familyLate[fam] ?? [] }, missing: budgetMissing, status: .observed
      ) { w in
        if bucket { return famLate.count(w) == 0 ? nil : 1440 / famLate.median(w) }
        return famCounts.count(w) == 0 ? nil : famCounts.median(w)
      }
      if p.status == .identified { p.status = .observed }
      if p.status == .observed { p.note = "The budget of widgets of this family (placement is not visible to a widget; family is the log's proxy for how often it is seen)." }
      out.append(p)
    }

    // The bucket's capacity: reloads of a saturated day beyond its refill.
    if bucket, let b {
      let excess = pool { $0.spans.map { ($0.count + 1 - $0.span * b) / b } }
      var cap = param(
        .model(.budgetTokenBucketBurstFraction), "Token bucket capacity, share of B", "share of B", salt: 3,
        need: { !$0.spans.isEmpty }, values: { $0.spans.map(\.count) }, missing: budgetMissing
      ) { w in
        excess.count(w) == 0 ? nil : max(0.01, excess.median(w))
      }
      // Not identifiable: a log shows reloads, not tokens. A saturated day's
      // reloads are the tokens in the bucket at its first reload, plus the
      // refill until its last, minus the tokens left then; the log cannot
      // tell the first (a background reload at night, an evening that left
      // tokens, whole-token rounding) nor the last, so (reloads - refill) / B
      // is capacity/B minus two unseen non-negative terms: a lower bound
      // (about 15 % low in the recovery tests), never put in the model block.
      let bound = cap.estimate
      cap.status = .notIdentifiable
      cap.estimate = nil
      cap.low = nil
      cap.high = nil
      cap.note =
        "Not identifiable from served timelines: a day's reloads beyond what B refills between its first and last reload "
        + (bound.map { "(here \(Self.fmt($0)) of B) " } ?? "")
        + "are the capacity minus the tokens missing at the first reload and left at the last, which a log does not show, "
        + "so they only bound it from below. To identify it, log a test cohort whose widget makes no budgeted reload for a day "
        + "(.never, no background reloads: the bucket fills) and then returns .after(now + 10 s): its reloads before the "
        + "interval settles at 24 h / B, less B's refill meanwhile, are the capacity."
      out.append(cap)
    } else {
      out.append(
        P(
          field: .model(.budgetTokenBucketBurstFraction), label: "Token bucket capacity, share of B", unit: "share of B",
          status: .notIdentifiable, devices: 0, days: 0,
          note: b == nil ? budgetMissing : "Only a token bucket has a capacity; the log reads as a sliding window."))
    }

    // Low Power Mode.
    if bucket {
      let lowPower = pool(\.lowPowerIntervals), normalLate = pool(\.normalLateIntervals)
      var lpm = param(
        .model(.budgetLowPowerMultiplier), "Budget multiplier in Low Power Mode", "x", salt: 4,
        need: { !$0.lowPowerIntervals.isEmpty }, values: \.lowPowerIntervals,
        missing: "No saturated widget was logged with low_power true: log ProcessInfo.isLowPowerModeEnabled on every line, and keep a cohort asking every 5 minutes."
      ) { w in
        guard lowPower.count(w) >= 5, normalLate.count(w) > 0 else { return nil }
        return min(1, normalLate.median(w) / lowPower.median(w))
      }
      if lpm.status == .identified, let e = lpm.estimate {
        lpm.note = "Steady reload interval outside Low Power Mode over the interval in it (saturated widgets)."
        lpm.settings.setClamped(.budgetLowPowerMultiplier, .number(Self.rounded(e, decimals: 3)))
      }
      out.append(lpm)
    } else {
      out.append(
        P(
          field: .model(.budgetLowPowerMultiplier), label: "Budget multiplier in Low Power Mode", unit: "x", status: .notIdentifiable,
          devices: 0, days: 0,
          note: "Under a sliding window a Low Power Mode evening spends what is left of the window, so its pace does not show the multiplier: log devices that keep Low Power Mode on all day."))
    }
    let lpmShare = Double(summaries.filter(\.hasLowPower).count) / Double(max(1, summaries.count))
    out.append(
      P(
        field: .observed(.lowPowerDeviceShare), label: "Devices that used Low Power Mode", unit: "share", status: .observed,
        estimate: lpmShare, devices: summaries.count, days: summaries.reduce(0) { $0 + $1.days },
        note: "A property of the users (a segment's low_power_mode.share), not of iOS."))

    // Minimum interval: requests shorter than it, answered at it.
    let shortRequests = pool(\.shortRequestIntervals)
    var minInterval = param(
      .model(.budgetMinInterval), "Minimum interval between reloads", "s", salt: 5,
      need: { !$0.shortRequestIntervals.isEmpty }, values: \.shortRequestIntervals,
      missing: "No widget asked for a reload less than 5 minutes ahead: log a test cohort returning .after(now + 10 s)."
    ) { w in
      shortRequests.count(w) < 10 ? nil : shortRequests.quantile(w, 0.02)
    }
    // Paced asap requests answer far above the minimum: then it is only an upper bound.
    if let m = minInterval.estimate, let b, m > 0.5 * 86_400 / b {
      minInterval.status = .notIdentifiable
      minInterval.note =
        "Requests made at once were answered at the budget's pace (\(Int(m)) s), so the minimum interval is hidden below it: log a cohort returning .after(now + 10 s)."
      minInterval.estimate = nil
      minInterval.low = nil
      minInterval.high = nil
    } else if minInterval.status == .identified, let e = minInterval.estimate {
      minInterval.note = "2nd percentile of the intervals after requests shorter than them."
      minInterval.settings.setClamped(.budgetMinInterval, .number(Self.rounded(e, decimals: 1)))
    }
    out.append(minInterval)

    // asap: paced or immediate, and the spacing.
    let asapSpacing = pool(\.asapSpacing)
    var asap = param(
      .model(.reloadAsap), "Spacing of reloads asked for at once", "min", salt: 6, need: { !$0.asapSpacing.isEmpty },
      values: \.asapSpacing,
      missing: "No widget returned a timeline due at once: log a cohort with one entry dated now and .atEnd."
    ) { w in
      // Early in the day, before the budget holds: the lower half.
      asapSpacing.count(w) < 10 ? nil : asapSpacing.quantile(w, 0.25)
    }
    if let s = asap.estimate {
      // At once means at the minimum interval (seconds); paced means the budget's pace (minutes).
      let reading: ReloadTiming.Asap = s > 2 ? .paced : .immediate
      asap.settings.set(.reloadAsap, .choice(of: reading))
      if reading == .immediate && minInterval.status != .identified {
        let v = summaries.flatMap(\.asapSpacing).map { $0 * 60 }
        if v.count >= Self.minValues {
          minInterval.status = .identified
          let e = Stats.quantile(v, 0.02)
          minInterval.estimate = e
          minInterval.note = "2nd percentile of the intervals after timelines due at once (asap: immediate)."
          minInterval.settings.setClamped(.budgetMinInterval, .number(Self.rounded(e, decimals: 1)))
          if let i = out.firstIndex(where: { $0.field == .model(.budgetMinInterval) }) { out[i] = minInterval }
        }
      }
      asap.note =
        reading == .paced
        ? "Reloads asked for at once came about \(Self.fmt(s)) min apart: paced (docs/model.md#asap-reloads)"
          + (b.map { "; with B = \(Self.fmt($0)) that spreads the budget over \(Self.fmt(s * $0 / 60)) h a day." } ?? ".")
        : "Reloads asked for at once came at the minimum interval: immediate (docs/model.md#asap-reloads)."
    }
    out.append(asap)

    // Lateness of .after / .atEnd and its growth with the budget spent.
    // The capacity is not identified (above): the replay takes the model's default share.
    let late = fitLateness(b: b, bucket: bucket, capShare: 0.25)
    out.append(contentsOf: late.parameters)

    // App calls.
    let callLatency = pool { $0.callLatency.filter { $0 > 0 } }
    var latency = param(
      .model(.appReloadBackgroundLatency), "Latency of a background reloadTimelines call (median)", "s", salt: 9,
      need: { !$0.callLatency.isEmpty }, values: \.callLatency,
      missing: "No background reload_call lines: log a reload_call line (with its trigger) where the app calls reloadTimelines, and write the same trigger for the widget to log."
    ) { w in
      callLatency.count(w) < 5 ? nil : callLatency.median(w)
    }
    if latency.status == .identified, let m = latency.estimate {
      let v = summaries.flatMap(\.callLatency).filter { $0 > 0 }.map { Double.log($0) }
      let sigma = Stats.standardDeviation(v)
      latency.note = "Log-normal, sigma \(Self.fmt(sigma)) (from the call to the widget's getTimeline with the same trigger)."
      if let d = Self.logNormal(median: m, sigma: sigma) { latency.settings.set(.appReloadBackgroundLatency, d) }
    }
    out.append(latency)
    var burst = param(
      .model(.appReloadBurst), "Reloads per call in a burst of calls (within 5 s)", "reloads per call", salt: 10,
      need: { !$0.bursts.isEmpty }, minValues: 10, values: { $0.bursts.map(\.calls) },
      missing: "No two background calls within 5 s: the burst rule shows only where the app calls several times in a row."
    ) { w in
      var calls = 0.0, reloads = 0.0
      for i in w.indices where w[i] > 0 { for x in summaries[i].bursts { calls += Double(w[i]) * x.calls; reloads += Double(w[i]) * x.reloads } }
      return calls > 0 ? reloads / calls : nil
    }
    if let r = burst.estimate {
      let reading: AppReloadParameters.Burst = r > 0.75 ? .each : .one
      burst.settings.set(.appReloadBurst, .choice(of: reading))
      burst.note = r > 0.75 ? "Each call reloads: a burst costs one reload per call." : "A burst costs about one reload, whatever its calls (or the calls coalesce)."
    }
    out.append(burst)

    // Wakes of the app.
    for (quantity, label, key) in [
      (ObservedQuantity.silentPushesPerDeviceDay, "Silent pushes received per device-day", \DeviceSummary.silentPushes),
      (.bgRefreshesPerDeviceDay, "BGAppRefresh runs per device-day", \DeviceSummary.bgRefreshes),
    ] {
      let silent = quantity == .silentPushesPerDeviceDay
      let what = silent ? "silent_push" : "bg_refresh"
      var p = param(
        .observed(quantity), label, "per device-day", salt: silent ? 11 : 12, need: { $0[keyPath: key] > 0 },
        minValues: 0, values: { [Double($0[keyPath: key])] },
        missing: "No \(what) lines: log one when the app's \(what == "silent_push" ? "application(_:didReceiveRemoteNotification:)" : "BGAppRefreshTask handler") runs.",
        status: .observed
      ) { w in
        var n = 0.0, days = 0.0
        for i in w.indices where w[i] > 0 {
          n += Double(w[i] * summaries[i][keyPath: key])
          days += Double(w[i] * summaries[i].days)
        }
        return days > 0 ? n / days : nil
      }
      if p.status == .identified { p.status = .observed }
      if p.status == .observed {
        p.note = "Arrivals the app logged, over complete device-days of every device (compare with a run's rate; the rates the model draws are segment and model fields)."
      }
      out.append(p)
    }

    // What a log can never tell.
    for (parameter, label, note) in [
      (ModelParameter.budgetViewsExponent, "How the budget follows views", "iOS does not tell a widget when it is seen: the log has no views, so the curve of budget against views cannot be fitted; the per-family budgets above are the nearest the log gets."),
      (.budgetFullBudgetViewsPerDay, "Views that earn the full budget", "As above: views are not in a log."),
      (.budgetWhenEmpty, "Withheld or dropped when the budget is empty", "A withheld request and a dropped one followed by a later request look alike in a log of served timelines."),
      (.reloadWhileAsleep, "Policy reloads while the user sleeps", "Sleep is not in a log; a log of foreground lines shows the hours a user is active, not when they sleep."),
    ] {
      out.append(
        P(field: .model(parameter), label: label, unit: "", status: .notIdentifiable, devices: 0, days: 0, note: note))
    }
    return (out, late.lateness)
  }

  func fitLateness(b: Double?, bucket: Bool, capShare: Double) -> (parameters: [P], lateness: [Double]) {
    // The budget spent at each request, replayed from the instance's budgeted reloads.
    var samples: [(device: Int, lateness: Double, used: Double)] = []
    let dayMs = 86_400_000.0
    /// The first index of `times` (sorted) at or after `t`.
    func firstAtOrAfter(_ times: [Int64], _ t: Int64) -> Int {
      var lo = 0, hi = times.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if times[mid] < t { lo = mid + 1 } else { hi = mid }
      }
      return lo
    }
    let cap = max(1, capShare * (b ?? 1))
    for (di, s) in summaries.enumerated() {
      // Per instance, the bucket's tokens just after each budgeted reload
      // (one replay, then each request looks its last reload up).
      var tokensAfter: [[Double]] = []
      if let b, bucket {
        tokensAfter = s.budgetTimes.map { times in
          var tokens = cap, last = times.first ?? 0
          return times.map { t in
            tokens = max(0, min(cap, tokens + Double(t - last) / dayMs * b) - 1)
            last = t
            return tokens
          }
        }
      }
      for x in s.lateness {
        var used = 0.0
        var lateness = x.lateness
        if let b {
          let times = s.budgetTimes[x.instance]
          let before = firstAtOrAfter(times, x.requestTime)
          if bucket {
            // As the simulator reads it: 1 - (whole tokens left) / B
            // (docs/model.md#lateness-pressure; Sources/WidgetModel/Simulation/ReloadBudget.swift `left`).
            var tokens = cap
            var last = times.first ?? x.requestTime
            if before > 0 {
              tokens = tokensAfter[x.instance][before - 1]
              last = times[before - 1]
            }
            tokens = min(cap, tokens + Double(x.requestTime - last) / dayMs * b)
            used = min(1, max(0, 1 - tokens.rounded(.down) / b.rounded(.down)))
          } else {
            // As the simulator reads it: the reloads in (t - 24 h, t] over
            // today's whole budget (`ReloadBudget.left`, `cap`). A full window
            // holds the request until its B-th newest reload is 24 h old; the
            // lateness is drawn from then, with one slot left
            // (`DeviceWidgets.budgetedRequest`, docs/model.md#lateness-pressure).
            let whole = max(1, Int(b))
            let upTo = firstAtOrAfter(times, x.requestTime + 1)
            let n = upTo - firstAtOrAfter(times, x.requestTime - Int64(dayMs) + 1)
            if n >= whole {
              let available = times[upTo - whole] + Int64(dayMs)
              lateness -= Double(max(0, available - x.requestTime)) / 1000
              used = Double(whole - 1) / Double(whole)
            } else {
              used = Double(n) / Double(whole)
            }
          }
        }
        samples.append((di, lateness, used))
      }
    }
    var byDevice = Array(repeating: [(lateness: Double, used: Double)](), count: summaries.count)
    for x in samples { byDevice[x.device].append((x.lateness, x.used)) }
    func pool(_ value: ((lateness: Double, used: Double)) -> Double?) -> Pool {
      Pool(devices: summaries.count) { byDevice[$0].compactMap(value) }
    }
    let need: (DeviceSummary) -> Bool = { !$0.lateness.isEmpty }
    let missing = "No .after or .atEnd request more than 5 minutes ahead on a widget that is not saturated: log the policy and next of every timeline."
    var out: [P] = []
    let lateness = pool { $0.lateness }
    let median = param(
      .observed(.latenessMedian), "Lateness of .after/.atEnd reloads (median, as observed)", "s", salt: 7,
      need: need, values: { $0.lateness.map(\.lateness) }, missing: missing, status: .observed
    ) { w in
      lateness.count(w) < 10 ? nil : lateness.median(w)
    }
    var m = median
    if m.status == .identified { m.status = .observed }
    if m.status == .observed {
      let v = samples.map(\.lateness)
      m.note = "p10 \(Self.fmt(Stats.quantile(v, 0.1))) s, p90 \(Self.fmt(Stats.quantile(v, 0.9))) s; \(v.filter { $0 < 0 }.count) of \(v.count) early."
    }
    out.append(m)
    // A lateness shows only if no reload of the app's (foreground, a push)
    // came first; those come at a rate of their own, so a long draw is seen
    // less often, exp(-rate x lateness) relative to an instant one: each
    // seen one counts exp(rate x lateness) times (inverse probability of
    // being seen; the rate is the cut requests over the time all waited).
    let cut = summaries.reduce(0) { $0 + $1.latenessCut }, waited = summaries.reduce(0) { $0 + $1.latenessWaitS }
    let cutRate = waited > 0 ? Double(cut) / waited : 0
    // d x used^e: log lateness against log used, each device's sums once
    // (about the pooled means, so the sums do not cancel).
    let points = byDevice.map { v in
      v.filter { $0.lateness > 1 && $0.used > 0.02 }.map { (Double.log($0.used), Double.log($0.lateness), Double.exp(cutRate * $0.lateness)) }
    }
    let x0 = Stats.mean(points.flatMap { $0.map(\.0) }), y0 = Stats.mean(points.flatMap { $0.map(\.1) })
    let pressureSums = points.map { v in
      var sums = Stats.Sums()
      for (x, y, k) in v { sums.add(x - x0, y - y0, weight: k) }
      return sums
    }
    var exponent = param(
      .model(.reloadLatenessPressureExponent), "Growth of lateness with the budget spent (exponent e of used^e)", "", salt: 8,
      need: need, values: { $0.lateness.map(\.lateness) }, missing: missing
    ) { w in
      var sums = Stats.Sums()
      for d in w.indices where w[d] > 0 { sums.add(pressureSums[d], times: Double(w[d])) }
      return sums.n >= 10 ? sums.slope : nil
    }
    if b == nil && exponent.status == .identified {
      exponent.status = .notIdentifiable
      exponent.estimate = nil
      exponent.note = "The budget spent at each request needs B, which this log does not identify. " + missing
    }
    // Under a token bucket the budget spent at a request stays between
    // 1 - capacity/B and 1, so lateness hardly varies with it: a wide
    // interval means the log does not tell the exponent.
    // When the share is the same at every request (the bucket never drops
    // below its last whole token) the slope has no points to rest on at all.
    var assumedExponent = false
    let flat =
      bucket && b != nil && exponent.status == .tooFewData && exponent.devices >= Self.minDevices
      && points.reduce(0, { $0 + $1.count }) >= Self.minValues
    // Under a window a fitted exponent's precision is judged by the lateness
    // it leaves (below); one read as none (< 0.2) only by its interval.
    let wide = (exponent.high ?? .infinity) - (exponent.low ?? -.infinity) > 1
    if flat || exponent.status == .identified && (bucket || wide && (exponent.estimate ?? 0) < 0.2) {
      let spread = flat ? "it was the same at every request" : "interval \(Self.fmt(exponent.low ?? .nan)) to \(Self.fmt(exponent.high ?? .nan))"
      exponent.status = .tooFewData
      exponent.note =
        "The budget spent at the requests varies too little (\(bucket ? "a token bucket keeps it above 1 - capacity/B" : "widgets far from their budget")) "
        + "to tell the exponent (\(spread)): log a cohort asking every 15-30 minutes, whose spent share varies over the day."
      exponent.estimate = nil
      exponent.low = nil
      exponent.high = nil
      assumedExponent = true
    }
    let e = exponent.status == .identified ? exponent.estimate ?? 0 : (assumedExponent ? 1 : 0)
    if exponent.status == .identified {
      let reading: ReloadTiming.LatenessPressure = e < 0.2 ? .none : .budget
      exponent.settings.set(.reloadLatenessPressure, .choice(of: reading))
      if reading == .budget {
        exponent.settings.setClamped(.reloadLatenessPressureExponent, .number(Self.rounded(e, decimals: 3)))
      }
      exponent.note =
        "Least squares of log lateness on log used (used: the budget spent at the request, replayed from the widget's reloads with the fitted B; "
        + "each lateness weighted by the inverse of its chance to be seen before a reload of the app's cut it short). "
        + (e < 0.2 ? "Near 0: lateness does not grow with the budget spent (lateness_pressure none)." : "lateness_pressure budget.")
    }
    // The lateness before pressure: lateness / used^e, as a log-normal.
    let beforePressure = pool { x in
      x.lateness > 1 && (x.used > 0.02 || e < 0.2) ? (e < 0.2 ? x.lateness : x.lateness / Double.pow(x.used, e)) : nil
    }
    // With the exponent fitted, d is the regression's value at used = 1, and
    // each resample refits the exponent too: d extrapolates from the spent
    // shares seen to 1, so its interval must carry the exponent's.
    let joint = exponent.status == .identified && e >= 0.2
    var base = param(
      .model(.reloadLateness), "Lateness before budget pressure (log-normal median)", "s", salt: 13, need: need,
      values: { $0.lateness.map(\.lateness) }, missing: missing
    ) { w in
      guard joint else { return beforePressure.count(w) < 10 ? nil : beforePressure.median(w) }
      var sums = Stats.Sums()
      for d in w.indices where w[d] > 0 { sums.add(pressureSums[d], times: Double(w[d])) }
      guard sums.n >= 10, let slope = sums.slope else { return nil }
      return Double.exp(y0 + sums.y / sums.n - slope * (x0 + sums.x / sums.n))
    }
    // Under a sliding window the spent share at a request is the widget's
    // reloads of the last 24 h over B: for a widget far from its budget it
    // barely moves over the day (the window always spans a whole day), so
    // its lateness is d x used^e at nearly one used, and the log pins only
    // that product. d and e trade off along it (d = lateness / used^e):
    // unless the shares spread enough, d is known to no better than +-10 %,
    // and neither is reported as a number.
    if joint, base.status == .identified, let d = base.estimate,
      !((base.low.map { $0 >= 0.9 * d } ?? false) && (base.high.map { $0 <= 1.1 * d } ?? false))
    {
      let shares = samples.filter { $0.lateness > 1 && $0.used > 0.02 }.map(\.used)
      let usual = "\(Self.fmt(Stats.quantile(shares, 0.1))) to \(Self.fmt(Stats.quantile(shares, 0.9)))"
      let found =
        "d \(Self.fmt(d)) s [\(Self.fmt(base.low ?? .nan)), \(Self.fmt(base.high ?? .nan))], "
        + "e \(Self.fmt(e)) [\(Self.fmt(exponent.low ?? .nan)), \(Self.fmt(exponent.high ?? .nan))]"
      let what =
        "To separate them, log a cohort at another spent share: a widget asking every 20-30 minutes (a share near 1) "
        + "beside an hourly one, or more device-days."
      exponent.status = .tooFewData
      exponent.note =
        "Under a sliding window the budget spent at a request is the widget's last 24 h of reloads over B, which hardly moves "
        + "for a widget far from its budget (here \(usual) of B, p10 to p90): the log gives the lateness at that share "
        + "(observed above), d x used^e, not d and e apart (the fit reads \(found), d not within 10 %). " + what
      base.status = .tooFewData
      base.note =
        "Lateness is d x used^e, and the spent shares (\(usual) of B) are too alike to tell d from e: "
        + "d is an extrapolation to a spent budget by the exponent, whose interval leaves it unknown to within 10 % (\(found)). " + what
      exponent.estimate = nil
      exponent.low = nil
      exponent.high = nil
      exponent.settings = ModelPatch()
      base.estimate = nil
      base.low = nil
      base.high = nil
    }
    if base.status == .identified, let d = base.estimate {
      let v = samples.filter { $0.lateness > 1 && ($0.used > 0.02 || e < 0.2) }.map { e < 0.2 ? $0.lateness : $0.lateness / Double.pow($0.used, e) }
      let sigma = Stats.standardDeviation(v.map { Double.log($0) })
      if let dist = Self.logNormal(median: d, sigma: sigma) { base.settings.set(.reloadLateness, dist) }
      base.note = "Log-normal, sigma \(Self.fmt(sigma)), fitted to lateness divided by used^e"
        + (assumedExponent ? " with e = 1 assumed (the default; the exponent is not identified)." : ".")
    }
    out.append(exponent)
    out.append(base)
    return (out, samples.map(\.lateness))
  }

  /// "1 device", "3 devices": a count and its noun, pluralised with an s.
  static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

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

  static func fmt(_ v: Double) -> String {
    guard v.isFinite else { return "n/a" }
    let d = decimals(v)
    var s = String(Int((v * Double.pow(10, Double(d))).rounded()))
    if d > 0 {
      let neg = s.hasPrefix("-")
      if neg { s.removeFirst() }
      while s.count <= d { s = "0" + s }
      s.insert(".", at: s.index(s.endIndex, offsetBy: -d))
      if neg { s = "-" + s }
    }
    return s
  }
}

