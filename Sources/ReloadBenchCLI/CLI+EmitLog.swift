import Foundation
import ReloadCalibration
import ReloadEngine
import ReloadReports
import WidgetModel

/// `reloadbench run --emit-log FILE`: the reload log a deployment of the
/// scenario's first strategy would collect (Scenarios/log-format.md),
/// written from the same simulation. The ordinary run is untouched: the
/// log comes from a second, recording pass over the same devices.
enum EmitLog {
  static let option = OptionSpec(
    "--emit-log", "FILE",
    "Also write the reload log a deployment of the first strategy would collect (.csv or .jsonl; "
      + "Scenarios/log-format.md)."
  )

  /// The path and format, checked before anything runs.
  static func validate(_ path: String, jobs: [RunCommand.Job]) throws(CLIError) -> LogFormat {
    guard let format = LogFormat.forPath(path) else {
      throw .badInput("--emit-log \(path): unknown format (fix: end the name in .csv or .jsonl)")
    }
    guard jobs.count == 1, jobs[0].points == nil else {
      throw .badInput(
        "--emit-log writes one deployment's log: give one scenario without a sweep (fix: run one scenario file)")
    }
    return format
  }

  /// The family WidgetKit would report for a placement (a widget sees its
  /// family, never its page).
  static func family(_ p: Placement) -> String {
    switch p {
    case .homeFirstPage, .homeOtherPage, .smartStack, .standby: "systemSmall"
    case .lockScreen: "accessoryRectangular"
    case .watchComplication: "accessoryCircular"
    }
  }

  /// A pseudonymous device id: a hash of the seed and the device number.
  static func deviceID(_ device: Int, seed: UInt64) -> String {
    var z = seed &+ UInt64(device) &* 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    let hex = String(z, radix: 16)
    return "d" + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The log of `scenario`'s first strategy, device by device, handed to
  /// `sink` in chunks of text (the CSV header first).
  static func render(_ scenario: Scenario, format: LogFormat, sink: (String) throws(CLIError) -> Void) throws(CLIError)
    -> (lines: Int, overflowed: Int)
  {
    let prepared = PreparedScenario(scenario)
    var emitter = ReloadLogEmitter(prepared, strategy: 0)
    var text = format == .csv ? LogFormat.header : ""
    var lines = 0
    var overflowed = 0
    let epoch = LogTime.simulationEpoch
    for d in 0..<scenario.devices {
      emitter.simulate(device: d)
      if emitter.overflowed { overflowed += 1 }
      let env = emitter.environment
      let id = deviceID(d, seed: scenario.seed)
      let offset = Int(env.utcOffset.milliseconds / 60_000)
      for i in 0..<emitter.lineCount {
        let r = emitter.line(i)
        format.write(line(r, device: id, offset: offset, epoch: epoch, scenario: scenario, emitter: emitter), to: &text)
        lines += 1
      }
      if text.utf8.count > 1 << 20 {
        try sink(text)
        text = ""
      }
    }
    if !text.isEmpty { try sink(text) }
    return (lines, overflowed)
  }

  static func line(
    _ r: LogRecord, device: String, offset: Int, epoch: Int64, scenario: Scenario, emitter: ReloadLogEmitter
  ) -> ReloadLog.Line {
    let type: ReloadLog.LineType =
      switch r.kind {
      case .timeline: .timeline
      case .foreground: .foreground
      case .background: .background
      case .reloadCall: .reloadCall
      case .silentPush: .silentPush
      case .backgroundRefresh: .bgRefresh
      }
    var l = ReloadLog.Line(type: type, time: epoch + r.time.milliseconds, device: device)
    if r.widgetKind >= 0 { l.kind = scenario.kinds[Int(r.widgetKind)].name }
    l.utcOffsetMinutes = offset
    l.lowPower = r.lowPower
    l.ios = "sim"
    switch r.kind {
    case .timeline:
      l.family = family(emitter.placement(widget: Int(r.widget)))
      l.instance = "w\(r.widget)"
      l.entries = Int(r.entries)
      l.policy =
        switch r.policy {
        case .atEnd: .atEnd
        case .after: .after
        case .never: .never
        }
      if r.policy != .never { l.next = epoch + r.next.milliseconds }
      l.foreground = r.foreground
      l.trigger = r.trigger
    case .reloadCall:
      l.foreground = r.foreground
      l.trigger = r.trigger
    default:
      break
    }
    return l
  }

  static func announce(_ written: (lines: Int, overflowed: Int), path: String, scenario: Scenario) {
    var text =
      "Wrote \(path): \(NumberFormat.count(written.lines, "log line")) of strategy \(scenario.strategies[0].name), "
      + "\(NumberFormat.count(scenario.devices, "device")).\n"
    if written.overflowed > 0 {
      text +=
        "warning: \(NumberFormat.count(written.overflowed, "device")) made more than "
        + "\(ReloadLogEmitter.linesPerDevice) lines; their logs stop there (fix: fewer days or widgets per device).\n"
    }
    Terminal.out(text)
  }

  /// Renders and writes the log to `path` through a temporary file renamed
  /// at the end, so a failure leaves any earlier file as it was.
  static func write(_ scenario: Scenario, to path: String, format: LogFormat) throws(CLIError) -> (
    lines: Int, overflowed: Int
  ) {
    let folder = PathText.folder(of: path)
    try OutputWriter.prepare(folder, option: "--emit-log")
    let temp = (folder as NSString).appendingPathComponent(OutputWriter.temporaryName(PathText.name(path)))
    guard FileManager.default.createFile(atPath: temp, contents: nil), let handle = FileHandle(forWritingAtPath: temp)
    else {
      throw .badInput("cannot write \(path) (fix: check free space and permissions)")
    }
    let result: (lines: Int, overflowed: Int)
    do {
      result = try render(scenario, format: format) { (chunk: String) throws(CLIError) in
        do { try handle.write(contentsOf: Data(chunk.utf8)) } catch {
          throw .badInput("cannot write \(path): \(error.localizedDescription) (fix: check free space)")
        }
      }
      try? handle.close()
    } catch {
      try? handle.close()
      try? FileManager.default.removeItem(atPath: temp)
      throw error
    }
    if rename(temp, path) != 0 {
      let message = String(cString: strerror(errno))
      try? FileManager.default.removeItem(atPath: temp)
      throw .badInput("cannot replace \(path): \(message)")
    }
    return result
  }
}
