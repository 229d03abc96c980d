// The budget spent at a request, replayed from an instance's budgeted
// reloads with a fitted B as the simulator reads it (Fitter+Lateness,
// docs/model.md#lateness-pressure).

/// A sliding window replayed over an instance's budgeted reloads.
package enum WindowReplay {
  /// The share of the budget spent at a request at `time`, as the simulator
  /// reads it: the reloads in (t - 24 h, t] over today's whole budget
  /// (`ReloadBudget.left`, `cap`); and how long a full window held it. A
  /// full window holds the request until its B-th newest reload is 24 h
  /// old; the lateness is drawn from then, with one slot left
  /// (`DeviceWidgets.budgetedRequest`, docs/model.md#lateness-pressure).
  /// `times`: the budgeted reloads, ms, sorted.
  package static func spent(times: [Int64], perDay b: Double, at time: Int64)
    -> (used: Double, heldSeconds: Double)
  {
    let whole = max(1, Int(b))
    let upTo = firstAtOrAfter(times, time + 1)
    let n = upTo - firstAtOrAfter(times, time - Summarizer.dayMs + 1)
    guard n >= whole else { return (Double(n) / Double(whole), 0) }
    let available = times[upTo - whole] + Summarizer.dayMs
    return (Double(whole - 1) / Double(whole), Double(max(0, available - time)) / 1000)
  }

  /// The first index of `times` (sorted) at or after `t`.
  static func firstAtOrAfter(_ times: [Int64], _ t: Int64) -> Int {
    var lo = 0
    var hi = times.count
    while lo < hi {
      let mid = (lo + hi) / 2
      if times[mid] < t { lo = mid + 1 } else { hi = mid }
    }
    return lo
  }
}

/// A token bucket replayed over each instance's budgeted reloads: the
/// tokens just after each (one replay; a request then looks its last
/// reload up). The bucket is full at an instance's first reload.
package struct TokenReplay {
  let times: [[Int64]]
  let tokensAfter: [[Double]]
  let perDay: Double
  let capacity: Double

  /// `times`: per instance, its budgeted reloads (ms, sorted); `b` the
  /// refill per 24 h, `capacity` in tokens.
  package init(_ times: [[Int64]], perDay b: Double, capacity: Double) {
    let dayMs = Double(Summarizer.dayMs)
    self.times = times
    perDay = b
    self.capacity = capacity
    tokensAfter = times.map { times in
      var tokens = capacity
      var last = times.first ?? 0
      return times.map { t in
        tokens = max(0, min(capacity, tokens + Double(t - last) / dayMs * b) - 1)
        last = t
        return tokens
      }
    }
  }

  /// The share of the budget spent at a request of `instance` at `time`, as
  /// the simulator reads it: 1 - (whole tokens left) / B
  /// (docs/model.md#lateness-pressure; `ReloadBudget.left`).
  package func spent(instance: Int, at time: Int64) -> Double {
    let times = self.times[instance]
    let before = WindowReplay.firstAtOrAfter(times, time)
    var tokens = capacity
    var last = times.first ?? time
    if before > 0 {
      tokens = tokensAfter[instance][before - 1]
      last = times[before - 1]
    }
    tokens = min(capacity, tokens + Double(time - last) / Double(Summarizer.dayMs) * perDay)
    return min(1, max(0, 1 - tokens.rounded(.down) / perDay.rounded(.down)))
  }
}
