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

  mutating func reset<D: ReloadingDevice>(_ device: inout D, _ env: DeviceEnvironment) {
    for k in 0..<device.context.kindCount {
      cursor[k] = 0
      budget.reset(kind: k)
    }
  }

  mutating func start<D: ReloadingDevice>(kind k: Int, _ device: inout D, _ env: DeviceEnvironment) {
    guard let trigger, trigger.kinds.contains(k) else { return }
    var c = cursor[k]
    let first = device.context.feed.nextChange(
      kind: k, after: SimTime(milliseconds: -1), on: trigger.on, cursor: &c, env)
    cursor[k] = c
    device.context.schedule(.widgetPushSend, k, at: first)
  }

  /// `DeviceEvent.widgetPushSend`: a push for kind `k` arrives.
  func sent<D: ReloadingDevice>(kind k: Int, at t: SimTime, _ device: inout D, _ env: DeviceEnvironment) {
    guard let trigger else { return }
    let measured = device.context.measured(t)
    if measured {
      device.context.counts.count(.widgetPushesSent)
      device.context.counts.count(.events)
      device.context.counts.recordPush(at: t, widget: true)
    }
    if budget.admit(kind: k, at: t) {
      if measured { device.context.counts.count(.widgetPushesAccepted) }
      for w in 0..<env.widgetCount where env.widgetKind[w] == k {
        if parameters.sharesTimelineBudget {
          device.budgetedRequest(w, at: t, late: false, cause: .widgetPush, env)
        } else {
          device.reload(w, at: t, charge: .pushBudget, cause: .widgetPush, env)
        }
      }
    }
    var c = cursor[k]
    let next = device.context.feed.nextChange(kind: k, after: t, on: trigger.on, cursor: &c, env)
    cursor[k] = c
    // `at` is never before `next`: before the end, both are.
    device.context.schedule(.widgetPushSend, k, at: max(next, t + trigger.coalesce))
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
    let rate = parameters.ratePerHour / Double(SimDuration.hour.milliseconds)
    tokens[k] = min(parameters.burst, tokens[k] + dt * rate)
    tokensAt[k] = t
    guard tokens[k] >= 1 else { return false }
    tokens[k] -= 1
    return true
  }
}
