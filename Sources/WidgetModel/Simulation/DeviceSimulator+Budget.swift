import ReloadEngine

/// The per-widget reload budget: a sliding 24 h window over a flat ring of
/// budgeted reload times, or a continuously refilling token bucket
/// (docs/model.md#budget-accrual). Both read the same daily budget, scaled in
/// Low Power Mode (#low-power-budget) and the learning period (#learning-period).
extension DeviceSimulator {
  static var window: SimDuration { .day }

  /// Today's budget of widget `w`, reloads per 24 h.
  @inline(__always)
  func budgetCap(_ w: Int, _ env: DeviceEnvironment) -> Int {
    var b = Double(baseBudget[w])
    if lowPower { b *= params.budget.lowPowerMultiplier }
    if learning { b *= params.budget.learningMultiplier }
    return max(1, min(ringCapacity, Int(b)))
  }

  @inline(__always)
  func tokenCapacity(_ w: Int, _ env: DeviceEnvironment) -> Double {
    max(1, Double(budgetCap(w, env)) * params.budget.tokenBucketBurstFraction)
  }

  /// Tokens per millisecond.
  @inline(__always)
  func tokenRate(_ w: Int, _ env: DeviceEnvironment) -> Double {
    Double(budgetCap(w, env)) / Double(Self.window.milliseconds)
  }

  @inline(__always)
  mutating func refreshTokens(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    let dt = Double(t.milliseconds &- tokensAt[w].milliseconds)
    if dt > 0 {
      tokens[w] = min(tokenCapacity(w, env), tokens[w] + dt * tokenRate(w, env))
      tokensAt[w] = t
    }
  }

  /// The earliest time at or after `t` when widget `w` may spend budget,
  /// assuming no other budgeted reload of `w` happens first.
  @inline(__always)
  mutating func budgetAvailable(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) -> SimTime {
    let cap = budgetCap(w, env)
    switch params.budget.accrual {
    case .slidingWindow:
      // Fewer than `cap` reloads in (t - 24 h, t] exactly when the cap-th
      // newest one (if any) is at or before t - 24 h: O(1), no search.
      if rings.count(of: w) < cap { return t }
      let capth = rings.time(ofRing: w, fromNewest: cap &- 1)
      if capth <= t - Self.window { return t }
      // The cap-th newest reload must leave the window.
      return capth + Self.window
    case .tokenBucket:
      refreshTokens(w, at: t, env)
      if tokens[w] >= 1 { return t }
      let wait = ((1 - tokens[w]) / tokenRate(w, env)).rounded(.up)
      return t + .milliseconds(Int64(wait))
    }
  }

  @inline(__always)
  mutating func consumeBudget(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) {
    switch params.budget.accrual {
    case .slidingWindow:
      rings.append(t, to: w)
    case .tokenBucket:
      refreshTokens(w, at: t, env)
      tokens[w] = max(0, tokens[w] - 1)
    }
  }

  /// Budgeted reloads widget `w` could still make at `t`.
  @inline(__always)
  func budgetLeft(_ w: Int, at t: SimTime, _ env: DeviceEnvironment) -> Int {
    switch params.budget.accrual {
    case .slidingWindow:
      return max(0, budgetCap(w, env) - rings.countNewer(than: t - Self.window, in: w))
    case .tokenBucket:
      let dt = Double(max(0, t.milliseconds &- tokensAt[w].milliseconds))
      return Int(min(tokenCapacity(w, env), tokens[w] + dt * tokenRate(w, env)))
    }
  }
}
