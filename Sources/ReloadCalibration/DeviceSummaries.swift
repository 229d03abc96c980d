/// The per-device figures the fit reads, computed once from a log; the
/// bootstrap resamples devices and recombines these.
///
/// How each figure relates to the model is in Scenarios/log-format.md
/// ("What the fit reads"); the rules are those of docs/model.md.
struct DeviceSummary {
  var name = ""
  /// Complete days observed (days with lines whose neighbours have lines too).
  var days = 0
  var hasLowPower = false
  /// Saturated instances (asking at least every `saturatedRequest`): per
  /// complete day outside Low Power Mode, the most budgeted reloads in a
  /// 24 h ending at one of the day's reloads (B under a sliding window).
  var saturatedDayCounts: [Double] = []
  /// Saturated instance-days: mean interval of the day's first fifth
  /// and last fifth of budgeted reload intervals, minutes.
  var earlyIntervals: [Double] = []
  var lateIntervals: [Double] = []
  /// Saturated instance-days: (reloads - 1) and the span first-to-last, days (for the bucket's capacity).
  var spans: [(count: Double, span: Double)] = []
  /// Intervals between two budgeted reloads of a saturated instance, both in Low Power Mode, minutes.
  var lowPowerIntervals: [Double] = []
  /// Saturated instances' reload intervals with the Low Power Mode flag
  /// logged off, late in the day (for the multiplier's comparison), minutes.
  var normalLateIntervals: [Double] = []
  /// Per family: saturated day counts and late intervals.
  var familyLate: [Int32: [Double]] = [:]
  var familyCounts: [Int32: [Double]] = [:]
  /// Intervals after an asap request (early in the day, before the budget holds), minutes.
  var asapSpacing: [Double] = []
  /// Intervals after a request shorter than the interval itself, seconds (min interval).
  var shortRequestIntervals: [Double] = []
  var shortRequests = 0
  /// Policy lateness, for the replay of the budget spent at each request.
  var lateness: [LatenessSample] = []
  /// The requests `lateness` reads, and those the app's reload (foreground,
  /// a push) answered first, whose lateness the log never shows: their
  /// count, and the seconds all of them waited (to the next line).
  var latenessCut = 0
  var latenessWaitS = 0.0
  /// Per instance: the times of its budgeted reloads (to replay its budget).
  var budgetTimes: [[Int64]] = []
  /// Per instance: its policy requests answered by the system's reload on a
  /// complete day, outside Low Power Mode (`BudgetHolds`).
  var heldPairs: [[HoldPair]] = []
  /// The quarter hours of the local day in which the device logged any
  /// line on some day: when its user is seen awake (`Fitter.countHeld`).
  var awakeQuarters = [Bool](repeating: false, count: 96)
  /// The device's UTC offset, ms (its days' `DeviceDays.offset`).
  var offsetMs: Int64 = 0
  /// Background app calls: latency from the call to the reload, seconds.
  var callLatency: [Double] = []
  /// Bursts: (calls, reloads) per burst of calls within 5 s.
  var bursts: [(calls: Double, reloads: Double)] = []
  var silentPushes = 0
  var bgRefreshes = 0
  /// Budgeted reloads per complete day, every instance (for the chart).
  var reloadsPerDay: [Double] = []
  /// Every interval between two budgeted reloads of an instance, minutes (chart).
  var intervals: [Double] = []
}

/// A policy request answered by a reload of the system's: how late it came.
struct LatenessSample {
  /// Seconds after the requested date (negative: early).
  var lateness: Double
  /// The requested date, ms since 1970.
  var requestTime: Int64
  /// Its instance: an index into the device's `budgetTimes`.
  var instance: Int
}

/// Reads a sorted, de-duplicated log into device summaries.
struct Summarizer {
  static let saturatedRequestMs: Int64 = 10 * 60_000
  static let dayMs: Int64 = 86_400_000
  static let nightGapMs: Int64 = 3 * 3_600_000

  var dropped = Dropped()

  struct Dropped {
    var duplicates = 0
    var edgeDays = 0
    var outOfOrder = 0
    var unknownOffsetDevices = 0
  }

