import Foundation

/// Writes a report folder all at once or not at all.
///
/// Everything is rendered before anything is written; each file goes to a
/// temporary name in the target folder and is renamed over the old file
/// only after every temporary file was written, so a failure never leaves
/// a half-written report or a clobbered good one.
enum OutputWriter {
  /// Creates `directory` if needed and proves it writable, before a long run.
  /// `option` is the flag that chose the path, named in the fix.
  static func prepare(_ directory: String, option: String = "--out") throws(CLIError) {
    let fix = option == "--out" ? "pass --out with a writable folder" : "pass \(option) with a path in a writable folder"
    let fm = FileManager.default
    var isDir: ObjCBool = false
    if fm.fileExists(atPath: directory, isDirectory: &isDir), !isDir.boolValue {
      throw .badInput("cannot write to \(directory): it is a file (fix: \(option == "--out" ? "pass --out with a folder path" : fix))")
    }
    if let failure = makeDirectories(directory) {
      throw .badInput("cannot create \(directory): \(failure) (fix: \(fix))")
    }
    let probe = (directory as NSString).appendingPathComponent(".reloadbench-write-test-\(getpid())")
    guard fm.createFile(atPath: probe, contents: Data()) else {
      throw .badInput("cannot write to \(directory): permission denied (fix: \(fix))")
    }
    try? fm.removeItem(atPath: probe)
  }

  /// Writes every `(file name, contents)` into `directory`, atomically as a set.
  static func write(_ files: [(name: String, contents: String)], to directory: String) throws(CLIError) {
    try prepare(directory)
    let fm = FileManager.default
    var temporary: [(String, String)] = []
    for (name, contents) in files {
      let final = (directory as NSString).appendingPathComponent(name)
      let temp = (directory as NSString).appendingPathComponent(".\(name).tmp-\(getpid())")
      guard fm.createFile(atPath: temp, contents: Data(contents.utf8)) else {
        for (t, _) in temporary { try? fm.removeItem(atPath: t) }
        throw .badInput("cannot write \(final) (fix: check free space and permissions)")
      }
      temporary.append((temp, final))
    }
    for (temp, final) in temporary {
      if rename(temp, final) != 0 {
        let message = String(cString: strerror(errno))
        for (t, _) in temporary { try? fm.removeItem(atPath: t) }
        throw .badInput("cannot replace \(final): \(message)")
      }
    }
  }

  /// Writes one file atomically (for --json, --markdown, baselines).
  static func writeFile(_ path: String, _ contents: String) throws(CLIError) {
    try write([(PathText.name(path), contents)], to: PathText.folder(of: path))
  }

  /// `mkdir -p`: nil when `path` is (now) a folder, else why not, in the
  /// system's words and naming the level that failed.
  static func makeDirectories(_ path: String) -> String? {
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
      return isDir.boolValue ? nil : "\(path) is a file"
    }
    let parent = PathText.parent(path)
    if !parent.isEmpty, parent != path, let failure = makeDirectories(parent) { return failure }
    if mkdir(path, 0o777) != 0, errno != EEXIST {
      return "\(String(cString: strerror(errno))) (making \(path))"
    }
    return nil
  }

  static func reason(_ error: Error) -> String {
    let ns = error as NSError
    if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError {
      return String(cString: strerror(Int32(underlying.code)))
    }
    return ns.localizedDescription
  }
}
