// The seeded fault injector against the real bridge (issue 10, docs/design.md 4): `aquavate-sim
// --fault chaos=SEED` breaks one to four connections at random instants — during Connect, during
// service resolution, with a GATT call's reply in flight, between a chunk and its ACK, or some
// time after the link came up — in the ways BlueZ shows it (supervision time-out with the GATT
// objects removed or kept, the device object vanishing), answering the calls in flight before or
// after the signals, failed or OK; the bottle may sleep and wake later, or not at all.
//
// For every seed: `run --once` is started again until the sync completes (waking the bottle
// when it gave up on a sleeping one); each run ends by itself within its --timeout with a clean
// exit status and one line, uses < 2 s of CPU and < 96 MiB at its peak (GNU time), and in the end
// every drink is stored exactly once.
//
// A handful of seeds run in the suite. `scripts/chaos.sh N` runs N random seeds and prints the
// seed of any failure; `AQUAVATE_CHAOS_SEED=S swift test --filter ChaosTests` replays one.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import Testing

@Suite("the seeded fault injector against run --once")
struct ChaosTests {
    static let records = 40

    /// The seeds: `AQUAVATE_CHAOS_SEEDS` (comma-separated, from scripts/chaos.sh),
    /// `AQUAVATE_CHAOS_SEED` (one, to replay it), else the suite's handful.
    static var seeds: [UInt64] {
        let environment = ProcessInfo.processInfo.environment
        if let list = environment["AQUAVATE_CHAOS_SEEDS"] ?? environment["AQUAVATE_CHAOS_SEED"] {
            return list.split(separator: ",").compactMap { UInt64($0.trimmingCharacters(in: .whitespaces)) }
        }
        return [1, 2, 3, 5, 8]
    }

    let live = LiveCommandTests()

    @Test("each schedule ends in a complete sync, every run bounded in time, CPU and memory", arguments: seeds)
    func schedule(seed: UInt64) async throws {
        print("chaos seed \(seed) (replay: AQUAVATE_CHAOS_SEED=\(seed) swift test --filter ChaosTests)")
        // MTU 23: one record a chunk, so a sync has many instants to break at.
        try await live.withSimulator(records: Self.records, arguments: ["--fault", "mtu=23", "--fault", "chaos=\(seed)"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            var completed = false
            for attempt in 1...8 where !completed {
                // A hang throws (the run must end by itself within its --timeout).
                let run = try await MeasuredRun.bridge(["run", "--once", "--timeout", "15", "--failure-pause", "0.5", "--db", db],
                                                       environment: bus.environment, folder: folder)
                let result = run.result
                print("chaos seed \(seed) run \(attempt): status \(result.status): \(result.error.split(separator: "\n").last ?? "")")
                let context = "seed \(seed), run \(attempt): \(result)\nsimulator:\n\(bus.log("sim"))"
                #expect(result.status == 0 || result.status == 1, "a clean exit status: \(context)")
                #expect(!result.error.contains("Fatal error"), "\(context)")
                #expect((run.cpuSeconds ?? .infinity) < 2, "CPU seconds \(run.cpuSeconds ?? -1): \(context)")
                #expect((run.peakKiB ?? .infinity) < 96 * 1024, "peak KiB \(run.peakKiB ?? -1): \(context)")
                if result.status == 0 {
                    completed = result.error.contains("synced") || result.error.contains("nothing to sync")
                } else {
                    // bluetoothd restarting (half a second off the bus): a person would try again
                    // a moment later.
                    if result.error.contains("org.bluez") { try await Task.sleep(for: .seconds(1)) }
                    // It gave up on a bottle that sleeps until woken: wake it, as a person would.
                    _ = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                           "-m", "org.aquavate.Simulator1.Wake"],
                                          environment: bus.environment, timeout: .seconds(10))
                }
            }
            #expect(completed, "seed \(seed): no complete sync in 8 runs\n\(bus.log("sim"))")
            let stored = try DrinkHistory(path: db).storedDrinks()
            #expect(stored.count == Self.records, "seed \(seed): \(stored.count) of \(Self.records) stored")
            #expect(Set(stored.map(\.recordID)).count == stored.count, "seed \(seed): a drink stored twice")
        }
    }
}
