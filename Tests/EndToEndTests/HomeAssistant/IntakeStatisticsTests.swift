// Water intake in Home Assistant's long-term statistics (the energy-style graphs and the
// statistics cards read them), over two simulated days with a drink deleted on each: what Home
// Assistant compiled for each day must equal the bridge's own day total. A deletion lowers "Water
// today"; were it read as a meter reset (`total_increasing`), the day's intake would be counted
// again after it. The days are simulated by moving the wall clock (FakeDays.swift); everything else is
// real: Home Assistant's recorder compiles the statistics as it does at home.

import BusTestSupport
import Foundation
import Locking
import ProcessSupport
import Testing
import Timekeeping

extension HomeAssistantTests {
    @Test("water intake's long-term statistics over two simulated days, a drink deleted on each, equal the bridge's day totals")
    func intakeStatistics() async throws {
        let python = try await HomeAssistant.environment()
        try await withPrivateBus { bus in
            let folder = bus.directory
            let now = SystemClock().now.secondsSince1970
            let zone = Self.middayZone(now: now)
            let east = Double(Self.middayOffset(now: now)) * 3600
            /// The local midnight that begins simulated day `day` (0 is today).
            @Sendable func midnight(_ day: Int) -> Double {
                ((now + Double(day) * 86_400 + east) / 86_400).rounded(.down) * 86_400 - east
            }
            let broker = try Broker(directory: folder.appendingPathComponent("mosquitto"))
            try await broker.start()
            guard let haListener = LoopbackListener() else { throw HomeAssistantFailure(description: "no ports") }
            close(haListener.descriptor)
            let db = folder.appendingPathComponent("history.sqlite").path
            // The bottle's records outlive each day's simulator (a shared-bottle directory), as a
            // real bottle's do: record ids go on counting from the first day's.
            let ring = folder.appendingPathComponent("bottle")
            try FileManager.default.createDirectory(at: ring, withIntermediateDirectories: true)
            let common = ["--db", db, "--set", "timezone=\(zone)", "--set", "desktop.enabled=false", "--set", "bridge.id=kitchen",
                          "--set", "mqtt.url=\(broker.url)"]
            let total = Self.entity("sensor", "daily_total")

            /// A simulated day: Home Assistant, the bottle and the bridge with the wall clock `day`
            /// days ahead; the day starts at 0 ml in Home Assistant, the drinks arrive one by one,
            /// the last is deleted with Home Assistant's button, and everything stops. Returns when
            /// (on the day's wall clock) the deletion was shown.
            func live(day: Int, drinks: [Int]) async throws -> Double {
                let environment = try await FakeDays.environment(bus.environment, days: day)
                let stateFile = folder.appendingPathComponent("sim-\(day).json").path
                let simulatorLog = try Self.logFile(folder, "sim-\(day)")
                let simulator = try ChildProcess.spawn(Self.simulator, ["--bus", bus.address, "--shared-bottle", ring.path,
                                                                        "--disconnect-delay", "0.1", "--state-file", stateFile],
                                                       environment: environment, output: simulatorLog, error: simulatorLog)
                defer { simulator.killNow() }
                try await waitUntil(.seconds(20), "day \(day)'s simulator (\(Self.tail(folder, "sim-\(day)")))") {
                    if let status = simulator.exitStatus {
                        throw HomeAssistantFailure(description: "day \(day)'s simulator exited \(status): \(Self.tail(folder, "sim-\(day)"))")
                    }
                    return FileManager.default.fileExists(atPath: stateFile)
                }
                let home = try HomeAssistant(python: python, directory: folder.appendingPathComponent("home-assistant"), port: haListener.port,
                                             timeZone: zone, environment: environment)
                defer { home.killNow() }
                try await home.start()
                if day == 0 {
                    try await home.onboard()
                    try await home.addMQTT(brokerPort: broker.port)
                } else {
                    try await home.logIn()
                }
                let daemonLog = "daemon-\(day)"
                let daemonOutput = try Self.logFile(folder, daemonLog)
                let daemon = try ChildProcess.spawn(Self.bridge, ["run", "--adopt", "--cooldown", "1"] + common, environment: environment,
                                                    output: daemonOutput, error: daemonOutput)
                defer { daemon.killNow() }
                func shows(_ expected: Int, _ what: String) async throws {
                    try await waitUntil(.seconds(60), "day \(day): \(what), \(expected) ml in Home Assistant (\(Self.tail(folder, daemonLog)))") {
                        guard let state = try await home.states()[total] else { return false }
                        let reset = (state.attributes["last_reset"] as? String).flatMap(Self.seconds)
                        return Double(state.state) == Double(expected) && reset == midnight(day)
                    }
                }
                try await shows(0, "the new day")
                var sum = 0
                for amount in drinks {
                    let added = try await runTool("/usr/bin/gdbus", ["call", "--system", "-d", "org.bluez", "-o", "/",
                                                                     "-m", "org.aquavate.Simulator1.AddDrink", "\(amount)"],
                                                  environment: bus.environment, timeout: .seconds(10))
                    #expect(added.status == 0, "a drink on the bottle: \(added)")
                    sum += amount
                    try await shows(sum, "a drink of \(amount) ml synced")
                }
                try await home.call("button", "press", ["entity_id": Self.entity("button", "delete_last_drink")])
                try await shows(sum - drinks.last!, "the last drink deleted")
                let deleted = SystemClock().now.secondsSince1970 + Double(day) * 86_400
                try expectQuietMQTT(try await home.errorLog(), since: nil)
                daemon.send(SIGTERM)
                #expect(await daemon.waitForExit(timeout: .seconds(30)) == 0, "\(Self.tail(folder, daemonLog))")
                await home.stop()
                simulator.send(SIGTERM)
                _ = await simulator.waitForExit(timeout: .seconds(10))
                return deleted
            }

            _ = try await live(day: 0, drinks: [300, 200, 150])  // 500 ml once the 150 is deleted
            let lastChange = try await live(day: 1, drinks: [400, 250])  // 400 ml

            // The bridge's own day totals.
            let history = try await runTool(Self.bridge, ["history", "--json"] + common,
                                            environment: try await FakeDays.environment(bus.environment, days: 2), timeout: .seconds(30))
            var truth: [String: Int] = [:]
            for line in Self.jsonLines(history.output) where line["event"] as? String == "day" {
                if let date = line["date"] as? String, let total = line["total_ml"] as? Int { truth[date] = total }
            }
            #expect(truth.count == 2 && Set(truth.values) == [500, 400], "the bridge's day totals: \(history)")

            // The third day: Home Assistant starts, compiles the periods it missed, and its
            // statistics say how much was drunk each day.
            let home = try HomeAssistant(python: python, directory: folder.appendingPathComponent("home-assistant"), port: haListener.port,
                                         timeZone: zone, environment: try await FakeDays.environment(bus.environment, days: 2))
            defer { home.killNow() }
            try await home.start()
            try await home.logIn()
            @Sendable func statistics(_ period: String, from start: Double, to end: Double) async throws -> [[String: Any]] {
                let result = try await home.websocket([
                    "type": "recorder/statistics_during_period", "statistic_ids": [total], "period": period,
                    "start_time": Self.iso(start), "end_time": Self.iso(end), "types": ["change", "sum"],
                ])
                return (result as? [String: Any])?[total] as? [[String: Any]] ?? []
            }
            // Compiled through the hour of the second day's last change (an hour with a change
            // always has a row; one without may have none).
            let lastHour = (lastChange / 3600).rounded(.down) * 3600
            try await waitUntil(.seconds(120), "Home Assistant to compile the second day's statistics (\(home.log.suffix(1500)))") {
                try await !statistics("hour", from: lastHour, to: lastHour + 3600).isEmpty
            }
            let days = try await statistics("day", from: midnight(0), to: midnight(2))
            var compiled: [String: Double] = [:]
            let formatter = DateFormatter()
            formatter.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = TimeZone(secondsFromGMT: Int(east))
            for row in days {
                guard let start = row["start"] as? Double, let change = row["change"] as? Double else { continue }
                compiled[formatter.string(from: Date(timeIntervalSince1970: start / 1000))] = change
            }
            #expect(compiled == truth.mapValues(Double.init),
                    "Home Assistant's daily change of \(total) \(compiled), the bridge's day totals \(truth); rows: \(days)")
            try expectQuietMQTT(home.log, since: nil)
            await home.stop()
            await broker.stop()
        }
    }

    /// Hours east of UTC of `middayZone(now:)`.
    static func middayOffset(now: Double) -> Int {
        let hour = Int((now.truncatingRemainder(dividingBy: 86_400)) / 3600)
        return max(-12, min(14, 12 - hour))
    }

    static func logFile(_ folder: URL, _ name: String) throws -> FileHandle {
        let url = folder.appendingPathComponent(name + ".log")
        if !FileManager.default.fileExists(atPath: url.path) { _ = FileManager.default.createFile(atPath: url.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: url)
        handle.seekToEndOfFile()
        return handle
    }

    static func tail(_ folder: URL, _ name: String) -> String {
        String(((try? String(contentsOf: folder.appendingPathComponent(name + ".log"), encoding: .utf8)) ?? "").suffix(800))
    }
}
