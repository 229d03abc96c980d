import Foundation

/// Writes outputs all at once or not at all.
///
/// A report folder (`writeReport`) is rendered into a staging folder
/// beside it and swapped in with one rename, so a failure (disk full, a
/// name taken by a folder) leaves the previous report as it was and no
/// half-written one. Single files (`write`, `writeFile`: a baseline,
/// --json, a shard's part in a folder other shards share) go to a
/// temporary name in their folder and are renamed over the old file.
enum OutputWriter {
  /// Creates `directory` if needed and proves it writable, before a long run.
  /// `option` is the flag that chose the path, named in the fix; `files`,
  /// the names the command will write there, must not be taken by folders.
  static func prepare(_ directory: String, option: String = "--out", files: [String] = []) throws(CLIError) {
    let fix =
      option == "--out" ? "pass --out with a writable folder" : "pass \(option) with a path in a writable folder"
    let fm = FileManager.default
    var isDir: ObjCBool = false
    if fm.fileExists(atPath: directory, isDirectory: &isDir), !isDir.boolValue {
      throw .badInput(
        "cannot write to \(directory): it is a file (fix: \(option == "--out" ? "pass --out with a folder path" : fix))"
      )
    }
    if let failure = makeDirectories(directory) {
      throw .badInput("cannot create \(directory): \(failure) (fix: \(fix))")
    }
    let probe = (directory as NSString).appendingPathComponent(".reloadbench-write-test-\(getpid())")
    guard fm.createFile(atPath: probe, contents: Data()) else {
      throw .badInput("cannot write to \(directory): permission denied (fix: \(fix))")
    }
    try? fm.removeItem(atPath: probe)
    for name in files {
      let path = (directory as NSString).appendingPathComponent(name)
      if kind(path) == .folder {
        throw .badInput(
          "cannot write \(path): a folder has that name (fix: move that folder away, or "
            + (option == "--out" ? "pass --out with another folder)" : "pass \(option) with another path)"))
      }
    }
  }

  /// What is at a path (symbolic links not followed).
  enum Kind {
    case none, file, folder, other
  }

  static func kind(_ path: String) -> Kind {
    var s = stat()
    guard lstat(path, &s) == 0 else { return .none }
    switch s.st_mode & S_IFMT {
    case S_IFREG: return .file
    case S_IFDIR: return .folder
    default: return .other
    }
  }

  /// Writes one file's bytes; nil when written, else why not. (Tests
  /// inject a writer that fails midway.)
  typealias FileWriter = (_ path: String, _ data: Data) -> String?

  static func writeBytes(_ path: String, _ data: Data) -> String? {
    do {
      try data.write(to: URL(fileURLWithPath: path))
      return nil
    } catch {
      return reason(error)
    }
  }

  /// Writes a report folder: every `(file name, contents)` into `directory`,
  /// as one change.
  ///
  /// The files are written into a staging folder beside `directory`
  /// (`.NAME.tmp-PID`), with hard links to the other files already in
  /// `directory` (a shard's part, an earlier sweep's files), and the
  /// staging folder then takes the place of `directory` in one rename (an
  /// exchange where the system has one). Nothing in `directory` changes
  /// until every file is written. A folder that cannot be swapped (it
  /// holds folders or other special files, it is or holds the current
  /// folder, its parent is not writable, another file system) is written
  /// file by file from a staging folder inside it, the previous files put
  /// back if a rename fails.
  static func writeReport(
    _ files: [(name: String, contents: String)], to directory: String, writer: FileWriter = writeBytes
  ) throws(CLIError) {
    let data = files.map { (name: $0.name, data: Data($0.contents.utf8)) }
    try prepare(directory, files: data.map(\.name))
    if let swapped = try swapIn(data, directory: directory, writer: writer), swapped { return }
    try replaceFileByFile(data, directory: directory, writer: writer)
  }

  /// The staging folder of `directory` beside it, for process `pid`.
  static func stagingName(_ directory: String, pid: Int32 = getpid()) -> String { ".\(directory).tmp-\(pid)" }
  /// Where the previous folder goes for a moment without an exchange.
  static func previousName(_ directory: String, pid: Int32 = getpid()) -> String { ".\(directory).old-\(pid)" }
  /// The staging folder inside a report folder, file by file.
  static func innerStagingName(pid: Int32 = getpid()) -> String { ".reloadbench-staging-\(pid)" }

