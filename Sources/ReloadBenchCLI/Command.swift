import Foundation
import ReloadEngine
import ReloadReports
import WidgetModel

/// A subcommand: an option struct built from `argv`, checked by
/// `validate()` before anything is read or run, then `run()`.
///
/// Its help text is generated from the declarations (`configuration`,
/// `arguments`, `options` and the shared `CommonOptions` it takes), in the
/// layout of swift-argument-parser, written here since the package takes no
/// dependencies.
///
/// Commands are used through their types, and `ReloadBenchCLI.commands` keeps
/// each one's `main` in a `@Sendable` closure: hence `SendableMetatype`.
protocol Command: SendableMetatype {
  static var configuration: CommandConfiguration { get }
  /// The command's own options (the common ones are added from `common`).
  static var options: [OptionSpec] { get }
  /// The shared options this command takes, with a command-specific help
  /// text where the shared one would mislead.
  static var common: [CommonOptions.Key: String?] { get }

  /// Runs the command line `arguments` (after the command's name), with
  /// the strategies scenarios may name: the default parses, prints the
  /// help or builds, validates and runs.
  static func main(_ arguments: [String], strategies: StrategyRegistry) throws(CLIError) -> Int32
  /// Refusals that come before parsing (options of another command that
  /// this one refuses with a reason, not as unknown).
  static func refuseBeforeParsing(_ arguments: [String]) throws(CLIError)

  /// Reads the parsed command line (types and ranges of values); a
  /// command that reads scenarios hands `strategies` to its pipeline.
  init(_ parsed: ParsedArguments, strategies: StrategyRegistry) throws(CLIError)
  /// Checks that the options fit together, before any file is read.
  func validate() throws(CLIError)
  func run() throws(CLIError) -> Int32
}

/// What a command's help says besides its options.
struct CommandConfiguration {
  /// `run`, `baseline save`.
  var name: String
  /// One line, for `reloadbench --help` and the OVERVIEW.
  var abstract: String
  /// Positional arguments and options in the usage line: `[SCENARIO ...]`.
  var usage: String
  /// Paragraphs after the overview.
  var discussion: String = ""
  /// Positional arguments: `(label, help)`.
  var arguments: [(String, String)] = []
  /// Paragraphs after the options.
  var notes: String = ""
  /// The EXIT STATUS section, without its heading.
  var exitStatus: String = ""
}

extension Command {
  static var options: [OptionSpec] { [] }
  static var common: [CommonOptions.Key: String?] { [:] }
  func validate() throws(CLIError) {}
  static func refuseBeforeParsing(_ arguments: [String]) throws(CLIError) {}

  /// Every option the command accepts: its own, then the common ones.
  static var allOptions: [OptionSpec] { options + CommonOptions.declarations(common) }

  /// Parses `arguments`, prints the help for `--help`, else builds,
  /// validates and runs the command.
  static func main(_ arguments: [String], strategies: StrategyRegistry) throws(CLIError) -> Int32 {
    try parseAndRun(arguments, strategies: strategies)
  }

  static func parseAndRun(_ arguments: [String], strategies: StrategyRegistry) throws(CLIError) -> Int32 {
    try refuseBeforeParsing(arguments)
    let parsed = try ArgumentParser.parse(arguments, options: allOptions, command: configuration.name)
    if parsed.has("--help") {
      Terminal.out(help + "\n")
      return ExitStatus.success
    }
    let command = try Self(parsed, strategies: strategies)
    try command.validate()
    return try command.run()
  }

  /// The help text, generated from the declarations.
  static var help: String {
    let c = configuration
    var sections: [String] = ["OVERVIEW: " + c.abstract]
    if !c.discussion.isEmpty { sections.append(c.discussion) }
    sections.append("USAGE: reloadbench \(c.name)\(c.usage.isEmpty ? "" : " " + c.usage)")
    let own = options.map(HelpFormatter.row) + [("-h, --help", "Show this help and exit.")]
    let shared = CommonOptions.declarations(common).map(HelpFormatter.row)
    // One label column for every section, so they line up.
    let labelWidth = HelpFormatter.labelWidth(c.arguments + own + shared)
    if !c.arguments.isEmpty {
      sections.append("ARGUMENTS:\n" + HelpFormatter.columns(c.arguments, labelWidth: labelWidth))
    }
    sections.append("OPTIONS:\n" + HelpFormatter.columns(own, labelWidth: labelWidth))
    if !shared.isEmpty {
      sections.append(
        "COMMON OPTIONS (shared by the commands that run scenarios):\n"
          + HelpFormatter.columns(shared, labelWidth: labelWidth))
    }
    if !c.notes.isEmpty { sections.append(c.notes) }
    if !c.exitStatus.isEmpty {
      let status =
        c.exitStatus.contains("\n")
        ? "\n" + c.exitStatus
        : " "
          + HelpFormatter.wrap(c.exitStatus, width: 80 - 13).joined(separator: "\n" + String(repeating: " ", count: 13))
      sections.append("EXIT STATUS:" + status)
    }
    return sections.joined(separator: "\n\n")
  }
}

/// Aligned two-column help text, wrapped at 90 columns.
enum HelpFormatter {
  static let width = 90

