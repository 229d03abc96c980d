import Foundation
import ReloadReports

/// The files and messages the CLI writes and reads with `Codable`:
/// baselines, `bench --json`, shard part headers, and the cases and
/// measurements `bench` exchanges with its child processes. Written by the
/// one JSON writer (`JSON`, keys sorted, non-finite numbers as the strings
/// "inf", "-inf" and "nan"); read by Foundation's decoder, which reads those
/// strings back as numbers.
enum JSONFiles {
  /// `value` as JSON text: indented with `pretty` (files people diff),
  /// else on one line (messages between processes).
  static func text<T: Encodable>(_ value: T, pretty: Bool) -> String {
    // Plain strings and numbers: encoding cannot fail.
    ((try? JSON(encoding: value)) ?? [:]).text(pretty ? .pretty : .compact)
  }

  static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let decoder = JSONDecoder()
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
    return try decoder.decode(type, from: data)
  }
}
