import ReloadEngine
import WidgetModel

/// A named, documented reload strategy that scenarios can use by name.
public struct StrategyPreset: Sendable {
  public let name: String
  /// One sentence: what it does.
  public let summary: String
  /// The few lines of WidgetKit / app code it stands for.
  public let code: String
  public let strategy: Strategy
}

/// The presets scenarios can name (`"strategies": ["poll-15m", "hybrid"]`),
/// in a stable order. Each lives in its own file with its rationale.
public enum StrategyCatalog {
  public static let presets: [StrategyPreset] = [
    Polling.preset(minutes: 5), Polling.preset(minutes: 15), Polling.preset(minutes: 30),
    Polling.preset(minutes: 60), FutureEntries.preset, OnDemand.preset, SilentPushDriven.preset,
    BackgroundRefreshDriven.preset, WidgetPushDriven.preset, Hybrid.preset, AntiPatternNow.preset,
  ]

  public static var names: [String] { presets.map(\.name) }

  public static func preset(named name: String) -> StrategyPreset? {
    presets.first { $0.name == name }
  }
}
