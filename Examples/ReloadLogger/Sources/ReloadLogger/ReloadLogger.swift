// ReloadLogger.swift: copy this one file into your widget extension and your
// app (both members of one App Group). It writes the reload log that
// `reloadbench calibrate` reads (Scenarios/log-format.md in ReloadBench):
// one CSV line per timeline the extension serves and per app event.
//
// - Bounded: the file rotates at `maxBytes` (default 512 KB); one previous
//   file is kept, so the log never takes more than twice that.
// - No personal data: a random id per install (not the device, user or
//   advertising id), widget kinds and families, policies and dates, Low Power
//   Mode, the offset from UTC and the iOS version. Nothing the user typed,
//   no location, no content.
//
//     // widget extension, in getTimeline:
//     let policy = LoggedPolicy.after(Date().addingTimeInterval(15 * 60))
//     ReloadLogger.shared?.timeline(kind: "prices", family: "\(context.family)", instance: configID,
//                                   entries: entries.count, policy: policy)
//     completion(Timeline(entries: entries, policy: policy.widgetKit))
//
//     // app, where it asks for a reload:
//     ReloadLogger.shared?.reloadTimelines(ofKind: "prices", trigger: "silent_push")
import Foundation

#if canImport(WidgetKit)
  import WidgetKit
#endif

/// What a timeline provider returns, in a form the log can record
/// (`TimelineReloadPolicy` does not expose its date).
public enum LoggedPolicy: Sendable, Equatable {
  /// `.atEnd`, with the last entry's date.
  case atEnd(lastEntry: Date)
  case after(Date)
  case never

  #if canImport(WidgetKit)
    /// The policy to hand to `Timeline(entries:policy:)`.
    public var widgetKit: TimelineReloadPolicy {
      switch self {
      case .atEnd: .atEnd
      case .after(let date): .after(date)
      case .never: .never
      }
    }
  #endif
}

/// Appends reload-log lines to a file in a shared folder (the App Group
/// container), from the widget extension and the app alike.
public final class ReloadLogger: @unchecked Sendable {
  public static let header =
    "type,time,device,kind,family,instance,entries,policy,next,low_power,foreground,trigger,utc_offset_min,ios"
  public static let fileName = "reload-log.csv"
  public static let previousFileName = "reload-log.1.csv"

  public let directory: URL
  public let maxBytes: Int
  private let lock = NSLock()
  private let now: @Sendable () -> Date
  private let lowPower: @Sendable () -> Bool
  private let foreground: @Sendable () -> Bool
  /// A random id for this install, kept in the folder.
  public let installID: String
  private let ios: String

