/// A tiny declarative argument parser (no packages): each subcommand lists
/// its options, and the parser turns `argv` into positionals, values and
/// flags, rejecting unknown options with a suggestion.
struct OptionSpec: Sendable {
  /// `--out`
  let name: String
  /// `DIR` for options that take a value; `nil` for flags.
  let valueName: String?
  let help: String
  /// May be given more than once (each value kept); any other option
  /// given twice is an error, not a silent choice of the last value.
  let repeatable: Bool

  init(_ name: String, _ valueName: String? = nil, _ help: String, repeatable: Bool = false) {
    self.name = name
    self.valueName = valueName
    self.help = help
    self.repeatable = repeatable
  }
}

struct ParsedArguments {
  var positionals: [String] = []
  var values: [String: [String]] = [:]
  var flags: Set<String> = []

  func value(_ name: String) -> String? { values[name]?.last }
  func has(_ name: String) -> Bool { flags.contains(name) }

  /// An integer option within bounds.
  func integer(_ name: String, in range: ClosedRange<Int>, command: String) throws(CLIError) -> Int? {
    guard let text = value(name) else { return nil }
    guard let n = Int(text), range.contains(n) else {
      throw .badInput(
        "\(name) expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(text)' "
          + "(see 'reloadbench \(command) --help')")
    }
    return n
  }

  func number(_ name: String, in range: ClosedRange<Double>, command: String) throws(CLIError) -> Double? {
    guard let text = value(name) else { return nil }
    // Decimal notation only: Double("0x10") would read hex, "nan" and "inf" words.
    let decimal = !text.isEmpty && text.allSatisfy { "0123456789.eE+-".contains($0) }
    guard decimal, let d = Double(text), d.isFinite, range.contains(d) else {
      throw .badInput(
        "\(name) expects a number in "
          + "\(SchemaValidator.format(range.lowerBound))...\(SchemaValidator.format(range.upperBound)), "
          + "got '\(text)' (see 'reloadbench \(command) --help')")
    }
    return d
  }
}

enum ArgumentParser {
  static let help = OptionSpec("--help", nil, "Show this help and exit.")

  static func parse(_ args: [String], options: [OptionSpec], command: String) throws(CLIError) -> ParsedArguments {
    var parsed = ParsedArguments()
    var i = 0
    let all = options + [help]
    while i < args.count {
      let arg = args[i]
      i += 1
      if arg == "--" {
        parsed.positionals += args[i...]
        break
      }
      if arg == "-h" {
        parsed.flags.insert("--help")
        continue
      }
      guard arg.hasPrefix("-") && arg.count > 1 else {
        parsed.positionals.append(arg)
        continue
      }
      var name = arg
      var inline: String? = nil
      if let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      guard let spec = all.first(where: { $0.name == name }) else {
        let suggestion = SchemaValidator.nearest(name, in: all.map(\.name)).map { " (did you mean \($0)?)" } ?? ""
        throw .badInput("unknown option '\(name)'\(suggestion); see 'reloadbench \(command) --help'")
      }
      if spec.valueName == nil {
        if inline != nil { throw .badInput("\(name) takes no value; see 'reloadbench \(command) --help'") }
        parsed.flags.insert(name)
        continue
      }
      let value: String
      if let inline {
        value = inline
      } else {
        guard i < args.count else {
          throw .badInput("\(name) needs a value (\(spec.valueName!)); see 'reloadbench \(command) --help'")
        }
        value = args[i]
        i += 1
      }
      if let earlier = parsed.values[name]?.first, !spec.repeatable {
        throw .badInput(
          "\(name) is given twice ('\(TerminalText.short(earlier))' and '\(TerminalText.short(value))') "
            + "(fix: give it once; see 'reloadbench \(command) --help')")
      }
      parsed.values[name, default: []].append(value)
    }
    return parsed
  }

  /// The options part of a help text, aligned.
  static func describe(_ options: [OptionSpec]) -> String {
    let all = options + [help]
    let labels = all.map { o in o.valueName.map { v in "\(o.name) \(v)" } ?? o.name }
    let width = (labels.map(\.count).max() ?? 0) + 2
    return zip(labels, all).map { label, o in
      "  " + label + String(repeating: " ", count: width - label.count) + o.help
    }.joined(separator: "\n")
  }
}
