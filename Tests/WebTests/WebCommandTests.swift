// The commands that serve, as a person runs them: `serve` and `run --http` (beside the daemon,
// against `aquavate-sim` on a private bus), their refusals, `history --chart`, and their manuals.

import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing

@Suite struct WebCommandTests {
    static let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    static let bridge = binaries.appendingPathComponent("aquavate-bridge").path
    static let simulator = binaries.appendingPathComponent("aquavate-sim").path

    /// A database with the fixture's household and an empty config file, in a fresh folder.
    private func household() throws -> (WebFixture, config: String) {
        let fixture = try WebFixture()
        let config = fixture.folder.appendingPathComponent("config.toml").path
        try "timezone = \"Europe/Madrid\"\n".write(toFile: config, atomically: true, encoding: .utf8)
        return (fixture, config)
    }

    @Test func serveAndRunRefuseAnOpenAddressWithoutAToken() async throws {
        let (fixture, config) = try household()
        defer { fixture.remove() }
        let db = fixture.folder.appendingPathComponent("history.sqlite").path
        for command in [["serve"], ["run", "--once"]] {
            let result = try await runTool(Self.bridge, command + ["--db", db, "--config", config, "--http", "0.0.0.0:0"])
            #expect(result.status == 1, "\(result)")
            let lines = result.error.split(separator: "\n")
            #expect(lines.count == 1, "\(result.error)")
            #expect(result.error.contains("needs web.token"), "\(result.error)")
        }
        let bad = try await runTool(Self.bridge, ["serve", "--db", db, "--config", config, "--http", "somewhere"])
        #expect(bad.status == 1)
        #expect(bad.error.contains("[ADDR:]PORT"), "\(bad.error)")
    }

    @Test func serveServesUntilTerminated() async throws {
        let (fixture, config) = try household()
        defer { fixture.remove() }
        let db = fixture.folder.appendingPathComponent("history.sqlite").path
        let log = fixture.folder.appendingPathComponent("serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = try ChildProcess.spawn(Self.bridge, ["serve", "--db", db, "--config", config, "--http", "127.0.0.1:0"],
                                            output: try FileHandle(forWritingTo: log))
        defer { server.killNow() }
        let port = try await Self.port(after: "serving http://127.0.0.1:") { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status")
        #expect(status.status == 200)
        #expect(status.jsonObject["today_ml"] is Int)
        server.send(SIGTERM)
        #expect(await server.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func demoServesItsDay() async throws {
        let fixture = try WebFixture()
        defer { fixture.remove() }
        let log = fixture.folder.appendingPathComponent("demo.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let demo = try ChildProcess.spawn(Self.bridge, ["demo", "--serve", "--http", "127.0.0.1:0", "--set", "timezone=Europe/Madrid"],
                                          output: try FileHandle(forWritingTo: log))
        defer { demo.killNow() }
        let port = try await Self.port(after: "demo: serving http://127.0.0.1:") { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
        // The story's end: 2550 ml on 2026-11-20, the goal (2500) met.
        let status = try await RawHTTP.send(port: port, "GET", "/api/v1/status")
        #expect(status.jsonObject["today_ml"] as? Int == 2550)
        let days = try await RawHTTP.send(port: port, "GET", "/api/v1/days?days=1")
        #expect(days.jsonArray.first?["date"] as? String == "2026-11-20")
        demo.send(SIGINT)
        #expect(await demo.waitForExit(timeout: .seconds(20)) == 0)
    }

    @Test func runServesBesideTheDaemonAndCountsItsSyncs() async throws {
        try await withPrivateBus { bus in
            let fixture = try WebFixture()
            defer { fixture.remove() }
            let folder = fixture.folder
            let state = folder.path + "/sim.json"
            _ = try bus.spawn(Self.simulator, ["--bus", bus.address, "--records", "30", "--disconnect-delay", "0.1", "--state-file", state],
                              logName: "sim")
            // 60 s: the suite's renderings (simultaneousRequestsAllGetTheRendering) load both cores while
            // the debug simulator starts; 20 s ran out in about one run in three at a load of 5 to 10.
            try await waitUntil(.seconds(60), "the simulator to be ready (\(bus.log("sim").suffix(600)))") {
                FileManager.default.fileExists(atPath: state)
            }
            let db = folder.path + "/live.sqlite"
            let daemon = try bus.spawn(Self.bridge, ["run", "--db", db, "--http", "127.0.0.1:0", "--cooldown", "600"], logName: "bridge")
            let port = try await Self.port(after: "web: serving http://127.0.0.1:") { bus.log("bridge") }
            try await waitUntil(.seconds(60), "the daemon to sync the bottle (\(bus.log("bridge")))") {
                let metrics = try? await RawHTTP.send(port: port, "GET", "/metrics")
                return metrics?.body.contains(#"outcome="complete"} 1"#) == true
            }
            let drinks = try await RawHTTP.send(port: port, "GET", "/api/v1/drinks?days=3660")
            #expect(drinks.jsonArray.count == 30)
            let page = try await RawHTTP.send(port: port, "GET", "/")
            #expect(page.status == 200)
            daemon.send(SIGTERM)
            #expect(await daemon.waitForExit(timeout: .seconds(20)) == 0, "\(bus.log("bridge"))")
        }
    }

    /// The port in the first line of `log` that says `marker`PORT, waiting up to 60 s for it: the
    /// process starts a private bus, a simulator or a daemon first, and with both cores taken by
    /// the suite's other processes 30 s ran out now and then (a load average of about 20).
    static func port(after marker: String, _ log: @escaping @Sendable () -> String) async throws -> Int {
        try await waitUntil(.seconds(60), "the server to say where it listens (\(log().suffix(600)))") {
            log().contains(marker)
        }
        let text = log()
        guard let range = text.range(of: marker), let port = Int(text[range.upperBound...].prefix { $0.isNumber }) else {
            throw HarnessFailure(description: "no port after \(marker)")
        }
        return port
    }

    @Test func historyChartWritesTheBars() async throws {
        let (fixture, config) = try household()
        defer { fixture.remove() }
        let db = fixture.folder.appendingPathComponent("history.sqlite").path
        let chart = fixture.folder.appendingPathComponent("week.svg").path
        let result = try await runTool(Self.bridge, ["history", "--db", db, "--config", config, "--chart", chart, "--days", "7"])
        #expect(result.status == 0, "\(result)")
        let svg = try String(contentsOfFile: chart, encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.contains("Last 7 days"))
        let both = try await runTool(Self.bridge, ["history", "--db", db, "--chart", chart, "--json"])
        #expect(both.status != 0)
        let unwritable = try await runTool(Self.bridge, ["history", "--db", db, "--config", config, "--chart", "/nonexistent/dir/x.svg"])
        #expect(unwritable.status == 1)
        #expect(unwritable.error.contains("cannot write /nonexistent/dir/x.svg"), "\(unwritable.error)")
    }

    @Test func theManualsTellTheWebOptions() async throws {
        let serve = try await runTool(Self.bridge, ["serve", "--help"])
        #expect(serve.status == 0)
        for words in ["--http", "web.token", "/api/v1/days", "/metrics", "Authorization: Bearer"] {
            #expect(serve.output.contains(words), "serve --help lacks \(words)")
        }
        let run = try await runTool(Self.bridge, ["run", "--help"])
        #expect(run.output.contains("--http") && run.output.contains("web.listen"))
        let demo = try await runTool(Self.bridge, ["demo", "--help"])
        #expect(demo.output.contains("--serve"))
        let history = try await runTool(Self.bridge, ["history", "--help"])
        #expect(history.output.contains("--chart"))
    }
}