  /// The lines of each device in time order (indices into `log`).
  static func byDevice(_ log: ReloadLog) -> [[Int]] {
    var groups = Array(repeating: [Int](), count: log.devices.count)
    for i in 0..<log.count { groups[Int(log.device[i])].append(i) }
    for g in groups.indices {
      groups[g].sort { a, b in log.time[a] != log.time[b] ? log.time[a] < log.time[b] : a < b }
    }
    return groups
  }

  static func sameLine(_ log: ReloadLog, _ a: Int, _ b: Int) -> Bool {
    log.type[a] == log.type[b] && log.time[a] == log.time[b] && log.instance[a] == log.instance[b]
      && log.kind[a] == log.kind[b] && log.policy[a] == log.policy[b] && log.next[a] == log.next[b]
      && log.trigger[a] == log.trigger[b] && log.entries[a] == log.entries[b]
  }

  /// A budgeted reload: the system's own (no trigger), or the app's in the background.
  static func budgeted(_ log: ReloadLog, _ i: Int) -> Bool {
    if log.trigger[i] == 0 { return true }
    let t = log.triggers[log.trigger[i]]
    return log.foreground[i] != 1 && t != "foreground" && t != "tap"
  }

  /// The figures of one device whose lines are `lines` (in time order).
  mutating func summarize(_ log: ReloadLog, lines: [Int]) -> DeviceSummary {
    var s = DeviceSummary()
    let ls = deduplicated(log, lines)
    guard let first = ls.first else { return s }
    s.name = log.devices[log.device[first]]
    let days = DeviceDays(log, ls)
    if !days.offsetLogged { dropped.unknownOffsetDevices += 1 }
    dropped.edgeDays += days.partial
    s.days = days.completeCount
    s.hasLowPower = ls.contains { log.lowPower[$0] == 1 }
    s.offsetMs = days.offset
    for i in ls { s.awakeQuarters[Self.quarter(log.time[i], offset: days.offset)] = true }
    let sorted = SortedLines(log, ls, days: days, into: &s)
    for (_, instanceLines) in sorted.byInstance.sorted(by: { $0.key < $1.key }) {
      Self.summarizeInstance(log, instanceLines, days: days, into: &s)
    }
    Self.summarizeCalls(log, sorted.calls, timelinesByKind: sorted.timelinesByKind, into: &s)
    return s
  }

  /// The quarter hour of the local day of time `t` (ms since 1970).
  static func quarter(_ t: Int64, offset: Int64) -> Int {
    let ms = ((t + offset) % dayMs + dayMs) % dayMs
    return Int(ms / 900_000)
  }

  /// `lines` without exact repeats (a logger that wrote a line twice, a
  /// file merged twice), counted in `dropped`.
  mutating func deduplicated(_ log: ReloadLog, _ lines: [Int]) -> [Int] {
    var ls: [Int] = []
    ls.reserveCapacity(lines.count)
    for i in lines {
      if let last = ls.last, Self.sameLine(log, last, i) {
        dropped.duplicates += 1
        continue
      }
      ls.append(i)
    }
    return ls
  }

  /// One instance's figures: its budgeted reloads (for the budget
  /// replay and the interval chart), its days and what it asked against
  /// what came.
  static func summarizeInstance(_ log: ReloadLog, _ lines: [Int], days: DeviceDays, into s: inout DeviceSummary) {
    let budgetedLines = lines.filter { budgeted(log, $0) }
    let instance = s.budgetTimes.count
    s.budgetTimes.append(budgetedLines.map { log.time[$0] })
    s.heldPairs.append(holdPairs(log, lines, days: days))
    let request = InstanceRequests(log, lines)
    summarizeDays(log, budgetedLines, request: request, family: log.family[lines[0]], days: days, into: &s)
    summarizePairs(log, lines, saturated: request.saturated, instance: instance, days: days, into: &s)
    for k in 1..<max(1, budgetedLines.count) {
      let gap = log.time[budgetedLines[k]] - log.time[budgetedLines[k - 1]]
      s.intervals.append(Double(gap) / 60_000)
    }
  }

