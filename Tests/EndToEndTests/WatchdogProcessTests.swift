// `aquavate-bridge run` under a service manager: a real daemon, the simulated bottle on a private
// bus, and a datagram socket of this test as NOTIFY_SOCKET with a 2 s WATCHDOG_USEC. What a
// Type=notify unit with WatchdogSec= relies on arrives: READY=1, STATUS= lines, WATCHDOG=1 pings
// (while the daemon syncs and while it waits), and STOPPING=1 on SIGTERM.

import BusTestSupport
import Foundation
import History
import Locking
import ProcessSupport
import TestFixtures
import Testing

@Suite("watchdog: run notifies systemd")
struct WatchdogProcessTests {
    @Test("run sends READY=1, what it does as STATUS=, WATCHDOG=1 pings while it syncs and waits, STOPPING=1 on SIGTERM")
    func notifiesTheServiceManager() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await LiveCommandTests().startSimulator(on: bus, folder: folder, records: 20)
            let socket = try NotifySocket(path: folder.path + "/notify.sock")
            let db = folder.path + "/history.sqlite"
            let history = try DrinkHistory(path: db)
            var environment = bus.environment
            environment["NOTIFY_SOCKET"] = socket.path
            environment["WATCHDOG_USEC"] = "2000000"  // pings every second
            let logPath = folder.path + "/daemon.log"
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
            let daemon = try ChildProcess.spawn(LiveCommandTests.bridge, ["run", "--db", db], environment: environment,
                                                output: log, error: log)
            defer { daemon.killNow() }
            let received = Locked<[String]>([])
            @Sendable func messages() -> [String] {
                received.withLock { $0 += socket.receiveAll(); return $0 }
            }
            @Sendable func daemonLog() -> String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

            try await waitUntil(.seconds(30), "READY=1 (\(daemonLog()))") { messages().contains("READY=1") }
            try await waitUntil(.seconds(60), "the daemon to store the 20 drinks (\(daemonLog()))") {
                try history.drinks.drinkCount() == 20
            }
            // The daemon now pauses after its session (60 s): a declared wait, so the pings go on.
            let pingsSoFar = messages().filter { $0 == "WATCHDOG=1" }.count
            try await waitUntil(.seconds(30), "three more WATCHDOG=1 pings after the sync (\(messages()))") {
                messages().filter { $0 == "WATCHDOG=1" }.count >= pingsSoFar + 3
            }
            let sent = messages()
            let ready = try #require(sent.firstIndex(of: "READY=1"))
            #expect(sent.firstIndex(of: "WATCHDOG=1").map { $0 > ready } ?? false, "READY=1 comes first: \(sent)")
            let statuses = sent.filter { $0.hasPrefix("STATUS=") }
            #expect(statuses.contains { $0.hasPrefix("STATUS=waiting for a bottle to advertise on hci") }, "\(statuses)")
            #expect(statuses.contains { $0.hasPrefix("STATUS=syncing Aquavate-A3F2") }, "\(statuses)")
            #expect(statuses.contains { $0.hasPrefix("STATUS=pausing") }, "\(statuses)")
            #expect(!daemonLog().contains("watchdog: not pinging"), "\(daemonLog())")

            daemon.send(SIGTERM)
            let status = await daemon.waitForExit(timeout: .seconds(20))
            #expect(status == 0, "the daemon did not stop on SIGTERM: \(daemonLog().suffix(600))")
            #expect(messages().contains("STOPPING=1"), "\(messages())")
        }
    }

    @Test("without WATCHDOG_USEC the daemon says READY=1 and STOPPING=1 but sends no pings")
    func noWatchdogNoPings() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await LiveCommandTests().startSimulator(on: bus, folder: folder, records: 3)
            let socket = try NotifySocket(path: folder.path + "/notify.sock")
            let db = folder.path + "/history.sqlite"
            let history = try DrinkHistory(path: db)
            var environment = bus.environment
            environment["NOTIFY_SOCKET"] = socket.path
            environment["WATCHDOG_USEC"] = nil
            let daemon = try ChildProcess.spawn(LiveCommandTests.bridge, ["run", "--db", db], environment: environment)
            defer { daemon.killNow() }
            let received = Locked<[String]>([])
            @Sendable func messages() -> [String] {
                received.withLock { $0 += socket.receiveAll(); return $0 }
            }
            try await waitUntil(.seconds(30), "READY=1") { messages().contains("READY=1") }
            try await waitUntil(.seconds(60), "the daemon to store the 3 drinks") { try history.drinks.drinkCount() == 3 }
            daemon.send(SIGTERM)
            #expect(await daemon.waitForExit(timeout: .seconds(20)) == 0)
            let sent = messages()
            #expect(sent.contains("STOPPING=1"), "\(sent)")
            #expect(!sent.contains("WATCHDOG=1"), "\(sent)")
        }
    }
}
