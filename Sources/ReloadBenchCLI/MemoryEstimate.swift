import Foundation
import WidgetModel

/// Refuses, before it starts, a run that would need more memory than the
/// machine has, with the estimate and a way out.
enum MemoryEstimate {
  /// Bytes the run will hold at its peak (per-thread tallies dominate).
  static func bytes(_ scenario: Scenario, threads: Int) -> Double {
    let seconds = scenario.measuredDays * 86_400
    let perSegment = seconds * 4 + 24 * Double(scenario.model.budget.largestBudget + 1) * 8 + 16_000
    let perStrategy = Double(scenario.segments.count) * perSegment + seconds / 3600 * 8 * 8
    let tallies = perStrategy * Double(scenario.strategies.count)
    // Each thread's tallies, the merged copy, replications kept for CIs.
    let copies = Double(threads + 1 + max(0, scenario.replications - 1))
    let shared = Double(scenario.kinds.count) * 200_000 + 50_000_000
    return tallies * copies + shared
  }

  static func physicalMemory() -> Double { Double(ProcessInfo.processInfo.physicalMemory) }

  static func check(_ scenario: Scenario, threads: Int = ProcessInfo.processInfo.activeProcessorCount) throws(CLIError) {
    let need = bytes(scenario, threads: threads)
    let have = physicalMemory()
    guard need > have * 0.8 else { return }
    let gb = { (x: Double) in String(format: "%.1f GB", x / 1e9) }
    throw .badInput(
      "\(scenario.name) would need about \(gb(need)) of memory, and this machine has \(gb(have)) "
        + "(fix: fewer days or strategies per run, fewer threads, or split the strategies over several scenarios)")
  }
}
