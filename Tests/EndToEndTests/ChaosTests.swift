// The seeded fault injector against the real bridge (docs/robustness.md, "Chaos"; the faults of
// docs/design.md 4, combined and timed at random): `aquavate-sim --fault chaos=SEED` breaks one to
// four connections at random instants — during Connect, during service resolution, with a GATT
// call's reply in flight, between a chunk and its ACK, or some time after the link came up — in the
// ways BlueZ shows it (supervision time-out with the GATT objects removed or kept, the device
// object vanishing), answering the calls in flight before or after the signals, failed or OK; the
// bottle may sleep and wake later, or not at all.
//
// For every seed: `run --once` is started again until the sync completes (waking the bottle
// when it gave up on a sleeping one); each run ends by itself within its --timeout with a clean
// exit status and one line, uses < 2 s of CPU and < 96 MiB at its peak (GNU time), and in the end
// every drink is stored exactly once. The bottle of some seeds also holds records the firmware
// produces that cannot be drinks (stamped 1970, 2000 or 2106, an erased slot): they end in the
// quarantine (or, an erased slot, nowhere) and the bottle is left with nothing unsynced.
//
// A handful of seeds run in the suite. `scripts/chaos.sh N` runs N random seeds and prints the
// seed of any failure; `AQUAVATE_CHAOS_SEED=S swift test --filter ChaosTests` replays one.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

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
                    // once it is back.
                    if result.error.contains("org.bluez") { try await Self.waitForBlueZ(on: bus) }
                    // It gave up on a bottle that sleeps until woken: wake it, as a person would.
                    _ = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                           "-m", "org.aquavate.Simulator1.Wake"],
                                          environment: bus.environment, timeout: .seconds(10))
                }
            }
            #expect(completed, "seed \(seed): no complete sync in 8 runs\n\(bus.log("sim"))")
            let stored = try DrinkHistory(path: db).drinks.storedDrinks()
            #expect(stored.count == Self.records, "seed \(seed): \(stored.count) of \(Self.records) stored")
            #expect(Set(stored.map(\.recordID)).count == stored.count, "seed \(seed): a drink stored twice")
            // The odd records the injector mixed in (B9, TV11) are listed, never stored as
            // drinks, and nothing is left unsynced on the bottle.
            let stateFile = folder.path + "/sim.json"
            try await waitUntil(.seconds(10), "seed \(seed): the bottle to have nothing unsynced") {
                (try? QuarantineLiveTests.simulatorState(stateFile).unsynced) == 0
            }
            let bounds = RecordBounds(now: Date.now.timeIntervalSince1970)
            let timeOdd = try QuarantineLiveTests.simulatorState(stateFile).records.filter { entry in
                let stamp = Double(entry["timestamp"] as? Int ?? 0)
                return entry["record_id"] as? Int != Int(UInt32.max) && !RecordBounds.timeRange(now: bounds.now).contains(stamp)
            }
            #expect(try DrinkHistory(path: db).drinks.quarantined().count == timeOdd.count,
                    "seed \(seed): \(timeOdd.count) record(s) stamped outside 2020 … two days from now on the bottle")
        }
    }

    /// Until bluetoothd (the simulator) owns org.bluez again after a restart.
    static func waitForBlueZ(on bus: PrivateBus) async throws {
        try await waitUntil(.seconds(10), "org.bluez back on the bus") {
            let answer = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.freedesktop.DBus", "-o", "/org/freedesktop/DBus",
                                                              "-m", "org.freedesktop.DBus.NameHasOwner", "org.bluez"],
                                           environment: bus.environment, timeout: .seconds(10))
            return answer.output.contains("true")
        }
    }

    /// Runs `run --once` until `done` says so (at most 8 runs), waking a bottle that slept.
    func runUntil(_ done: () throws -> Bool, seed: UInt64, bus: PrivateBus, folder: TemporaryFolder, db: String) async throws {
        for attempt in 1...8 {
            if try done() { return }
            let run = try await MeasuredRun.bridge(["run", "--once", "--timeout", "15", "--failure-pause", "0.5", "--db", db],
                                                   environment: bus.environment, folder: folder)
            let result = run.result
            print("chaos seed \(seed) commands run \(attempt): status \(result.status): \(result.error.split(separator: "\n").last ?? "")")
            #expect(result.status == 0 || result.status == 1, "seed \(seed): \(result)")
            #expect((run.cpuSeconds ?? .infinity) < 2 && (run.peakKiB ?? .infinity) < 96 * 1024, "seed \(seed): bounded")
            if result.status != 0 {
                if result.error.contains("org.bluez") { try await Self.waitForBlueZ(on: bus) }
                _ = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                       "-m", "org.aquavate.Simulator1.Wake"],
                                      environment: bus.environment, timeout: .seconds(10))
            }
        }
    }

    /// The seeds of the commands test: `AQUAVATE_CHAOS_SEEDS` as above, else a handful.
    static var commandSeeds: [UInt64] {
        ProcessInfo.processInfo.environment["AQUAVATE_CHAOS_SEEDS"] == nil && ProcessInfo.processInfo.environment["AQUAVATE_CHAOS_SEED"] == nil
            ? [4, 6, 9] : seeds
    }

    @Test("bottle commands under the injector: each applied once or failed with a reason, tare never twice", arguments: commandSeeds)
    func commands(seed: UInt64) async throws {
        // Few drinks: the commands are a large part of each connection, where the injector strikes.
        try await live.withSimulator(records: 2, arguments: ["--fault", "mtu=23", "--fault", "chaos=\(seed)"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            // The bottle adopted and its first drink known, as after an earlier sync, so that the
            // commands are queued before the first connection the injector breaks.
            let history = try DrinkHistory(path: db)
            let state = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/sim.json"))) as? [String: Any])
            let first = try #require((state["records"] as? [[String: Any]])?.first)
            let serial = BottleControlLiveTests.serial
            _ = try history.drinks.store([AquavateProtocolRecord.make(id: first["record_id"] as! Int, timestamp: first["timestamp"] as! Int,
                                                               amount: first["amount_ml"] as! Int, level: first["bottle_level_ml"] as! Int)],
                                  bottle: serial, at: WallInstant(secondsSince1970: 1_000))
            _ = try history.bottles.update(id: serial) {
                $0.serial = serial
                $0.address = LiveCommandTests.address
                $0.lastSeen = WallInstant(secondsSince1970: 1_000)
            }
            for arguments in [["goal", "3200"], ["tare"], ["shake-to-empty", "on"], ["delete", "1"]] {
                let queued = try await live.bridge(bus, ["bottle"] + arguments + ["--db", db])
                #expect(queued.status == 0, "\(queued)")
            }
            try await runUntil({ try DrinkHistory(path: db).commands.all(statuses: [.pending, .sending]).isEmpty },
                               seed: seed, bus: bus, folder: folder, db: db)
            let commands = try DrinkHistory(path: db).commands.all()
            let bottle = try #require(try JSONSerialization.jsonObject(
                with: Data(contentsOf: URL(fileURLWithPath: folder.path + "/sim.json"))) as? [String: Any])
            let status = Dictionary(uniqueKeysWithValues: commands.map { ($0.command, $0) })
            print("chaos seed \(seed) commands: \(commands.map { "\($0.command) \($0.status.rawValue) \($0.message ?? "")" })")
            #expect(commands.allSatisfy { $0.status == .applied || $0.status == .failed }, "seed \(seed): none left pending")
            #expect(commands.filter { $0.status == .failed }.allSatisfy { ($0.message ?? "").count > 10 }, "a failure says why")
            #expect((bottle["tares"] as? Int ?? 99) <= 1, "seed \(seed): tare applied at most once")
            if status["tare"]?.status == .applied { #expect(bottle["tares"] as? Int == 1) }
            if status["goal"]?.status == .applied { #expect(bottle["goal_ml"] as? Int == 3200) }
            if status["shake-to-empty"]?.status == .applied { #expect(bottle["shake_to_empty"] as? Bool == true) }
            if status["delete"]?.status == .applied {
                let records = bottle["records"] as? [[String: Any]] ?? []
                #expect(records.first { $0["record_id"] as? Int == 1 }?["deleted"] as? Bool == true)
            }
            // The idempotent ones never fail for a dropped link alone: they are retried.
            #expect(status["goal"]?.status == .applied, "seed \(seed): \(status["goal"]?.message ?? "")")
        }
    }
}
