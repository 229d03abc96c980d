import ReloadReports
import WidgetModel

/// What `run --dry-run` prints after the run's size: the plan the scenario
/// derives, so that a default it did not mean shows before anything runs:
/// each kind's content and clock, its first day's scheduled changes in each
/// of the devices' zones, the budget, and each strategy's parts per kind.
enum DryRunPlan {
  /// Clock times shown per kind and zone before "… (N in all)".
  static let shownTimes = 8

  static func text(_ s: Scenario) -> String {
    var lines = ["  kinds:"]
    let zones = Self.zones(s)
    for kind in s.kinds {
      lines.append("    \(kind.name): " + content(kind))
      if let scheduled = kind.scheduled {
        let minutes = firstDay(scheduled)
        if kind.scope == .shared {
          for z in zones {
            let local = minutes.map { $0 + Int(((z - scheduled.sharedUTCOffsetHours) * 60).rounded()) }
            lines.append("      first day at \(utc(z)) (devices' clock): " + times(local))
          }
        } else {
          lines.append(
            "      first day, each device's own clock (\(zones.map(utc).joined(separator: ", "))): "
              + times(minutes))
        }
      }
    }
    let budget = ModelParameter.parameters(of: .budget).map {
      "\($0.declaration.key) \(AssumptionReference.text($0.value(in: s.model), of: $0))"
    }
    lines.append("  budget: " + budget.joined(separator: ", "))
    for strategy in s.strategies {
      lines.append("  strategy \(strategy.name):")
      if strategy.code != nil {
        lines.append("    timelines from its Swift code")
      } else {
        let perKind = s.kinds.indices.map { k in
          let own = k < strategy.kinds.count ? strategy.kinds[k] : nil
          return timeline(own?.timeline ?? strategy.timeline) + ", data: \((own?.data ?? .fetch).rawValue)"
        }
        if s.kinds.count > 1 && Set(perKind).count == 1 {
          lines.append("    every kind: " + perKind[0])
        } else {
          for (kind, text) in zip(s.kinds, perKind) { lines.append("    \(kind.name): " + text) }
        }
      }
      lines.append("    app: " + app(strategy.app))
      lines.append("    backend: " + backend(strategy.backend, kinds: s.kinds))
      if !strategy.triggers.isEmpty {
        let t = strategy.triggers.map { "on \($0.event) reload \(kindNames($0.kinds, s.kinds))" }
        lines.append("    triggers: " + t.joined(separator: "; "))
      }
      if !strategy.wakes.isEmpty {
        lines.append("    wakes: " + strategy.wakes.map { "\($0.name) (\($0.type.rawValue))" }.joined(separator: ", "))
      }
    }
    return lines.map { RunCommand.wrapped($0) }.joined()
  }

  /// The devices' clocks, hours east of UTC, each once, in order.
  static func zones(_ s: Scenario) -> [Double] {
    Set(s.segments.flatMap { $0.utcOffsets.filter { $0.weight > 0 }.map(\.hours) }).sorted()
  }

  static func content(_ kind: WidgetKindSpec) -> String {
    var parts: [String] = []
    let clock =
      kind.scope == .shared
      ? "shared, on \(utc(kind.scheduled?.sharedUTCOffsetHours ?? kind.unpredictable?.sharedUTCOffsetHours ?? 0))"
      : "per user, on each device's clock"
    parts.append(clock)
    if let u = kind.unpredictable {
      parts.append("unpredictable \(NumberFormat.trim(NumberFormat.fixed(u.perDay, decimals: 2)))/day")
    }
    if kind.scheduled == nil && kind.unpredictable == nil { parts.append("no changes") }
    parts.append("tolerance \(NumberFormat.minutes(kind.tolerance.minutes))")
    return parts.joined(separator: "; ")
  }

  /// Day 0's scheduled changes, minutes after midnight on the content's clock.
  static func firstDay(_ s: ScheduledChanges) -> [Int] {
    if !s.at.isEmpty { return s.at.map { Int($0.minutes.rounded()) }.sorted() }
    let every = Int(s.every.minutes.rounded())
    guard every > 0 else { return [] }
    let offset = Int(s.offset.minutes.rounded())
    let from = s.fromHour * 60
    let to = s.toHour * 60
    let first = offset + (from > offset ? (from - offset + every - 1) / every : 0) * every
    return Array(stride(from: first, to: to, by: every))
  }

  static func times(_ minutes: [Int]) -> String {
    guard !minutes.isEmpty else { return "none" }
    let shown = minutes.prefix(shownTimes).map(clock)
    return shown.joined(separator: ", ") + (minutes.count > shownTimes ? " … (\(minutes.count) in all)" : "")
  }

  static func clock(_ minutes: Int) -> String {
    let m = ((minutes % 1440) + 1440) % 1440
    let day = minutes < 0 ? " the day before" : minutes >= 1440 ? " the next day" : ""
    return String(m / 60 / 10) + String(m / 60 % 10) + ":" + String(m % 60 / 10) + String(m % 10) + day
  }

  static func utc(_ hours: Double) -> String {
    "UTC" + (hours < 0 ? "-" : "+") + NumberFormat.trim(NumberFormat.fixed(abs(hours), decimals: 2))
  }

  static func timeline(_ t: EntryTimeline) -> String {
    let policy: String
    switch t.policy {
    case .atEnd: policy = ".atEnd"
    case .after(let d): policy = ".after(+\(NumberFormat.minutes(d.minutes)))"
    case .afterDate: policy = ".after(date)"
    case .atLocalTime(let w): policy = ".after(\(clock(w.fromMinute))–\(clock(w.toMinute)) local)"
    case .never: policy = ".never"
    }
    let spacing = t.entries > 1 ? " \(NumberFormat.minutes(t.spacing.minutes)) apart" : ""
    return "\(t.entries) entr\(t.entries == 1 ? "y" : "ies") dated \(t.dating.rawValue)\(spacing), \(policy)"
  }

  static func app(_ a: AppBehaviour) -> String {
    var parts: [String] = []
    if a.reloadOnForeground { parts.append("reloads on foreground") }
    if a.reloadOnSilentPush { parts.append("reloads after a silent push") }
    if let bg = a.backgroundRefreshInterval {
      parts.append(
        "BGAppRefresh every \(NumberFormat.minutes(bg.minutes))+"
          + (a.backgroundRefreshReloads ? ", reloading" : ""))
    }
    if a.reloadKindOnTap { parts.append("reloads the kind on a tap") }
    if a.reloadOnChangeWhileRunning { parts.append("reloads on a change while running") }
    return parts.isEmpty ? "no WidgetCenter calls" : parts.joined(separator: ", ")
  }

  static func backend(_ b: BackendBehaviour, kinds: [WidgetKindSpec]) -> String {
    func push(_ name: String, _ p: PushTrigger?) -> String? {
      p.map {
        "\(name) on \($0.on.rawValue) changes of \(kindNames($0.kinds, kinds)) "
          + "(coalesce \(NumberFormat.minutes($0.coalesce.minutes)))"
      }
    }
    let parts = [push("silent push", b.silentPush), push("WidgetKit push", b.widgetPush)].compactMap { $0 }
    return parts.isEmpty ? "no pushes" : parts.joined(separator: "; ")
  }

  static func kindNames(_ set: KindSet, _ kinds: [WidgetKindSpec]) -> String {
    if set.isAll { return "every kind" }
    return kinds.indices.filter(set.contains).map { kinds[$0].name }.joined(separator: ", ")
  }
}
