import Foundation
import ReloadEngine
import ReloadReports
import WidgetModel

/// What a run will take before it starts: its peak memory (a run that would
/// need more than the machine has is refused, with the estimate and a way
/// out) and its wall time (a run of an hour or more says so first).
///
/// Both count the threads that will really work: `--threads`, but no more
/// than there are chunks of devices to hand out.
enum MemoryEstimate {
  /// Bytes of one `SimTime` in a drawn array, times the headroom of an
  /// array grown by doubling (its capacity is up to twice its count).
  static let bytesPerDrawnTime = 8.0 * 2

  /// Threads that will work on `scenario`: each takes chunks of devices.
  static func workers(_ scenario: Scenario, threads: Int) -> Int {
    let chunks = (scenario.devices + ExperimentRunner.chunkSize - 1) / ExperimentRunner.chunkSize
    return max(1, min(threads, chunks))
  }

  /// The parts of the estimate, in bytes.
  struct Parts {
    /// One set of tallies (every strategy and segment).
    var tallies: Double
    /// How many sets: each thread's, the merged copy, replications kept for CIs.
    var tallyCopies: Double
    /// One device's drawn data at its largest (every thread holds one).
    var device: Double
    /// The request and push logs of one thread's simulators.
    var logs: Double
    var workers: Int
    /// Shared content changes, the program and the scenario.
    var shared: Double

    var total: Double { tallies * tallyCopies + (device + logs) * Double(workers) + shared }
  }

  static func parts(_ scenario: Scenario, threads: Int) -> Parts {
    let seconds = scenario.measuredDays * 86_400
    let perSegment = seconds * 4 + 24 * Double(scenario.model.budget.largestBudget + 1) * 8 + 16_000
    let perStrategy = Double(scenario.segments.count) * perSegment + seconds / 3600 * 8 * 8
    // A strategy that sends pushes also counts them per second (silent and WidgetKit).
    let pushing = scenario.strategies.filter(\.backend.sendsPushes).count
    let tallies = perStrategy * Double(scenario.strategies.count) + Double(pushing) * seconds * 8
    let workers = self.workers(scenario, threads: threads)
    let logs = scenario.strategies.reduce(0.0) { $0 + Double(DeviceWorker.logBytes($1, devices: scenario.devices)) }
    let copies = Double(workers + 1 + max(0, scenario.replications - 1))
    // Shared kinds' changes are drawn once per replication for all devices.
    var sharedChanges = 0.0
    for kind in scenario.kinds where kind.scope == .shared {
      sharedChanges += changesPerDay(kind) * scenario.days * bytesPerDrawnTime
    }
    let shared = Double(scenario.kinds.count) * 200_000 + 50_000_000 + sharedChanges
    return Parts(
      tallies: tallies, tallyCopies: copies, device: deviceBytes(scenario), logs: logs, workers: workers,
      shared: shared)
  }

  /// Bytes the run will hold at its peak.
  static func bytes(_ scenario: Scenario, threads: Int) -> Double { parts(scenario, threads: threads).total }

  /// Unpredictable changes per day of a kind, bursts included (scheduled
  /// changes are computed when needed, never stored).
  static func changesPerDay(_ kind: WidgetKindSpec) -> Double {
    guard let u = kind.unpredictable else { return 0 }
    var perDay = u.perDay
    if let b = u.bursts { perDay += b.dailyProbability * b.perHour * b.duration.hours }
    return perDay
  }

  /// The drawn data of the largest device: every per-user kind's data
  /// changes, each widget's glances and taps, app and audio sessions, over
  /// the whole run.
  static func deviceBytes(_ scenario: Scenario) -> Double {
    var largest = 0.0
    for segment in scenario.segments {
      var kinds = Set<Int>()
      var widgets = 0.0
      var interactive = 0.0
      for slot in segment.widgets {
        kinds.insert(slot.kind)
        widgets += Double(slot.count)
        if scenario.kinds[slot.kind].interactive { interactive += Double(slot.count) }
      }
      var perDay = 0.0
      for k in kinds where scenario.kinds[k].scope != .shared { perDay += changesPerDay(scenario.kinds[k]) }
      var views = segment.homeViewsPerDay + segment.lockViewsPerDay
      let surfaces = Set(segment.widgets.map(\.placement.surface))
      if surfaces.contains(.watchFace) { views += segment.watchViewsPerDay }
      if surfaces.contains(.standby) { views += segment.standby.viewsPerDay }
      views *= max(1, segment.weekendViewsFactor)
      perDay += views * (widgets + 1) + segment.tapsPerDay * interactive
      perDay += (segment.appSessionsPerDay + segment.audioSessionsPerDay) * 2.5
      largest = max(largest, perDay)
    }
    return largest * scenario.days * bytesPerDrawnTime
  }

