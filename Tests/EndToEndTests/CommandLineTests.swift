// The command-line contracts of docs/design.md 3.1 and 3.4, run against the built binary.

import BusTestSupport
import Foundation
import TestFixtures
import Testing

/// Runs the built `aquavate-bridge` with `arguments`; returns status, stdout and stderr.
/// Async, and never blocks a thread while the child runs: Swift Testing runs tests on a
/// cooperative pool as wide as the machine (2 threads in CI), and a test that blocked one while
/// `notify test` waited its 5 s starved every test that polls with `Task.sleep`.
func runBridge(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, out: String, err: String) {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("aquavate-bridge")
    var env = ProcessInfo.processInfo.environment
    // Tests decide which buses exist: none unless they say so.
    for key in ["JOURNAL_STREAM", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "DBUS_SYSTEM_BUS_ADDRESS"] {
        env.removeValue(forKey: key)
    }
    for (key, value) in environment { env[key] = value }
    let result = try await runTool(binary.path, arguments, environment: env)
    return (result.status, result.output, result.error)
}

func jsonObjects(_ text: String) throws -> [[String: Any]] {
    try text.split(separator: "\n").map { line in
        let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
        return try #require(object as? [String: Any], "not a JSON object: \(line)")
    }
}

@Suite("Command line")
struct CommandLineTests {
    @Test("replay --json prints one event object per line with the contract's fields")
    func replayJSON() async throws {
        let result = try await runBridge(["replay", shippedCapture("wedge.aqcap"), "--json", "--set", "timezone=UTC"])
        #expect(result.status == 0, "\(result.err)")
        let objects = try jsonObjects(result.out)
        #expect(objects.allSatisfy { $0["event"] is String })
        let drinks = objects.filter { $0["event"] as? String == "drink" }
        #expect(drinks.count == 2)
        let first = try #require(drinks.first)
        #expect(first["record_id"] as? Int == 6)
        #expect((first["time"] as? String)?.hasSuffix("Z") == true)
        #expect(first["type"] as? String != nil)
        #expect(first["new"] as? Bool == true)
        #expect(first["deleted"] as? Bool == false)
        #expect(first["amount_ml"] is Int && first["bottle_level_ml"] is Int)
        let syncs = objects.filter { $0["event"] as? String == "sync" }
        #expect(syncs.map { $0["outcome"] as? String } == ["complete", "empty"])
        #expect(syncs.first?["records"] as? Int == 2 && syncs.first?["chunks"] as? Int == 1)
        let states = objects.filter { $0["event"] as? String == "state" }
        #expect(states.last?["unsynced"] as? Int == 1)
        #expect(states.last?["flags"] as? [String] == ["time_valid", "calibrated", "stable"])
        let days = objects.filter { $0["event"] as? String == "day" }
        #expect(days.first?["date"] as? String == "2026-11-21")
        #expect(days.first?["goal_ml"] as? Int == 2500)
    }

    @Test("replay exits non-zero after a rejected line, reports file and line, and still uses the rest")
    func replayRejects() async throws {
        let folder = TemporaryFolder()
        let good = try String(contentsOfFile: shippedCapture("wedge.aqcap"), encoding: .utf8)
        var lines = good.split(separator: "\n").map(String.init)
        lines.insert("{not json", at: 3)
        let file = folder.write("broken.aqcap", lines.joined(separator: "\n"))
        let result = try await runBridge(["replay", file, "--json"])
        #expect(result.status != 0)
        let objects = try jsonObjects(result.out)
        let errors = objects.filter { $0["event"] as? String == "error" }
        #expect(errors.count == 1)
        #expect(errors.first?["line"] as? Int == 4)
        #expect(errors.first?["file"] as? String == file)
        #expect(objects.filter { $0["event"] as? String == "drink" }.count == 2)
        #expect(result.err.contains("1 input line(s) rejected"))
        // The text form names the place on standard error.
        let text = try await runBridge(["replay", file])
        #expect(text.status != 0)
        #expect(text.err.contains("\(file):4:"))
    }

