import Foundation
import ReloadCalibration
import Testing
import WidgetModel

/// Lateness and its growth with the budget spent: the fit on a log laid
/// out by hand, and the replays and the regression it rests on
/// (docs/model.md#lateness, #lateness-pressure).
@Suite struct LatenessFitTests {
  typealias L = LogBuilder

  /// Six devices of an hourly widget: each day from 06:00, 15 reloads, each
  /// coming `lateness[i]` seconds after the hour it asked for.
  static func hourlyLog(_ lateness: [Double]) -> ReloadLog {
    var b = LogBuilder()
    for d in 0..<6 {
      for day in 0...6 {
        var t = L.at(day, 6 * L.hour)
        for i in 0..<15 {
          b.reload("d\(d)", "hourly", at: t, asks: L.hour)
          t += L.hour + Int64((lateness[i % lateness.count] * 1000).rounded())
        }
      }
    }
    return b.log
  }

  @Test func withoutPressureTheLatenessIsALogNormalOfTheLatenessSeen() throws {
    // Two whole cycles of 600 s x exp(0.5 z) a day: median 600 s, sigma 0.5 x the z's.
    let lateness = L.logNormalCycle(median: 600, sigma: 0.5, count: 14)
    let c = Calibration.fit(Self.hourlyLog(lateness), seed: 1, replicates: 50)
    let seen = try c.of(.latenessMedian)
    #expect(seen.status == .observed && abs((seen.estimate ?? 0) - 600) < 0.01, "\(seen)")
    let d = try c.of(.reloadLateness)
    #expect(d.status == .identified && abs((d.estimate ?? 0) - 600) < 0.01, "\(d)")
    // 14 pairs a day over 6 devices x 5 complete days (the day's last reload
    // pairs with the next morning's, more than 3 h on, and is not read).
    let z = (0..<(14 * 30)).map { L.zCycle[$0 % 14 % L.zCycle.count] }
    let sigma = 0.5 * L.standardDeviation(z)
    guard case .distribution(.logNormal(let median, let s)) = c.model[.reloadLateness] else {
      Issue.record("no log-normal lateness in \(c.model)")
      return
    }
    #expect(median == .seconds(600) && abs(s - sigma) < 0.002, "median \(median), sigma \(s), expected \(sigma)")
    // The mean (about 680 s) is not the median.
    #expect(d.note.contains("Log-normal"), "\(d.note)")
    // No spent share without B (not identifiable: no saturated widget):
    // neither is the exponent, and the model gets no pressure rule.
    let e = try c.of(.reloadLatenessPressureExponent)
    #expect(e.status == .notIdentifiable && e.note.contains("needs B"), "\(e)")
    #expect(c.model[.reloadLatenessPressure] == nil && c.model[.reloadLatenessPressureExponent] == nil)
  }

  @Test func withoutPolicyRequestsLatenessIsNotIdentifiable() throws {
    var b = LogBuilder()
    for d in 0..<6 {
      for day in 0...6 { b.reloads("d\(d)", "w", day: day, at: L.every(L.hour, from: 7 * L.hour, count: 5), asks: nil) }
    }
    let c = Calibration.fit(b.log, seed: 1, replicates: 50)
    for p in [ModelParameter.reloadLateness, .reloadLatenessPressureExponent] {
      let fitted = try c.of(p)
      #expect(fitted.status == .notIdentifiable && fitted.note.contains("policy and next"), "\(p.path): \(fitted)")
    }
  }

  @Test func theRegressionReadsDAndEFromLatenessAgainstTheBudgetSpent() throws {
    // lateness = 900 s x used^1.5 exactly, on six devices.
    let points = stride(from: 0.3, through: 1.0, by: 0.1).map { SpentLateness(lateness: 900 * pow($0, 1.5), used: $0) }
    let fit = PressureRegression(Array(repeating: points, count: 6), cutRate: 0)
    let all = Weights(repeating: 1, count: 6)
    #expect(abs((fit.exponent(all) ?? 0) - 1.5) < 1e-9)
    #expect(abs((fit.latenessAtFullBudget(all) ?? 0) - 900) < 1e-6)
    // A resample that drew only the first device twice reads the same.
    #expect(abs((fit.exponent([2, 0, 0, 0, 0, 0]) ?? 0) - 1.5) < 1e-9)
    // Fewer than 10 points: no slope.
    #expect(fit.exponent([1, 0, 0, 0, 0, 0]) == nil)
  }

