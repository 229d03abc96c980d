import ReloadMetrics

/// `ScenarioResults` as compact JSON with sorted keys, written directly.
///
/// It writes exactly the bytes of the general `_JSONText` encoder (a test
/// holds it to that), several times faster: encoding through `Encodable`
/// was the largest part of the report phase. NOTE: for performance; any
/// field added to the results model must be added here too (the test fails
/// until it is).
struct _ResultsJSONWriter {
  var out: String = ""

  static func write(_ r: ScenarioResults) -> String {
    var w = _ResultsJSONWriter()
    w.out.reserveCapacity(1 << 18)
    w.results(r)
    return w.out
  }

  mutating func key(_ k: String, first: Bool = false) {
    if !first { out += "," }
    out += "\""
    out += k
    out += "\":"
  }

  mutating func string(_ s: String) { _JSONNode.writeString(s, to: &out) }

  mutating func number(_ d: Double) {
    if d.isNaN { out += "\"nan\"" } else if d.isInfinite { out += d > 0 ? "\"inf\"" : "\"-inf\"" } else if d == d.rounded(),
      abs(d) < 1e15
    {
      out += String(Int64(d))
    } else {
      out += d.description
    }
  }

  mutating func integer<I: BinaryInteger>(_ i: I) { out += String(i) }

  mutating func array<T>(_ xs: [T], _ item: (inout _ResultsJSONWriter, T) -> Void) {
    out += "["
    for (i, x) in xs.enumerated() {
      if i > 0 { out += "," }
      item(&self, x)
    }
    out += "]"
  }

  mutating func results(_ r: ScenarioResults) {
    out += "{"
    key("facts", first: true)
    facts(r.facts)
    key("parameters")
    array(r.parameters) { w, p in
      w.out += "{"
      w.key("note", first: true)
      w.string(p.note)
      w.key("path")
      w.string(p.path)
      w.key("source")
      w.string(p.source)
      w.key("value")
      w.string(p.value)
      w.out += "}"
    }
    key("series")
    array(r.series) { w, s in w.series(s) }
    key("summary")
    table(r.summary)
    out += "}"
  }

  mutating func facts(_ f: RunFacts) {
    out += "{"
    key("days", first: true)
    number(f.days)
    key("description")
    string(f.description)
    key("devices")
    integer(f.devices)
    key("events")
    integer(f.events)
    key("fleetDevices")
    number(f.fleetDevices)
    key("phaseSeconds")
    out += "{"
    for (i, k) in f.phaseSeconds.keys.sorted().enumerated() {
      key(k, first: i == 0)
      number(f.phaseSeconds[k]!)
    }
    out += "}"
    key("replications")
    integer(f.replications)
    key("scenario")
    string(f.scenario)
    key("seed")
    integer(f.seed)
    key("segments")
    array(f.segments) { w, s in w.string(s) }
    key("strategies")
    array(f.strategies) { w, s in w.string(s) }
    key("threads")
    integer(f.threads)
    key("toleranceMinutes")
    number(f.toleranceMinutes)
    key("toolVersion")
    string(f.toolVersion)
    key("wallSeconds")
    number(f.wallSeconds)
    key("warmupDays")
    number(f.warmupDays)
    key("widgets")
    integer(f.widgets)
    out += "}"
  }

  mutating func table(_ t: ResultTable) {
    out += "{"
    key("columns", first: true)
    array(t.columns) { w, m in
      w.out += "{"
      w.key("decimals", first: true)
      w.integer(m.decimals)
      w.key("definition")
      w.string(m.definition)
      w.key("headline")
      w.out += m.headline ? "true" : "false"
      w.key("name")
      w.string(m.name)
      w.key("polarity")
      w.string(m.polarity.rawValue)
      w.key("unit")
      w.string(m.unit.rawValue)
      w.out += "}"
    }
    key("rows")
    array(t.rows) { w, r in
      w.out += "{"
      if let ci = r.ci95 {
        w.key("ci95", first: true)
        w.optionals(ci)
        w.key("policy")
      } else {
        w.key("policy", first: true)
      }
      w.string(r.strategy)
      w.key("scenario")
      w.string(r.scenario)
      w.key("segment")
      w.string(r.segment)
      w.key("values")
      w.optionals(r.values)
      w.out += "}"
    }
    out += "}"
  }

  mutating func optionals(_ xs: [Double?]) {
    array(xs) { w, x in
      if let x { w.number(x) } else { w.out += "null" }
    }
  }

  mutating func band(_ b: QuantileBand) {
    out += "{"
    key("p10", first: true)
    number(b.p10)
    key("p50")
    number(b.p50)
    key("p90")
    number(b.p90)
    out += "}"
  }

  mutating func series(_ s: StrategySeries) {
    out += "{"
    key("backendPeakHour", first: true)
    number(s.backendPeakHour)
    key("backendPeakRps")
    number(s.backendPeakRps)
    key("budgetLeftByLocalHour")
    array(s.budgetLeftByLocalHour) { w, b in w.band(b) }
    if let d = s.firstDryHour {
      key("firstDryHour")
      band(d)
    }
    key("funnel")
    let f = s.funnel
    out += "{"
    key("bgRefreshReloads", first: true)
    integer(f.bgRefreshReloads)
    key("bgRefreshRequested")
    integer(f.bgRefreshRequested)
    key("bgRefreshRuns")
    integer(f.bgRefreshRuns)
    key("silentPushReloads")
    integer(f.silentPushReloads)
    key("silentPushesDelivered")
    integer(f.silentPushesDelivered)
    key("silentPushesSent")
    integer(f.silentPushesSent)
    key("widgetPushReloads")
    integer(f.widgetPushReloads)
    key("widgetPushesAccepted")
    integer(f.widgetPushesAccepted)
    key("widgetPushesSent")
    integer(f.widgetPushesSent)
    out += "}"
    key("glancesByLocalHour")
    array(s.glancesByLocalHour) { w, x in w.integer(x) }
    key("hourly")
    let h = s.hourly
    out += "{"
    key("backendPeakRps", first: true)
    array(h.backendPeakRps) { w, x in w.number(x) }
    key("backendRps")
    array(h.backendRps) { w, x in w.number(x) }
    key("budgetedReloads")
    array(h.budgetedReloads) { w, x in w.integer(x) }
    key("freeReloads")
    array(h.freeReloads) { w, x in w.integer(x) }
    key("glances")
    array(h.glances) { w, x in w.integer(x) }
    key("silentPushesDelivered")
    array(h.silentPushesDelivered) { w, x in w.integer(x) }
    key("silentPushesSent")
    array(h.silentPushesSent) { w, x in w.integer(x) }
    key("staleGlances")
    array(h.staleGlances) { w, x in w.integer(x) }
    key("widgetsDryPct")
    array(h.widgetsDryPct) { w, x in w.number(x) }
    out += "}"
    key("staleGlancesByLocalHour")
    array(s.staleGlancesByLocalHour) { w, x in w.integer(x) }
    key("staleness")
    array(s.staleness) { w, b in
      w.out += "{"
      w.key("count", first: true)
      w.integer(b.count)
      w.key("cumulativePct")
      w.number(b.cumulativePct)
      w.key("upperMinutes")
      w.number(b.upperMinutes)
      w.out += "}"
    }
    key("strategy")
    string(s.strategy)
    out += "}"
  }
}
