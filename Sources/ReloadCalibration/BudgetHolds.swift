import WidgetModel

/// A policy request and the system's reload that answered it: the
/// reload's index among its instance's budgeted reloads (the device's
/// `budgetTimes`) and the requested date, ms.
struct HoldPair {
  var reload: Int32
  var request: Int64
}

/// One reading of how the budget accrues, as `BudgetHolds` replays it: a
/// sliding 24 h window, or a token bucket holding `share` of B (full at an
/// instance's first reload). Named as `Assumption.budgetAccrual` names its
/// alternatives (docs/model.md#budget-accrual); `default` is the model's own
/// reading (a bucket of a quarter of B).
struct AccrualReading: Equatable {
  var name: String
  var window: Bool
  var share: Double

  static let all = [
    AccrualReading(name: "sliding_window", window: true, share: 0),
    AccrualReading(name: "small_bucket", window: false, share: 0.1),
    AccrualReading(name: "default", window: false, share: 0.25),
    AccrualReading(name: "large_bucket", window: false, share: 0.5),
  ]

  var accrual: BudgetParameters.Accrual { window ? .slidingWindow : .tokenBucket }
}

/// The budget's signature in ordinary reloads (docs/model.md#budget-accrual,
/// #when-empty): under a reading and a B, each request is answered no sooner
/// than the budget allows, replayed from the instance's own budgeted reloads
/// before it; the reload then comes a lateness after that. The right reading
/// leaves only lateness between the allowed time and the reload; a wrong
/// one leaves the holds it does not explain (a window's frozen hours read
/// as a bucket, a bucket's pace read as a window) or answers requests
/// before it allows them. A pair scores log(1 + |reload - allowed| / 1 min):
/// a robust distance that one hold of hours cannot swamp.
enum BudgetHolds {
  static let scale = 60_000.0

  /// The earliest time `reading` with `b` allows the reload `pair` asks
  /// for, given `times`, the instance's budgeted reloads; for a bucket
  /// `tokens` holds the tokens left just after each reload (`tokenReplay`).
  static func allowed(_ pair: HoldPair, times: [Int64], window b: Int) -> Int64 {
    let j = Int(pair.reload)
    guard j >= b else { return pair.request }
    return max(pair.request, times[j - b] + Summarizer.dayMs)
  }

  /// The tokens just after each budgeted reload of a bucket refilled at
  /// `b` per 24 h up to `capacity`, full before the first.
  static func tokenReplay(_ times: [Int64], perDay b: Double, capacity: Double, into tokens: inout [Double]) {
    tokens.removeAll(keepingCapacity: true)
    var left = capacity
    var last = times.first ?? 0
    let rate = b / Double(Summarizer.dayMs)
    for t in times {
      left = max(0, min(capacity, left + Double(t - last) * rate) - 1)
      last = t
      tokens.append(left)
    }
  }

  /// The earliest time a bucket allows `pair`: the request, or when the
  /// tokens left after the previous reload refill to one.
  static func allowed(_ pair: HoldPair, times: [Int64], tokens: [Double], perDay b: Double, capacity: Double)
    -> Int64
  {
    let j = Int(pair.reload)
    guard j > 0 else { return pair.request }
    let last = times[j - 1]
    let left = tokens[j - 1]
    let refill = Double(pair.request - last) * b / Double(Summarizer.dayMs)
    if min(capacity, left + refill) >= 1 { return pair.request }
    return max(pair.request, last + Int64(((1 - left) / b * Double(Summarizer.dayMs)).rounded(.up)))
  }

  /// Calls `body` with each of the device's pairs, the reload that
  /// answered it and when `reading` with `b` allows it.
  static func forEachPair(
    _ s: DeviceSummary, _ reading: AccrualReading, perDay b: Double, tokens: inout [Double],
    _ body: (_ pair: HoldPair, _ reload: Int64, _ allowed: Int64) -> Void
  ) {
    let whole = max(1, Int(b.rounded()))
    let capacity = max(1, reading.share * b)
    for (i, pairs) in s.heldPairs.enumerated() where !pairs.isEmpty {
      let times = s.budgetTimes[i]
      if !reading.window { tokenReplay(times, perDay: b, capacity: capacity, into: &tokens) }
      for p in pairs {
        let a =
          reading.window
          ? allowed(p, times: times, window: whole)
          : allowed(p, times: times, tokens: tokens, perDay: b, capacity: capacity)
        body(p, times[Int(p.reload)], a)
      }
    }
  }

  /// Whether `pair` was requested on an odd day of the device's local
  /// calendar: the halves a B per device is fitted on and scored on.
  static func oddDay(_ pair: HoldPair, _ s: DeviceSummary) -> Bool {
    (pair.request + s.offsetMs).quotientAndRemainder(dividingBy: Summarizer.dayMs).quotient & 1 == 1
  }

  static func score(_ reload: Int64, allowed: Int64) -> Double {
    Double.log(1 + Double(abs(reload - allowed)) / scale)
  }

  /// One device's pairs under `reading` with `b`: the summed score, that
  /// of the pairs requested on an odd local day (`oddDay`), the pairs, and
  /// the pairs the budget held (allowed after the request).
  static func device(_ s: DeviceSummary, _ reading: AccrualReading, perDay b: Double, tokens: inout [Double])
    -> (score: Double, odd: Double, pairs: Int, held: Int)
  {
    var sum = 0.0
    var odd = 0.0
    var n = 0
    var held = 0
    forEachPair(s, reading, perDay: b, tokens: &tokens) { p, reload, a in
      let x = score(reload, allowed: a)
      sum += x
      if oddDay(p, s) { odd += x }
      n += 1
      if a > p.request + 1000 { held += 1 }
    }
    return (sum, odd, n, held)
  }
}
