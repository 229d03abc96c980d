import FuzzSupport
import ReloadBenchCLI

runFuzzer { FuzzEntryPoints.mergePart($0) }
