import Foundation

/// Which share of a run one process simulates: shard `number` of `count`
/// (`--shard 3/8`, numbered from 1), for spreading a run over machines.
///
/// A run's devices are cut into blocks (`blockSize`) in device order, and
/// block `b` belongs to shard `b % count + 1`: each shard gets devices of
/// every segment (segments are contiguous runs of devices), so the shards
/// take about the same time. A sweep's points are dealt the same way
/// (point `p` to shard `p % count + 1`). Which devices (points) a shard
/// holds depends only on the scenario and `count`, never on the machine or
/// the thread count, and every device (point) is in exactly one shard.
struct ShardSpec: Equatable, Sendable {
  /// 1...count.
  let number: Int
  let count: Int

  /// Devices per block: about a quarter of a shard's share, between 16
  /// and the runner's own chunk size (so even a small run gives every
  /// shard some devices, and a large one blocks of the usual size).
  static func blockSize(devices: Int, count: Int) -> Int {
    min(ExperimentRunner.chunkSize, max(16, devices / max(1, count * 4)))
  }

  /// The variables of the array-job engines that hold a task's index
  /// (from 0), in the order they are read: the first one set (and not
  /// empty) is used.
  static let indexVariables: [(name: String, engine: String)] = [
    ("JOB_COMPLETION_INDEX", "Kubernetes Indexed Job"),
    ("SLURM_ARRAY_TASK_ID", "Slurm job array, submitted with --array=0-(N-1)"),
    ("AWS_BATCH_JOB_ARRAY_INDEX", "AWS Batch array job"),
  ]

  static let declarations: [OptionSpec] = [
    OptionSpec(
      "--shard", "K/N",
      "Simulate shard K of N (K from 1): a fixed 1/N of the devices (of a sweep: of its points); write "
        + "shard-K-of-N.rbpart to the report folder instead of the reports. 'reloadbench merge' joins the N parts "
        + "into the reports a single run writes, byte for byte."),
    OptionSpec(
      "--shard-count", "N",
      "Like --shard, with K taken from the array job's index variable (from 0, K = index + 1): "
        + indexVariables.map(\.name).joined(separator: ", ") + " (the first one set)."),
  ]

  /// The shard the command line (or, with `--shard-count`, the
  /// environment) asks for; nil for a whole run.
  static func parse(
    _ parsed: ParsedArguments, environment: [String: String] = ProcessInfo.processInfo.environment,
    command: String
  ) throws(CLIError) -> ShardSpec? {
    let text = parsed.value("--shard")
    let countText = parsed.value("--shard-count")
    if text != nil && countText != nil {
      throw .badInput(
        "--shard and --shard-count are alternatives (fix: pass --shard K/N, or --shard-count N in an array job)")
    }
    if let text {
      let parts = text.split(separator: "/", omittingEmptySubsequences: false)
      guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), (1...maxCount).contains(n),
        (1...n).contains(k)
      else {
        throw .badInput(
          "--shard expects K/N with 1 <= K <= N <= \(maxCount), got '\(text)' (fix: e.g. --shard 1/8 ... --shard 8/8; "
            + "see 'reloadbench \(command) --help')")
      }
      return ShardSpec(number: k, count: n)
    }
    guard let n = try parsed.integer("--shard-count", in: 1...maxCount, command: command) else { return nil }
    return try fromEnvironment(count: n, environment)
  }

  /// Shard `index + 1` of `count`, the index read from the first of
  /// `indexVariables` that is set.
  static func fromEnvironment(count n: Int, _ environment: [String: String]) throws(CLIError) -> ShardSpec {
    // A variable set to nothing counts as unset.
    let set = indexVariables.lazy.compactMap { v in environment[v.name].flatMap { $0.isEmpty ? nil : (v.name, $0) } }
    guard let (name, value) = set.first
    else {
      let names = indexVariables.map(\.name).joined(separator: ", ")
      throw .badInput(
        "--shard-count \(n): no shard index in the environment (none of \(names) is set) "
          + "(fix: run it as an array job, or pass --shard K/N)")
    }
    guard let index = Int(value.trimmingCharacters(in: .whitespaces)), (0..<n).contains(index) else {
      throw .badInput(
        "\(name)=\(TerminalText.short(value)) is not a shard index in 0...\(n - 1) for --shard-count \(n) "
          + "(fix: number the array's tasks 0 to \(n - 1), e.g. Slurm --array=0-\(n - 1), or match --shard-count to "
          + "the array's size)"
      )
    }
    return ShardSpec(number: index + 1, count: n)
  }

  static let maxCount = 100_000

  /// `3/8`.
  var text: String { "\(number)/\(count)" }

  /// The part file a shard writes into the report folder.
  var fileName: String { "shard-\(number)-of-\(count).rbpart" }

  /// The device ranges of this shard out of `devices`, in device order.
  func deviceBlocks(devices: Int) -> [Range<Int>] {
    let size = Self.blockSize(devices: devices, count: count)
    let blocks = (devices + size - 1) / size
    return stride(from: number - 1, to: blocks, by: count).map { b in (b * size)..<min(devices, (b + 1) * size) }
  }

  /// The sweep points (indices out of `points`) of this shard.
  func points(of points: Int) -> [Int] { Array(stride(from: number - 1, to: points, by: count)) }
}
