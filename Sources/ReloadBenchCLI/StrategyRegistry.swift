import ReloadStrategies
import WidgetModel

/// The strategies a scenario can name in `strategies` (or as a strategy
/// object's `preset`): the presets of `StrategyCatalog`, then the strategies
/// the executable registered in Swift (`ReloadBenchCLI.main(_:strategies:)`).
///
/// A value, made once at startup and handed down every command's pipeline
/// to the scenario decoder; `reloadbench` itself registers none, and the
/// JSON Schema and field reference document the presets only.
struct StrategyRegistry: Sendable {
  /// The strategies registered in Swift, in the order given.
  let registered: [Strategy]

  /// The presets alone (what `reloadbench` runs with).
  static let presets = StrategyRegistry(checked: [])

  private init(checked strategies: [Strategy]) { registered = strategies }

  /// Checks `strategies` before any command runs: each needs a name of
  /// its own, which is no preset's.
  init(_ strategies: [Strategy]) throws(CLIError) {
    let presets = StrategyCatalog.names
    for (i, s) in strategies.enumerated() {
      let path = "\(Self.parameter)[\(i)].name"
      if s.name.isEmpty {
        throw .badInput("\(path): is empty (fix: give the strategy the name scenarios will call it by)")
      }
      if presets.contains(s.name) {
        throw .badInput(
          "\(path): \(TerminalText.quoted(s.name)) is the name of a preset (fix: give the Swift strategy another "
            + "name, e.g. \(TerminalText.quoted("my-" + s.name)); scenarios name the preset by "
            + "\(TerminalText.quoted(s.name)))"
        )
      }
      if let j = strategies[..<i].firstIndex(where: { $0.name == s.name }) {
        throw .badInput(
          "\(path): \(TerminalText.quoted(s.name)) is registered twice (also \(Self.parameter)[\(j)]) "
            + "(fix: give each strategy its own name, or register it once)")
      }
    }
    self.init(checked: strategies)
  }

  /// How messages name the list of registered strategies.
  static let parameter = "ReloadBenchCLI.main(strategies:)"

  /// Every name a scenario may use: the presets, then the registered ones.
  var names: [String] { StrategyCatalog.names + registered.map(\.name) }

  /// The preset or registered strategy called `name`.
  func strategy(named name: String) -> Strategy? {
    StrategyCatalog.preset(named: name)?.strategy ?? registered.first { $0.name == name }
  }
}