    @Test("replay --db then history --json and --csv read the same drinks back")
    func historyAfterReplay() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let replay = try await runBridge(["replay", shippedCapture("day-of-syncs.aqcap"), "--db", db, "--set", "timezone=Europe/Madrid"])
        #expect(replay.status == 0, "\(replay.err)")
        let history = try await runBridge(["history", "--json", "--db", db, "--set", "timezone=Europe/Madrid"])
        #expect(history.status == 0, "\(history.err)")
        let objects = try jsonObjects(history.out)
        #expect(objects.filter { $0["event"] as? String == "drink" }.count == 19)
        let days = objects.filter { $0["event"] as? String == "day" }
        #expect(days.count == 1)
        #expect(days.first?["date"] as? String == "2026-11-20")
        #expect(days.first?["drinks"] as? Int == 19)
        let csv = try await runBridge(["history", "--csv", "--db", db])
        #expect(csv.status == 0)
        let rows = csv.out.split(separator: "\n")
        #expect(rows.first?.hasPrefix("event,") == true)
        #expect(rows.filter { $0.hasPrefix("drink,") }.count == 19)
        // The text form: one line per stored drink, without replay's new/known marker.
        let text = try await runBridge(["history", "--db", db, "--set", "timezone=Europe/Madrid"])
        let drinkLines = text.out.split(separator: "\n").filter { $0.contains(" drink #") }
        #expect(drinkLines.count == 19)
        #expect(drinkLines.allSatisfy { $0.hasSuffix(" ml") || $0.hasSuffix("deleted") }, "\(drinkLines.first ?? "")")
        let replayed = replay.out.split(separator: "\n").filter { $0.contains(" drink #") }
        #expect(replayed.count == 19 && replayed.allSatisfy { $0.hasSuffix("  new") }, "\(replayed.first ?? "")")
        // Replaying again stores nothing new.
        let again = try await runBridge(["replay", shippedCapture("day-of-syncs.aqcap"), "--db", db, "--json"])
        let drinks = try jsonObjects(again.out).filter { $0["event"] as? String == "drink" }
        #expect(drinks.count == 19 && drinks.allSatisfy { $0["new"] as? Bool == false })
    }

    @Test("history --days must be positive")
    func historyDaysValidated() async throws {
        let bad = try await runBridge(["history", "--days", "0", "--db", "/tmp/none.sqlite"])
        #expect(bad.status != 0)
    }

    @Test("history without a database says where it looked and what to do")
    func historyWithoutDatabase() async throws {
        let result = try await runBridge(["history", "--db", "/nonexistent/folder/h.sqlite"])
        #expect(result.status != 0)
        #expect(result.err.contains("/nonexistent/folder/h.sqlite"))
        #expect(result.err.split(separator: "\n").count == 1)
    }

    @Test("config set refuses bad values with the valid choices and changes nothing")
    func configSet() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let bad = try await runBridge(["config", "set", "reminders.daily_limit", "maybe", "--db", db])
        #expect(bad.status != 0)
        #expect(bad.err.contains("true or false"))
        let goal = try await runBridge(["config", "set", "daily_goal_ml", "-5", "--db", db])
        #expect(goal.status != 0)
        let zone = try await runBridge(["config", "set", "timezone", "Mars/Olympus", "--db", db])
        #expect(zone.status != 0)
        #expect(zone.err.contains("IANA"))
        let unknown = try await runBridge(["config", "set", "reminders.daily_limt", "true", "--db", db])
        #expect(unknown.status != 0)
        #expect(unknown.err.contains("reminders.daily_limit"))
        let get = try await runBridge(["config", "get", "reminders.daily_limit", "--db", db])
        #expect(get.out == "true\n")
        let set = try await runBridge(["config", "set", "reminders.daily_limit", "off", "--db", db])
        #expect(set.status == 0)
        #expect(try await runBridge(["config", "get", "reminders.daily_limit", "--db", db]).out == "false\n")
        // --set overrides the stored value for one run only.
        #expect(try await runBridge(["config", "get", "reminders.daily_limit", "--db", db, "--set", "reminders.daily_limit=true"]).out == "true\n")
        #expect(try await runBridge(["config", "get", "reminders.daily_limit", "--db", db]).out == "false\n")
    }

    @Test("config set and unset take the daily goal's former name goal_ml with a one-line note; get reads it by either name")
    func formerNameOfTheDailyGoal() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let set = try await runBridge(["config", "set", "goal_ml", "2300", "--db", db])
        #expect(set.status == 0 && set.out == "daily_goal_ml = 2300\n", "\(set.out)")
        #expect(set.err == "aquavate-bridge config set: note: goal_ml is the former name of daily_goal_ml\n", "\(set.err)")
        #expect(try await runBridge(["config", "get", "daily_goal_ml", "--db", db]).out == "2300\n")
        #expect(try await runBridge(["config", "get", "goal_ml", "--db", db]).out == "2300\n")
        let fresh = try await runBridge(["config", "set", "daily_goal_ml", "2400", "--db", db])
        #expect(fresh.status == 0 && fresh.err.isEmpty, "\(fresh.err)")
        let unset = try await runBridge(["config", "unset", "goal_ml", "--db", db])
        #expect(unset.status == 0 && unset.err.split(separator: "\n").count == 1, "\(unset.err)")
        #expect(try await runBridge(["config", "get", "daily_goal_ml", "--db", db]).out == "2500\n", "back to the default")
    }

    @Test("the config file: values apply, an unknown key warns, a bad value is refused and the rest loads")
    func configFile() async throws {
        let folder = TemporaryFolder()
        let file = folder.write("bridge.toml", """
            timezone = "America/New_York"
            colour = "blue"
            [reminders]
            daily_limit = false
            min_deficit_ml = "lots"
            """)
        let db = folder.path + "/h.sqlite"
        let zone = try await runBridge(["config", "get", "timezone", "--config", file, "--db", db])
        #expect(zone.status == 0)
        #expect(zone.out == "America/New_York\n")
        #expect(zone.err.contains("colour"))
        #expect(zone.err.contains("min_deficit_ml"))
        #expect(try await runBridge(["config", "get", "reminders.daily_limit", "--config", file, "--db", db]).out == "false\n")
        #expect(try await runBridge(["config", "get", "reminders.min_deficit_ml", "--config", file, "--db", db]).out == "150\n")
        let broken = folder.write("broken.toml", "timezone = \n[[[")
        let result = try await runBridge(["config", "list", "--config", broken, "--db", db])
        #expect(result.status != 0)
        #expect(result.err.contains("broken.toml"))
        let missing = try await runBridge(["config", "list", "--config", folder.path + "/absent.toml", "--db", db])
        #expect(missing.status != 0)
    }

    @Test("--set with an unknown key fails with one line")
    func badOverride() async throws {
        let result = try await runBridge(["replay", shippedCapture("wedge.aqcap"), "--set", "timezone=Nowhere/City"])
        #expect(result.status != 0)
        #expect(result.err.contains("timezone"))
        #expect(!result.err.contains("Fatal"))
    }

    @Test("every command has --help")
    func help() async throws {
        for command in [["replay"], ["history"], ["import"], ["config"], ["config", "set"]] {
            let result = try await runBridge(command + ["--help"])
            #expect(result.status == 0)
            #expect(result.out.contains("USAGE"))
        }
    }
}