  /// An instance's policy requests answered by the system's own reload on
  /// a complete day, neither line in Low Power Mode: what `BudgetHolds`
  /// replays under each reading of the budget.
  static func holdPairs(_ log: ReloadLog, _ lines: [Int], days: DeviceDays) -> [HoldPair] {
    var out: [HoldPair] = []
    // The index of line k's reload among the instance's budgeted reloads.
    var budgetedBefore = lines.first.map { budgeted(log, $0) ? 1 : 0 } ?? 0
    for k in 1..<max(1, lines.count) {
      let a = lines[k - 1]
      let b = lines[k]
      let j = budgetedBefore
      if budgeted(log, b) { budgetedBefore += 1 } else { continue }
      guard log.policy[a] != .never, log.next[a] != ReloadLog.none, log.trigger[b] == 0 else { continue }
      guard log.lowPower[a] != 1, log.lowPower[b] != 1, days.isComplete(days.day(log.time[b])) else { continue }
      // A timeline due at once is spaced by its own rule (docs/model.md#asap-reloads), which `reload.asap` reads.
      guard log.next[a] > log.time[a] + 1000 else { continue }
      out.append(HoldPair(reload: Int32(j), request: log.next[a]))
    }
    return out
  }

  /// Per complete day of an instance: its budgeted reloads, and for a
  /// saturated instance the figures of the budget (`saturatedDay`).
  static func summarizeDays(
    _ log: ReloadLog, _ budgetedLines: [Int], request: InstanceRequests, family: Int32, days: DeviceDays,
    into s: inout DeviceSummary
  ) {
    let (perDay, busiest) = budgetedDays(log, budgetedLines, days: days)
    for (d, dl) in perDay.sorted(by: { $0.key < $1.key }) where days.isComplete(d) {
      s.reloadsPerDay.append(Double(dl.count))
      guard request.saturated else { continue }
      let lpm = dl.contains { log.lowPower[$0] == 1 }
      // A widget asking at once is paced under `asap: paced`: under a window
      // it never reaches its budget, so its count says nothing of B.
      if !lpm && request.median > 1000 {
        // Not the day's count: a held request runs late after its slot
        // frees, so a saturated widget makes a little under B a calendar day.
        let n = Double(busiest[d] ?? dl.count)
        s.saturatedDayCounts.append(n)
        s.familyCounts[family, default: []].append(n)
      }
      saturatedDay(log, dl, lowPower: lpm, family: family, into: &s)
    }
  }

  /// An instance's budgeted reloads per day, and per day the most of them
  /// in a 24 h ending at one of the day's reloads: a sliding window never
  /// lets that exceed B (docs/model.md#budget-accrual).
  static func budgetedDays(_ log: ReloadLog, _ budgetedLines: [Int], days: DeviceDays)
    -> (perDay: [Int64: [Int]], busiest: [Int64: Int])
  {
    var perDay: [Int64: [Int]] = [:]
    var busiest: [Int64: Int] = [:]
    var oldest = 0
    var today = Int64.min
    var most = 0
    for (k, i) in budgetedLines.enumerated() {
      let t = log.time[i]
      let d = days.day(t)
      perDay[d, default: []].append(i)
      while log.time[budgetedLines[oldest]] <= t - dayMs { oldest += 1 }
      if d != today {
        if today != .min { busiest[today] = most }
        today = d
        most = 0
      }
      most = max(most, k + 1 - oldest)
    }
    if today != .min { busiest[today] = most }
    return (perDay, busiest)
  }

  /// The pace of a saturated instance over one complete day `dl` (its
  /// budgeted reloads): early and late intervals, the span, Low Power
  /// Mode's intervals.
  static func saturatedDay(
    _ log: ReloadLog, _ dl: [Int], lowPower lpm: Bool, family: Int32, into s: inout DeviceSummary
  ) {
    // Intervals within the day's awake run (no night gaps), not in Low Power Mode.
    var iv: [Double] = []
    for k in 1..<max(1, dl.count) {
      let a = dl[k - 1]
      let b = dl[k]
      let gap = log.time[b] - log.time[a]
      if gap > nightGapMs { continue }
      if log.lowPower[a] == 1 || log.lowPower[b] == 1 {
        if log.lowPower[a] == 1 && log.lowPower[b] == 1 { s.lowPowerIntervals.append(Double(gap) / 60_000) }
        continue
      }
      iv.append(Double(gap) / 60_000)
    }
    // Days with Low Power Mode end early in the day's pace: only whole ordinary days show the steady state.
    guard iv.count >= 10 && !lpm, let first = dl.first, let last = dl.last else { return }
    let fifth = max(2, iv.count / 5)
    // Means, not medians: the pace is reloads over time, and the
    // intervals of a held widget are skewed (a lateness draw, a background reload between).
    let early = Stats.mean(Array(iv.prefix(fifth)))
    let late = Stats.mean(Array(iv.suffix(fifth)))
    s.earlyIntervals.append(early)
    s.lateIntervals.append(late)
    s.familyLate[family, default: []].append(late)
    s.normalLateIntervals.append(contentsOf: iv.suffix(fifth))
    let span = Double(log.time[last] - log.time[first]) / Double(dayMs)
    s.spans.append((Double(dl.count - 1), span))
  }

