import WidgetModel

/// The estimators of the app's own reload calls (docs/model.md#app-triggers,
/// #background-latency), the wakes it logged, and what no log can tell.
extension Fitter {
  /// `app_reload.background_latency`: the median time from a background
  /// `reloadTimelines` call to the widget's getTimeline with its trigger,
  /// as a log-normal (sigma from the logs of the latencies).
  func fitBackgroundLatency() -> P {
    let callLatency = pool { $0.callLatency.filter { $0 > 0 } }
    var latency = estimate(
      .model(.appReloadBackgroundLatency), "Latency of a background reloadTimelines call (median)", "s", salt: 9,
      need: { !$0.callLatency.isEmpty }, values: \.callLatency,
      missing: "No background reload_call lines: log a reload_call line (with its trigger) where the app calls "
        + "reloadTimelines, and write the same trigger for the widget to log."
    ) { w in
      callLatency.count(w) < 5 ? nil : callLatency.median(w)
    }
    guard latency.status == .identified, let m = latency.estimate else { return latency }
    let sigma = Stats.standardDeviation(summaries.flatMap(\.callLatency).filter { $0 > 0 }.map { Double.log($0) })
    latency.note =
      "Log-normal, sigma \(Self.fmt(sigma)) (from the call to the widget's getTimeline with the same trigger)."
    if let d = Self.logNormal(median: m, sigma: sigma) { latency.settings.set(.appReloadBackgroundLatency, d) }
    return latency
  }

  /// More reloads than this per call in a burst reads as `each`.
  static let eachCallRatio = 0.75

  /// `app_reload.burst`: reloads per call over bursts of background calls
  /// within 5 s; near one reload per call is `each`, fewer `one`.
  func fitBurst() -> P {
    var burst = estimate(
      .model(.appReloadBurst), "Reloads per call in a burst of calls (within 5 s)", "reloads per call", salt: 10,
      need: { !$0.bursts.isEmpty }, minValues: 10, values: { $0.bursts.map(\.calls) },
      missing: "No two background calls within 5 s: the burst rule shows only where the app calls several times "
        + "in a row."
    ) { w in
      var calls = 0.0
      var reloads = 0.0
      for i in w.indices where w[i] > 0 {
        for x in summaries[i].bursts {
          calls += Double(w[i]) * x.calls
          reloads += Double(w[i]) * x.reloads
        }
      }
      return calls > 0 ? reloads / calls : nil
    }
    guard let r = burst.estimate else { return burst }
    let reading: AppReloadParameters.Burst = r > Self.eachCallRatio ? .each : .one
    burst.settings.set(.appReloadBurst, .choice(of: reading))
    burst.note =
      reading == .each
      ? "Each call reloads: a burst costs one reload per call."
      : "A burst costs about one reload, whatever its calls (or the calls coalesce)."
    return burst
  }

  /// Silent pushes and BGAppRefresh runs the app logged per complete
  /// device-day, observed (the rates a run draws are segment and model fields).
  func fitArrivalRates() -> [P] {
    [
      arrivalRate(
        .silentPushesPerDeviceDay, "Silent pushes received per device-day", \.silentPushes, salt: 11,
        line: "silent_push", handler: "application(_:didReceiveRemoteNotification:)"),
      arrivalRate(
        .bgRefreshesPerDeviceDay, "BGAppRefresh runs per device-day", \.bgRefreshes, salt: 12,
        line: "bg_refresh", handler: "BGAppRefreshTask handler"),
    ]
  }

  /// Lines of type `line` (counted in `key`) per complete device-day of
  /// every device.
  func arrivalRate(
    _ quantity: ObservedQuantity, _ label: String, _ key: KeyPath<DeviceSummary, Int>, salt: UInt64, line: String,
    handler: String
  ) -> P {
    var p = estimate(
      .observed(quantity), label, "per device-day", salt: salt, need: { $0[keyPath: key] > 0 }, minValues: 0,
      values: { [Double($0[keyPath: key])] }, missing: "No \(line) lines: log one when the app's \(handler) runs.",
      status: .observed
    ) { w in
      var n = 0.0
      var days = 0.0
      for i in w.indices where w[i] > 0 {
        n += Double(w[i] * summaries[i][keyPath: key])
        days += Double(w[i] * summaries[i].days)
      }
      return days > 0 ? n / days : nil
    }
    if p.status == .observed {
      p.note =
        "Arrivals the app logged, over complete device-days of every device (compare with a run's rate; the rates "
        + "the model draws are segment and model fields)."
    }
    return p
  }

  /// The parameters a log of served timelines can never tell, and why.
  func notIdentifiable() -> [P] {
    [
      .notIdentifiable(
        .model(.budgetViewsExponent), "How the budget follows views", "",
        note: "iOS does not tell a widget when it is seen: the log has no views, so the curve of budget against "
          + "views cannot be fitted; the per-family budgets above are the nearest the log gets."),
      .notIdentifiable(
        .model(.budgetFullBudgetViewsPerDay), "Views that earn the full budget", "",
        note: "As above: views are not in a log."),
      .notIdentifiable(
        .model(.budgetWhenEmpty), "Withheld or dropped when the budget is empty", "",
        note: "A withheld request and a dropped one followed by a later request look alike in a log of served "
          + "timelines."),
      .notIdentifiable(
        .model(.reloadWhileAsleep), "Policy reloads while the user sleeps", "",
        note: "Sleep is not in a log; a log of foreground lines shows the hours a user is active, not when they "
          + "sleep."),
    ]
  }
}
