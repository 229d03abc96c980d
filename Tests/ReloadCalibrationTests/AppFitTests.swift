import ReloadCalibration
import Testing
import WidgetModel

/// The app's own calls, the wakes it logged, and what no log tells, on
/// logs laid out by hand (docs/model.md#app-triggers, #background-latency).
@Suite struct AppFitTests {
  typealias L = LogBuilder

  /// Six devices over five complete days; `day` writes a device's day.
  static func fit(_ day: (inout LogBuilder, _ device: String, _ day: Int) -> Void) -> Calibration {
    var b = LogBuilder()
    for d in 0..<6 {
      for k in 0...6 { day(&b, "d\(d)", k) }
    }
    return Calibration.fit(b.log, seed: 1, replicates: 50)
  }

  @Test func aBackgroundCallsLatencyIsALogNormalFromTheCallToItsReload() throws {
    // 14 calls a day, an hour apart, each answered by the widget's
    // getTimeline with the call's trigger 20 s x exp(z) later.
    let latency = L.logNormalCycle(median: 20, sigma: 1, count: 14)
    let c = Self.fit { b, device, day in
      for k in 0..<14 {
        let t = L.at(day, 8 * L.hour + Int64(k) * L.hour)
        b.call(device, at: t, trigger: "push")
        b.reload(device, "w", at: t + Int64((latency[k] * 1000).rounded()), asks: nil, trigger: "push")
      }
    }
    let p = try c.of(.appReloadBackgroundLatency)
    #expect(p.status == .identified && abs((p.estimate ?? 0) - 20) < 0.001, "\(p)")
    let sigma = L.standardDeviation((0..<(14 * 42)).map { L.zCycle[$0 % 7] })
    guard case .distribution(.logNormal(let median, let s)) = c.model[.appReloadBackgroundLatency] else {
      Issue.record("no log-normal latency in \(c.model)")
      return
    }
    #expect(median == .seconds(20) && abs(s - sigma) < 0.01, "median \(median), sigma \(s), expected \(sigma)")
    // One call at a time: no burst.
    #expect(try c.of(.appReloadBurst).status == .notIdentifiable)
  }

  /// Ten bursts a day of three calls a second apart, answered by `reloads` reloads.
  static func bursts(reloads: Int) -> Calibration {
    fit { b, device, day in
      for k in 0..<10 {
        let t = L.at(day, 8 * L.hour + Int64(k) * L.hour)
        for i in 0..<3 { b.call(device, at: t + Int64(i) * 1000, trigger: "push") }
        for i in 0..<reloads { b.reload(device, "w", at: t + 10_000 + Int64(i) * 1000, asks: nil, trigger: "push") }
      }
    }
  }

  @Test func aBurstThatReloadsOncePerCallIsEachAndOneThatReloadsOnceIsOne() throws {
    let each = try Self.bursts(reloads: 3).of(.appReloadBurst)
    #expect(each.status == .identified && each.estimate == 1 && each.choice == "each", "\(each)")
    let one = try Self.bursts(reloads: 1).of(.appReloadBurst)
    #expect(one.status == .identified && abs((one.estimate ?? 0) - 1.0 / 3) < 1e-12 && one.choice == "one", "\(one)")
    #expect(Self.bursts(reloads: 1).model[.appReloadBurst] == .choice("one"))
  }

  @Test func arrivalsAreCountedOverCompleteDaysOnly() throws {
    // Six silent pushes and three BGAppRefresh runs a complete day; thirty
    // pushes on the partial first and last days, which must not count.
    let c = Self.fit { b, device, day in
      let partial = day == 0 || day == 6
      for k in 0..<(partial ? 30 : 6) { b.event(.silentPush, device, at: L.at(day, 8 * L.hour + Int64(k) * L.minute)) }
      if !partial {
        for k in 0..<3 { b.event(.bgRefresh, device, at: L.at(day, 9 * L.hour + Int64(k) * L.hour)) }
      }
    }
    let pushes = try c.of(.silentPushesPerDeviceDay)
    #expect(pushes.status == .observed && pushes.estimate == 6 && pushes.days == 30, "\(pushes)")
    #expect(try c.of(.bgRefreshesPerDeviceDay).estimate == 3)
    #expect(c.model.isEmpty)
  }

  @Test func aLogWithoutCallsOrWakesSaysWhatToLog() throws {
    let c = Self.fit { b, device, day in
      b.reloads(device, "w", day: day, at: L.every(L.hour, from: 8 * L.hour, count: 10), asks: L.hour)
    }
    for (p, hint) in [(ModelParameter.appReloadBackgroundLatency, "reload_call"), (.appReloadBurst, "several times")] {
      let fitted = try c.of(p)
      #expect(fitted.status == .notIdentifiable && fitted.note.contains(hint), "\(p.path): \(fitted)")
    }
    for (q, hint) in [
      (ObservedQuantity.silentPushesPerDeviceDay, "didReceiveRemoteNotification"),
      (.bgRefreshesPerDeviceDay, "BGAppRefreshTask"),
    ] {
      let fitted = try c.of(q)
      #expect(fitted.status == .notIdentifiable && fitted.note.contains(hint), "\(q.key): \(fitted)")
    }
  }

  @Test func whatNoLogTellsIsSaidWhateverTheLog() throws {
    let c = Self.fit { b, device, day in
      b.reloads(device, "w", day: day, at: L.bucketDay(perDay: 72, burst: 12), asks: 5 * L.minute)
    }
    for p in [ModelParameter.budgetViewsExponent, .budgetFullBudgetViewsPerDay, .budgetWhenEmpty, .reloadWhileAsleep] {
      let fitted = try c.of(p)
      #expect(fitted.status == .notIdentifiable && !fitted.note.isEmpty && fitted.settings.isEmpty, "\(p.path)")
      #expect(fitted.field.path == p.path)
    }
    // The fitted model holds the identified parameters' settings and nothing else.
    let identified = c.parameters.filter { $0.status == .identified }
    #expect(c.model.settings.count == identified.reduce(0) { $0 + $1.settings.settings.count })
    #expect(c.model.settings.map(\.parameter) == [.budgetAccrual, .budgetMaxPerDay])
  }
}
