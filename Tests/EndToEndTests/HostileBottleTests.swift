// A hostile bottle against the real bridge (whatever comes over the air): `aquavate-sim --fault
// hostile=SEED` bends its Drink Data chunks at random (totals far beyond the START's count, jumping
// indexes, ±32767 ml, levels of 32000 ml, timestamps in 1970 and 2106, record counts that do not
// fit, noise) and floods Current State with a flickering low-battery flag. The bridge stores only
// what can be a drink, never half a chunk, alerts low battery at most once a day, and every run
// ends by itself within bounded CPU and memory (docs/robustness.md, "Faults").

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import ProcessSupport
import Testing

@Suite("a hostile bottle against run --once")
struct HostileBottleTests {
    let live = LiveCommandTests()

    @Test("only what can be a drink is stored, low battery alerts once, every run bounded", arguments: [UInt64(1), 2, 3])
    func hostile(seed: UInt64) async throws {
        try await live.withSimulator(records: 30, arguments: ["--fault", "mtu=100", "--fault", "hostile=\(seed)"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            var lowBatteryAlerts = 0
            var alertLines: [String] = []
            for run in 1...2 {
                let measured = try await MeasuredRun.bridge(["run", "--once", "--timeout", "12", "--failure-pause", "0.3", "--db", db],
                                                            environment: bus.environment, folder: folder)
                let result = measured.result
                let context = "seed \(seed), run \(run): \(result)"
                #expect(result.status == 0 || result.status == 1, "\(context)")
                #expect(!result.error.contains("Fatal error"), "\(context)")
                #expect((measured.cpuSeconds ?? .infinity) < 2, "CPU seconds \(measured.cpuSeconds ?? -1): \(context)")
                #expect((measured.peakKiB ?? .infinity) < 96 * 1024, "peak KiB \(measured.peakKiB ?? -1): \(context)")
                // The journal sink's line, one per delivered notification.
                let alerts = result.error.split(separator: "\n").filter { $0.hasPrefix("notice: notification id=bottle-low-battery") }
                lowBatteryAlerts += alerts.count
                alertLines += alerts.map { "run \(run): \($0)" }
            }
            #expect(lowBatteryAlerts <= 1, "seed \(seed): \(lowBatteryAlerts) low-battery alerts on one day: \(alertLines)")
            let stored = try DrinkHistory(path: db).drinks.storedDrinks()
            let bounds = RecordBounds(now: Date.now.timeIntervalSince1970)
            for drink in stored {
                let record = drink.record
                #expect(bounds.problem(with: record) == nil, "seed \(seed): stored \(record)")
            }
            #expect(stored.count <= 30)
            #expect(Set(stored.map(\.recordID)).count == stored.count, "seed \(seed): a drink stored twice")
        }
    }
}
