import Foundation
import ReloadBenchCLI

// Everything lives in ReloadBenchCLI; this only hands over argv and exits.
exit(ReloadBenchCLI.main(Array(CommandLine.arguments.dropFirst())))
