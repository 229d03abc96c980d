import WidgetModel

/// B and the accrual read from the requests the budget held back, whatever
/// the widgets' polling interval (`BudgetHolds`; docs/model.md#budget-accrual).
///
/// Each reading of the accrual (`AccrualReading.all`) is fitted with its
/// own B (the B on a grid whose replay leaves the least score) and scored
/// held out: B fitted on half the devices, scored on the other half, both
/// ways. The reading with the least held-out score per pair is supported;
/// another is ruled out when the bootstrap interval of its margin over
/// devices lies above zero.
struct HoldFit {
  struct Reading {
    var reading: AccrualReading
    /// B fitted on every device, and its 95 % bootstrap interval.
    var perDay: Double
    var low: Double?
    var high: Double?
    /// Held-out score per pair; its margin over the best reading and the margin's interval.
    var score: Double
    var margin = 0.0
    var marginLow = 0.0
    var marginHigh = 0.0
    var ruledOut = false
  }

  /// Best first.
  var readings: [Reading]
  /// The best reading's held-out score below that of no budget at all (every
  /// request answered when asked), per pair, and its 95 % interval.
  var gain = 0.0
  var gainLow = 0.0
  var gainHigh = 0.0
  var pairs: Int
  /// Pairs the best reading's budget held, and the devices they are on.
  var held: Int
  var heldDevices: Int
  /// The lateness of the pairs not held (median, s), and of those held.
  var unheldLatenessS: Double
  var heldLatenessS: Double
  /// The 95th percentile of the lateness of pairs not held, s; the pairs
  /// the best reading holds, seen or not.
  var usualLatenessS = Double.nan
  var predictedHolds = 0
  /// B per device when one B for the log explains no hold (`Fitter.perDeviceFit`); nil for one B.
  var perDevice: [Double]? { perDeviceByReading?.first }
  /// With a B per device: each reading's B per device, in `readings`' order.
  var perDeviceByReading: [[Double]]?
  /// The devices with seen holds.
  var heldDeviceList: [Int] = []
  /// The holds came exactly when the best reading allows: the days repeat, and nothing is read from them.
  var repeatingDays = false

  /// Enough holds to read B and the accrual from.
  var identified: Bool { held >= Fitter.minValues && heldDevices >= Fitter.minDevices }
  var best: Reading { readings[0] }

  /// The best reading of the other kind (a bucket against a window).
  var otherKind: Reading? { readings.first { $0.reading.window != best.reading.window } }
}

extension Fitter {
  /// At most this many groups of devices are resampled (devices beyond fall
  /// into groups by their number), so a fleet's fit stays small.
  static let holdGroups = 1024
  /// The least held-out score margin per request that rules a reading out
  /// (a score tie between readings that hold nothing is not a margin).
  static let minMargin = 0.002

