// Sections 3–6 through replay: a config file's rules, `log` and `action` ops from the capture.

import AquavateProtocol
import Foundation
import History
@testable import Settings
import TestFixtures
import Testing

@Suite("Replay with every rule")
struct ReplayRulesTests {
    let sunday0800 = 1_795_330_800.0 // 2026-11-22 08:00 Europe/Madrid, a Sunday

    func config(_ folder: TemporaryFolder, extra: String = "") -> String {
        folder.write("bridge.toml", """
            timezone = "Europe/Madrid"
            [reminders]
            enabled = false
            [[schedule]]
            id = "VITD"
            name = "Vitamin D"
            intake = "vitamin-d"
            frequency = "weekly"
            first = "2026-11-22T09:00"
            \(extra)
            """)
    }

    func replay(_ folder: TemporaryFolder, _ lines: [String], config: String, db: String? = nil) async throws -> (status: Int32, objects: [[String: Any]], err: String) {
        let capture = folder.write("rules-\(UUID().uuidString.prefix(6)).aqcap", ([testHeader] + lines).joined(separator: "\n"))
        var arguments = ["replay", capture, "--reminders", "--json", "--config", config]
        if let db { arguments += ["--db", db] }
        let result = try await runBridge(arguments)
        return (result.status, try jsonObjects(result.out), result.err)
    }

