import Foundation
import ReloadEngine

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Runs a program and reports what the OS measured of it: exit status,
/// stdout, stderr, wall time and its own peak resident memory (`wait4`'s
/// rusage), which `Foundation.Process` does not expose.
///
/// The child's stderr goes to a temporary file (read back once it has
/// exited, so a chatty child cannot fill a pipe and block), never to our
/// stderr: the caller decides what of it to show.
enum ChildProcess {
  struct Result {
    var status: Int32
    var stdout: String
    var stderr: String = ""
    var wallSeconds: Double
    /// Peak resident set size of the child, bytes.
    var peakRSSBytes: Double
    /// The signal that ended the child, if one did (`status` is then 128 + it).
    var signal: Int32? = nil

    /// Why the child failed, in one line: the first line of its stderr
    /// (without a leading `error: `), else the signal that ended it.
    var failureLine: String {
      let first = stderr.split(separator: "\n").lazy
        .map { $0.trimmingCharacters(in: .whitespaces) }.first { !$0.isEmpty }
      if var line = first {
        if line.hasPrefix("error: ") { line = String(line.dropFirst("error: ".count)) }
        return line.count > 300 ? String(line.prefix(300)) + "..." : line
      }
      if let signal { return "killed by signal \(signal) (\(String(cString: strsignal(signal)))), no error output" }
      return "no error output"
    }
  }

  static func run(_ executable: String, _ arguments: [String]) throws(CLIError) -> Result {
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { throw .badInput("cannot create a pipe: \(String(cString: strerror(errno)))") }
    var template = Array((NSTemporaryDirectory() + "/reloadbench-child-XXXXXX").utf8CString)
    let errFD = mkstemp(&template)
    guard errFD >= 0 else {
      close(fds[0])
      close(fds[1])
      throw .badInput(
        "cannot create a temporary file: \(String(cString: strerror(errno))) (fix: check \(NSTemporaryDirectory()))")
    }
    unlink(template)  // Still readable through errFD; gone when closed.
    defer { close(errFD) }
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t? = nil  // an opaque pointer on Darwin, a struct on Linux
    #else
      var actions = posix_spawn_file_actions_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_adddup2(&actions, errFD, 2)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    posix_spawn_file_actions_addclose(&actions, errFD)
    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    // This process's environment, as `environ` holds it (which Swift's Darwin module does not declare).
    let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { for p in argv + envp { free(p) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    let rc = posix_spawnp(&pid, executable, &actions, nil, argv, envp)
    close(fds[1])
    guard rc == 0 else {
      close(fds[0])
      throw .badInput("cannot start \(executable): \(String(cString: strerror(rc))) (fix: check the command)")
    }
    var output = Data()
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let n = read(fds[0], &buffer, buffer.count)
      if n <= 0 { break }
      output.append(buffer, count: n)
    }
    close(fds[0])
    var status: Int32 = 0
    var usage = rusage()
    _ = wait4(pid, &status, 0, &usage)
    let wall = ProgressLine.seconds(ContinuousClock.now - start)
    let exited = (status & 0x7F) == 0
    var errors = Data()
    lseek(errFD, 0, SEEK_SET)
    while true {
      let n = read(errFD, &buffer, buffer.count)
      if n <= 0 { break }
      errors.append(buffer, count: n)
    }
    return Result(
      status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
      stdout: String(decoding: output, as: UTF8.self), stderr: String(decoding: errors, as: UTF8.self),
      wallSeconds: wall, peakRSSBytes: Double(usage.ru_maxrss) * maxRSSUnit, signal: exited ? nil : status & 0x7F)
  }

  /// Bytes per unit of `rusage.ru_maxrss`: Linux counts kilobytes, Darwin bytes.
  #if canImport(Darwin)
    static let maxRSSUnit = 1.0
  #else
    static let maxRSSUnit = 1024.0
  #endif

  /// Whether `command` names a program that can be started: a path to an
  /// executable file, or a name found on `$PATH`.
  static func canStart(_ command: String) -> Bool {
    func runnable(_ path: String) -> Bool {
      var isDir: ObjCBool = false
      return FileManager.default.fileExists(atPath: path, isDirectory: &isDir) && !isDir.boolValue
        && FileManager.default.isExecutableFile(atPath: path)
    }
    if command.contains("/") { return runnable(command) }
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    return path.split(separator: ":").contains { runnable("\($0)/\(command)") }
  }
}

/// The machine, described for benchmark output.
enum MachineInfo {
  static func describe() -> [String: String] {
    var info: [String: String] = [:]
    if let cpu = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
      let line = cpu.split(separator: "\n").first(where: { $0.hasPrefix("model name") })
    {
      info["cpu"] = line.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) }
    }
    info["cores"] = String(ProcessInfo.processInfo.activeProcessorCount)
    info["memory_gb"] = String(format: "%.1f", Double(ProcessInfo.processInfo.physicalMemory) / 1e9)
    var u = utsname()
    uname(&u)
    let release = withUnsafeBytes(of: &u.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    let system = withUnsafeBytes(of: &u.sysname) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    info["os"] = "\(system) \(release)"
    #if DEBUG
      info["build"] = "debug"
    #elseif RELOADBENCH_PROFILE_GUIDED
      info["build"] = "release, profile-guided"  // scripts/build-pgo.sh
    #else
      info["build"] = "release"
    #endif
    info["internal_checks"] = internalChecksEnabled ? "on" : "off"
    return info
  }
}