@Suite("notify test")
struct NotifyTestCommandTests {
    @Test("delivers through the journal, and names a sink that cannot deliver")
    func notifyTest() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let ok = try await runBridge(["notify", "test", "--db", db])
        #expect(ok.status == 0, "\(ok.err)")
        #expect(ok.out.contains("journal: delivered"))
        #expect(ok.err.contains("id=notification-test"))
        let history = try DrinkHistoryProbe.delivered(db)
        #expect(history == ["notification-test"])
        // A push server that refuses connections: the journal still delivers, the push sink is named.
        let bad = try await runBridge(["notify", "test", "--db", db, "--set", "push.url=http://127.0.0.1:9/topic", "--wait", "2"])
        #expect(bad.status != 0)
        #expect(bad.out.contains("journal: delivered"))
        #expect(bad.out.contains("push: NOT delivered"))
        // A push server that redirects (the bearer token must not follow it): not delivered, and
        // the line says where it pointed.
        let redirecting = try RedirectingServer(status: 302)
        defer { redirecting.stop() }
        let redirected = try await runBridge(["notify", "test", "--db", db, "--set", "push.url=http://127.0.0.1:\(redirecting.port)/topic",
                                              "--set", "push.token=tk_test", "--wait", "5"])
        #expect(redirected.status != 0)
        #expect(redirected.out.contains("push: NOT delivered") && redirected.out.contains("redirected to http://127.0.0.1:\(redirecting.port)/landing"))
        #expect(!redirected.out.contains("push: delivered"))
        #expect(redirecting.requests == 1)
        // With the master switch off nothing is scheduled.
        let off = try await runBridge(["notify", "test", "--db", db, "--set", "notifications.enabled=false"])
        #expect(off.status != 0)
        #expect(off.err.contains("notifications.enabled"))
    }
}
