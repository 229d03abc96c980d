import WidgetModel

/// The budget's estimators (docs/model.md#budget-size to #low-power-budget):
/// how it accrues, B, B per widget family, the bucket's capacity, Low Power
/// Mode's multiplier, and how many devices used Low Power Mode.
extension Fitter {
  /// What to log when the budget does not show.
  static let budgetMissing =
    "The budget shows only where it holds requests back, and no widget here asked more often than its B a day "
    + "allows for long enough (every 15 minutes over a 16-hour day is 64 a day). Any widget that does, for part of "
    + "a day, shows it, whatever its polling interval; a test cohort returning .after(now + 5 min) shows it every day."

  /// Devices with saturated widgets' whole ordinary days: where the budget shows.
  static func saturated(_ s: DeviceSummary) -> Bool { !s.lateIntervals.isEmpty }

  /// A late-day interval over an early-day one of 1.2 or more reads as a token bucket.
  static let bucketRatio = 1.2

  /// `budget.accrual`: window or bucket. A bucket lets a widget spend its
  /// capacity at the pace it asks, then holds it to B per 24 h (late
  /// intervals longer than early ones); a window keeps the asked pace until
  /// B are spent. The estimate is the ratio; without one the log is read
  /// as a bucket.
  func fitAccrual() -> (P, BudgetParameters.Accrual) {
    let early = pool(\.earlyIntervals)
    let late = pool(\.lateIntervals)
    var accrual = estimate(
      .model(.budgetAccrual), "How the budget accrues (late-day / early-day reload interval)", "ratio", salt: 1,
      need: Self.saturated, values: \.lateIntervals, missing: Self.budgetMissing
    ) { w in
      early.count(w) < 3 ? nil : late.median(w) / early.median(w)
    }
    guard let r = accrual.estimate else { return (accrual, .tokenBucket) }
    let reading: BudgetParameters.Accrual = r >= Self.bucketRatio ? .tokenBucket : .slidingWindow
    accrual.settings.set(.budgetAccrual, .choice(of: reading))
    accrual.note =
      reading == .tokenBucket
      ? "Saturated widgets reload at their own pace early in the day, then at a slower steady pace: a token bucket "
        + "(docs/model.md#budget-accrual)."
      : "Saturated widgets keep one pace until the day's budget is spent: a sliding 24 h window "
        + "(docs/model.md#budget-accrual)."
    if let lo = accrual.low, let hi = accrual.high, lo < Self.bucketRatio && hi >= Self.bucketRatio {
      accrual.note += " The interval straddles 1.2, so the log does not decide between them."
      accrual.status = .tooFewData
    }
    return (accrual, reading)
  }

  /// B of a pool of saturated widgets: the bucket's refill pace (24 h over
  /// the median late-day interval), or the most reloads a window let into
  /// 24 h (the median over complete days).
  static func budgetPerDay(_ reading: BudgetParameters.Accrual, lateIntervals: Pool, dayCounts: Pool)
    -> (Weights) -> Double?
  {
    { w in
      if reading == .tokenBucket { return lateIntervals.count(w) == 0 ? nil : 1440 / lateIntervals.median(w) }
      return dayCounts.count(w) == 0 ? nil : dayCounts.median(w)
    }
  }

  /// `budget.max_per_day`: B as `accrual` reads it. Not a number while the
  /// accrual is undecided (the two readings differ), nor under a window
  /// whose widgets never reached it.
  func fitMaxPerDay(accrual: P, reading: BudgetParameters.Accrual) -> P {
    var budget = estimate(
      .model(.budgetMaxPerDay), "Daily budget B of a saturated widget", "reloads per 24 h", salt: 2,
      need: Self.saturated, values: \.lateIntervals, missing: Self.budgetMissing,
      Self.budgetPerDay(reading, lateIntervals: pool(\.lateIntervals), dayCounts: pool(\.saturatedDayCounts)))
    if budget.status == .identified {
      budget.note =
        reading == .tokenBucket
        ? "24 h over the median steady interval of widgets asking every 10 minutes or sooner."
        : "Median over complete days of the most budgeted reloads in 24 h (a window never allows more than B) of "
          + "widgets asking every 10 minutes or sooner."
      budget.note +=
        " It is the budget of the widgets logged; how it depends on views is not in a log (iOS does not tell a "
        + "widget when it is seen), so compare families below."
    }
    if accrual.status != .identified, budget.status == .identified {
      budget.withdraw(.tooFewData, note: undecidedBudgetNote())
    }
    if reading == .slidingWindow && accrual.status == .identified && budget.status != .identified {
      budget.status = .notIdentifiable
      budget.note =
        "The saturated widgets ask at once and are paced, which under a sliding window never reaches the budget: "
        + "log a cohort returning .after(now + 5 min), whose busiest 24 h then hold B reloads."
    }
    if budget.status == .identified, let e = budget.estimate {
      budget.settings.setClamped(.budgetMaxPerDay, .number(e))
    }
    return budget
  }

  /// Why B is not a number while the accrual is undecided: the two
  /// readings of the same log.
  func undecidedBudgetNote() -> String {
    let l = summaries.flatMap(\.lateIntervals)
    let n = summaries.flatMap(\.saturatedDayCounts)
    let bucketReading = l.isEmpty ? Double.nan : 1440 / Stats.median(l)
    let windowReading = n.isEmpty ? Double.nan : Stats.median(n)
    return "The accrual is undecided, and B depends on it: \(Self.fmt(windowReading)) read as a window (the most "
      + "reloads in 24 h), \(Self.fmt(bucketReading)) read as a bucket (the late-day pace). Log saturated widgets "
      + "for whole days (.after(now + 5 min)): the bucket shows as a slower pace late in the day."
  }

