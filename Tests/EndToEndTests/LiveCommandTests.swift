// The live commands as a user runs them (docs/design.md 3.1, 4): real `aquavate-sim` and
// `aquavate-bridge` processes on a private dbus-daemon, the bridge pointed at it through
// DBUS_SYSTEM_BUS_ADDRESS, and what lands in the database checked afterwards.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite("live commands against aquavate-sim")
struct LiveCommandTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let bridge = binaries.appendingPathComponent("aquavate-bridge").path
    static let simulator = binaries.appendingPathComponent("aquavate-sim").path
    static let address = "F4:12:FA:00:A3:F4"

    /// A private bus with `aquavate-sim` holding `records` drinks; `body` gets the bus and a folder.
    func withSimulator(
        records: Int, arguments: [String] = [], _ body: (PrivateBus, TemporaryFolder) async throws -> Void
    ) async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            try await startSimulator(on: bus, folder: folder, records: records, arguments: arguments)
            try await body(bus, folder)
        }
    }

    /// Starts an `aquavate-sim` on `bus` and waits for its state file (written once it is ready).
    @discardableResult
    func startSimulator(on bus: PrivateBus, folder: TemporaryFolder, records: Int, arguments: [String] = [],
                        name: String = "sim") async throws -> ChildProcess {
        let state = folder.path + "/\(name).json"
        let child = try bus.spawn(Self.simulator, ["--bus", bus.address, "--records", "\(records)", "--disconnect-delay", "0.1",
                                                   "--state-file", state] + arguments, logName: name)
        try await waitUntil(.seconds(20), "the simulator to be ready (\(bus.log(name)))") {
            FileManager.default.fileExists(atPath: state)
        }
        return child
    }

    /// `aquavate-bridge ARGUMENTS` on `bus`, to completion.
    func bridge(_ bus: PrivateBus, _ arguments: [String], timeout: Duration = .seconds(60)) async throws -> ToolResult {
        try await runTool(Self.bridge, arguments, environment: bus.environment, timeout: timeout)
    }

    @Test("run --once syncs every drink, exits 0; a second run --once has nothing to sync and exits 0")
    func runOnce() async throws {
        try await withSimulator(records: 40) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let first = try await bridge(bus, ["run", "--once", "--db", db])
            #expect(first.status == 0, "\(first)")
            #expect(first.error.contains("synced Aquavate-A3F2: 40 record(s)"), "\(first.error)")
            let stored = try DrinkHistory(path: db).drinks.storedDrinks()
            #expect(stored.count == 40)
            #expect(Set(stored.map(\.recordID)) == Set(1...40))

            let second = try await bridge(bus, ["run", "--once", "--db", db])
            #expect(second.status == 0, "\(second)")
            #expect(second.error.contains("had nothing to sync"), "\(second.error)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 40)
        }
    }

    @Test("run --once --record writes a capture that replays to the same history")
    func recordThenReplay() async throws {
        try await withSimulator(records: 45) { bus, folder in
            let live = folder.path + "/live.sqlite", replayed = folder.path + "/replayed.sqlite"
            let capture = folder.path + "/session.aqcap"
            let run = try await bridge(bus, ["run", "--once", "--record", capture, "--db", live])
            #expect(run.status == 0, "\(run)")
            let text = try String(contentsOfFile: capture, encoding: .utf8)
            let lines = text.split(separator: "\n")
            #expect(lines.first?.hasPrefix("{\"aqcap\":1") == true, "the header: \(lines.first ?? "")")
            #expect(lines.contains { $0.contains("\"op\":\"notify\"") && $0.contains("\"char\":\"drink-data\"") },
                    "the chunks are recorded")

            let replay = try await runTool(Self.bridge, ["replay", capture, "--db", replayed, "--json"])
            #expect(replay.status == 0, "\(replay)")
            func content(_ path: String) throws -> [String] {
                try DrinkHistory(path: path).drinks.storedDrinks().map {
                    "\($0.recordID)@\($0.timestamp):\($0.record.amountML)/\($0.record.bottleLevelML)"
                }
            }
            #expect(try content(replayed) == content(live))
            #expect(try content(live).count == 45)
        }
    }

    @Test("scan lists the bottle: name, address, RSSI")
    func scan() async throws {
        try await withSimulator(records: 0) { bus, _ in
            let result = try await bridge(bus, ["scan", "--timeout", "2"])
            #expect(result.status == 0, "\(result)")
            let line = try #require(result.lines.first { $0.contains(Self.address) }, "\(result)")
            #expect(line.contains("Aquavate-A3F2"))
            #expect(line.range(of: #"-\d+"#, options: .regularExpression) != nil, "an RSSI in dBm: \(line)")
        }
    }

    @Test("run as a daemon syncs, then stops cleanly on SIGTERM (exit 0)")
    func daemonStopsOnSIGTERM() async throws {
        try await withSimulator(records: 30) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let history = try DrinkHistory(path: db)  // created before the daemon opens it
            let daemon = try bus.spawn(Self.bridge, ["run", "--db", db], logName: "daemon")
            try await waitUntil(.seconds(30), "the daemon to store the 30 drinks (\(bus.log("daemon")))") {
                try history.drinks.drinkCount() == 30
            }
            daemon.send(SIGTERM)
            let status = await daemon.waitForExit(timeout: .seconds(20))
            if status == nil { daemon.killNow() }
            #expect(status == 0, "the daemon did not stop on SIGTERM: \(bus.log("daemon").suffix(600))")
        }
    }

    @Test("a bottle other than the adopted one is ignored, named in the failure, and taken with --adopt")
    func adoption() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let db = folder.path + "/history.sqlite"
            let first = try await startSimulator(on: bus, folder: folder, records: 5, name: "first")
            #expect(try await bridge(bus, ["run", "--once", "--db", db]).status == 0)
            #expect(await first.kill(timeout: .seconds(10)), "the first simulator did not stop")

            let other = "C0:FF:EE:00:BE:EF"
            try await startSimulator(on: bus, folder: folder, records: 7,
                                     arguments: ["--address", other, "--name", "Aquavate-BEEF"], name: "second")
            let ignored = try await bridge(bus, ["run", "--once", "--timeout", "3", "--db", db])
            #expect(ignored.status != 0)
            let message = ignored.error.split(separator: "\n").last.map(String.init) ?? ""
            #expect(message.contains("Aquavate-BEEF") && message.contains(other) && message.contains("--adopt"), "\(ignored.error)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 5, "nothing of the other bottle was stored")

            let adopted = try await bridge(bus, ["run", "--once", "--adopt", "--db", db])
            #expect(adopted.status == 0, "\(adopted)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 12)
        }
    }

    @Test("without bluetoothd on the bus, run --once fails with one line saying what to do")
    func noBlueZ() async throws {
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let result = try await bridge(bus, ["run", "--once", "--db", folder.path + "/history.sqlite"], timeout: .seconds(30))
            #expect(result.status != 0)
            let lines = result.error.split(separator: "\n")
            #expect(lines.last?.contains("bluetoothd") == true || lines.last?.contains("org.bluez") == true, "\(result.error)")
            #expect(!result.error.contains("Fatal error") && !result.error.contains("Stack dump"))
        }
    }

    @Test("demo syncs the simulated bottle and prints the history (no hardware, no root, no system bus)")
    func demo() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"  // demo must not need it
        let result = try await runTool(Self.bridge, ["demo"], environment: environment, timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("demo: synced"), "\(result.output)")
        #expect(result.output.contains("demo: the history"))
        #expect(result.lines.contains { $0.contains("drink #1 ") }, "\(result.output)")
    }

    @Test("demo piped into one file: the log among the story in order, no word of the host's clock, one name for the bottle")
    func demoPiped() async throws {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        // Standard output and standard error into one pipe, as `demo 2>&1 | less` reads it.
        let result = try await runTool("/bin/sh", ["-c", "exec \"$0\" demo 2>&1 | cat", Self.bridge],
                                       environment: environment, timeout: .seconds(60))
        #expect(result.status == 0, "\(result)")
        let lines = result.output.split(separator: "\n").map(String.init)
        func index(_ text: String, after start: Int = -1) -> Int? {
            lines.indices.first { $0 > start && lines[$0].contains(text) }
        }
        // Each sync's log lines come after the story's line announcing it and before its result.
        let day = try #require(index("demo: the day of"), "\(result.output)")
        let firstLook = try #require(index("info: looking for the bottle", after: day), "\(result.output)")
        let firstSynced = try #require(index("demo: synced", after: firstLook), "\(result.output)")
        let afternoon = try #require(index("the bridge syncs the afternoon's drinks", after: firstSynced), "\(result.output)")
        let lastDrinkLogged = try #require(index("info: drink #18 ", after: afternoon), "\(result.output)")
        #expect(index("demo: synced", after: lastDrinkLogged) != nil, "the story in order: \(result.output)")
        // The demo runs on its own clock: nothing about this machine's.
        #expect(!result.output.contains("SET_TIME withheld") && !result.output.contains("NTP"), "\(result.output)")
        // One name for the bottle: every line that gives its address or serial names it too
        // (the bottle's own fields in `bottle info` excepted).
        let name = "Aquavate-A3F2", address = "F4:12:FA:00:A3:F4", serial = "F4:12:FA:00:A3:F2"
        let unnamed = lines.filter {
            ($0.contains(address) || $0.contains(serial)) && !$0.contains(name)
                && !$0.hasPrefix("  address ") && !$0.hasPrefix("  serial ")
        }
        #expect(unnamed.isEmpty, "lines naming the bottle otherwise: \(unnamed)")
        #expect(lines.filter { $0.contains("synced \(name): ") }.count == 6, "three syncs, logged and told: \(result.output)")
    }

    /// The demo's standard output without the line naming its private bus (a new one each run).
    func demoStory(_ arguments: [String]) async throws -> (status: Int32, lines: [String], output: String) {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        // The day runs on the demo's accelerated clock: a few seconds, far under this bound.
        let result = try await runTool(Self.bridge, ["demo"] + arguments, environment: environment, timeout: .seconds(45))
        let lines = result.lines.filter { !$0.hasPrefix("demo: private D-Bus bus ") }
        return (result.status, lines, result.output)
    }

    @Test("demo tells the day: behind pace and reminded, back on track, a scheduled reminder, the goal, the history")
    func demoStory() async throws {
        let first = try await demoStory(["--set", "timezone=Europe/Madrid"])
        #expect(first.status == 0, "\(first.output)")
        let lines = first.lines
        func index(_ text: String) -> Int? { lines.firstIndex { $0.contains(text) } }
        // Local times on the demo's day, whatever the zone.
        let reminder = index("2026-11-20 07:54:00  notification [reminder] Hydration Reminder: Time to hydrate! You're 150ml behind pace.")
        let overdue = index("2026-11-20 10:00:00  notification [reminder] Hydration Reminder: You're falling behind!")
        let behind = index("Overdue, deficit 833 ml, Reminders Today: 2/12")
        let backOnTrack = index("2026-11-20 12:00:00  notification [back_on_track] Back On Track!: Nice work catching up on your hydration.")
        let scheduled = index("2026-11-20 12:30:00  notification [scheduled] Vitamin D: Time for your Vitamin D.")
        let goal = index("2026-11-20 18:30:00  notification [goal_reached] Goal Reached! 💧: Good job! You've hit your daily hydration goal.")
        let history = index("demo: the history")
        let found = [reminder, overdue, behind, backOnTrack, scheduled, goal, history]
        #expect(found.allSatisfy { $0 != nil }, "\(first.output)")
        let positions = found.compactMap { $0 }
        #expect(positions == positions.sorted(), "the story in order: \(first.output)")
        #expect(lines.filter { $0.hasPrefix("demo: synced ") }.count == 3, "three live syncs: \(first.output)")
        #expect(lines.contains { $0.contains("end of the story at 2026-11-20 18:30:00: On Track, today 2550 ml, Reminders Today: 4/12, 8 notification(s) sent during the demo") },
                "\(first.output)")
        #expect(lines.contains("2026-11-20  2550 ml in 6 drinks  (102% of 2500 ml)"), "\(first.output)")
        #expect(lines.contains { $0.hasPrefix("2026-11-20 11:50:00  drink #13  500 ml") }, "\(first.output)")
        // Deterministic: the same story, line for line, every run.
        let second = try await demoStory(["--set", "timezone=Europe/Madrid"])
        #expect(second.lines == first.lines)
    }

    @Test("demo in New York with --db and --records: local times in the text, UTC in the JSON of the stored history")
    func demoInAnotherZone() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/history.sqlite"
        let story = try await demoStory(["--records", "3", "--db", db, "--set", "timezone=America/New_York"])
        #expect(story.status == 0, "\(story.output)")
        #expect(story.lines.contains { $0.hasPrefix("2026-11-20 12:00:00  notification [back_on_track]") }, "\(story.output)")
        #expect(story.lines.contains { $0.hasPrefix("2026-11-20 11:50:00  drink #4  500 ml") }, "\(story.output)")
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = "unix:path=/nonexistent/bus"
        let json = try await runTool(Self.bridge, ["history", "--json", "--db", db, "--set", "timezone=America/New_York"],
                                     environment: environment, timeout: .seconds(30))
        // 11:50 EST is 16:50 UTC.
        #expect(json.lines.contains { $0.contains(#""record_id":4,"time":"2026-11-20T16:50:00Z""#) }, "\(json.output)")
        let activity = try await runTool(Self.bridge, ["bottle", "activity", "--db", db, "--set", "timezone=America/New_York"],
                                         environment: environment, timeout: .seconds(30))
        let activityJSON = try await runTool(Self.bridge, ["bottle", "activity", "--json", "--db", db],
                                             environment: environment, timeout: .seconds(30))
        #expect(activity.lines.first?.hasPrefix("2026-11-18 05:00:00  backpack mode") == true, "\(activity.output)")
        #expect(activityJSON.lines.first?.contains(#""time":"2026-11-18T10:00:00Z""#) == true, "\(activityJSON.output)")
    }

    @Test("demo with a fault: the bridge comes back and the story still ends with the goal")
    func demoWithFault() async throws {
        let story = try await demoStory(["--fault", "drop-after-chunk=0", "--records", "30"])
        #expect(story.status == 0, "\(story.output)")
        #expect(story.lines.contains { $0.contains("notification [goal_reached]") }, "\(story.output)")
    }

    @Test("a scanner gone silent (F16) is revived by restarting discovery; without the restart the bottle is missed")
    func silentScannerIsRestarted() async throws {
        try await withSimulator(records: 10, arguments: ["--fault", "deaf-scanner=1"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let missed = try await bridge(bus, ["run", "--once", "--timeout", "2", "--db", db])
            #expect(missed.status != 0, "the fault must bite: \(missed)")
            #expect(bus.log("sim").contains("fault: deaf-scanner"))
        }
        try await withSimulator(records: 10, arguments: ["--fault", "deaf-scanner=1"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let revived = try await bridge(bus, ["run", "--once", "--timeout", "20", "--scan-refresh", "0.5", "--db", db])
            #expect(revived.status == 0, "\(revived)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 10)
            let starts = bus.log("sim").components(separatedBy: "org.bluez.Adapter1.StartDiscovery(").count - 1
            #expect(starts >= 2, "discovery was started \(starts) time(s)")
        }
    }
}