  /// The fit of every reading to the log's held requests; nil without any
  /// request answered by the system.
  func fitHolds() -> HoldFit? {
    let groups = min(summaries.count, Self.holdGroups)
    var pairsPerGroup = [Int](repeating: 0, count: groups)
    var busiest = 0
    for (d, s) in summaries.enumerated() {
      pairsPerGroup[d % groups] += s.heldPairs.reduce(0) { $0 + $1.count }
      for times in s.budgetTimes { busiest = max(busiest, Self.busiest24h(times)) }
    }
    let pairs = pairsPerGroup.reduce(0, +)
    guard pairs > 0, busiest > 1 else { return nil }
    let cap = Double(busiest) * 1.3 + 2
    var tokens: [Double] = []
    var readings: [HoldFit.Reading] = []
    var rng = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 200)
    let weights = (0..<replicates).map { _ in
      var w = [Double](repeating: 0, count: groups)
      for _ in 0..<groups { w[Int(rng.next() % UInt64(groups))] += 1 }
      return w
    }
    var oosPerReading: [[Double]] = []
    var none: [Double] = []
    var allScores: [[[Double]]] = []
    var allOdd: [[[Double]]] = []
    var grids: [[Double]] = []
    for reading in AccrualReading.all {
      let grid = Self.holdGrid(reading, cap: cap)
      // scores[g][group]: the summed score of the group's pairs with B = grid[g]; oddDays[g][group], of those
      // requested on odd local days.
      var scores = [[Double]](repeating: [Double](repeating: 0, count: groups), count: grid.count)
      var oddDays = scores
      for (g, b) in grid.enumerated() {
        for (d, s) in summaries.enumerated() {
          let x = BudgetHolds.device(s, reading, perDay: b, tokens: &tokens)
          scores[g][d % groups] += x.score
          oddDays[g][d % groups] += x.odd
        }
      }
      allOdd.append(oddDays)
      // A window larger than any 24 h's reloads holds nothing: no budget at all.
      if reading.window, let last = scores.last { none = last }
      allScores.append(scores)
      grids.append(grid)
      let all = [Double](repeating: 1, count: groups)
      let best = Self.argmin(scores, all)
      let boot = weights.map { grid[Self.argmin(scores, $0)] }.sorted()
      let even = (0..<groups).map { $0 % 2 == 0 ? 1.0 : 0 }
      let odd = even.map { 1 - $0 }
      let (ge, go) = (Self.argmin(scores, even), Self.argmin(scores, odd))
      let oos = (0..<groups).map { $0 % 2 == 0 ? scores[go][$0] : scores[ge][$0] }
      oosPerReading.append(oos)
      let n = Double(pairs)
      readings.append(
        HoldFit.Reading(
          reading: reading, perDay: grid[best], low: boot.isEmpty ? nil : Stats.sortedQuantile(boot, 0.025),
          high: boot.isEmpty ? nil : Stats.sortedQuantile(boot, 0.975), score: oos.reduce(0, +) / n))
    }
    let perGroupPairs = pairsPerGroup.map(Double.init)
    let order = Self.rank(&readings, groupScores: oosPerReading, pairsPerGroup: perGroupPairs, weights: weights)
    let b = order[0]
    var fit = HoldFit(
      readings: order.map { readings[$0] }, pairs: pairs, held: 0, heldDevices: 0, unheldLatenessS: .nan,
      heldLatenessS: .nan)
    let gains = zip(none, oosPerReading[b]).map { $0 - $1 }
    fit.gain = gains.reduce(0, +) / Double(pairs)
    let boot = weights.map { w -> Double in
      let n = zip(w, perGroupPairs).reduce(0) { $0 + $1.0 * $1.1 }
      return n == 0 ? 0 : zip(w, gains).reduce(0) { $0 + $1.0 * $1.1 } / n
    }.sorted()
    if !boot.isEmpty {
      fit.gainLow = Stats.sortedQuantile(boot, 0.025)
      fit.gainHigh = Stats.sortedQuantile(boot, 0.975)
    }
    countHeld(&fit)
    // One B for the log explains nothing when widgets' budgets differ (how often each is seen): a B per device may.
    if !fit.identified, groups == summaries.count,
      let each = perDeviceFit(allScores, odd: allOdd, grids: grids, pairsPerGroup: perGroupPairs, weights: weights),
      each.identified
    {
      return each
    }
    return fit
  }

  /// Ranks `readings` by score, best first, and gives every other reading
  /// its margin over the best with a 95 % bootstrap interval: the
  /// difference of the per-group scores (`groupScores[r][g]`, summed over a
  /// group's pairs), weighted by each replicate's group weights and divided
  /// by its pairs. A reading whose interval lies above `minMargin` is ruled out.
  static func rank(
    _ readings: inout [HoldFit.Reading], groupScores: [[Double]], pairsPerGroup: [Double], weights: [[Double]]
  ) -> [Int] {
    let order = readings.indices.sorted { readings[$0].score < readings[$1].score }
    let best = order[0]
    for r in readings.indices where r != best {
      let diff = zip(groupScores[r], groupScores[best]).map { $0 - $1 }
      readings[r].margin = readings[r].score - readings[best].score
      let margins = weights.map { w -> Double in
        let n = zip(w, pairsPerGroup).reduce(0) { $0 + $1.0 * $1.1 }
        return n == 0 ? 0 : zip(w, diff).reduce(0) { $0 + $1.0 * $1.1 } / n
      }.sorted()
      if !margins.isEmpty {
        readings[r].marginLow = Stats.sortedQuantile(margins, 0.025)
        readings[r].marginHigh = Stats.sortedQuantile(margins, 0.975)
        readings[r].ruledOut = readings[r].marginLow > minMargin
      }
    }
    return order
  }

  /// The fit with a B per device (each reading's best on the device's own
  /// requests), every reading with as many B as devices, scored held out:
  /// B fitted on the device's requests of even local days scores those of
  /// odd days, and the other way round (a device with requests on only one
  /// kind of day is scored on its own fit). B is the median over the
  /// devices with holds (each fitted on all its requests), its interval by
  /// bootstrap over them.
  func perDeviceFit(
    _ scores: [[[Double]]], odd: [[[Double]]], grids: [[Double]], pairsPerGroup: [Double], weights: [[Double]]
  ) -> HoldFit? {
    let devices = pairsPerGroup.count
    let pairs = pairsPerGroup.reduce(0, +)
    guard pairs > 0 else { return nil }
    // Whether each device has pairs on both odd and even days (else it is scored on the B fitted to its pairs).
    let halves = summaries.map { s -> Bool in
      let all = s.heldPairs.joined()
      return all.contains { BudgetHolds.oddDay($0, s) } && all.contains { !BudgetHolds.oddDay($0, s) }
    }
    // The grid point of least `score(k)`.
    func argmin(_ count: Int, _ score: (Int) -> Double) -> Int {
      var g = 0
      for k in 1..<max(1, count) where score(k) < score(g) { g = k }
      return g
    }
    var heldOut: [[Double]] = []
    var perDay: [[Double]] = []
    for (r, byGrid) in scores.enumerated() {
      let oddByGrid = odd[r]
      var l = [Double](repeating: 0, count: devices)
      var b = [Double](repeating: .nan, count: devices)
      for d in 0..<devices where pairsPerGroup[d] > 0 {
        let g = argmin(byGrid.count) { byGrid[$0][d] }
        b[d] = grids[r][g]
        guard halves[d] else {
          l[d] = byGrid[g][d]
          continue
        }
        // B fitted on the even days scores the odd ones, and the other way round.
        let ge = argmin(byGrid.count) { byGrid[$0][d] - oddByGrid[$0][d] }
        let go = argmin(byGrid.count) { oddByGrid[$0][d] }
        l[d] = oddByGrid[ge][d] + byGrid[go][d] - oddByGrid[go][d]
      }
      heldOut.append(l)
      perDay.append(b)
    }
    var readings = AccrualReading.all.indices.map { r in
      HoldFit.Reading(
        reading: AccrualReading.all[r], perDay: .nan, low: nil, high: nil, score: heldOut[r].reduce(0, +) / pairs)
    }
    let order = Self.rank(&readings, groupScores: heldOut, pairsPerGroup: pairsPerGroup, weights: weights)
    let best = order[0]
    var fit = HoldFit(
      readings: order.map { readings[$0] }, pairs: Int(pairs), held: 0, heldDevices: 0, unheldLatenessS: .nan,
      heldLatenessS: .nan)
    fit.perDeviceByReading = order.map { perDay[$0] }
    countHeld(&fit)
    // B of the devices whose holds were seen: their median, bootstrapped over them.
    let seen = fit.heldDeviceList.map { perDay[best][$0] }.filter(\.isFinite)
    guard !seen.isEmpty else { return fit }
    fit.readings[0].perDay = Stats.median(seen)
    var rng = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ 201)
    let medians = (0..<replicates).map { _ in
      Stats.median((0..<seen.count).map { _ in seen[Int(rng.next() % UInt64(seen.count))] })
    }.sorted()
    if !medians.isEmpty {
      fit.readings[0].low = Stats.sortedQuantile(medians, 0.025)
      fit.readings[0].high = Stats.sortedQuantile(medians, 0.975)
    }
    return fit
  }

  /// The requests the best reading's budget held: later than asked by more
  /// than twice the lateness seen elsewhere (the 95th percentile of the pairs it
  /// does not hold), and answered within that lateness of when it allows
  /// them, at a quarter hour in which the device logged lines on some day
  /// (its user awake); the devices with them; the median lateness of those
  /// and of the pairs not held.
  func countHeld(_ fit: inout HoldFit) {
    var tokens: [Double] = []
    let reading = fit.best.reading
    // (device, lateness from the request, from the allowed time) of the pairs it holds.
    var holds: [(device: Int, late: Double, residual: Double)] = []
    var unheld: [Double] = []
    for (d, s) in summaries.enumerated() {
      let b = fit.perDevice?[d] ?? fit.best.perDay
      guard b.isFinite else { continue }
      BudgetHolds.forEachPair(s, reading, perDay: b, tokens: &tokens) { p, reload, a in
        let late = Double(reload - p.request) / 1000
        if a > p.request + 1000 {
          // A request made while the user is never seen awake waits for waking
          // (docs/model.md#while-asleep) as a held one would: it shows nothing of the budget.
          if s.awakeQuarters[Summarizer.quarter(p.request, offset: s.offsetMs)] {
            holds.append((d, late, Double(reload - a) / 1000))
          }
        } else {
          unheld.append(late)
        }
      }
    }
    let usual = unheld.isEmpty ? 0 : Stats.quantile(unheld, 0.95)
    // Twice the usual lateness: a hold is later than any ordinary lateness, not its tail.
    var seen = holds.filter { $0.late > 2 * usual && abs($0.residual) <= max(usual, 1) }
    fit.held = seen.count
    // Holds answered to the millisecond when the reading allows them: days that repeat exactly (a log laid out
    // by hand, a constant lateness), which a window of each day's count explains whatever the budget.
    if !seen.isEmpty && Stats.median(seen.map { abs($0.residual) }) < 0.5 {
      fit.repeatingDays = true
      seen = []
    }
    fit.heldDeviceList = Set(seen.map(\.device)).sorted()
    fit.heldDevices = fit.heldDeviceList.count
    fit.heldLatenessS = seen.isEmpty ? .nan : Stats.median(seen.map(\.late))
    fit.unheldLatenessS = unheld.isEmpty ? .nan : Stats.median(unheld)
    fit.usualLatenessS = usual
    fit.predictedHolds = holds.count
  }

  /// The B tried for `reading`: whole numbers for a window (it counts
  /// reloads), 2.5 % steps for a bucket (a B within 1.3 % of the best), from 2 to `cap`.
  static func holdGrid(_ reading: AccrualReading, cap: Double) -> [Double] {
    if reading.window { return (2...max(2, Int(cap))).map(Double.init) }
    var out: [Double] = []
    var b = 2.0
    while b <= cap {
      out.append(b)
      b *= 1.025
    }
    return out
  }

  /// The index of the least weighted sum of `scores` (per grid point, per group).
  static func argmin(_ scores: [[Double]], _ w: [Double]) -> Int {
    var best = 0
    var least = Double.infinity
    for (g, row) in scores.enumerated() {
      var s = 0.0
      for k in row.indices where w[k] != 0 { s += w[k] * row[k] }
      if s < least {
        least = s
        best = g
      }
    }
    return best
  }

  /// The most of `times` (sorted, ms) within any 24 h.
  static func busiest24h(_ times: [Int64]) -> Int {
    var oldest = 0
    var most = 0
    for (k, t) in times.enumerated() {
      while times[oldest] <= t - Summarizer.dayMs { oldest += 1 }
      most = max(most, k + 1 - oldest)
    }
    return most
  }
}

