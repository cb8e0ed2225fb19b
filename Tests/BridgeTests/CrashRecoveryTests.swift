// The bridge killed with SIGKILL at random points of a sync, then restarted: every drink the
// bottle holds ends up in the history exactly once (DESIGN.md 1, issue "Live bridge").
//
// Real processes on a private bus: `aquavate-sim` (the bottle, writes slowed so that the kills
// land inside the sync) and `aquavate-bridge run --once`, killed and started again.

import BusTestSupport
import Foundation
import History
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
            // Deterministic "random" points: 0.15 s to about 1.2 s into a run.
            var generator = SplitMix(seed: 7)
            var killedWith: [Int] = []
            for round in 0..<4 {
                let child = try bus.spawn(bridge, ["run", "--once", "--db", db], logName: "bridge-\(round)")
                let delay = 150 + Int(generator.next() % 1050)
                try await Task.sleep(for: .milliseconds(delay))
                kill(child.processIdentifier, SIGKILL)
                try await waitUntil(.seconds(10), "the killed bridge to be gone") { !child.isRunning }
                killedWith.append((try? DrinkHistory(path: db).drinkCount()) ?? 0)
            }
            // The restarted bridge finishes the job (retrying until the bottle has nothing left).
            var finished = false
            for attempt in 0..<5 where !finished {
                let result = try await bus.run(bridge, ["run", "--once", "--db", db], timeout: .seconds(60))
                finished = result.status == 0 && Self.unsynced(state) == 0
                if !finished { Issue.record("attempt \(attempt): status \(result.status), \(result.error.suffix(300))") }
            }
            let stored = try DrinkHistory(path: db).storedDrinks()
            #expect(stored.count == 300, "stored after each kill: \(killedWith)")
            #expect(Set(stored.map(\.recordID)) == Set(1...300))
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

/// A small deterministic generator for the kill points.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