  /// Writes the files into a staging folder beside `directory` and swaps
  /// it in: true when done, nil or false when the folder cannot be swapped
  /// (nothing changed; write file by file instead). Throws when a file
  /// cannot be written (nothing changed either).
  private static func swapIn(
    _ files: [(name: String, data: Data)], directory: String, writer: FileWriter
  ) throws(CLIError) -> Bool? {
    let fm = FileManager.default
    guard let real = realPath(directory) else { return nil }
    let cwd = realPath(".") ?? ""
    if cwd == real || cwd.hasPrefix(real == "/" ? "/" : real + "/") || real == "/" { return nil }
    guard let entries = try? fm.contentsOfDirectory(atPath: real) else { return nil }
    let names = Set(files.map(\.name))
    let carried = entries.filter { !names.contains($0) && !$0.hasPrefix(".reloadbench-write-test-") }
    for e in carried where kind(real + "/" + e) != .file { return nil }
    let parent = PathText.folder(of: real)
    let staging = (parent as NSString).appendingPathComponent(stagingName(PathText.name(real)))
    if kind(staging) != .none { try? fm.removeItem(atPath: staging) }
    guard mkdir(staging, mode(of: real)) == 0 else { return nil }
    chmod(staging, mode(of: real))
    for (name, data) in files {
      if let failure = writer((staging as NSString).appendingPathComponent(name), data) {
        try? fm.removeItem(atPath: staging)
        throw .badInput(
          "cannot write \((directory as NSString).appendingPathComponent(name)): \(failure); the previous report is "
            + "unchanged "
            + "(fix: check free space and permissions)")
      }
    }
    for e in carried where link(real + "/" + e, staging + "/" + e) != 0 {
      try? fm.removeItem(atPath: staging)
      return false
    }
    guard exchange(staging, real) else {
      try? fm.removeItem(atPath: staging)
      return false
    }
    // The previous folder is now at `staging`: its files were replaced or
    // carried over (hard links), so nothing is lost in removing it.
    try? fm.removeItem(atPath: staging)
    return true
  }