  /// Consecutive lines of an instance: what was asked, and what came
  /// (asap spacing, short requests for the minimum interval, lateness and
  /// the requests the app's own reloads cut short).
  static func summarizePairs(
    _ log: ReloadLog, _ lines: [Int], saturated: Bool, instance: Int, days: DeviceDays,
    into s: inout DeviceSummary
  ) {
    for k in 1..<max(1, lines.count) {
      let a = lines[k - 1]
      let b = lines[k]
      guard log.policy[a] != .never else { continue }
      let gap = log.time[b] - log.time[a]
      if gap <= 0 { continue }
      let asked = log.next[a] - log.time[a]
      guard days.isComplete(days.day(log.time[b])) else { continue }
      if gap > nightGapMs { continue }
      let latenessPair = asked >= 300_000 && !saturated && log.lowPower[b] != 1
      if latenessPair { s.latenessWaitS += Double(gap) / 1000 }
      if log.trigger[b] != 0 {
        if latenessPair { s.latenessCut += 1 }
        continue
      }
      if asked <= 1000 {
        // Asked at once: the spacing the system chose (early in the day: budget not binding).
        s.asapSpacing.append(Double(gap) / 60_000)
      } else if asked < 300_000 {
        s.shortRequests += 1
        if gap > asked + 1000 { s.shortRequestIntervals.append(Double(gap) / 1000) }
      } else if latenessPair {
        s.lateness.append(
          LatenessSample(
            lateness: Double(log.time[b] - log.next[a]) / 1000, requestTime: log.next[a], instance: instance))
      }
    }
  }

  /// The app's calls: for a background call, the latency to the first
  /// reload of its kind with its trigger; for a burst of calls of one kind
  /// within 5 s, its calls and reloads.
  static func summarizeCalls(
    _ log: ReloadLog, _ calls: [Int], timelinesByKind: [Int32: [Int]], into s: inout DeviceSummary
  ) {
    var k = 0
    while k < calls.count {
      let c = calls[k]
      // A burst: calls of the same kind within 5 s of the previous one.
      var last = k
      while last + 1 < calls.count && log.kind[calls[last + 1]] == log.kind[c]
        && log.time[calls[last + 1]] - log.time[calls[last]] <= 5000
      {
        last += 1
      }
      let burstEnd = log.time[calls[last]]
      let background = log.foreground[c] != 1
      let reloads = reloadsAfter(log, timelinesByKind, call: c, until: burstEnd + 600_000)
      if background, let firstReload = reloads.first {
        s.callLatency.append(Double(log.time[firstReload] - log.time[c]) / 1000)
      }
      if last > k && background {
        s.bursts.append((Double(last - k + 1), Double(reloads.count)))
      }
      k = last + 1
    }
  }

  /// Reloads with the call's trigger of the call's kind (every kind for
  /// `reloadAllTimelines`) from the call until `until`, one per instance at most
  /// before the next call wave.
  static func reloadsAfter(_ log: ReloadLog, _ byKind: [Int32: [Int]], call c: Int, until: Int64) -> [Int] {
    let t0 = log.time[c]
    // (time, line): the sort reads the tuple, not the log (a closure over the log copies it).
    var out: [(Int64, Int)] = []
    let kinds: [Int32] = log.kind[c] >= 0 ? [log.kind[c]] : Array(byKind.keys)
    for kk in kinds {
      guard let lines = byKind[kk] else { continue }
      // Binary search for the first line at or after the call.
      var lo = 0
      var hi = lines.count
      while lo < hi {
        let mid = (lo + hi) / 2
        if log.time[lines[mid]] < t0 { lo = mid + 1 } else { hi = mid }
      }
      var i = lo
      while i < lines.count && log.time[lines[i]] <= until {
        if log.trigger[lines[i]] == log.trigger[c] { out.append((log.time[lines[i]], lines[i])) }
        i += 1
      }
    }
    return out.sorted { $0.0 < $1.0 }.map(\.1)
  }
}