  /// B per widget family, observed: placement is not in a log, and family
  /// is its nearest proxy for how often a widget is seen.
  func fitFamilyBudgets(budget: BudgetReading) -> [P] {
    (0..<families.count).map { f in
      let family = Int32(f)
      var p = estimate(
        .observed(.budgetPerDay(family: families[family])), "Daily budget, family \(families[family])",
        "reloads per 24 h", salt: 100 + UInt64(f), need: { ($0.familyLate[family] ?? []).count > 0 },
        values: { $0.familyLate[family] ?? [] }, missing: Self.budgetMissing, status: .observed,
        Self.budgetPerDay(
          budget.accrual, lateIntervals: pool { $0.familyLate[family] ?? [] },
          dayCounts: pool { $0.familyCounts[family] ?? [] }))
      if p.status == .observed {
        p.note =
          "The budget of widgets of this family (placement is not visible to a widget; family is the log's proxy "
          + "for how often it is seen)."
      }
      return p
    }
  }

  /// `budget.token_bucket_burst_fraction`: not identifiable from served
  /// timelines; the note gives the log's lower bound under a bucket.
  ///
  /// A log shows reloads, not tokens. A saturated day's reloads are the
  /// tokens in the bucket at its first reload, plus the refill until its
  /// last, minus the tokens left then; the log cannot tell the first (a
  /// background reload at night, an evening that left tokens, whole-token
  /// rounding) nor the last, so (reloads - refill) / B is capacity/B minus
  /// two unseen non-negative terms: a lower bound (about 15 % low in the
  /// recovery tests), never put in the model block.
  func fitCapacity(budget: BudgetReading) -> P {
    let label = "Token bucket capacity, share of B"
    guard budget.bucket, let b = budget.perDay else {
      return .notIdentifiable(
        .model(.budgetTokenBucketBurstFraction), label, "share of B",
        note: budget.perDay == nil
          ? Self.budgetMissing : "Only a token bucket has a capacity; the log reads as a sliding window.")
    }
    let excess = pool { $0.spans.map { ($0.count + 1 - $0.span * b) / b } }
    var cap = estimate(
      .model(.budgetTokenBucketBurstFraction), label, "share of B", salt: 3, need: { !$0.spans.isEmpty },
      values: { $0.spans.map(\.count) }, missing: Self.budgetMissing
    ) { w in
      excess.count(w) == 0 ? nil : max(0.01, excess.median(w))
    }
    let bound = cap.estimate
    cap.withdraw(
      .notIdentifiable,
      note: "Not identifiable from served timelines: a day's reloads beyond what B refills between its first and "
        + "last reload " + (bound.map { "(here \(Self.fmt($0)) of B) " } ?? "")
        + "are the capacity minus the tokens missing at the first reload and left at the last, which a log does "
        + "not show, so they only bound it from below. To identify it, log a test cohort whose widget makes no "
        + "budgeted reload for a day (.never, no background reloads: the bucket fills) and then returns "
        + ".after(now + 10 s): its reloads before the interval settles at 24 h / B, less B's refill meanwhile, are "
        + "the capacity.")
    return cap
  }

  /// `budget.low_power_multiplier`: the steady interval outside Low Power
  /// Mode over the interval in it, under a bucket (under a window a Low
  /// Power Mode evening spends what is left of the window).
  func fitLowPowerMultiplier(budget: BudgetReading) -> P {
    let label = "Budget multiplier in Low Power Mode"
    guard budget.bucket else {
      return .notIdentifiable(
        .model(.budgetLowPowerMultiplier), label, "x",
        note: "Under a sliding window a Low Power Mode evening spends what is left of the window, so its pace does "
          + "not show the multiplier: log devices that keep Low Power Mode on all day.")
    }
    let lowPower = pool(\.lowPowerIntervals)
    let normalLate = pool(\.normalLateIntervals)
    var lpm = estimate(
      .model(.budgetLowPowerMultiplier), label, "x", salt: 4, need: { !$0.lowPowerIntervals.isEmpty },
      values: \.lowPowerIntervals,
      missing: "No saturated widget was logged with low_power true: log ProcessInfo.isLowPowerModeEnabled on every "
        + "line, and keep a cohort asking every 5 minutes."
    ) { w in
      guard lowPower.count(w) >= 5, normalLate.count(w) > 0 else { return nil }
      return min(1, normalLate.median(w) / lowPower.median(w))
    }
    if lpm.status == .identified, let e = lpm.estimate {
      lpm.note = "Steady reload interval outside Low Power Mode over the interval in it (saturated widgets)."
      lpm.settings.setClamped(.budgetLowPowerMultiplier, .number(Self.rounded(e, decimals: 3)))
    }
    return lpm
  }

  /// The share of devices that used Low Power Mode: observed, a property of
  /// the users, not of iOS.
  func lowPowerDeviceShare() -> P {
    P(
      field: .observed(.lowPowerDeviceShare), label: "Devices that used Low Power Mode", unit: "share",
      status: .observed,
      estimate: Double(summaries.filter(\.hasLowPower).count) / Double(max(1, summaries.count)),
      devices: summaries.count, days: summaries.reduce(0) { $0 + $1.days },
      note: "A property of the users (a segment's low_power_mode.share), not of iOS.")
  }
}

extension Calibration.Parameter {
  /// A parameter this log cannot tell, with why and what to log.
  static func notIdentifiable(_ field: CalibratedField, _ label: String, _ unit: String, note: String) -> Self {
    Self(field: field, label: label, unit: unit, status: .notIdentifiable, devices: 0, days: 0, note: note)
  }
}
