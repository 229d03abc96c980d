import ReloadEngine

/// R1 (`docs/r1.md`) simulated the textbook way: every widget's reloads,
/// deferrals, data changes and glances in one global event queue, one event
/// at a time. Independent of the device simulator, it serves two purposes:
/// measuring the event sets on a real model (`reloadbench bench`), and
/// cross-checking the device simulator's R1 figures (a test).
public enum R1Reference {
  /// What R1 reports.
  public struct Output: Sendable, Equatable {
    public var reloads: UInt64 = 0
    public var deferrals: UInt64 = 0
    public var dataChanges: UInt64 = 0
    public var glances: UInt64 = 0
    public var freshGlances: UInt64 = 0
    public var stalenessSumMs: UInt64 = 0
    public var events: UInt64 { reloads + deferrals + dataChanges + glances }
    public var freshFraction: Double { glances == 0 ? 0 : Double(freshGlances) / Double(glances) }
    /// Mean staleness of stale glances, in minutes.
    public var meanStalenessMinutes: Double {
      let stale = glances - freshGlances
      return stale == 0 ? 0 : Double(stalenessSumMs) / Double(stale) / Double(SimDuration.minute.milliseconds)
    }
  }

  // R1's fixed parameters (docs/r1.md#parameters).
  static let period: Int64 = 900_000
  static let jitter: Int64 = 120_000
  static let budget = 50
  static var day: Int64 { SimDuration.day.milliseconds }

  enum Kind: UInt32 { case reload = 0, deferral, data, glance }

  /// Simulates `widgets` widgets for `days` days with event set `Q`.
  public static func run<Q: EventSet>(_ type: Q.Type, widgets: Int, days: Double, seed: UInt64) -> Output {
    let end = SimTime.zero + .days(days)
    var rng = Xoshiro256StarStar(seed: seed)
    var glanceRates = [Double](repeating: 0, count: 24)
    for h in 7..<23 { glanceRates[h] = 4 }
    let glances = TimeOfDayPoissonProcess(ratesPerHour: glanceRates)
    var rings = RingBuffers(rings: widgets, capacity: budget)
    var staleSince = [SimTime](repeating: .never, count: widgets)
    var sim = Simulator<Q>()
    func pack(_ w: Int, _ k: Kind) -> UInt32 { UInt32(w) << 2 | k.rawValue }
    for w in 0..<widgets {
      let request = Int64(rng.nextUnit() * Double(period))
      sim.schedule(
        payload: pack(w, .reload), at: SimTime(milliseconds: request + Int64(rng.nextUnit() * Double(jitter))))
      sim.schedule(payload: pack(w, .data), at: SimTime(milliseconds: Int64(rng.nextStandardExponential() * 1_800_000)))
      sim.schedule(payload: pack(w, .glance), at: glances.nextArrival(after: .zero, using: &rng))
    }
    var out = Output()
    while let e = sim.step(before: end) {
      let w = Int(e.payload >> 2)
      let t = e.time
      switch Kind(rawValue: e.payload & 3).unsafelyUnwrapped {
      case .reload:
        out.reloads += 1
        staleSince[w] = .never
        rings.append(t, to: w)
        let r = t.milliseconds + period
        // Blocked iff the last B reloads all lie in (r - 24 h, r].
        if rings.count(of: w) == budget && rings.oldest(of: w).milliseconds > r - day {
          sim.schedule(payload: pack(w, .deferral), at: SimTime(milliseconds: r))
        } else {
          sim.schedule(payload: pack(w, .reload), at: SimTime(milliseconds: r + Int64(rng.nextUnit() * Double(jitter))))
        }
      case .deferral:
        out.deferrals += 1
        let at = rings.oldest(of: w).milliseconds + day + Int64(rng.nextUnit() * Double(jitter))
        sim.schedule(payload: pack(w, .reload), at: SimTime(milliseconds: at))
      case .data:
        out.dataChanges += 1
        if staleSince[w] == .never { staleSince[w] = t }
        sim.schedule(payload: pack(w, .data), at: t + .milliseconds(Int64(rng.nextStandardExponential() * 1_800_000)))
      case .glance:
        out.glances += 1
        if staleSince[w] == .never {
          out.freshGlances += 1
        } else {
          out.stalenessSumMs += UInt64((t - staleSince[w]).milliseconds)
        }
        sim.schedule(payload: pack(w, .glance), at: glances.nextArrival(after: t, using: &rng))
      }
    }
    return out
  }
}