/// A device's days: local days when its lines give the UTC offset (else
/// UTC days), and which are complete: a day with lines whose neighbours
/// have lines too. The first and last days (install, uninstall, the log's
/// cut) and days next to a gap are partial.
struct DeviceDays {
  /// The offset of local time, milliseconds east of UTC.
  let offset: Int64
  let offsetLogged: Bool
  /// The complete days, ascending, in days since 1970-01-01 (local). Days
  /// are kept as a list, never as an array over first-to-last: a device
  /// whose lines span centuries costs what its lines cost.
  private let complete: [Int64]
  /// Days with lines that are not complete.
  let partial: Int

  /// The days of a device whose lines (in time order) are `lines`; not empty.
  init(_ log: ReloadLog, _ lines: [Int]) {
    let logged = lines.lazy.map { log.utcOffset[$0] }.first { $0 != ReloadLog.noOffset }
    offsetLogged = logged != nil
    let offset = logged.map { Int64($0) * 60_000 } ?? 0
    self.offset = offset
    var present: [Int64] = []
    var sorted = true
    for i in lines {
      let d = Self.day(log.time[i], offset: offset)
      if let last = present.last {
        if d == last { continue }
        if d < last { sorted = false }
      }
      present.append(d)
    }
    if !sorted { present = Array(Set(present)).sorted() }
    // Complete: a day with lines whose neighbours have lines too (so never the first or the last).
    var complete: [Int64] = []
    for k in present.indices.dropFirst().dropLast() where present[k - 1] == present[k] - 1
      && present[k + 1] == present[k] + 1
    {
      complete.append(present[k])
    }
    self.complete = complete
    partial = present.count - complete.count
  }

  static func day(_ t: Int64, offset: Int64) -> Int64 {
    Int64((Double(t + offset) / Double(Summarizer.dayMs)).rounded(.down))
  }

  /// The local day of time `t` (ms since 1970).
  func day(_ t: Int64) -> Int64 { Self.day(t, offset: offset) }

  /// Whether local day `d` is complete.
  func isComplete(_ d: Int64) -> Bool {
    var low = 0
    var high = complete.count
    while low < high {
      let mid = (low + high) / 2
      if complete[mid] < d { low = mid + 1 } else { high = mid }
    }
    return low < complete.count && complete[low] == d
  }

  var completeCount: Int { complete.count }
}

/// A device's lines sorted by what they record: timelines per instance and
/// per kind, the app's calls; silent pushes and BGAppRefresh runs on
/// complete days are counted as they pass.
struct SortedLines {
  var calls: [Int] = []
  var timelinesByKind: [Int32: [Int]] = [:]
  var byInstance: [Int32: [Int]] = [:]

  init(_ log: ReloadLog, _ lines: [Int], days: DeviceDays, into s: inout DeviceSummary) {
    for i in lines {
      switch log.type[i] {
      case .timeline:
        byInstance[log.instance[i], default: []].append(i)
        timelinesByKind[log.kind[i], default: []].append(i)
      case .reloadCall: calls.append(i)
      case .silentPush: if days.isComplete(days.day(log.time[i])) { s.silentPushes += 1 }
      case .bgRefresh: if days.isComplete(days.day(log.time[i])) { s.bgRefreshes += 1 }
      default: break
      }
    }
  }
}

/// How far ahead an instance asks: the median of its requests (a request
/// due at once counts as 0), and whether that makes it saturated (asking at
/// least every `Summarizer.saturatedRequestMs`).
struct InstanceRequests {
  /// Milliseconds; `Int64.max` for an instance that never asks.
  let median: Int64

  init(_ log: ReloadLog, _ lines: [Int]) {
    var requests: [Int64] = []
    for i in lines where log.policy[i] != .never { requests.append(max(0, log.next[i] - log.time[i])) }
    requests.sort()
    median = requests.isEmpty ? Int64.max : requests[requests.count / 2]
  }

  var saturated: Bool { median <= Summarizer.saturatedRequestMs }
}
