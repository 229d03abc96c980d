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
    try write(files.map { (name: $0.name, data: Data($0.contents.utf8)) }, to: directory)
  }

  /// The same, for files of bytes (a shard's partial result).
  static func write(_ files: [(name: String, data: Data)], to directory: String) throws(CLIError) {
    try prepare(directory)
    let fm = FileManager.default
    var temporary: [(String, String)] = []
    for (name, contents) in files {
      let final = (directory as NSString).appendingPathComponent(name)
      let temp = (directory as NSString).appendingPathComponent(temporaryName(name))
      guard fm.createFile(atPath: temp, contents: contents) else {
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

  /// The temporary name `write` gives `name` while writing it.
  static func temporaryName(_ name: String, pid: Int32 = getpid()) -> String { ".\(name).tmp-\(pid)" }

  /// Removes what a killed run (`kill -9` while writing) left in
  /// `directory`: the temporary files of `names` (`.NAME.tmp-PID`) and the
  /// write probe (`.reloadbench-write-test-PID`), only when they are
  /// regular files and their process is gone. Anything else is left alone.
  static func removeStaleTemporaryFiles(in directory: String, names: [String]) {
    let fm = FileManager.default
    guard let entries = try? fm.contentsOfDirectory(atPath: directory) else { return }
    let own = getpid()
    for entry in entries where entry.hasPrefix(".") {
      guard let pid = ownedTemporaryPID(entry, names: names), pid != own, pid > 0 else { continue }
      // Still running (or not ours to ask): keep it.
      if kill(pid, 0) == 0 || errno != ESRCH { continue }
      let path = (directory as NSString).appendingPathComponent(entry)
      var s = stat()
      guard lstat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { continue }
      unlink(path)
    }
  }

  /// The process id in `entry` when it is one of this tool's temporary
  /// names for `names`, else nil.
  static func ownedTemporaryPID(_ entry: String, names: [String]) -> Int32? {
    let probe = ".reloadbench-write-test-"
    var digits: Substring
    if entry.hasPrefix(probe) {
      digits = entry.dropFirst(probe.count)
    } else {
      guard let name = names.first(where: { entry.hasPrefix(".\($0).tmp-") }) else { return nil }
      digits = entry.dropFirst(name.count + 6)
    }
    guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
      return nil
    }
    return Int32(digits)
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

/// The files a command reads and writes, compared before anything runs, so
/// that an output never replaces an input (`check s.json --json s.json`)
/// or another output (`--json x --junit x`).
///
/// Paths are compared resolved: absolute from the current folder, with
/// `.`, `..` and symbolic links resolved as far as the path exists (and,
/// for files that exist, by device and inode, so hard links match too).
/// `-` (stdout) is never claimed.
struct PathClaims {
  struct Claim {
    /// The path as given.
    let text: String
    /// What names it: `--json`, `the scenario`, ...
    let what: String
    /// `text` resolved.
    let key: String
    /// Device and inode, when the file exists.
    let inode: (UInt64, UInt64)?
    /// Files the command writes into this folder (report folders), else nil.
    let folderFiles: [String]?
    /// Whether the command writes it.
    let written: Bool
    /// How to pick another path, for the error.
    let fix: String

    func isSameFile(as other: Claim) -> Bool {
      if key == other.key { return true }
      if let a = inode, let b = other.inode { return a == b }
      return false
    }

    /// The path of `name` inside this folder, resolved.
    func contains(_ other: Claim) -> Bool {
      guard let files = folderFiles else { return false }
      return files.contains { PathClaims.resolved(key + "/" + $0) == other.key }
    }

    var described: String { "\(what) \(text)" }
  }

  private(set) var claims: [Claim] = []

  /// A file the command reads (a scenario, a baseline).
  mutating func read(_ path: String, as what: String) throws(CLIError) {
    try add(Claim(path, what: what, written: false, fix: ""))
  }

  /// A file the command writes; `-` (stdout) is skipped. `what` is the
  /// flag that named it; `fix` says how to choose another path.
  mutating func write(_ path: String, as what: String, fix: String? = nil) throws(CLIError) {
    if path == "-" { return }
    if path.isEmpty { throw .badInput("\(what) needs a file path, got an empty one (fix: pass \(what) FILE)") }
    let fix = fix ?? "pass \(what) with another file name"
    var isDir: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDir), isDir.boolValue {
      throw .badInput("\(what) \(path) is a folder, not a file (fix: pass \(what) with a file path)")
    }
    try add(Claim(path, what: what, written: true, fix: fix))
  }

  /// A folder the command writes `files` into (a report folder).
  mutating func folder(_ path: String, as what: String, files: [String], fix: String) throws(CLIError) {
    try add(Claim(path, what: what, written: true, fix: fix, folderFiles: files))
  }

  private mutating func add(_ new: Claim) throws(CLIError) {
    for old in claims {
      guard old.written || new.written else { continue }
      // A folder against a file: the same path, or the file among the
      // folder's outputs.
      if old.folderFiles != nil || new.folderFiles != nil {
        let (dir, file) = old.folderFiles != nil ? (old, new) : (new, old)
        if dir.folderFiles != nil, file.folderFiles != nil {
          if dir.isSameFile(as: file) {
            throw .badInput(
              "\(new.described) is the same folder as \(old.described): their reports would overwrite each other "
                + "(fix: \(new.fix))")
          }
          continue
        }
        if dir.isSameFile(as: file) {
          throw .badInput(
            "\(new.described) is the same path as \(old.described): one is a report folder, the other a file "
              + "(fix: \(file.written ? file.fix : dir.fix))")
        }
        if dir.contains(file) {
          throw .badInput(
            "\(file.described) is one of the reports written into \(dir.described): one would overwrite the other "
              + "(fix: \(file.written ? file.fix : dir.fix))")
        }
        continue
      }
      guard new.isSameFile(as: old) else { continue }
      let same = new.text == old.text ? "" : " (the same file)"
      if new.written && old.written {
        throw .badInput(
          "\(old.described) and \(new.described)\(same) name one file: one output would overwrite the other "
            + "(fix: give each output its own file)")
      }
      let (output, input) = new.written ? (new, old) : (old, new)
      throw .badInput(
        "\(output.described) is \(input.described)\(same): writing it would replace that file "
          + "(fix: \(output.fix))")
    }
    claims.append(new)
  }

  /// `path` absolute, with `.`, `..` and symbolic links resolved as far as
  /// it exists; the part that does not exist yet is appended as written.
  static func resolved(_ path: String) -> String {
    let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    return resolve(absolute)
  }

  private static func resolve(_ path: String) -> String {
    if let r = realpath(path, nil) {
      defer { free(r) }
      return String(cString: r)
    }
    let parent = PathText.parent(path)
    if parent.isEmpty || parent == path { return path }
    let base = resolve(parent)
    switch PathText.name(path) {
    case ".", "": return base
    case "..":
      let up = PathText.parent(base)
      return up.isEmpty ? "/" : up
    case let name: return base == "/" ? "/" + name : base + "/" + name
    }
  }

  static func inode(_ path: String) -> (UInt64, UInt64)? {
    var s = stat()
    guard stat(path, &s) == 0 else { return nil }
    return (UInt64(s.st_dev), UInt64(s.st_ino))
  }
}

extension PathClaims.Claim {
  init(_ text: String, what: String, written: Bool, fix: String, folderFiles: [String]? = nil) {
    self.text = text
    self.what = what
    self.key = PathClaims.resolved(text)
    self.inode = PathClaims.inode(text)
    self.folderFiles = folderFiles
    self.written = written
    self.fix = fix
  }
}
