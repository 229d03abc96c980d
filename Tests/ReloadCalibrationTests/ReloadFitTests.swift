import ReloadCalibration
import Testing
import WidgetModel

/// The minimum interval and the pacing of reloads asked for at once, on
/// logs laid out by hand (docs/model.md#min-interval, #asap-reloads).
@Suite struct ReloadFitTests {
  typealias L = LogBuilder

  /// Six devices over five complete days; on each day `widgets` gives
  /// each instance's reloads and how far ahead it asks.
  static func fit(_ widgets: [(instance: String, times: [Int64], asks: Int64)]) -> Calibration {
    var b = LogBuilder()
    for d in 0..<6 {
      for day in 0...6 {
        for w in widgets { b.reloads("d\(d)", w.instance, day: day, at: w.times, asks: w.asks) }
      }
    }
    return Calibration.fit(b.log, seed: 1, replicates: 50)
  }

  @Test func requestsShorterThanTheMinimumIntervalAreAnsweredAtIt() throws {
    // Asking 10 s ahead, answered every 60 s: the floor is 60 s, not what was asked.
    let c = Self.fit([("short", L.every(L.minute, from: 12 * L.hour, count: 10), 10_000)])
    let m = try c.of(.budgetMinInterval)
    #expect(m.status == .identified && m.estimate == 60 && m.unit == "s", "\(m)")
    #expect(c.model[.budgetMinInterval] == .number(60))
    #expect(c.model.applied(to: .standard).budget.minInterval == .seconds(60))
  }

  @Test func aFloorAtTheBudgetsPaceHidesTheMinimumInterval() throws {
    // A bucket of 72 (one reload per 20 minutes once the capacity is spent)
    // answers a widget asking 10 s ahead every 20 minutes: the log shows
    // the budget, not the minimum interval below it.
    let c = Self.fit([
      ("live", L.bucketDay(perDay: 72, burst: 12), 5 * L.minute),
      ("eager", L.every(20 * L.minute, from: 7 * L.hour, through: 23 * L.hour), 10_000),
    ])
    #expect(try c.of(.budgetMaxPerDay).estimate == 72)
    let m = try c.of(.budgetMinInterval)
    #expect(m.status == .notIdentifiable && m.estimate == nil && m.note.contains("(1200 s)"), "\(m)")
    #expect(c.model[.budgetMinInterval] == nil)
  }

  @Test func noShortRequestIsNotIdentifiable() throws {
    let c = Self.fit([("live", L.bucketDay(perDay: 72, burst: 12), 5 * L.minute)])
    let m = try c.of(.budgetMinInterval)
    #expect(m.status == .notIdentifiable && m.devices == 0 && m.note.contains(".after(now + 10 s)"), "\(m)")
  }

  @Test func reloadsAskedForAtOnceMinutesApartArePaced() throws {
    // Due at once, answered 20 minutes apart: paced. Under a window such a
    // widget never reaches its budget, so B is not a number.
    let c = Self.fit([("now", L.every(20 * L.minute, from: 7 * L.hour, through: 23 * L.hour), 0)])
    let asap = try c.of(.reloadAsap)
    #expect(asap.status == .identified && asap.choice == "paced" && asap.estimate == 20, "\(asap)")
    #expect(asap.note.contains("about 20.0 min apart: paced"), "\(asap.note)")
    #expect(c.model[.reloadAsap] == .choice("paced"))
    let b = try c.of(.budgetMaxPerDay)
    #expect(b.status == .notIdentifiable && b.note.contains("are paced"), "\(b)")
  }

  @Test func reloadsAskedForAtOnceSecondsApartAreImmediateAndGiveTheMinimumInterval() throws {
    // Due at once, answered 30 s apart: immediate, and 30 s is the minimum interval.
    let c = Self.fit([("now", L.every(30_000, from: 12 * L.hour, count: 20), 0)])
    let asap = try c.of(.reloadAsap)
    #expect(asap.status == .identified && asap.choice == "immediate" && asap.estimate == 0.5, "\(asap)")
    let m = try c.of(.budgetMinInterval)
    #expect(m.status == .identified && m.estimate == 30 && m.note.contains("asap: immediate"), "\(m)")
    let model = c.model.applied(to: .standard)
    #expect(model.reload.asap == .immediate && model.budget.minInterval == .seconds(30))
  }

  @Test func noTimelineDueAtOnceLeavesAsapNotIdentifiable() throws {
    let c = Self.fit([("live", L.bucketDay(perDay: 72, burst: 12), 5 * L.minute)])
    let asap = try c.of(.reloadAsap)
    #expect(asap.status == .notIdentifiable && asap.choice == nil && asap.note.contains("dated now"), "\(asap)")
  }
}
