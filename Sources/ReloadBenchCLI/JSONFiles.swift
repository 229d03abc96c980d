import Foundation

/// The one JSON writer (and reader) of the files and messages the CLI makes
/// with `Codable`: baselines, `bench --json`, and the cases and
/// measurements `bench` exchanges with its child processes. Keys sorted,
/// slashes unescaped, non-finite numbers as the strings "inf", "-inf" and
/// "nan" (read back as numbers). Reports have their own writer in
/// ReloadReports (`JSONText`), which keeps results.json fast.
enum JSONFiles {
  /// `value` as JSON text: indented with `pretty` (files people diff),
  /// else on one line (messages between processes).
  static func text<T: Encodable>(_ value: T, pretty: Bool) -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    // Plain strings and numbers, with non-finite numbers as strings: encoding cannot fail.
    return String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self)
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return try decoder.decode(type, from: data)
  }
}
