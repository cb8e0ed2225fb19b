// `aquavate-bridge setup` (docs/design.md 3.1), run against the built binary: the non-interactive
// path writes the answers into the config file and keeps the rest of it, typed answers on
// standard input do the same, and a bad value is refused with exit status 2 and one line.

import BusTestSupport
import Foundation
import Testing

private struct SetupFolder {
    let url: URL
    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("setup-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    var config: String { url.appendingPathComponent("bridge.toml").path }
    var db: String { url.appendingPathComponent("history.sqlite").path }
    func text() throws -> String { try String(contentsOfFile: config, encoding: .utf8) }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// A port on 127.0.0.1 where nothing listens (bound, then closed).
private func closedPort() throws -> Int {
    let listener = try #require(LoopbackListener())
    close(listener.descriptor)
    return listener.port
}

@Suite("setup")
struct SetupCommandTests {
    @Test("--yes with options writes them into the config file, keeps its other keys and schedules, its mode, and run-time commands read them")
    func nonInteractive() async throws {
        let folder = try SetupFolder()
        defer { folder.remove() }
        try """
            [desktop]
            enabled = false

            [[schedule]]
            id = "VITD"
            name = "Vitamin D"
            intake = "vitamin-d"
            frequency = "weekly"
            first = "2026-11-22T09:00"
            """.write(toFile: folder.config, atomically: true, encoding: .utf8)
        chmod(folder.config, 0o600)
        let broker = try #require(LoopbackListener())
        defer { close(broker.descriptor) }

        let result = try await runBridge([
            "setup", "--yes", "--config", folder.config, "--bottle", "f4:12:fa:00:a3:f4", "--timezone", "Europe/Madrid",
            "--mqtt", "mqtt://127.0.0.1:\(broker.port)", "--goal", "2200",
        ])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err.isEmpty, "\(result.err)")
        #expect(result.out.contains("ok    mqtt: broker 127.0.0.1:\(broker.port) accepts TCP connections"), "\(result.out)")
        #expect(result.out.contains("Wrote \(folder.config)."))
        #expect(result.out.contains("Next: aquavate-bridge doctor --config \(folder.config)"))

        let mode = try #require(FileManager.default.attributesOfItem(atPath: folder.config)[.posixPermissions] as? Int)
        #expect(mode == 0o600, "the file's mode is kept")
        let text = try folder.text()
        #expect(text.hasPrefix("# aquavate-bridge configuration, written by `aquavate-bridge setup`"))
        for (key, expected) in [("bottle.address", "F4:12:FA:00:A3:F4"), ("timezone", "Europe/Madrid"),
                                ("mqtt.url", "mqtt://127.0.0.1:\(broker.port)"), ("daily_goal_ml", "2200"), ("desktop.enabled", "false")] {
            let got = try await runBridge(["config", "get", key, "--config", folder.config, "--db", folder.db])
            #expect(got.status == 0 && got.out == expected + "\n", "\(key): \(got)")
        }
        let list = try await runBridge(["config", "list", "--config", folder.config, "--db", folder.db])
        #expect(list.out.contains("daily_goal_ml = 2200  [file]"), "\(list.out)")
        #expect(text.contains("[[schedule]]") && text.contains("VITD"), "the schedule is kept:\n\(text)")

        // Again with one option: only that one changes.
        let again = try await runBridge(["setup", "--yes", "--config", folder.config, "--goal", "2600"])
        #expect(again.status == 0, "\(again.err)")
        let goal = try await runBridge(["config", "get", "daily_goal_ml", "--config", folder.config, "--db", folder.db])
        let zone = try await runBridge(["config", "get", "timezone", "--config", folder.config, "--db", folder.db])
        #expect(goal.out == "2600\n" && zone.out == "Europe/Madrid\n")
    }

    @Test("an unreachable broker is said in one doctor line and still written (it may be down for now)")
    func unreachableBroker() async throws {
        let folder = try SetupFolder()
        defer { folder.remove() }
        let port = try closedPort()
        let result = try await runBridge(["setup", "--yes", "--config", folder.config, "--mqtt", "mqtt://127.0.0.1:\(port)"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("FAIL  mqtt: cannot reach the broker 127.0.0.1:\(port)"), "\(result.out)")
        let text = try folder.text()
        #expect(text.contains("url = 'mqtt://127.0.0.1:\(port)'") || text.contains("url = \"mqtt://127.0.0.1:\(port)\""), "\(text)")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: folder.config)[.posixPermissions] as? Int)
        #expect(mode == 0o640, "a new file is 0640: it may hold a token")
    }

    @Test("bad values are refused with exit status 2, one line naming the option, and nothing written",
          arguments: [
            (["--goal", "0"], "aquavate-bridge setup: --goal 0: "),
            (["--goal", "lots"], "aquavate-bridge setup: --goal lots: "),
            // The daily goal's range, as the page's form and the API's daily_goal refuse it.
            (["--goal", "20001"], "aquavate-bridge setup: --goal 20001: invalid value '20001' for daily_goal_ml: expected a whole number from 1 to 20000"),
            (["--timezone", "Mars/Olympus_Mons"], "aquavate-bridge setup: --timezone Mars/Olympus_Mons: "),
            (["--mqtt", "http://broker:1883"], "aquavate-bridge setup: --mqtt http://broker:1883: "),
            (["--bottle", "F4:12:FA:00:A3"], "aquavate-bridge setup: --bottle F4:12:FA:00:A3: not a Bluetooth address"),
            (["--scan-timeout", "0"], "aquavate-bridge setup: --scan-timeout 0.0: "),
          ])
    func badValues(arguments: [String], prefix: String) async throws {
        let folder = try SetupFolder()
        defer { folder.remove() }
        let result = try await runBridge(["setup", "--yes", "--config", folder.config, "--timezone", "UTC"]
                                         + arguments)
        #expect(result.status == 2, "\(result)")
        #expect(result.err.hasPrefix(prefix), "\(result.err)")
        #expect(result.err.split(separator: "\n").count == 1, "one line: \(result.err)")
        #expect(result.out.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.config), "nothing written")
    }

    @Test("a daily goal no bottle shows (5000 ml) is the person's to set, as the page and the API take it (docs/design.md 3.7)")
    func aDailyGoalBeyondTheBottle() async throws {
        let folder = try SetupFolder()
        defer { folder.remove() }
        let result = try await runBridge(["setup", "--yes", "--config", folder.config, "--timezone", "UTC", "--goal", "5000"])
        #expect(result.status == 0, "\(result)")
        let goal = try await runBridge(["config", "get", "daily_goal_ml", "--config", folder.config, "--db", folder.db])
        #expect(goal.out == "5000\n", "\(goal)")
    }

    @Test("typed answers: no scan, a bad goal asked again, an empty answer keeps the current value")
    func interactive() async throws {
        let folder = try SetupFolder()
        defer { folder.remove() }
        let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("aquavate-bridge").path
        // Scan? no. Time zone: UTC. Broker: none. Goal: 50000 (refused), then 1800.
        let answers = "n\\nUTC\\n\\n50000\\n1800\\n"
        let result = try await runTool("/bin/sh", ["-c", "printf '\(answers)' | '\(binary)' setup --config '\(folder.config)'"],
                                       environment: ["PATH": "/usr/bin:/bin", "HOME": folder.url.path])
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("Scan for your bottle now?"), "\(result.output)")
        #expect(result.output.contains("daily_goal_ml"), "the refusal names the key: \(result.output)")
        let text = try folder.text()
        #expect(text.contains("timezone = 'UTC'") || text.contains("timezone = \"UTC\""), "\(text)")
        #expect(text.contains("daily_goal_ml = 1800"), "\(text)")
        #expect(!text.contains("mqtt"), "\(text)")
        #expect(!text.contains("bottle"), "\(text)")
    }

    @Test("--help reads like a man page: what it asks, files, exit status")
    func help() async throws {
        let result = try await runBridge(["setup", "--help"])
        #expect(result.status == 0)
        for part in ["OVERVIEW: First run", "FILES", "EXIT STATUS", "--bottle <ADDRESS>", "--yes", "/etc/aquavate/bridge.toml"] {
            #expect(result.out.contains(part), "\(part) in:\n\(result.out)")
        }
    }
}
