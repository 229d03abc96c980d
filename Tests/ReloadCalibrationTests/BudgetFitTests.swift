import Foundation
import ReloadCalibration
import Testing
import WidgetModel

/// The budget's estimators on logs laid out by hand: how it accrues, B, B
/// per family, the bucket's capacity, Low Power Mode's multiplier and share
/// (docs/model.md#budget-size to #low-power-budget).
@Suite struct BudgetFitTests {
  typealias L = LogBuilder

  /// `devices` devices over `days` complete days (and their two partial
  /// ones), each with one widget whose reloads on a day are
  /// `day(device, day)`, asking `asks` ahead (saturated: every 5 minutes).
  static func fit(
    devices: Int = 6, days: Int = 5, asks: Int64 = 5 * LogBuilder.minute,
    family: (Int) -> String = { _ in "systemSmall" },
    _ day: (_ device: Int, _ day: Int) -> (times: [Int64], lowPower: Bool)
  ) -> Calibration {
    var b = LogBuilder()
    for d in 0..<devices {
      for k in 0...(days + 1) {
        let (times, lowPower) = day(d, k)
        b.reloads("d\(d)", "w", day: k, at: times, asks: asks, family: family(d), lowPower: lowPower)
      }
    }
    return Calibration.fit(b.log, seed: 1, replicates: 50)
  }

  @Test func aTokenBucketIsReadAsOneAndBIsItsRefillPace() throws {
    // 12 reloads 5 minutes apart (the capacity), then one every 20 minutes: B = 72.
    let c = Self.fit { _, _ in (L.bucketDay(perDay: 72, burst: 12), false) }
    let accrual = try c.of(.budgetAccrual)
    #expect(accrual.status == .identified && accrual.choice == "token_bucket", "\(accrual)")
    // Late-day over early-day interval: 20 min / 5 min.
    #expect(abs((accrual.estimate ?? 0) - 4) < 1e-9)
    let b = try c.of(.budgetMaxPerDay)
    // 24 h over the late-day interval; the day's count (57) or the early pace (288) is not B.
    #expect(b.status == .identified && abs((b.estimate ?? 0) - 72) < 1e-9, "\(b)")
    #expect(b.devices == 6 && b.days == 30)
    let model = c.model.applied(to: .standard)
    #expect(model.budget.accrual == .tokenBucket && model.budget.maxPerDay == 72)
  }

  @Test func aSlidingWindowIsReadAsOneAndBIsItsBusiest24Hours() throws {
    // 40 reloads 5 minutes apart from 07:00, then nothing until the window frees a slot.
    let c = Self.fit { _, _ in (L.windowDay(perDay: 40), false) }
    let accrual = try c.of(.budgetAccrual)
    #expect(accrual.status == .identified && accrual.choice == "sliding_window", "\(accrual)")
    let b = try c.of(.budgetMaxPerDay)
    // The bucket's reading of the same log would be 24 h / 5 min = 288.
    #expect(b.status == .identified && b.estimate == 40, "\(b)")
    #expect(c.model[.budgetAccrual] == .choice("sliding_window") && c.model[.budgetMaxPerDay] == .number(40))
    // Only a bucket has a capacity, and a window hides Low Power Mode's multiplier.
    #expect(try c.of(.budgetTokenBucketBurstFraction).note.contains("Only a token bucket has a capacity"))
    #expect(try c.of(.budgetLowPowerMultiplier).status == .notIdentifiable)
  }

  @Test func anUndecidedAccrualLeavesBUnsaidWithBothReadings() throws {
    // Three devices read as a bucket (5 then 20 minutes), three as steady
    // 20-minute reloads: resamples read the ratio as 1 or 4.
    let c = Self.fit { device, _ in
      let steady = L.every(20 * L.minute, from: 7 * L.hour, through: 23 * L.hour)
      return (device < 3 ? L.bucketDay(perDay: 72, burst: 12) : steady, false)
    }
    let accrual = try c.of(.budgetAccrual)
    #expect(accrual.status == .tooFewData && accrual.note.contains("straddles 1.2"), "\(accrual)")
    let b = try c.of(.budgetMaxPerDay)
    #expect(b.status == .tooFewData && b.estimate == nil, "\(b)")
    // A window's reading: the median busiest 24 h of 57 and 49 reloads; a bucket's: 24 h / 20 min.
    #expect(b.note.contains("53.0 read as a window") && b.note.contains("72.0 read as a bucket"), "\(b.note)")
    #expect(c.model.isEmpty, "\(c.model)")
  }

