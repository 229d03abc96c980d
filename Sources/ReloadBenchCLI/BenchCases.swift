import Foundation
import ReloadEngine
import ReloadMetrics
import ReloadReports
import WidgetModel

/// One benchmark of the standard set, run in a child process per repetition.
struct BenchCase: Codable, Sendable {
  enum Kind: String, Codable, Sendable {
    /// A scenario through the product path (simulate + results + reports in memory).
    case scenario
    /// The hold model on an event set (`arity` 4 or 2, `size` events).
    case hold
    /// R1 event by event in one global queue (`arity` 4 or 2).
    case r1Global = "r1_global"
  }
  var name: String
  var kind: Kind
  var path: String? = nil
  var threads: Int = 1
  /// Overrides the scenario's devices (a sample of a large fleet).
  var devices: Int? = nil
  var arity: Int = 4
  var size: Int = 0
  /// Hold operations (hold cases); 0 means max(2e6, 4 x size).
  var holds: Int = 0
}

extension BenchCase {
  /// Refuses a case that cannot run (a hold set of no events, no devices):
  /// exit 2 naming the field, as for a scenario.
  func validate() throws(CLIError) {
    func bad(_ field: String, _ value: Int, _ range: ClosedRange<Int>) -> CLIError {
      .badInput(
        "--run-case: \"\(field)\" must be in \(range.lowerBound)...\(range.upperBound), got \(value) "
          + "(fix: give \"\(field)\" a value in that range)")
    }
    if !(1...256).contains(threads) { throw bad("threads", threads, 1...256) }
    switch kind {
    case .hold:
      if !(1...100_000_000).contains(size) { throw bad("size", size, 1...100_000_000) }
      if !(0...10_000_000_000).contains(holds) { throw bad("holds", holds, 0...10_000_000_000) }
      if arity != 2 && arity != 4 {
        throw .badInput(
          "--run-case: \"arity\" must be 2 or 4, got \(arity) (fix: use 4 (quaternary heap) or 2 (binary heap))")
      }
    case .r1Global:
      if arity != 2 && arity != 4 {
        throw .badInput(
          "--run-case: \"arity\" must be 2 or 4, got \(arity) (fix: use 4 (quaternary heap) or 2 (binary heap))")
      }
    case .scenario:
      if let d = devices, !(1...10_000_000_000).contains(d) { throw bad("devices", d, 1...10_000_000_000) }
    }
  }
}

/// What one repetition of a case measured.
struct BenchMeasurement: Codable, Sendable {
  var wallSeconds: Double
  var events: Double
  var widgetDays: Double
  var simulatedDays: Double
  var peakRSSBytes: Double = 0
  var phases: [String: Double] = [:]

  var eventsPerSecond: Double { wallSeconds > 0 ? events / wallSeconds : 0 }
  var widgetDaysPerSecond: Double { wallSeconds > 0 ? widgetDays / wallSeconds : 0 }
  var simulatedDaysPerSecond: Double { wallSeconds > 0 ? simulatedDays / wallSeconds : 0 }
}

enum BenchRunner {
  /// Runs `c` in this process (its scenario may name `strategies`) and
  /// returns what it measured.
  static func measure(_ c: BenchCase, strategies: StrategyRegistry) throws(CLIError) -> BenchMeasurement {
    try c.validate()
    let clock = ContinuousClock()
    switch c.kind {
    case .hold:
      let holds = c.holds > 0 ? c.holds : max(2_000_000, 4 * c.size)
      let start = clock.now
      let checksum =
        c.arity == 2
        ? HoldModel.run(BinaryHeap.self, size: c.size, holds: holds, seed: 1)
        : HoldModel.run(QuaternaryHeap.self, size: c.size, holds: holds, seed: 1)
      let wall = ProgressLine.seconds(clock.now - start)
      blackHole(checksum)
      return BenchMeasurement(wallSeconds: wall, events: Double(holds), widgetDays: 0, simulatedDays: 0)
    case .r1Global:
      let start = clock.now
      let out =
        c.arity == 2
        ? R1Reference.run(BinaryHeap.self, widgets: 10_000, days: 7, seed: 42)
        : R1Reference.run(QuaternaryHeap.self, widgets: 10_000, days: 7, seed: 42)
      let wall = ProgressLine.seconds(clock.now - start)
      blackHole(out.reloads)
      return BenchMeasurement(wallSeconds: wall, events: Double(out.events), widgetDays: 70_000, simulatedDays: 7)
    case .scenario:
      var options = CommonOptions()
      options.threads = c.threads
      options.quiet = true
      // The product path: the pipeline's stages up to render, in memory.
      let pipeline = Pipeline(options: options, strategies: strategies)
      var loaded = try pipeline.load(c.path ?? ScenarioLoader.defaultPath)
      if let d = c.devices { loaded.scenario.devices = d }
      let report = pipeline.report(loaded)
      let f = report.results.facts
      return BenchMeasurement(
        wallSeconds: f.wallSeconds, events: Double(f.events), widgetDays: f.simulatedWidgetDays,
        simulatedDays: f.days * Double(f.replications), phases: f.phaseSeconds)
    }
  }

  /// Keeps a value alive so the optimizer cannot drop the work that made it.
  @inline(never)
  static func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }

  /// The standard set: R1 (1 and N threads), the default scenario, a
  /// fleet sample, R1 event by event in one queue with each heap, and the
  /// hold model on both heaps from 1e3 to 1e6 events.
  static func standardCases(threads: Int, quick: Bool, scenarios: [String]) -> [BenchCase] {
    var cases: [BenchCase] = []
    if scenarios.isEmpty {
      cases.append(BenchCase(name: "r1-1t", kind: .scenario, path: "Scenarios/r1-polling.json", threads: 1))
      cases.append(BenchCase(name: "r1", kind: .scenario, path: "Scenarios/r1-polling.json", threads: threads))
      cases.append(BenchCase(name: "default", kind: .scenario, path: "Scenarios/default.json", threads: threads))
      cases.append(
        BenchCase(
          name: "fleet-50k", kind: .scenario, path: "Scenarios/fleet-1m.json", threads: threads, devices: 50_000))
    } else {
      for path in scenarios {
        let base = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        cases.append(BenchCase(name: base + "-1t", kind: .scenario, path: path, threads: 1))
        if threads > 1 { cases.append(BenchCase(name: base, kind: .scenario, path: path, threads: threads)) }
      }
    }
    if !quick {
      cases.append(BenchCase(name: "r1-global-4ary", kind: .r1Global, arity: 4))
      cases.append(BenchCase(name: "r1-global-binary", kind: .r1Global, arity: 2))
    }
    let sizes = quick ? [1_000, 100_000] : [1_000, 10_000, 100_000, 1_000_000]
    for size in sizes {
      for arity in [4, 2] {
        let label = size >= 1_000_000 ? "1e6" : size >= 100_000 ? "1e5" : size >= 10_000 ? "1e4" : "1e3"
        cases.append(
          BenchCase(name: "hold-\(arity == 4 ? "4ary" : "binary")-\(label)", kind: .hold, arity: arity, size: size))
      }
    }
    return cases
  }
}