  /// The label column: the longest label and two spaces, at most 24.
  static func labelWidth(_ rows: [(String, String)]) -> Int {
    min(24, (rows.map(\.0.count).max() ?? 0) + 2)
  }

  static func row(_ o: OptionSpec) -> (String, String) {
    (o.valueName.map { "\(o.name) \($0)" } ?? o.name, o.help)
  }

  static func columns(_ rows: [(String, String)], labelWidth: Int) -> String {
    var lines: [String] = []
    for (label, help) in rows {
      let indent = String(repeating: " ", count: 2 + labelWidth)
      var first = "  " + label
      var wrapped = wrap(help, width: width - indent.count)
      if label.count + 2 > labelWidth {
        lines.append(first)
        first = indent
      } else {
        first += String(repeating: " ", count: labelWidth - label.count)
      }
      if wrapped.isEmpty { wrapped = [""] }
      lines.append(first + wrapped[0])
      for w in wrapped.dropFirst() { lines.append(indent + w) }
    }
    return lines.joined(separator: "\n")
  }

  static func wrap(_ text: String, width: Int) -> [String] { TextWrap.lines(text, width: width) }

}

/// The options shared by every command that runs scenarios, declared once:
/// `--out`, `--threads`, `--seed`, `--quiet`, `--reproducible`.
struct CommonOptions {
  enum Key: String, CaseIterable {
    case out = "--out"
    case threads = "--threads"
    case seed = "--seed"
    case quiet = "--quiet"
    case reproducible = "--reproducible"

    var valueName: String? {
      switch self {
      case .out: "DIR"
      case .threads, .seed: "N"
      case .quiet, .reproducible: nil
      }
    }

    var help: String {
      switch self {
      case .out: "Write reports to DIR (default Reports/<scenario name>; with several scenarios, DIR/<name>)."
      case .threads: "Worker threads (default: all cores). Results do not depend on it."
      case .seed: "Override the scenario's seed."
      case .quiet: "Print nothing but errors."
      case .reproducible:
        "Leave wall-clock figures (timings, threads) out of report.html, results.json and sweep.html, so reruns "
          + "give identical bytes."
      }
    }
  }

  /// The declarations of `keys`, in the group's order; a non-nil value
  /// replaces the shared help text.
  static func declarations(_ keys: [Key: String?]) -> [OptionSpec] {
    Key.allCases.compactMap { k in
      guard let custom = keys[k] else { return nil }
      return OptionSpec(k.rawValue, k.valueName, custom ?? k.help)
    }
  }

  /// Every key, with the shared help.
  static var all: [Key: String?] { Dictionary(uniqueKeysWithValues: Key.allCases.map { ($0, nil) }) }

  var out: String? = nil
  var threads: Int = ProcessInfo.processInfo.activeProcessorCount
  var seed: UInt64? = nil
  var quiet = false
  var reproducible = false

  init() {}

  init(_ parsed: ParsedArguments, command: String) throws(CLIError) {
    out = parsed.value("--out")
    threads =
      try parsed.integer("--threads", in: 1...256, command: command) ?? ProcessInfo.processInfo.activeProcessorCount
    seed = try parsed.number("--seed", in: 0...9_007_199_254_740_991, command: command).map { UInt64($0) }
    quiet = parsed.has("--quiet")
    reproducible = parsed.has("--reproducible")
  }
}

/// The options of `run` and `sweep` that override a scenario's own values.
struct ScenarioOverrides {
  static let declarations: [OptionSpec] = [
    OptionSpec("--replications", "N", "Override the scenario's replications (2+ adds _ci95 columns)."),
    OptionSpec("--engine", "MODE", "Override the scenario's engine: elided or event_by_event."),
    profileDeclaration,
  ]

  /// `--profile NAME`, shared by `run`, `sweep` and `check`.
  static let profileDeclaration = OptionSpec(
    "--profile", "NAME",
    "Run under this model profile (docs/model.md#model-profiles) instead of the scenario's own: as if its "
      + "\"model\" named it, the file's own model fields still over it ('reloadbench list --profiles').")

  var seed: UInt64? = nil
  var replications: Int? = nil
  var engine: EngineMode? = nil
  /// `--profile`: the model profile every scenario runs under.
  var profile: String? = nil

  init() {}

  /// `--profile`'s value, checked against the profiles.
  static func profile(_ parsed: ParsedArguments) throws(CLIError) -> String? {
    guard let name = parsed.value("--profile") else { return nil }
    guard ModelProfile.named(name) != nil else {
      let names = ModelProfile.all.map(\.name)
      let near = SchemaValidator.nearest(name, in: names).map { "did you mean '\($0)'? " } ?? ""
      throw .badInput(
        "--profile: '\(name)' is not a model profile (fix: \(near)use one of \(names.joined(separator: ", ")); "
          + "'reloadbench list --profiles' says what each sets)")
    }
    return name
  }

  init(_ parsed: ParsedArguments, seed: UInt64?, command: String) throws(CLIError) {
    profile = try Self.profile(parsed)
    if let e = parsed.value("--engine") {
      guard let mode = EngineMode(rawValue: e) else {
        throw .badInput("--engine expects elided or event_by_event, got '\(e)'")
      }
      engine = mode
    }
    self.seed = seed
    replications = try parsed.integer("--replications", in: 1...100, command: command)
  }
}