  @Test func withoutSaturatedWidgetsTheBudgetIsNotIdentifiable() throws {
    // Hourly requests never meet the budget.
    let c = Self.fit(asks: L.hour) { _, _ in (L.every(L.hour, from: 7 * L.hour, count: 15), false) }
    for p in [ModelParameter.budgetAccrual, .budgetMaxPerDay, .budgetTokenBucketBurstFraction] {
      let fitted = try c.of(p)
      #expect(fitted.status == .notIdentifiable, "\(p.path): \(fitted)")
      #expect(fitted.note.contains(".after(now + 5 min)"), "\(p.path): \(fitted.note)")
    }
  }

  @Test func fewerThanFiveDevicesAreTooFewData() throws {
    let c = Self.fit(devices: 4) { _, _ in (L.bucketDay(perDay: 72, burst: 12), false) }
    let b = try c.of(.budgetMaxPerDay)
    #expect(b.status == .tooFewData && b.estimate == nil && b.note.contains("needs 5 devices"), "\(b)")
  }

  @Test func eachFamilyHasItsOwnBudget() throws {
    let c = Self.fit(family: { $0 % 2 == 0 ? "systemSmall" : "systemLarge" }) { device, _ in
      (L.bucketDay(perDay: device % 2 == 0 ? 72 : 36, burst: 12), false)
    }
    // Three devices each: too few for an estimate per family...
    #expect(try c.of(.budgetPerDay(family: "systemSmall")).status == .tooFewData)
    let more = Self.fit(devices: 10, family: { $0 % 2 == 0 ? "systemSmall" : "systemLarge" }) { device, _ in
      (L.bucketDay(perDay: device % 2 == 0 ? 72 : 36, burst: 12), false)
    }
    // ... five each: B per family, observed (not a model field).
    for (family, perDay) in [("systemSmall", 72.0), ("systemLarge", 36)] {
      let p = try more.of(.budgetPerDay(family: family))
      #expect(p.status == .observed && abs((p.estimate ?? 0) - perDay) < 1e-9, "\(family): \(p)")
      #expect(p.field.path == "observed.budget_per_day.\(family)")
    }
  }

  @Test func theCapacityIsNeverAnEstimateButTheNoteBoundsIt() throws {
    let day = L.bucketDay(perDay: 72, burst: 12)
    let c = Self.fit { _, _ in (day, false) }
    let cap = try c.of(.budgetTokenBucketBurstFraction)
    #expect(cap.status == .notIdentifiable && cap.estimate == nil && cap.settings.isEmpty)
    // Reloads beyond what B refilled between the day's first and last reload, over B.
    let span = Double(day[day.count - 1] - day[0]) / Double(L.day)
    let bound = (Double(day.count) - span * 72) / 72
    #expect(cap.note.contains("(here \(String(format: "%.3f", bound)) of B)"), "\(cap.note)")
    #expect(c.model[.budgetTokenBucketBurstFraction] == nil)
  }

  @Test func lowPowerModeSlowsTheBucketsPace() throws {
    // Five of eight devices spend days 2 and 4 in Low Power Mode, reloading every 40 minutes instead of 20.
    let c = Self.fit(devices: 8) { device, day in
      device < 5 && (day == 2 || day == 4)
        ? (L.every(40 * L.minute, from: 7 * L.hour, through: 23 * L.hour), true)
        : (L.bucketDay(perDay: 72, burst: 12), false)
    }
    let lpm = try c.of(.budgetLowPowerMultiplier)
    #expect(lpm.status == .identified && abs((lpm.estimate ?? 0) - 0.5) < 1e-9, "\(lpm)")
    #expect(lpm.devices == 5)
    #expect(c.model[.budgetLowPowerMultiplier] == .number(0.5))
    let share = try c.of(.lowPowerDeviceShare)
    #expect(share.status == .observed && share.estimate == 5.0 / 8, "\(share)")
    // Without Low Power Mode lines, what to log.
    let none = Self.fit { _, _ in (L.bucketDay(perDay: 72, burst: 12), false) }
    let missing = try none.of(.budgetLowPowerMultiplier)
    #expect(missing.status == .notIdentifiable && missing.note.contains("low_power true"), "\(missing)")
  }
}
