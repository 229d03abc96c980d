import WidgetModel

/// What a log says of one of the model's assumptions (`Assumption`,
/// docs/model.md#assumptions): which of its readings (`default`, the
/// model's own, and the alternatives `Assumption.alternatives` names) the
/// log allows, which it rules out, and why; calibration.json carries it so
/// that `robustness` can run only the readings a team's devices allow.
public struct AssumptionVerdict: Sendable {
  /// One reading's fit: a held-out score (less is better) and its margin
  /// over the best with the margin's 95 % bootstrap interval over devices;
  /// or, for a reading that fixes a value, that value against the log's.
  public struct Reading: Sendable {
    public var name: String
    public var score: Double?
    public var margin: Double?
    public var marginLow: Double?
    public var marginHigh: Double?
    /// B fitted under this reading (budget accrual), with its interval; or
    /// the value a reading fixes (low and high equal to it).
    public var perDay: Double?
    public var perDayLow: Double?
    public var perDayHigh: Double?
    public var ruledOut: Bool

    init(
      name: String, score: Double? = nil, margin: Double? = nil, marginLow: Double? = nil, marginHigh: Double? = nil,
      perDay: Double? = nil, perDayLow: Double? = nil, perDayHigh: Double? = nil, ruledOut: Bool
    ) {
      self.name = name
      self.score = score
      self.margin = margin
      self.marginLow = marginLow
      self.marginHigh = marginHigh
      self.perDay = perDay
      self.perDayLow = perDayLow
      self.perDayHigh = perDayHigh
      self.ruledOut = ruledOut
    }
  }

  public var assumption: Assumption
  /// Readings by name: `default` and the alternatives' names.
  public var allowed: [String]
  public var ruledOut: [String]
  /// The reading the log fits best, when it rules at least one out.
  public var supported: String?
  public var readings: [Reading]
  /// How it was read, or what the log lacks and what to log.
  public var note: String

  /// Every reading of `a`: `default` and its alternatives' names.
  static func names(_ a: Assumption) -> [String] { ["default"] + a.alternatives.map(\.name) }

  /// A verdict that rules out the readings in `out` (the rest allowed).
  static func ruling(_ a: Assumption, out: Set<String>, supported: String?, readings: [Reading] = [], note: String)
    -> Self
  {
    let all = names(a)
    return Self(
      assumption: a, allowed: all.filter { !out.contains($0) }, ruledOut: all.filter { out.contains($0) },
      supported: supported, readings: readings, note: note)
  }
}

extension Fitter {
  /// The verdicts of the assumptions a log can speak to: the accrual (from
  /// the held requests), and those whose parameter the fit identified
  /// with an interval that excludes an alternative's value.
  func verdicts(holds: HoldFit?, parameters: [P]) -> [AssumptionVerdict] {
    func p(_ m: ModelParameter) -> P? { parameters.first { $0.field == .model(m) && $0.status == .identified } }
    var out = [accrualVerdict(holds)]
    // Saturated widgets decided the accrual where the holds could not (lateness hides their short holds).
    if out[0].ruledOut.isEmpty, let accrual = p(.budgetAccrual), let word = accrual.choice {
      let window = word == BudgetParameters.Accrual.slidingWindow.rawValue
      out[0] = .ruling(
        .budgetAccrual, out: window ? ["default", "small_bucket", "large_bucket"] : ["sliding_window"],
        supported: window ? "sliding_window" : nil,
        note: "Read from saturated widgets (late-day over early-day interval, \(Self.fmt(accrual.estimate ?? .nan))): "
          + (window ? "a sliding window" : "a token bucket, of a size the log does not tell") + ". " + out[0].note)
    }
    let standard = ModelParameters.standard
    out.append(
      valueVerdict(
        .minInterval, p(.budgetMinInterval),
        values: ["default": Double(standard.budget.minInterval.milliseconds) / 1000],
        slack: 5, what: "Log a cohort returning .after(now + 10 s): the intervals it gets are the minimum."))
    out.append(
      valueVerdict(
        .budgetSize, p(.budgetMaxPerDay), values: ["default": Double(standard.budget.maxPerDay)],
        slack: 0.05 * (p(.budgetMaxPerDay)?.estimate ?? 0),
        atMost: true,
        what: "B shows where the budget holds requests back: widgets asking more often than B a day allows. The "
          + "log's B is the budget of widgets as often seen as those logged, so it rules out only a lower maximum."))
    // Low Power Mode's cut: a multiplier clear of 1 rules out `low_power_ignored` (docs/model.md#low-power-budget).
    if let lpm = p(.budgetLowPowerMultiplier), let hi = lpm.high, hi < 0.95, let size = out.last,
      size.assumption == .budgetSize, size.allowed.contains("low_power_ignored")
    {
      out[out.count - 1] = .ruling(
        .budgetSize, out: Set(size.ruledOut + ["low_power_ignored"]), supported: size.supported,
        readings: size.readings,
        note: size.note + " Low Power Mode's multiplier is \(Self.fmt(lpm.estimate ?? .nan)) "
          + "[\(Self.fmt(lpm.low ?? .nan)), \(Self.fmt(hi))]: low_power_ignored (a multiplier of 1) is ruled out.")
    }
    if let asap = p(.reloadAsap), let lo = asap.low, let hi = asap.high, lo > 2 || hi < 2 {
      let paced = lo > 2
      out.append(
        .ruling(
          .asapReloads, out: [paced ? "immediate" : "default"], supported: paced ? "default" : "immediate",
          note: "Reloads asked for at once came \(Self.fmt(lo))-\(Self.fmt(hi)) min apart (lower quartile, 95 %): "
            + (paced ? "paced by the budget." : "at once.")))
    } else {
      out.append(
        .ruling(
          .asapReloads, out: [], supported: nil,
          note: "Cannot tell apart: log a cohort with one entry dated now and .atEnd; its reloads' spacing tells "
            + "at once (seconds) from paced (minutes)."))
    }
    return out
  }