  /// The memory a run may use: the machine's, or less under a cgroup
  /// limit (a container), or `RELOADBENCH_MEMORY_BYTES` when set (a whole
  /// number of bytes: to plan for another machine, and for the tests).
  static func physicalMemory() -> Double {
    if let text = ProcessInfo.processInfo.environment["RELOADBENCH_MEMORY_BYTES"], let n = UInt64(text), n > 0 {
      return Double(n)
    }
    var have = Double(ProcessInfo.processInfo.physicalMemory)
    for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
      if let data = FileManager.default.contents(atPath: path),
        let limit = UInt64(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)),
        limit > 0
      {
        have = min(have, Double(limit))
      }
    }
    return have
  }

  static func gb(_ x: Double) -> String { String(format: "%.1f GB", x / 1e9) }

  /// Refuses a run that would need more than 80 % of the machine's memory.
  static func check(_ scenario: Scenario, threads: Int) throws(CLIError) {
    let p = parts(scenario, threads: threads)
    let need = p.total
    let have = physicalMemory()
    guard need > have * 0.8 else { return }
    let device = p.device * Double(p.workers) >= p.tallies * p.tallyCopies
    let fix =
      device
      ? "fewer days or lower change rates per device, fewer threads (--threads), or split the kinds over several "
        + "scenarios"
      : "fewer days or strategies per run, fewer threads (--threads), or split the strategies over several scenarios"
    throw .badInput(
      "\(scenario.name) would need about \(gb(need)) of memory (estimated: \(gb(p.tallies * p.tallyCopies)) of tallies "
        + "for \(NumberFormat.count(p.workers, "thread")), \(gb(p.device * Double(p.workers))) of drawn device data), "
        + "and this machine has \(gb(have)) (fix: \(fix))")
  }

  // MARK: - Time

  /// Events one thread simulates per second (6 to 17 million measured on
  /// a shared 2-core machine and a laptop core).
  static let eventsPerSecondPerThread = 8e6

  /// Simulated events per widget-day besides glances and data changes:
  /// reloads, timeline entries, budget refills, wakes.
  static let baseEventsPerWidgetDay = 10.0

  /// The sum over the scenario's expected widgets of `perWidget` (a
  /// figure of the widget's slot in its segment).
  static func sumOverWidgets(_ scenario: Scenario, _ perWidget: (Segment, WidgetSlot) -> Double) -> Double {
    var total = 0.0
    let totalWeight = scenario.segments.reduce(0) { $0 + $1.weight }
    for segment in scenario.segments {
      let share = totalWeight > 0 ? segment.weight / totalWeight : 1 / Double(scenario.segments.count)
      var perDevice = 0.0
      for slot in segment.widgets { perDevice += Double(slot.count) * slot.probability * perWidget(segment, slot) }
      total += share * Double(scenario.devices) * perDevice
    }
    return total
  }

  /// The sum over the scenario's devices of `perDevice` (a figure of the
  /// device's segment).
  static func sumOverDevices(_ scenario: Scenario, _ perDevice: (Segment) -> Double) -> Double {
    let totalWeight = scenario.segments.reduce(0) { $0 + $1.weight }
    return scenario.segments.reduce(0.0) { total, segment in
      let share = totalWeight > 0 ? segment.weight / totalWeight : 1 / Double(scenario.segments.count)
      return total + share * Double(scenario.devices) * perDevice(segment)
    }
  }

  /// The widgets `scenario` should place on its devices (an expectation:
  /// each device draws its own).
  static func widgets(_ scenario: Scenario) -> Double { sumOverWidgets(scenario) { _, _ in 1 } }

  /// Seconds `scenario` should take on `threads` threads (a rough figure).
  static func seconds(_ scenario: Scenario, threads: Int) -> Double {
    var events = sumOverWidgets(scenario) { segment, slot in
      baseEventsPerWidgetDay + slot.placement.surface.viewsPerDay(segment) + changesPerDay(scenario.kinds[slot.kind])
    }
    events *= Double(scenario.strategies.count)
    // What each strategy's wakes and app triggers add: a trigger firing
    // thousands of times a day, each time with many calls, outweighs the widgets.
    for strategy in scenario.strategies {
      events += sumOverDevices(scenario) { appEventsPerDay(strategy, $0, scenario) }
    }
    events *= scenario.days * Double(scenario.replications)
    return events / (eventsPerSecondPerThread * Double(workers(scenario, threads: threads)))
  }

  /// What one widget's share of an app's reload call costs, in events: a
  /// call is cheaper than the average event (0.7 fits the release build's
  /// CPU and wall times of issue 41's slow-triggers.json and slow-wakes.json
  /// within a factor of 2 on a shared 2-core machine).
  static let eventsPerCallPerWidget = 0.7

  /// Events per device-day of `strategy`'s wake sources and app triggers
  /// on a device of `segment`: each wake, each trigger's event, and each
  /// call for each widget of its kinds (a rough figure, like the rest).
  static func appEventsPerDay(_ strategy: Strategy, _ segment: Segment, _ scenario: Scenario) -> Double {
    let day = Double(SimDuration.days(1).milliseconds)
    let wakes = strategy.wakes.map { w -> Double in
      if let every = w.every { return day / Double(max(1, every.milliseconds)) }
      if let k = w.onChangesOf, scenario.kinds.indices.contains(k) { return changesPerDay(scenario.kinds[k]) }
      return w.perDay
    }
    let allWakes = wakes.reduce(0, +)
    let fetching = zip(strategy.wakes, wakes).reduce(0.0) { $0 + ($1.0.fetches ? $1.1 : 0) }
    let refreshes = strategy.app.backgroundRefreshInterval.map { day / Double(max(1, $0.milliseconds)) } ?? 0
    let sessions = segment.appSessionsPerDay
    // The share of the day the app is open (in-app events call only then).
    let open = min(1, sessions * Double(segment.sessionLength.mean.milliseconds) / day)
    var events = allWakes
    for t in strategy.triggers {
      let rate: Double =
        switch t.event {
        case .foreground, .background: sessions
        case .inApp: t.perDay * open + t.perSession * sessions
        case .appFetch: sessions + fetching + refreshes
        case .backgroundRefresh: refreshes
        case .silentPush: strategy.backend.silentPush == nil ? 0 : segment.widgets.count > 0 ? 24 : 0
        case .wake: t.wakeSource.map { wakes.indices.contains($0) ? wakes[$0] : 0 } ?? allWakes
        case .tap: segment.tapsPerDay
        }
      let widgets = segment.widgets.reduce(0.0) {
        $0 + (t.kinds.contains($1.kind) ? Double($1.count) * $1.probability : 0)
      }
      events += rate * (1 + Double(t.calls) * widgets * eventsPerCallPerWidget)
    }
    return events
  }

  /// Runs estimated at this many seconds or more say so before starting.
  static let longRun = 3600.0

  /// "about 3.5 days", "about 2 hours".
  static func duration(_ seconds: Double) -> String {
    if seconds >= 2 * 86_400 { return String(format: "about %.1f days", seconds / 86_400) }
    if seconds >= 3600 { return String(format: "about %.1f hours", seconds / 3600) }
    if seconds >= 90 { return String(format: "about %.0f minutes", seconds / 60) }
    return seconds >= 30 ? "about a minute" : "under a minute"
  }

  /// The estimates in one line, for `--dry-run`.
  static func summary(_ scenarios: [Scenario], threads: Int) -> String {
    guard let first = scenarios.first else { return "" }
    let memory = scenarios.map { bytes($0, threads: threads) }.max() ?? 0
    let time = scenarios.reduce(0) { $0 + seconds($1, threads: threads) }
    let n = workers(first, threads: threads)
    return "estimated: \(gb(memory)) of memory at most (this machine has \(gb(physicalMemory()))), "
      + "\(duration(time)) on \(NumberFormat.count(n, "thread"))"
  }

  /// What a run is and how big, for the head of a log: `name`, the
  /// devices, widgets, days, strategies, replications and threads of
  /// `scenarios` (one, or a sweep's points), and the estimated time.
  ///
  ///     run default: 3000 devices (about 3940 widgets) x 8 days (1 warm-up) x 8 strategies, seed 42,
  ///     2 threads; estimated under a minute
  static func header(_ scenarios: [Scenario], name: String, threads: Int) -> String {
    guard let s = scenarios.first else { return "run \(name)" }
    let points = scenarios.count > 1 ? NumberFormat.count(scenarios.count, "sweep point") + " of " : ""
    let widgets = NumberFormat.count(Int(widgets(s).rounded()), "widget")
    let time = scenarios.reduce(0) { $0 + seconds($1, threads: threads) }
    return "run \(name): \(points)\(NumberFormat.count(s.devices, "device")) (about \(widgets)) x "
      + "\(NumberFormat.count(s.days, "day")) (\(NumberFormat.trim(NumberFormat.fixed(s.warmupDays, decimals: 2))) "
      + "warm-up) x "
      + NumberFormat.count(s.strategies.count, "strategy")
      + (s.replications > 1 ? " x \(NumberFormat.count(s.replications, "replication"))" : "")
      + ", seed \(s.seed), \(NumberFormat.count(workers(s, threads: threads), "thread")); estimated \(duration(time))"
  }

  /// The line a long run prints before it starts (`scenarios`: one, or
  /// every point of a sweep), or nil for a short one.
  static func longRunNotice(_ scenarios: [Scenario], name: String, threads: Int) -> String? {
    guard let first = scenarios.first else { return nil }
    let s = scenarios.reduce(0) { $0 + seconds($1, threads: threads) }
    guard s >= longRun else { return nil }
    let n = workers(first, threads: threads)
    let size =
      scenarios.count > 1
      ? NumberFormat.count(scenarios.count, "point")
      : NumberFormat.count(first.devices, "device", text: NumberFormat.short(Double(first.devices))) + " x "
        + NumberFormat.count(first.days, "day") + " x " + NumberFormat.count(first.strategies.count, "strategy")
    return "\(name): estimated run time \(duration(s)) on \(NumberFormat.count(n, "thread")) (\(size)); "
      + "progress is printed every \(NumberFormat.short(ProgressLine.logInterval)) s off a terminal "
      + "(for a shorter run: fewer devices, days or strategies)"
  }

  static func longRunNotice(_ scenario: Scenario, threads: Int) -> String? {
    longRunNotice([scenario], name: scenario.name, threads: threads)
  }
}