  /// Swaps the folders `a` and `b`: with `renameat2(RENAME_EXCHANGE)` on
  /// Linux, else (or where the file system has no exchange) `b` moves
  /// aside, `a` takes its place and the old `b` goes to `a`'s name. False
  /// when nothing moved.
  private static func exchange(_ a: String, _ b: String) -> Bool {
    #if canImport(Glibc)
      typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
      if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") {
        let renameat2 = unsafeBitCast(symbol, to: RenameAt2.self)
        // AT_FDCWD, RENAME_EXCHANGE.
        if renameat2(-100, a, -100, b, 2) == 0 { return true }
      }
    #endif
    let aside = (PathText.folder(of: b) as NSString).appendingPathComponent(previousName(PathText.name(b)))
    guard rename(b, aside) == 0 else { return false }
    guard rename(a, b) == 0 else {
      rename(aside, b)
      return false
    }
    try? FileManager.default.removeItem(atPath: aside)
    return true
  }

  /// Writes the files into a staging folder inside `directory`, then
  /// renames them over the old ones; when a rename fails, the files
  /// already replaced are put back from hard links to the old ones.
  private static func replaceFileByFile(
    _ files: [(name: String, data: Data)], directory: String, writer: FileWriter
  ) throws(CLIError) {
    let fm = FileManager.default
    let staging = (directory as NSString).appendingPathComponent(innerStagingName())
    let previous = staging + "/.previous"
    if kind(staging) != .none { try? fm.removeItem(atPath: staging) }
    defer { try? fm.removeItem(atPath: staging) }
    guard mkdir(staging, 0o755) == 0, mkdir(previous, 0o755) == 0 else {
      throw .badInput(
        "cannot write to \(directory): \(String(cString: strerror(errno))) (fix: check free space and permissions)")
    }
    for (name, data) in files {
      if let failure = writer(staging + "/" + name, data) {
        throw .badInput(
          "cannot write \((directory as NSString).appendingPathComponent(name)): \(failure); the previous report is "
            + "unchanged "
            + "(fix: check free space and permissions)")
      }
    }
    var done: [(name: String, hadPrevious: Bool)] = []
    for (name, _) in files {
      let final = (directory as NSString).appendingPathComponent(name)
      let hadPrevious = kind(final) == .file && link(final, previous + "/" + name) == 0
      if rename(staging + "/" + name, final) != 0 {
        let message = String(cString: strerror(errno))
        for d in done.reversed() {
          let path = (directory as NSString).appendingPathComponent(d.name)
          if d.hadPrevious { rename(previous + "/" + d.name, path) } else { unlink(path) }
        }
        throw .badInput(
          "cannot replace \(final): \(message); the previous report is unchanged (fix: check permissions)")
      }
      done.append((name, hadPrevious))
    }
  }

  private static func realPath(_ path: String) -> String? {
    guard let r = realpath(path, nil) else { return nil }
    defer { free(r) }
    return String(cString: r)
  }

  private static func mode(of path: String) -> mode_t {
    var s = stat()
    return stat(path, &s) == 0 ? s.st_mode & 0o7777 : 0o755
  }

  /// Writes files into a folder that holds other things too (a baseline
  /// beside others, a shard's part beside the other shards' parts, which
  /// other processes write at the same time): each to a temporary name in
  /// `directory`, then each renamed over its old file once all are written.
  /// A report folder goes through `writeReport`.
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
    removeStaleStagingFolders(of: directory)
    guard let entries = try? fm.contentsOfDirectory(atPath: directory) else { return }
    let prefixes = [".reloadbench-write-test-"] + names.map { ".\($0).tmp-" }
    for entry in entries where entry.hasPrefix(".") {
      guard prefixes.contains(where: { deadOwner(of: entry, prefix: $0) }) else { continue }
      let path = (directory as NSString).appendingPathComponent(entry)
      var s = stat()
      guard lstat(path, &s) == 0, (s.st_mode & S_IFMT) == S_IFREG else { continue }
      unlink(path)
    }
  }

  /// Removes the staging folders a killed `writeReport` left: beside
  /// `directory` (`.NAME.tmp-PID`, `.NAME.old-PID`) and inside it
  /// (`.reloadbench-staging-PID`), only when they are folders (not links)
  /// and their process is gone.
  static func removeStaleStagingFolders(of directory: String) {
    guard let real = realPath(directory) else { return }
    let name = PathText.name(real)
    let beside = [stagingName(name, pid: 0).dropLast(), previousName(name, pid: 0).dropLast()].map(String.init)
    let places = [(PathText.folder(of: real), beside), (real, [String(innerStagingName(pid: 0).dropLast())])]
    for (folder, prefixes) in places {
      guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      for entry in entries {
        guard prefixes.contains(where: { deadOwner(of: entry, prefix: $0) }) else { continue }
        let path = (folder as NSString).appendingPathComponent(entry)
        if kind(path) == .folder { try? FileManager.default.removeItem(atPath: path) }
      }
    }
  }

  /// Whether `entry` is `prefix` followed by the id of a process that is
  /// gone (not this one; a process still running, or not ours to ask, keeps
  /// its files).
  static func deadOwner(of entry: String, prefix: String) -> Bool {
    guard entry.hasPrefix(prefix) else { return false }
    let digits = entry.dropFirst(prefix.count)
    guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
      let pid = Int32(digits), pid > 0, pid != getpid()
    else { return false }
    return kill(pid, 0) != 0 && errno == ESRCH
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

/// The folders a command made for its outputs, so a command that fails
/// before writing into them leaves none behind.
struct MadeFolders {
  /// Outermost first: the folders that did not exist when noted.
  private var paths: [String] = []

  /// Notes `directory` and each missing folder above it, before they are made.
  mutating func note(_ directory: String) {
    var missing: [String] = []
    var path = Substring(directory)
    while path.count > 1 && path.hasSuffix("/") { path = path.dropLast() }
    while !path.isEmpty, path != "/", path != ".", OutputWriter.kind(String(path)) == .none {
      missing.append(String(path))
      guard let slash = path.lastIndex(of: "/") else { break }
      path = path[..<slash]
      while path.hasSuffix("/") { path = path.dropLast() }
    }
    paths += missing.reversed()
  }

  /// Removes the noted folders that are still empty, innermost first.
  func removeEmpty() {
    for path in paths.reversed() { rmdir(path) }
  }
}

