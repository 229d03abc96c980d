import Foundation
import ReloadBenchCLI
import ReloadEngine
import WidgetModel

// The whole `reloadbench` command line, with two more strategies a scenario
// can name: "electricity-prices" (see ElectricityPricesProvider.swift) and
// "print-monitor" (PrintMonitorProvider.swift).
//
//   swift run -c release electricity-prices run electricity-prices.json
exit(
  ReloadBenchCLI.main(strategies: [
    Strategy(
      name: "electricity-prices",
      code: ElectricityPricesProvider(),
      // AppState.swift L63-100, L195-199, L386-387: a settings change
      // (`didSet`) reloads all timelines, debounced 1 s. How often people
      // change settings is not in the evidence: assumed once in 20 sessions.
      // (The reload after a price refresh is the provider's `reloadCalls`.)
      triggers: [AppTrigger(on: .inApp, kinds: .all, delay: .seconds(1), perSession: 0.05)]),
    // A policy that depends on the data's state (see PrintMonitorProvider.swift):
    // print-monitor.json runs it against fixed 5-minute and hourly polling.
    Strategy(name: "print-monitor", code: PrintMonitorProvider()),
  ]))
