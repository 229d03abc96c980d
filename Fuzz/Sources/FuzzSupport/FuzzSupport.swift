import Foundation
import FuzzDriver
import ReloadBenchCLI

/// Runs libFuzzer over `body` with this process's command line (libFuzzer
/// flags and corpus folders) and exits with its status.
public func runFuzzer(_ body: @escaping @Sendable (Data) -> Void) -> Never {
  FuzzBody.body = body
  var argc = CommandLine.argc
  var argv = CommandLine.unsafeArgv
  let status = withUnsafeMutablePointer(to: &argv) { argvPointer in
    argvPointer.withMemoryRebound(to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self, capacity: 1) { p in
      LLVMFuzzerRunDriver(&argc, p) { data, size in
        let bytes = size == 0 || data == nil ? Data() : Data(bytes: data!, count: size)
        FuzzBody.body?(bytes)
        return 0
      }
    }
  }
  exit(status)
}

/// A scratch folder for targets that write files: one per process (so
/// parallel jobs do not share one), in memory when /dev/shm exists.
public let fuzzScratch: String = {
  let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
  return base + "/reloadbench-fuzz-\(getpid())"
}()

enum FuzzBody {
  nonisolated(unsafe) static var body: (@Sendable (Data) -> Void)?
}
