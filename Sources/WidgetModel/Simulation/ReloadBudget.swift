import ReloadEngine

/// Each widget's reload budget: a sliding 24 h window over a flat ring of
/// budgeted reload times, or a continuously refilling token bucket
/// (docs/model.md#budget-accrual). Both read the same effective daily budget,
/// scaled in Low Power Mode (#low-power-budget) and during the learning
/// period (#learning-period).
package struct ReloadBudget {
  static var window: SimDuration { .day }

  private let parameters: BudgetParameters
  /// The most reloads a ring holds (the largest budget in the scenario).
  let ringCapacity: Int
  private var rings = RingBuffers()
  /// The widget's daily budget before Low Power Mode and learning.
  private let base: Column<Int>
  private let tokens: Column<Double>
  private let tokensAt: Column<SimTime>
  /// Sliding window: the budgeted reloads widget `w` has spent since its
  /// device started, and the first of them (numbered from 0 in the same
  /// order) that may still be inside the window of its next hourly sample
  /// (`sampledLeft`).
  private let spent: Column<Int>
  private let sampleCursor: Column<Int>

  package init(_ parameters: BudgetParameters, ringCapacity: Int, widgets: Int, storage: _DeviceStorage) {
    self.parameters = parameters
    self.ringCapacity = ringCapacity
    base = storage.column(widgets, 1)
    tokens = storage.column(widgets, 0)
    tokensAt = storage.column(widgets, .zero)
    spent = storage.column(widgets, 0)
    sampleCursor = storage.column(widgets, 0)
  }

  var isTokenBucket: Bool { parameters.accrual == .tokenBucket }

  /// Empties every widget's budget for a device of `count` widgets.
  mutating package func reset(widgets count: Int) {
    rings.reset(rings: count, capacity: ringCapacity)
  }

  /// Sets widget `w`'s daily budget and fills its bucket.
  mutating package func start(_ w: Int, dailyBudget: Int, _ app: AppState) {
    base[w] = dailyBudget
    tokens[w] = 0
    tokensAt[w] = .zero
    spent[w] = 0
    sampleCursor[w] = 0
    if isTokenBucket { tokens[w] = tokenCapacity(cap: cap(w, app)) }
  }

  /// Today's budget of widget `w`, reloads per 24 h.
  @inline(__always)
  package func cap(_ w: Int, _ app: AppState) -> Int {
    var b = Double(base[w])
    if app.lowPower { b *= parameters.lowPowerMultiplier }
    if app.learning { b *= parameters.learningMultiplier }
    return max(1, min(ringCapacity, Int(b)))
  }

  // The bucket's capacity and rate follow from today's budget `cap`; the
  // callers compute `cap` once (its Low Power Mode and learning factors
  // are a few floating-point operations) and pass it on.
  @inline(__always)
  fileprivate func tokenCapacity(cap: Int) -> Double {
    max(1, Double(cap) * parameters.tokenBucketBurstFraction)
  }

  /// Tokens per millisecond.
  @inline(__always)
  fileprivate func tokenRate(cap: Int) -> Double {
    Double(cap) / Double(Self.window.milliseconds)
  }

  /// Brings widget `w`'s bucket up to `t` at the current rate.
  @inline(__always)
  func settle(_ w: Int, at t: SimTime, _ app: AppState) {
    settle(w, at: t, cap: cap(w, app))
  }

  @inline(__always)
  private func settle(_ w: Int, at t: SimTime, cap: Int) {
    let dt = Double(t.milliseconds &- tokensAt[w].milliseconds)
    if dt > 0 {
      tokens[w] = min(tokenCapacity(cap: cap), tokens[w] + dt * tokenRate(cap: cap))
      tokensAt[w] = t
    }
  }

  /// Trims widget `w`'s bucket to a (smaller) capacity.
  func clampTokens(_ w: Int, _ app: AppState) {
    tokens[w] = min(tokens[w], tokenCapacity(cap: cap(w, app)))
  }

  /// The earliest time at or after `t` when widget `w` may spend budget,
  /// assuming no other budgeted reload of `w` happens first.
  ///
  /// NOTE: `mutating` although it changes no value of the struct (a token
  /// bucket settles in its column storage), for performance: a
  /// non-mutating call on the device's budget is handed a copy of the
  /// whole struct (208 bytes, with its ring's array), a mutating one its
  /// address. Non-mutating (with `bucketAvailable`), R1 took 1.05x the
  /// CPU time (7 paired whole-process runs).
  @inline(__always)
  mutating func available(_ w: Int, at t: SimTime, _ app: AppState) -> SimTime {
    guard parameters.accrual == .slidingWindow else { return bucketAvailable(w, at: t, app) }
    // Fewer than `cap` reloads in (t - 24 h, t] exactly when the cap-th
    // newest one (if any) is at or before t - 24 h: O(1), no search.
    let cap = cap(w, app)
    if rings.count(of: w) < cap { return t }
    let capth = rings.time(ofRing: w, fromNewest: cap &- 1)
    if capth <= t - Self.window { return t }
    // The cap-th newest reload must leave the window.
    return capth + Self.window
  }

  /// `available` for a token bucket, out of line so that the sliding
  /// window's few instructions stay inlined where budgets are checked.
  @inline(never)
  mutating func bucketAvailable(_ w: Int, at t: SimTime, _ app: AppState) -> SimTime {
    let cap = cap(w, app)
    settle(w, at: t, cap: cap)
    if tokens[w] >= 1 { return t }
    return t + .milliseconds(_roundedUpToInt64((1 - tokens[w]) / tokenRate(cap: cap)))
  }

  /// Widget `w` spends one reload at `t`.
  @inline(__always)
  mutating package func spend(_ w: Int, at t: SimTime, _ app: AppState) {
    switch parameters.accrual {
    case .slidingWindow:
      rings.append(t, to: w)
      spent[w] &+= 1
    case .tokenBucket:
      settle(w, at: t, app)
      tokens[w] = max(0, tokens[w] - 1)
    }
  }

  /// Budgeted reloads widget `w` could still make at `t`.
  @inline(__always)
  package func left(_ w: Int, at t: SimTime, _ app: AppState) -> Int {
    left(w, at: t, cap: cap(w, app))
  }

  /// The hourly budget-left sample of widget `w` at `t`: the budgeted
  /// reloads it could make from `t` to the end of the hour after it, if it
  /// spent as fast as the budget allows (docs/model.md#budget-left). The
  /// same question under both accruals: a token bucket's tokens now plus
  /// the hour's refill; a sliding window's free slots now plus the slots
  /// that free within the hour (a full window whose oldest reloads keep
  /// leaving it still lets the widget reload, and reads so).
  ///
  /// The sample times `t` of a widget never decrease: the reloads that
  /// left the window of one sample stay out of every later one, so a
  /// cursor over them only moves forward (amortised O(1) per sample
  /// instead of a binary search over the ring; NOTE: for performance,
  /// a sample is taken every hour of every widget).
  @inline(__always)
  package func sampledLeft(_ w: Int, at t: SimTime, _ app: AppState) -> Int {
    sampledLeft(w, at: t, SampleRate(cap: cap(w, app), self))
  }

  /// What the hourly samples of one catch-up share: today's budget and,
  /// for a token bucket, its capacity and rate (the same values `left`
  /// computes, found once per catch-up instead of once per sample; NOTE:
  /// for performance).
  struct SampleRate {
    let cap: Int
    let capacity: Double
    let rate: Double

    @inline(__always)
    init(cap: Int, _ budget: ReloadBudget) {
      self.cap = cap
      capacity = budget.tokenCapacity(cap: cap)
      rate = budget.tokenRate(cap: cap)
    }
  }

  /// `sampledLeft` with the catch-up's shared values.
  @inline(__always)
  func sampledLeft(_ w: Int, at t: SimTime, _ r: SampleRate) -> Int {
    let horizon = SimDuration.hour
    guard parameters.accrual == .slidingWindow else {
      let dt = Double(max(0, t.milliseconds &- tokensAt[w].milliseconds))
      return Int(min(r.capacity, tokens[w] + dt * r.rate) + Double(horizon.milliseconds) * r.rate)
    }
    let threshold = t + horizon - Self.window
    let total = spent[w]
    // The ring holds the newest `count` of the `total` reloads.
    var c = max(sampleCursor[w], total &- rings.count(of: w))
    while c < total && rings.time(ofRing: w, fromNewest: total &- 1 &- c) <= threshold { c &+= 1 }
    sampleCursor[w] = c
    return max(0, r.cap &- (total &- c))
  }

  /// `left` for a widget whose budget today is `cap` (`cap(w, app)`).
  @inline(__always)
  func left(_ w: Int, at t: SimTime, cap: Int) -> Int {
    switch parameters.accrual {
    case .slidingWindow:
      return max(0, cap - rings.countNewer(than: t - Self.window, in: w))
    case .tokenBucket:
      let dt = Double(max(0, t.milliseconds &- tokensAt[w].milliseconds))
      return Int(min(tokenCapacity(cap: cap), tokens[w] + dt * tokenRate(cap: cap)))
    }
  }
}