  @Test func aLongLatenessCountsAsOftenAsItWasLikelyCutShort() throws {
    // At a spent share of a half, 50 s and 200 s; at a full budget, 100 s.
    // The app's reloads cut waits short at 0.01 per second, so the 200 s one
    // stands for exp(2) seen, the 50 s one for exp(0.5): the line at used =
    // 0.5 passes through their mean log lateness weighted so.
    let device = [
      SpentLateness(lateness: 50, used: 0.5), SpentLateness(lateness: 200, used: 0.5),
      SpentLateness(lateness: 100, used: 1),
    ]
    let fit = PressureRegression(Array(repeating: device, count: 6), cutRate: 0.01)
    let w1 = exp(0.5), w2 = exp(2.0)
    let atHalf = (w1 * log(50.0) + w2 * log(200.0)) / (w1 + w2)
    let slope = (log(100.0) - atHalf) / (0 - log(0.5))
    let all = Weights(repeating: 1, count: 6)
    #expect(abs((fit.exponent(all) ?? 0) - slope) < 1e-9, "\(fit.exponent(all) ?? .nan) vs \(slope)")
    #expect(abs((fit.latenessAtFullBudget(all) ?? 0) - 100) < 1e-9)
    // Unweighted, the slope would be the plain mean's: a different reading.
    let plain = (log(100.0) - (log(50.0) + log(200.0)) / 2) / (0 - log(0.5))
    #expect(abs(slope - plain) > 0.1)
  }

  @Test func aTokenBucketsSpentShareIsItsWholeTokensLeft() {
    // B = 24 a day (a token an hour), capacity 6, full at the first reload.
    let h = L.hour
    let bucket = TokenReplay(
      [[0, h, 2 * h], [0, h / 10, 2 * h / 10, 3 * h / 10, 4 * h / 10, 5 * h / 10]], perDay: 24, capacity: 6)
    // Each reload spends one and an hour refills one: 5 left, 5.5 half an hour on.
    #expect(abs(bucket.spent(instance: 0, at: 2 * h + h / 2) - (1 - 5.0 / 24)) < 1e-12)
    // Eighteen hours later the bucket is full, not 23 tokens.
    #expect(abs(bucket.spent(instance: 0, at: 20 * h) - (1 - 6.0 / 24)) < 1e-12)
    // Five reloads six minutes apart drain it to 1.4 tokens; 1.5 at the sixth: one whole token left.
    #expect(abs(bucket.spent(instance: 1, at: 5 * h / 10) - (1 - 1.0 / 24)) < 1e-12)
  }

  @Test func aSlidingWindowsSpentShareIsItsLast24HoursAndAFullOneHolds() {
    // B = 3; reloads at 1, 2 and 3 h.
    let h = L.hour
    let times = [h, 2 * h, 3 * h]
    let between = WindowReplay.spent(times: times, perDay: 3, at: 2 * h + h / 2)
    #expect(between.used == 2.0 / 3 && between.heldSeconds == 0)
    // Full: held until the oldest is 24 h old (25 h), drawn with one slot left.
    let full = WindowReplay.spent(times: times, perDay: 3, at: 3 * h + h / 2)
    #expect(full.used == 2.0 / 3 && full.heldSeconds == Double(25 * h - (3 * h + h / 2)) / 1000)
    // The next day only the reload at 3 h is within 24 h of 26 h.
    #expect(WindowReplay.spent(times: times, perDay: 3, at: 26 * h).used == 1.0 / 3)
  }
}
