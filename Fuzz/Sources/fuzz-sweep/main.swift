import FuzzSupport
import ReloadBenchCLI

runFuzzer { FuzzEntryPoints.expandSweep($0) }