  /// The App Group (`group.…`); set it once at launch in both targets.
  nonisolated(unsafe) public static var groupIdentifier: String? = nil
  /// The logger in the App Group's container (nil when the group is not set up).
  public static let shared: ReloadLogger? = {
    #if canImport(WidgetKit)
      guard let id = groupIdentifier,
        let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: id)
      else { return nil }
      return ReloadLogger(directory: url.appendingPathComponent("ReloadLog", isDirectory: true))
    #else
      return nil  // App Groups exist on Apple platforms only
    #endif
  }()

  /// Low Power Mode (Apple platforms; elsewhere never on).
  public static func lowPowerModeEnabled() -> Bool {
    #if canImport(WidgetKit)
      ProcessInfo.processInfo.isLowPowerModeEnabled
    #else
      false
    #endif
  }

  public init(
    directory: URL, maxBytes: Int = 512 * 1024, now: @escaping @Sendable () -> Date = { Date() },
    lowPower: @escaping @Sendable () -> Bool = { ReloadLogger.lowPowerModeEnabled() },
    foreground: @escaping @Sendable () -> Bool = { false }
  ) {
    self.directory = directory
    self.maxBytes = max(4096, maxBytes)
    self.now = now
    self.lowPower = lowPower
    self.foreground = foreground
    let v = ProcessInfo.processInfo.operatingSystemVersion
    ios = "\(v.majorVersion).\(v.minorVersion)"
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let idFile = directory.appendingPathComponent("install-id")
    if let data = try? Data(contentsOf: idFile), let id = String(data: data, encoding: .utf8), !id.isEmpty {
      installID = id
    } else {
      let id = "d" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased()
      try? Data(id.utf8).write(to: idFile, options: .atomic)
      installID = id
    }
  }

  // MARK: - The widget extension

  /// Logs a timeline the extension is about to return. Call it in
  /// `getTimeline` with the instance's id (e.g. a hash of its configuration).
  public func timeline(kind: String, family: String, instance: String, entries: Int, policy: LoggedPolicy) {
    var next = ""
    var word = "never"
    switch policy {
    case .atEnd(let last):
      word = "at_end"
      next = Self.timestamp(last)
    case .after(let date):
      word = "after"
      next = Self.timestamp(date)
    case .never: break
    }
    let trigger = takeTrigger(kind: kind)
    append([
      "timeline", Self.timestamp(now()), installID, kind, family, instance, String(entries), word, next,
      String(lowPower()), String(foreground()), trigger,
    ])
  }

  // MARK: - The app

  /// Logs the call and asks WidgetKit to reload (where WidgetKit exists).
  /// `trigger` says why (`silent_push`, `bg_refresh`, `foreground`, `app`);
  /// the extension copies it onto the timeline it serves next.
  public func reloadTimelines(ofKind kind: String, trigger: String) {
    setTrigger(trigger, kind: kind)
    append([
      "reload_call", Self.timestamp(now()), installID, kind, "", "", "", "", "", String(lowPower()),
      String(foreground()), trigger,
    ])
    #if canImport(WidgetKit)
      WidgetCenter.shared.reloadTimelines(ofKind: kind)
    #endif
  }

  /// Logs an app event: `foreground`, `background`, `silent_push`, `bg_refresh`.
  public func event(_ type: String, kind: String = "") {
    precondition(["foreground", "background", "silent_push", "bg_refresh"].contains(type), "unknown event \(type)")
    append([type, Self.timestamp(now()), installID, kind, "", "", "", "", "", String(lowPower()), "", ""])
  }

  // MARK: - The trigger handed from the app to the extension

  private func triggerFile(_ kind: String) -> URL {
    let safe = kind.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) ? String($0) : "_" }.joined()
    return directory.appendingPathComponent("trigger-\(safe)")
  }

  func setTrigger(_ word: String, kind: String) {
    let text = "\(word)\t\(now().timeIntervalSince1970)"
    try? Data(text.utf8).write(to: triggerFile(kind), options: .atomic)
  }

  /// The app's trigger for `kind` if set in the last 10 minutes (then cleared).
  func takeTrigger(kind: String) -> String {
    let url = triggerFile(kind)
    guard let data = try? Data(contentsOf: url), let text = String(data: data, encoding: .utf8) else { return "" }
    try? FileManager.default.removeItem(at: url)
    let parts = text.split(separator: "\t")
    guard parts.count == 2, let t = Double(parts[1]), now().timeIntervalSince1970 - t < 600 else { return "" }
    return String(parts[0])
  }

  // MARK: - The file

  public var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

  /// Appends one line (with the offset from UTC and the iOS version),
  /// rotating first when the file would pass `maxBytes`.
  private func append(_ fields: [String]) {
    let offset = TimeZone.current.secondsFromGMT(for: now()) / 60
    let line = (fields + [String(offset), ios]).map(Self.field).joined(separator: ",") + "\n"
    lock.lock()
    defer { lock.unlock() }
    let fm = FileManager.default
    let size = (try? fm.attributesOfItem(atPath: fileURL.path)[.size] as? Int) ?? 0
    if size + line.utf8.count > maxBytes && size > 0 {
      let previous = directory.appendingPathComponent(Self.previousFileName)
      try? fm.removeItem(at: previous)
      try? fm.moveItem(at: fileURL, to: previous)
    }
    if !fm.fileExists(atPath: fileURL.path) {
      _ = fm.createFile(atPath: fileURL.path, contents: Data((Self.header + "\n").utf8))
    }
    guard let handle = try? FileHandle(forWritingTo: fileURL) else { return }
    defer { try? handle.close() }
    _ = try? handle.seekToEnd()
    try? handle.write(contentsOf: Data(line.utf8))
  }

  /// A CSV field: quoted when it holds a comma, a quote or a line break.
  static func field(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return s }
    let flat = s.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: "\r", with: " ")
    return "\"" + flat.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `2026-01-05T07:13:02.123Z`.
  static func timestamp(_ d: Date) -> String {
    let f = ISO8601DateFormatter()
    f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    f.timeZone = TimeZone(identifier: "UTC")
    return f.string(from: d)
  }
}
