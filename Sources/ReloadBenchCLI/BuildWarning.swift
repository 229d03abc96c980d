import ReloadEngine

/// The banner a run prints (on a terminal) when its speed figures mean
/// little: a debug build, or internal consistency checks compiled in.
enum BuildWarning {
  static var text: String? {
    var reasons: [String] = []
    #if DEBUG
      reasons.append("a debug build")
    #endif
    if internalChecksEnabled { reasons.append("RELOADBENCH_INTERNAL_CHECKS on") }
    guard !reasons.isEmpty else { return nil }
    return "*** " + reasons.joined(separator: " with ")
      + ": results are right but speed figures are not representative (use swift run -c release) ***"
  }
}
