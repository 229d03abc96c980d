import FuzzSupport
import ReloadBenchCLI

runFuzzer { FuzzEntryPoints.decodeScenario($0) }
