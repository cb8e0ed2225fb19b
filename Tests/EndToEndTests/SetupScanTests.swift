// `aquavate-bridge setup` adopting a bottle from a scan, against `aquavate-sim` on a private bus:
// the bottle listed, chosen by its number, written as bottle.address, and `run --once` then
// syncs that bottle from the config alone.

import BusTestSupport
import Foundation
import History
import TestFixtures
import Testing

extension LiveCommandTests {
    @Test("setup scans, lists the simulated bottle, adopts the one chosen; run --once then syncs it from the config")
    func setupAdoptsTheScannedBottle() async throws {
        try await withSimulator(records: 5) { bus, folder in
            let config = folder.path + "/bridge.toml", db = folder.path + "/history.sqlite"
            // Scan? yes. Which bottle? 1. Time zone: UTC. Broker: none. Goal: keep.
            let answers = "y\\n1\\nUTC\\n\\n\\n"
            let setup = try await runTool(
                "/bin/sh", ["-c", "printf '\(answers)' | '\(Self.bridge)' setup --scan-timeout 2 --config '\(config)'"],
                environment: bus.environment, timeout: .seconds(60))
            #expect(setup.status == 0, "\(setup)")
            #expect(setup.output.contains("1) Aquavate-"), "\(setup.output)")
            #expect(setup.output.contains("bottle.address = \(Self.address)"), "\(setup.output)")
            let text = try String(contentsOfFile: config, encoding: .utf8)
            #expect(text.contains(Self.address), "\(text)")

            let run = try await bridge(bus, ["run", "--once", "--config", config, "--db", db])
            #expect(run.status == 0, "\(run)")
            #expect(run.error.contains("synced Aquavate-A3F2: 5 record(s)"), "\(run.error)")
            #expect(try DrinkHistory(path: db).drinks.storedDrinks().count == 5)
        }
    }
}