extension Fitter {
  /// `budget.accrual` and `budget.max_per_day` read from the held requests:
  /// the accrual when the best reading's kind (window or bucket) rules the
  /// other kind out, B under the best reading.
  func holdParameters(_ holds: HoldFit) -> (P, P, BudgetParameters.Accrual) {
    let best = holds.best
    let reading = best.reading.accrual
    let support = support { $0.heldPairs.contains { !$0.isEmpty } }
    var accrual = P(
      field: .model(.budgetAccrual), label: "How the budget accrues (held-out fit: the other kind's margin)",
      unit: "score per reload", status: .identified, devices: support.devices, days: support.days, note: "")
    if let other = holds.otherKind {
      accrual.estimate = other.margin
      accrual.low = other.marginLow
      accrual.high = other.marginHigh
    }
    let decided = holds.otherKind?.ruledOut ?? false
    let kind = best.reading.window ? "a sliding 24 h window" : "a token bucket"
    accrual.note =
      "\(holds.held) requests on \(holds.heldDevices) devices came later than asked by more than twice the lateness "
      + "seen elsewhere (median \(Self.fmt(holds.heldLatenessS)) s against \(Self.fmt(holds.unheldLatenessS)) s): the "
      + "budget held them. Replayed from each widget's own reloads, \(kind) explains them best "
      + "(docs/model.md#budget-accrual); the estimate is the other kind's held-out score margin per reload."
    if decided {
      accrual.settings.set(.budgetAccrual, .choice(of: reading))
    } else {
      accrual.status = .tooFewData
      accrual.note += " Its interval reaches zero, so the log does not decide between them."
    }
    var budget = P(
      field: .model(.budgetMaxPerDay), label: "Daily budget B (from the requests it held back)",
      unit: "reloads per 24 h", status: .identified, devices: support.devices, days: support.days, note: "")
    budget.estimate = best.perDay
    budget.low = best.low
    budget.high = best.high
    budget.note =
      "The B whose replay (\(best.reading.name)) best explains when held requests were answered. It is the budget "
      + "of the widgets logged; how it depends on views is not in a log."
    if let each = holds.perDevice {
      let seen = holds.heldDeviceList.map { each[$0] }.filter(\.isFinite)
      budget.note =
        "The median over the \(seen.count) devices with holds of each device's B (\(best.reading.name)); one B for "
        + "the whole log explained none, as budgets differ with how often widgets are seen. Quartiles of the "
        + "devices' B: \(Self.fmt(Stats.quantile(seen, 0.25))) to \(Self.fmt(Stats.quantile(seen, 0.75))). B in "
        + "the model is the budget of the most-seen widgets (docs/model.md#visibility): compare with the devices' "
        + "glances before pasting it."
    }
    if decided {
      budget.settings.setClamped(.budgetMaxPerDay, .number(best.perDay.rounded()))
    } else {
      budget.withdraw(
        .tooFewData,
        note: "The accrual is undecided, and B depends on it: "
          + holds.readings.map { "\(Self.fmt($0.perDay)) read as \($0.reading.name)" }.joined(separator: ", ")
          + ". Log widgets that ask more often than the budget allows for whole days.")
    }
    return (accrual, budget, reading)
  }
}
