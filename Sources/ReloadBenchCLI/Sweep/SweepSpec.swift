import Foundation
import ReloadMetrics
import WidgetModel

/// A scenario's `sweep` block, read and checked: each parameter's path
/// and its values, expanded from a list or a range.
struct SweepSpec: Sendable {
  struct Parameter: Sendable {
    /// The label (`name`, else the path as written).
    let name: String
    /// The path as written.
    let pathText: String
    let path: SweepPath
    let values: [JSONValue]
    /// `$.sweep.parameters[2]`, for messages.
    let location: String
    /// `role: assumption`: recommendations must hold at all its values.
    var assumption = false
  }

  let parameters: [Parameter]
  let maxPoints: Int

  /// Points in the grid: the product of the parameters' value counts,
  /// `Int.max` when that overflows (8 parameters of 1000 values make 1e24).
  var pointCount: Int {
    var n = 1
    for p in parameters {
      let (product, overflow) = n.multipliedReportingOverflow(by: p.values.count)
      if overflow { return Int.max }
      n = product
    }
    return n
  }

  /// `pointCount` for messages: exact, or "about 1e+21" past `Int`.
  var pointCountText: String {
    if pointCount < Int.max { return String(pointCount) }
    let d = parameters.reduce(1.0) { $0 * Double($1.values.count) }
    return "about " + String(format: "%.3g", d)
  }

  /// Every point's value indices, the first parameter varying slowest
  /// (like nested loops in the order the parameters are listed).
  ///
  ///     // two values of a, three of b:
  ///     // [0,0] [0,1] [0,2] [1,0] [1,1] [1,2]
  var grid: [[Int]] {
    var out: [[Int]] = [[]]
    for p in parameters {
      out = out.flatMap { prefix in p.values.indices.map { prefix + [$0] } }
    }
    return out
  }

  /// The point's values as `name = value`, for messages and progress.
  func describe(_ indices: [Int]) -> String {
    zip(parameters, indices).map { p, i in p.name + " = " + Self.text(p.values[i]) }.joined(separator: ", ")
  }

  /// A value as `sweep.csv` writes it: JSON text, strings without quotes.
  static func text(_ v: JSONValue) -> String {
    if case .string(let s) = v { return s }
    return v.jsonText
  }

  /// The parameters as the results model carries them.
  var resultParameters: [SweepParameter] {
    parameters.map { p in
      let numbers = p.values.compactMap { v -> Double? in if case .number(let d) = v { return d } else { return nil } }
      let allNumbers = numbers.count == p.values.count
      return SweepParameter(
        name: p.name, path: p.pathText, values: p.values.map(Self.text), numbers: allNumbers ? numbers : nil,
        logScale: allNumbers && Self.looksGeometric(numbers), assumption: p.assumption)
    }
  }

  /// `true` when positive values spread at least tenfold are spaced more
  /// evenly in log than linearly (5, 10, 20, 40, 80), so a log axis reads best.
  static func looksGeometric(_ xs: [Double]) -> Bool {
    let s = xs.sorted()
    guard s.count >= 3, let lo = s.first, let hi = s.last, lo > 0, hi / lo >= 10 else { return false }
    func cv(_ d: [Double]) -> Double {
      let m = d.reduce(0, +) / Double(d.count)
      guard m > 0 else { return .infinity }
      let v = d.reduce(0) { $0 + ($1 - m) * ($1 - m) } / Double(d.count)
      return v.squareRoot() / m
    }
    let linear = zip(s.dropFirst(), s).map { $0 - $1 }
    let logs = zip(s.dropFirst(), s).map { log($0) - log($1) }
    return cv(logs) < cv(linear)
  }
}

/// One point of a sweep, ready to run.
struct SweepPointPlan {
  let index: Int
  let valueIndices: [Int]
  var scenario: Scenario
}

extension SweepSpec {
  /// Decodes the scenario of every point: the file's JSON without its
  /// `sweep`, each parameter's value written at its path, then checked and
  /// read like a hand-written file.
  ///
  /// A value the format refuses is reported at the field it landed in,
  /// with the point and the values that put it there:
  ///
  ///     $.segments[0].low_power_mode.share: must be at most 1, got 1.5
  ///       (at sweep point 7: lpm share = 1.5) (fix: use a value in [0, 1])
  func points(base json: JSONValue, strategies: StrategyRegistry) throws(ScenarioError) -> [SweepPointPlan] {
    var base = json
    if case .object(var o) = base {
      o["sweep"] = nil
      base = .object(o)
    }
    var out: [SweepPointPlan] = []
    for (n, indices) in grid.enumerated() {
      var point = base
      for (p, i) in zip(parameters, indices) {
        do {
          try p.path.apply(p.values[i], to: &point, strategies: strategies)
        } catch {
          throw ScenarioError(
            path: p.location + ".path", message: "\(TerminalText.quoted(p.pathText)): " + error.message, fix: error.fix)
        }
      }
      do {
        out.append(
          SweepPointPlan(
            index: n, valueIndices: indices,
            scenario: try ScenarioDecoder.decode(json: point, strategies: strategies).scenario))
      } catch {
        throw ScenarioError(
          path: error.path, message: error.message + " (at sweep point \(n + 1): \(describe(indices)))",
          fix: error.fix)
      }
    }
    return out
  }
}
