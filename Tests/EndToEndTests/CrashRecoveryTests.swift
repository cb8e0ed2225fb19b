// The bridge killed with SIGKILL at random points of a sync, then restarted: every drink the
// bottle holds ends up in the history exactly once, because a chunk is ACKed only after its
// records are committed (docs/design.md 1, "The durability rule"; docs/robustness.md,
// "Durability").
//
// Real processes on a private bus: `aquavate-sim` (the bottle, writes slowed so that the kills
// land inside the sync) and `aquavate-bridge run --once`, killed and started again.

import BusTestSupport
import Foundation
import History
import TestFixtures
import Testing

@Suite("Crash recovery")
struct CrashRecoveryTests {
    /// The built executables, next to the test bundle.
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

    @Test("SIGKILL at random points of a 300-record sync loses nothing and stores nothing twice")
    func killedAndRestarted() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let db = folder.path + "/history.sqlite"
            let state = folder.path + "/bottle.json"
            _ = try bus.spawn(Self.binaries.appendingPathComponent("aquavate-sim").path,
                              ["--bus", bus.address, "--records", "300", "--fault", "slow-writes=15",
                               "--disconnect-delay", "0.1", "--state-file", state], logName: "sim")
            try await waitUntil(.seconds(20), "the simulator to write its state file") {
                FileManager.default.fileExists(atPath: state)
            }
            let bridge = Self.binaries.appendingPathComponent("aquavate-bridge").path
            // Random kill points; the seed is printed so that a failure can be replayed with
            // AQUAVATE_KILL_SEED=N. The first kill lands at a random time (discovery, connect, set-up);
            // the others when the history has reached a random count, so that every one of them lands
            // inside the sync however fast this machine is.
            let seed = ProcessInfo.processInfo.environment["AQUAVATE_KILL_SEED"].flatMap(UInt64.init)
                ?? UInt64.random(in: 1...999_999)
            print("crash recovery: kill points from AQUAVATE_KILL_SEED=\(seed)")
            var generator = SeededGenerator(seed: seed)
            let history = try DrinkHistory(path: db)  // created (and migrated) before any bridge opens it
            var killedWith: [Int] = []
            for round in 0..<5 {
                let before = try history.drinks.drinkCount()
                guard before < 299 else { break }
                let child = try bus.spawn(bridge, ["run", "--once", "--db", db], logName: "bridge-\(round)")
                if round == 0 {
                    try await Task.sleep(for: .milliseconds(20 + Int(generator.next() % 400)))
                } else {
                    let target = before + 1 + Int(generator.next() % UInt64(min(80, 299 - before)))
                    try await waitUntil(.seconds(30), "the history to reach \(target) drinks (round \(round))") {
                        try history.drinks.drinkCount() >= target || !child.isRunning
                    }
                }
                child.killNow()
                try await waitUntil(.seconds(10), "the killed bridge to be gone") { !child.isRunning }
                killedWith.append(try history.drinks.drinkCount())
            }
            print("crash recovery: drinks stored when each kill landed: \(killedWith)")
            // The restarted bridge finishes the job. `run --once` gives up at its first failed
            // session (the daemon would retry by itself): a restart can meet the link the killed
            // run left behind just as the bottle drops it, so it is run again, as a user would.
            // What must hold is the end state, checked below; the failed attempts are printed.
            var failures: [String] = []
            for _ in 0..<5 {
                let result = try await bus.run(bridge, ["run", "--once", "--db", db], timeout: .seconds(60))
                if result.status == 0 && Self.unsynced(state) == 0 { break }
                failures.append("status \(result.status): \(result.error.split(separator: "\n").last ?? "")")
            }
            if !failures.isEmpty { print("crash recovery: restarts that failed before one synced: \(failures)") }
            #expect(failures.count < 5, "seed \(seed): no restart synced: \(failures)")
            let stored = try DrinkHistory(path: db).drinks.storedDrinks()
            #expect(stored.count == 300, "seed \(seed); stored after each kill: \(killedWith)")
            #expect(Set(stored.map(\.recordID)) == Set(1...300), "seed \(seed)")
            #expect(Self.unsynced(state) == 0)
        }
    }

    /// The simulated bottle's unsynced_count, from its state file.
    static func unsynced(_ path: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: path),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        return (object["unsynced_count"] as? Int) ?? (object["unsyncedCount"] as? Int)
    }
}
