import ReloadEngine

/// A WidgetKit push (iOS 26): the backend pushes when a kind's data
/// changes and the system reloads that kind's widgets without waking the
/// app, within a push budget of its own (or the timeline budget, by
/// parameter) (docs/model.md#widget-push).
struct WidgetPushReloads: DeviceActivity {
  let trigger: PushTrigger?
  private let parameters: WidgetPushParameters
  /// Each kind's next change the backend pushes for.
  private let cursor: Column<Int>
  private let budget: WidgetPushBudget

  init(_ strategy: Strategy, _ parameters: WidgetPushParameters, kinds: Int, storage: _DeviceStorage) {
    trigger = strategy.backend.widgetPush
    self.parameters = parameters
    cursor = storage.column(max(1, kinds), 0)
    budget = WidgetPushBudget(parameters, kinds: kinds, storage: storage)
  }

  mutating func reset<T>(_ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    for k in 0..<device.kindCount {
      cursor[k] = 0
      budget.reset(kind: k)
    }
  }

  mutating func start<T>(kind k: Int, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    guard let trigger else { return }
    var c = cursor[k]
    let first = device.feed.nextChange(kind: k, after: SimTime(milliseconds: -1), on: trigger.on, cursor: &c, env)
    cursor[k] = c
    if first < device.end { device.queue.schedule(.widgetPushSend, k, at: first) }
  }

  /// `DeviceEvent.widgetPushSend`: a push for kind `k` arrives.
  func sent<T>(kind k: Int, at t: SimTime, _ device: inout DeviceWidgets<T>, _ env: DeviceEnvironment) {
    guard let trigger else { return }
    if device.measured(t) {
      device.counts.count(.widgetPushesSent)
      device.counts.count(.events)
      device.counts.recordPush(at: t, widget: true)
    }
    if budget.admit(kind: k, at: t) {
      if device.measured(t) { device.counts.count(.widgetPushesAccepted) }
      for w in 0..<device.count where device.widgets.kind[w] == k {
        if parameters.sharesTimelineBudget {
          device.budgetedRequest(w, at: t, late: false, cause: .widgetPush, env)
        } else {
          device.reload(w, at: t, budgeted: true, chargeTimeline: false, cause: .widgetPush, env)
        }
      }
    }
    var c = cursor[k]
    let next = device.feed.nextChange(kind: k, after: t, on: trigger.on, cursor: &c, env)
    cursor[k] = c
    let at = max(next, t + trigger.coalesce)
    if next < device.end && at < device.end { device.queue.schedule(.widgetPushSend, k, at: at) }
  }
}

/// The WidgetKit-push budget of each kind on a device: a token bucket
/// (folklore: about 5 an hour; docs/model.md#widget-push).
struct WidgetPushBudget {
  private let parameters: WidgetPushParameters
  private let tokens: Column<Double>
  private let tokensAt: Column<SimTime>

  init(_ parameters: WidgetPushParameters, kinds: Int, storage: _DeviceStorage) {
    self.parameters = parameters
    tokens = storage.column(max(1, kinds), 0)
    tokensAt = storage.column(max(1, kinds), .zero)
  }

  func reset(kind k: Int) {
    tokens[k] = parameters.burst
    tokensAt[k] = .zero
  }

  /// A push for kind `k` at `t` is accepted (spending a token) if one is left.
  func admit(kind k: Int, at t: SimTime) -> Bool {
    let dt = Double(t.milliseconds - tokensAt[k].milliseconds)
    tokens[k] = min(parameters.burst, tokens[k] + dt * parameters.ratePerHour / 3_600_000)
    tokensAt[k] = t
    guard tokens[k] >= 1 else { return false }
    tokens[k] -= 1
    return true
  }
}
