import FuzzSupport
import ReloadBenchCLI

runFuzzer { FuzzEntryPoints.loadBaseline($0) }
