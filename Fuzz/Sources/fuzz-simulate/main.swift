import FuzzSupport
import ReloadBenchCLI

runFuzzer { FuzzEntryPoints.simulateAndRender($0, scratch: fuzzScratch) }
