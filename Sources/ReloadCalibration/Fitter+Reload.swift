import WidgetModel

/// The estimators of when a requested reload comes: the minimum interval
/// (docs/model.md#min-interval) and the pacing of reloads asked for at once
/// (docs/model.md#asap-reloads).
extension Fitter {
  /// `budget.min_interval_s`: the 2nd percentile of the intervals after
  /// requests shorter than them. Not identifiable when those come at the
  /// budget's pace (paced requests made at once): then it is only a bound.
  func fitMinInterval(budget: BudgetReading) -> P {
    let shortRequests = pool(\.shortRequestIntervals)
    var minInterval = estimate(
      .model(.budgetMinInterval), "Minimum interval between reloads", "s", salt: 5,
      need: { !$0.shortRequestIntervals.isEmpty }, values: \.shortRequestIntervals,
      missing: "No widget asked for a reload less than 5 minutes ahead: log a test cohort returning "
        + ".after(now + 10 s)."
    ) { w in
      shortRequests.count(w) < 10 ? nil : shortRequests.quantile(w, 0.02)
    }
    if let m = minInterval.estimate, let b = budget.perDay, m > 0.5 * 86_400 / b {
      minInterval.withdraw(
        .notIdentifiable,
        note: "Requests made at once were answered at the budget's pace (\(Int(m)) s), so the minimum interval is "
          + "hidden below it: log a cohort returning .after(now + 10 s).")
    } else if minInterval.status == .identified, let e = minInterval.estimate {
      minInterval.note = "2nd percentile of the intervals after requests shorter than them."
      minInterval.settings.setClamped(.budgetMinInterval, .number(Self.rounded(e, decimals: 1)))
    }
    return minInterval
  }

  /// `budget.min_interval_s` read from reloads asked for at once under
  /// `asap: immediate` (which come at the minimum interval), in place of
  /// `minInterval` when the log has enough of them.
  func minIntervalOfImmediateAsap(replacing minInterval: P) -> P {
    let v = summaries.flatMap(\.asapSpacing).map { $0 * 60 }
    guard v.count >= Self.minValues else { return minInterval }
    var p = minInterval
    let e = Stats.quantile(v, 0.02)
    p.status = .identified
    p.estimate = e
    p.note = "2nd percentile of the intervals after timelines due at once (asap: immediate)."
    p.settings.setClamped(.budgetMinInterval, .number(Self.rounded(e, decimals: 1)))
    return p
  }

  /// `reload.asap`: the lower quartile of the spacing of reloads asked for
  /// at once (early in the day, before the budget holds), in minutes. At
  /// once means at the minimum interval (seconds, `immediate`); `paced`
  /// means the budget's pace (minutes).
  func fitAsap(budget: BudgetReading) -> P {
    let spacing = pool(\.asapSpacing)
    var asap = estimate(
      .model(.reloadAsap), "Spacing of reloads asked for at once", "min", salt: 6, need: { !$0.asapSpacing.isEmpty },
      values: \.asapSpacing,
      missing: "No widget returned a timeline due at once: log a cohort with one entry dated now and .atEnd."
    ) { w in
      spacing.count(w) < 10 ? nil : spacing.quantile(w, 0.25)
    }
    guard let s = asap.estimate else { return asap }
    let reading: ReloadTiming.Asap = s > 2 ? .paced : .immediate
    asap.settings.set(.reloadAsap, .choice(of: reading))
    asap.note =
      reading == .paced
      ? "Reloads asked for at once came about \(Self.fmt(s)) min apart: paced (docs/model.md#asap-reloads)"
        + (budget.perDay.map {
          "; with B = \(Self.fmt($0)) that spreads the budget over \(Self.fmt(s * $0 / 60)) h a day."
        } ?? ".")
      : "Reloads asked for at once came at the minimum interval: immediate (docs/model.md#asap-reloads)."
    return asap
  }
}