  /// `budget_accrual`: each reading's held-out fit to the held requests.
  func accrualVerdict(_ holds: HoldFit?) -> AssumptionVerdict {
    if let holds, holds.repeatingDays {
      return .ruling(
        .budgetAccrual, out: [], supported: nil,
        note: "Cannot tell apart: the days repeat to the millisecond, so a window of each day's count explains every "
          + "late request exactly, whatever the budget. A log of real devices (mornings that differ) tells them apart.")
    }
    guard let holds, holds.identified else {
      return .ruling(
        .budgetAccrual, out: [], supported: nil,
        note: "Cannot tell apart: the budget held back too few requests (\(holds?.held ?? 0) on "
          + "\(holds?.heldDevices ?? 0) devices; needs \(Self.minValues) on \(Self.minDevices)). Log widgets that "
          + "ask more often than B a day allows, for whole days: a window lets a burst through and then freezes, "
          + "a bucket paces.")
    }
    let readings = holds.readings.map { r in
      AssumptionVerdict.Reading(
        name: r.reading.name, score: r.score, margin: r.margin, marginLow: r.marginLow, marginHigh: r.marginHigh,
        perDay: r.perDay, perDayLow: r.low, perDayHigh: r.high, ruledOut: r.ruledOut)
    }
    let out = Set(holds.readings.filter(\.ruledOut).map(\.reading.name))
    let best = holds.best.reading.name
    var note =
      "\(holds.held) of \(holds.pairs) requests on \(holds.heldDevices) devices were held by the budget: later than "
      + "asked by more than twice the lateness seen elsewhere (\(Self.fmt(holds.usualLatenessS)) s, its 95th "
      + "percentile; median \(Self.fmt(holds.heldLatenessS)) s late) and answered when the reading allows. "
      + (holds.perDevice == nil
        ? "Held-out score per request \(Self.fmt(holds.gain)) "
          + "[\(Self.fmt(holds.gainLow)), \(Self.fmt(holds.gainHigh))] below no budget at all. Held-out fit per "
          + "reading (B fitted on half the devices, scored on the other half): \(best) fits best"
        : "One B for the whole log explained no hold (budgets differ with how often widgets are seen); with a B "
          + "per device (as many B for every reading), fitted on the device's requests of even days and scored "
          + "on those of odd days, and the other way round: "
          + "\(best) fits best")
    let tied = holds.readings.dropFirst().filter { !$0.ruledOut }.map(\.reading.name)
    note +=
      tied.isEmpty
      ? "; every other reading is ruled out."
      : "; cannot tell it apart from \(tied.joined(separator: ", ")): log widgets after a night without reloads "
        + "(the morning's first reloads show the bucket's capacity)."
    return .ruling(.budgetAccrual, out: out, supported: out.isEmpty ? nil : best, readings: readings, note: note)
  }

  /// A verdict from an identified value `p`: a reading whose value lies
  /// outside p's interval (widened by `slack`) is ruled out. `values` gives
  /// the readings' values not in `Assumption.alternatives` (the default).
  /// `slack` widens the interval (B: 5 %, the saturated widgets' bias).
  /// With `atMost`, the log's value is a lower bound of the readings' (B
  /// of the widgets logged is at most `max_per_day`): only lower values are ruled out.
  func valueVerdict(
    _ a: Assumption, _ p: P?, values: [String: Double], slack: Double, atMost: Bool = false, what: String
  ) -> AssumptionVerdict
  {
    guard let p, let field = p.field.parameter, let lo = p.low, let hi = p.high else {
      return .ruling(a, out: [], supported: nil, note: "Cannot tell apart: not identified from this log. " + what)
    }
    var named = values
    for alt in a.alternatives {
      for s in alt.patch.settings where s.parameter == field {
        if case .number(let v) = s.value { named[alt.name] = v }
      }
    }
    var out = Set<String>()
    var readings: [AssumptionVerdict.Reading] = []
    for (name, v) in named.sorted(by: { $0.key < $1.key }) {
      let ruled = v < lo - slack || (!atMost && v > hi + slack)
      if ruled { out.insert(name) }
      readings.append(AssumptionVerdict.Reading(name: name, perDay: v, perDayLow: v, perDayHigh: v, ruledOut: ruled))
    }
    let kept = named.keys.filter { !out.contains($0) }.sorted()
    return .ruling(
      a, out: out, supported: kept.count == 1 ? kept.first : nil, readings: readings,
      note: "\(field.path) is \(Self.fmt(p.estimate ?? .nan)) [\(Self.fmt(lo)), \(Self.fmt(hi))]: readings whose "
        + "value lies outside are ruled out; the others (those that change another parameter) are not decided by "
        + "it. " + what)
  }
}
