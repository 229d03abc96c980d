import ReloadEngine
import Testing

import WidgetModel

/// The hourly budget samples read a sliding window with a cursor that only
/// moves forward (`ReloadBudget.sampledLeft`): what the widget could spend
/// within the hour after the sample. The answer must be the window's own
/// count an hour later with nothing spent in between (`left`, a binary
/// search over the ring) at every sample, whatever the spending: bursts that fill the ring past its
/// capacity, quiet days that empty the window, Low Power Mode changing
/// the cap between samples, and a new device starting from nothing.
@Suite struct BudgetSampleTests {
  @Test func sampledLeftEqualsTheWindowsCount() {
    let storage = _DeviceStorage()
    let widgets = 3
    var budget = ReloadBudget(
      BudgetParameters(accrual: .slidingWindow, maxPerDay: 12, minPerDay: 1, fullBudgetViewsPerDay: 0),
      ringCapacity: 12, widgets: widgets, storage: storage)
    var rng = Xoshiro256StarStar(seed: 2026)
    var compared = 0
    var sawFull = false
    var sawEmpty = false
    for device in 0..<40 {
      budget.reset(widgets: widgets)
      var app = AppState()
      for w in 0..<widgets { budget.start(w, dailyBudget: 4 + rng.nextIndex(below: 9), app) }
      // Each widget: spends at random times (bursts and lulls), samples every hour.
      for w in 0..<widgets {
        var t = SimTime.zero
        var tick = SimTime.zero + .hours(1)
        let end = SimTime.zero + .days(4)
        while tick < end {
          let burst = rng.nextUnit() < 0.1
          let gap = burst ? Int64(rng.nextIndex(below: 600_000)) : Int64(rng.nextIndex(below: 5 * 3_600_000))
          t = t + .milliseconds(gap)
          while tick <= t && tick < end {
            app.lowPower = rng.nextUnit() < 0.2
            let want = budget.left(w, at: tick + .hour, app)
            let got = budget.sampledLeft(w, at: tick, app)
            #expect(got == want, "device \(device) widget \(w) at \(tick): \(got) vs \(want)")
            sawFull = sawFull || want == 0
            sawEmpty = sawEmpty || want == budget.cap(w, app)
            compared += 1
            tick = tick + .hour
          }
          if t < end { budget.spend(w, at: t, app) }
        }
      }
    }
    #expect(compared > 10_000)
    #expect(sawFull && sawEmpty, "the sweep reached neither a spent nor an untouched window")
  }
}
