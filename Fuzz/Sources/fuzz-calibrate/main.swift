import FuzzSupport
import ReloadBenchCLI

runFuzzer { FuzzEntryPoints.calibrateLog($0) }
