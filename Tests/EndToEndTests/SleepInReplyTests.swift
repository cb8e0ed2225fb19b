// A bottle that falls asleep mid-sync must not make the daemon spin. The bottle falls asleep on an
// ACK whose reply is still pending, and BlueZ shows it the way an independently written BlueZ
// model did — Connected=false and ServicesResolved=false in one PropertiesChanged, every GATT
// object removed, the device kept, the pending write then answered OK, the bottle advertising
// again a second later. The session used to treat the lost link as one more event and ask again,
// for ever: a full core and 100 MB a second. Now `run --once` reconnects when the bottle
// advertises and completes the sync (docs/robustness.md, "Liveness").

import BusTestSupport
import Foundation
import History
import ProcessSupport
import Testing

@Suite("a bottle that sleeps while an ACK's reply is pending")
struct SleepInReplyTests {
    let live = LiveCommandTests()

    @Test("run --once reconnects at the next advertisement and stores all 60 drinks once, within bounded CPU and memory")
    func sleepWhileReplyPending() async throws {
        // MTU 23: one record a chunk, so chunk 33 is the 34th record, as in the report.
        try await live.withSimulator(records: 60, arguments: ["--fault", "mtu=23", "--fault", "sleep-in-reply=33"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let run = try await MeasuredRun.bridge(["run", "--once", "--timeout", "40", "--db", db],
                                                   environment: bus.environment, folder: folder)
            let result = run.result
            #expect(result.status == 0, "\(result)")
            #expect(bus.log("sim").contains("fault: sleep-in-reply=33"), "the fault must have fired")
            #expect(result.error.contains("waiting for the bottle to advertise again"), "\(result.error)")
            let stored = try DrinkHistory(path: db).drinks.storedDrinks()
            #expect(stored.count == 60)
            #expect(Set(stored.map(\.recordID)).count == 60, "each drink exactly once")

            // The spin burnt a core and grew 100 MB a second; a healthy run of two sessions uses
            // a fraction of a second and stays near its idle ~41 MiB.
            #expect((run.cpuSeconds ?? .infinity) < 3, "CPU seconds: \(run.cpuSeconds ?? -1)")
            #expect((run.peakKiB ?? .infinity) < 96 * 1024, "peak resident KiB: \(run.peakKiB ?? -1)")
        }
    }

    @Test("a bottle that sleeps mid-sync and never wakes: run --once keeps what it stored and gives up at --timeout, saying what it waited for")
    func neverWakes() async throws {
        try await live.withSimulator(records: 30, arguments: ["--fault", "mtu=23", "--fault", "sleep-mid-sync=9"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let result = try await live.bridge(bus, ["run", "--once", "--timeout", "8", "--db", db], timeout: .seconds(40))
            #expect(result.status != 0, "\(result)")
            let last = result.error.split(separator: "\n").last.map(String.init) ?? ""
            #expect(last.contains("advertise"), "the last line says what it waited for: \(result.error)")
            #expect(!result.error.contains("Fatal error"))
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 10, "chunks 0…9 were committed before the sleep")
        }
    }
}
