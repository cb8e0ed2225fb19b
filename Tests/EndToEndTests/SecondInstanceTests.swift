// Only one daemon may talk to the bottle: two daemons started together synced nothing; one started
// mid-sync took the first one's live link and stored records in its own database. `run` takes an
// exclusive lock (flock) before it talks to BlueZ; a second `run` names the holder's PID and exits
// non-zero, and the commands that only read or replay keep working beside the daemon. Real
// processes on a private bus, as LiveCommandTests; the bus's folder is the runtime directory
// (XDG_RUNTIME_DIR).

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite("a second instance")
struct SecondInstanceTests {
    static let bridge = LiveCommandTests.bridge
    static let simulator = LiveCommandTests.simulator

    @Test("a second run names the PID holding the lock and exits 1; status, history and replay work beside the daemon")
    func secondRunRefused() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await LiveCommandTests().startSimulator(on: bus, folder: folder, records: 30)
            let db = folder.path + "/history.sqlite"
            let history = try DrinkHistory(path: db)
            let daemon = try bus.spawn(Self.bridge, ["run", "--db", db], logName: "daemon")
            let lockFile = bus.directory.appendingPathComponent("aquavate-bridge.lock").path
            try await waitUntil(.seconds(30), "the daemon to store the 30 drinks (\(bus.log("daemon")))") {
                try history.drinks.drinkCount() == 30
            }
            let holder = try String(contentsOfFile: lockFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(holder == "\(daemon.processIdentifier)")

            // A second daemon, with its own database: refused before it touches BlueZ.
            let other = folder.path + "/other.sqlite"
            let second = try await bus.run(Self.bridge, ["run", "--once", "--timeout", "5", "--db", other])
            #expect(second.status == 1, "\(second)")
            let lines = second.error.split(separator: "\n")
            #expect(lines.count == 1, "one line: \(second.error)")
            #expect(second.error.contains("PID \(daemon.processIdentifier)"), "\(second.error)")
            #expect(second.error.contains(lockFile), "\(second.error)")
            #expect(try DrinkHistory(path: other).drinks.drinkCount() == 0)

            // Started elsewhere (the service has /run/aquavate-bridge, a user /run/user/UID): a
            // different lock file, but the same Bluetooth stack, so refused all the same.
            let runtime = TemporaryFolder()
            var elsewhere = bus.environment
            elsewhere["XDG_RUNTIME_DIR"] = runtime.path
            let third = try await runTool(Self.bridge, ["run", "--once", "--timeout", "5", "--db", folder.path + "/third.sqlite"],
                                          environment: elsewhere, timeout: .seconds(30))
            #expect(third.status == 1, "\(third)")
            #expect(third.error.split(separator: "\n").count == 1, "one line: \(third.error)")
            #expect(third.error.contains("PID \(daemon.processIdentifier)"), "\(third.error)")
            withExtendedLifetime(runtime) {}

            // The commands that do not talk to BlueZ take no lock.
            let status = try await bus.run(Self.bridge, ["status", "--db", db])
            #expect(status.status == 0, "\(status)")
            let listed = try await bus.run(Self.bridge, ["history", "--db", db])
            #expect(listed.status == 0, "\(listed)")
            let capture = folder.write("one.aqcap", testHeader + "\n" + eventLine(1_795_150_800, "connect") + "\n")
            let replayed = try await bus.run(Self.bridge, ["replay", capture, "--db", folder.path + "/replayed.sqlite"])
            #expect(replayed.status == 0, "\(replayed)")

            // The lock goes with the process: after SIGTERM a new run takes it.
            daemon.send(SIGTERM)
            let exit = await daemon.waitForExit(timeout: .seconds(20))
            if exit == nil { daemon.killNow() }
            #expect(exit == 0)
            let after = try await bus.run(Self.bridge, ["run", "--once", "--timeout", "20", "--db", db], timeout: .seconds(60))
            #expect(after.status == 0, "\(after)")
        }
    }
}