    @Test("a weekly schedule fires at 09:00 with the seed's id, and not when the intake was logged at 08:30")
    func weeklyWithSuppression() async throws {
        let folder = TemporaryFolder()
        let file = config(folder)
        let span = [#"{"t":\#(sunday0800),"op":"note","text":"start"}"#, #"{"t":\#(sunday0800 + 9000),"op":"note","text":"end"}"#]
        let plain = try await replay(folder, span, config: file)
        #expect(plain.status == 0, "\(plain.err)")
        let fired = plain.objects.filter { $0["event"] as? String == "notification" && $0["kind"] as? String == "scheduled" }
        #expect(fired.count == 1)
        #expect(fired.first?["id"] as? String == "reminder-VITD-w1-9-0")
        #expect(fired.first?["time"] as? String == "2026-11-22T08:00:00Z")
        let logged = [span[0], #"{"t":\#(sunday0800 + 1800),"op":"log","type":"vitamin-d"}"#, span[1]]
        let suppressed = try await replay(folder, logged, config: file)
        #expect(suppressed.status == 0, "\(suppressed.err)")
        #expect(suppressed.objects.filter { $0["kind"] as? String == "scheduled" }.isEmpty)
    }

    @Test("logging water, or an action on an unknown notification, is a rejected line")
    func badPersonEvents() async throws {
        let folder = TemporaryFolder()
        let lines = [#"{"t":\#(sunday0800),"op":"log","type":"water"}"#,
                     #"{"t":\#(sunday0800 + 1),"op":"action","id":"nothing-1","action":"did-this"}"#,
                     #"{"t":\#(sunday0800 + 2),"op":"log","type":"vitamin-d"}"#]
        let result = try await replay(folder, lines, config: config(folder))
        #expect(result.status != 0)
        let errors = result.objects.filter { $0["event"] as? String == "error" }
        #expect(errors.compactMap { $0["line"] as? Int } == [2, 3])
    }

    @Test("Did This on a delivered ritual is recorded in the history database")
    func didThisRecorded() async throws {
        let folder = TemporaryFolder()
        let file = config(folder, extra: """

            [rituals]
            enabled = true
            morning = "08:30"
            evening = "20:00"
            terrain = "cold_deficient"
            nickname = "Low Flame"
            """)
        let db = folder.path + "/h.sqlite"
        let first = try await replay(folder, [#"{"t":\#(sunday0800),"op":"note"}"#, #"{"t":\#(sunday0800 + 3600),"op":"note"}"#], config: file, db: db)
        #expect(first.status == 0, "\(first.err)")
        let ritual = try #require(first.objects.first { $0["kind"] as? String == "ritual" })
        let id = try #require(ritual["id"] as? String)
        #expect((ritual["title"] as? String)?.contains("Low Flame") == true)
        #expect(ritual["actions"] as? [String] == ["did-this", "start-ritual"])
        let tap = try await replay(folder, [#"{"t":\#(sunday0800 + 3700),"op":"action","id":"\#(id)","action":"did-this"}"#], config: file, db: db)
        #expect(tap.status == 0, "\(tap.err)")
        let events = try DrinkHistory(path: db).reminders.personEvents()
        #expect(events.map(\.name) == ["did-this"])
        #expect(events.first?.notificationID == id)
    }

    @Test("a bad schedule table is refused with its reason; the rest of the file still loads")
    func badScheduleTable() async throws {
        let folder = TemporaryFolder()
        let file = config(folder, extra: """

            [[schedule]]
            id = "BAD"
            intake = "zinc"
            frequency = "fortnightly"
            first = "2026-11-22T09:00"
            """)
        let span = [#"{"t":\#(sunday0800),"op":"note"}"#, #"{"t":\#(sunday0800 + 9000),"op":"note"}"#]
        let result = try await replay(folder, span, config: file)
        #expect(result.err.contains("fortnightly"))
        #expect(result.objects.filter { $0["kind"] as? String == "scheduled" }.count == 1)
    }

    @Test("schedule add checks its options, list shows file and database schedules, remove and disable work")
    func scheduleCommands() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let file = config(folder)
        let bad = try await runBridge(["schedule", "add", "--id", "ZN", "--intake", "zinc", "--frequency", "fortnightly", "--first", "2026-11-22T09:00", "--db", db, "--config", file])
        #expect(bad.status != 0)
        #expect(bad.err.contains("weekly"))
        let day32 = try await runBridge(["schedule", "add", "--id", "ZN", "--intake", "zinc", "--frequency", "monthly", "--first", "2026-11-32T09:00", "--db", db, "--config", file])
        #expect(day32.status != 0)
        let duplicate = try await runBridge(["schedule", "add", "--id", "VITD", "--intake", "zinc", "--frequency", "daily", "--first", "2026-11-22T09:00", "--db", db, "--config", file])
        #expect(duplicate.status != 0)
        let ok = try await runBridge(["schedule", "add", "--id", "ZN", "--name", "Zinc", "--intake", "zinc", "--frequency", "daily", "--first", "2026-11-22T20:00", "--db", db, "--config", file])
        #expect(ok.status == 0, "\(ok.err)")
        let list = try await runBridge(["schedule", "list", "--db", db, "--config", file])
        #expect(list.out.contains("VITD") && list.out.contains("[file]"))
        #expect(list.out.contains("ZN  Zinc") && list.out.contains("[database]"))
        #expect(try await runBridge(["schedule", "disable", "ZN", "--db", db]).status == 0)
        #expect(try await runBridge(["schedule", "list", "--db", db]).out.contains("disabled"))
        #expect(try await runBridge(["schedule", "remove", "VITD", "--db", db]).status != 0)
        #expect(try await runBridge(["schedule", "remove", "ZN", "--db", db]).status == 0)
        #expect(try await runBridge(["schedule", "list", "--db", db]).out == "no schedules\n")
    }

    @Test("log TYPE records a manual intake; log water is refused")
    func logCommand() async throws {
        let folder = TemporaryFolder()
        let db = folder.path + "/h.sqlite"
        let ok = try await runBridge(["log", "Vitamin-D", "--at", "2026-11-22T07:30:00Z", "--db", db])
        #expect(ok.status == 0, "\(ok.err)")
        #expect(ok.out.contains("logged vitamin-d"))
        #expect(try DrinkHistory(path: db).reminders.personEvents().map(\.name) == ["vitamin-d"])
        let water = try await runBridge(["log", "water", "--db", db])
        #expect(water.status != 0)
        #expect(water.err.contains("bottle"))
    }

    @Test("config set refuses an unknown terrain with the valid choices")
    func terrainValidated() async throws {
        let folder = TemporaryFolder()
        let result = try await runBridge(["config", "set", "rituals.terrain", "volcanic", "--db", folder.path + "/h.sqlite"])
        #expect(result.status != 0)
        #expect(result.err.contains("cold_deficient"))
    }
}

@Suite("Message pool file")
struct MessagePoolFileTests {
    @Test("a user pool is read relative to the config file; an empty or missing one is refused and the shipped pool is used")
    func poolFile() throws {
        let folder = TemporaryFolder()
        _ = folder.write("mine.txt", "Drink up, captain.\n\nStay wavy.\n")
        _ = folder.write("empty.txt", "\n\n")
        func settings(_ pool: String) throws -> ([String]?, [String]) {
            let file = folder.write("bridge-\(UUID().uuidString.prefix(4)).toml", "[messages]\nenabled = true\npool = \"\(pool)\"\n")
            let configuration = try Configuration.load(file: file, mustExist: true)
            let (settings, problems) = configuration.reminderSettings(personReachable: true)
            return (settings.messages.userPool, problems)
        }
        let mine = try settings("mine.txt")
        #expect(mine.0 == ["Drink up, captain.", "Stay wavy."])
        #expect(mine.1.isEmpty)
        let empty = try settings("empty.txt")
        #expect(empty.0 == nil)
        #expect(empty.1.contains { $0.contains("empty.txt") && $0.contains("no message") })
        let missing = try settings("absent.txt")
        #expect(missing.0 == nil)
        #expect(missing.1.contains { $0.contains("absent.txt") && $0.contains("cannot be read") })
    }
}
