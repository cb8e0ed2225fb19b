// `aquavate-bridge bottle …` as a person uses it (docs/design.md 3.5): commands queued by the CLI,
// applied by `run --once` against a real `aquavate-sim` on a private bus, and checked both in
// the bridge's history and in what the simulated bottle then holds (its state file).

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Testing
import Timekeeping

@Suite("bottle control against aquavate-sim")
struct BottleControlLiveTests {
    let live = LiveCommandTests()
    /// The simulator's serial (Device Information 0x2A25): its Wi-Fi MAC, the BLE address − 2.
    static let serial = "F4:12:FA:00:A3:F2"

    /// The simulated bottle's state file as JSON.
    func bottleState(_ folder: TemporaryFolder) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/sim.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func json(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test("the first sync reads Device Information: drinks are keyed by the serial, bottle info shows serial, firmware, model")
    func identityAndInfo() async throws {
        try await live.withSimulator(records: 5) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let run = try await live.bridge(bus, ["run", "--once", "--db", db])
            #expect(run.status == 0, "\(run)")
            let history = try DrinkHistory(path: db)
            #expect(try history.drinks.storedDrinks().map(\.bottle) == Array(repeating: Self.serial, count: 5))
            let info = try await live.bridge(bus, ["bottle", "info", "--json", "--db", db])
            #expect(info.status == 0, "\(info)")
            let event = try json(try #require(info.output.split(separator: "\n").first))
            #expect(event["event"] as? String == "bottle")
            #expect(event["serial"] as? String == Self.serial)
            #expect(event["address"] as? String == LiveCommandTests.address)
            #expect(event["firmware"] as? String == "0.1.0")
            #expect(event["goal_ml"] as? Int == 2500)
            #expect(event["calibrated"] as? Bool == true)
            #expect(event["shake_to_empty"] as? Bool == false)
            #expect((event["pending"] as? [Any])?.isEmpty == true)
            #expect((event["battery"] as? Int ?? 0) > 0, "the battery is the bottle's figure, not a just-woken 0: \(event)")
        }
    }

    @Test("a history keyed by the address moves to the serial at the next sync: nothing lost, nothing twice")
    func addressHistoryMigrates() async throws {
        try await live.withSimulator(records: 8) { bus, folder in
            let db = folder.path + "/history.sqlite"
            // An older bridge stored the first 5 drinks under the address.
            let older = try DrinkHistory(path: db)
            let state = try bottleState(folder)
            let records = try #require(state["records"] as? [[String: Any]]).prefix(5)
            let drinks = records.map { record in
                AquavateProtocolRecord.make(id: record["record_id"] as! Int, timestamp: record["timestamp"] as! Int,
                                            amount: record["amount_ml"] as! Int, level: record["bottle_level_ml"] as! Int)
            }
            _ = try older.drinks.store(drinks, bottle: LiveCommandTests.address, at: WallInstant(secondsSince1970: 1_000))
            _ = try older.bottles.update(id: LiveCommandTests.address) { $0.address = LiveCommandTests.address; $0.lastSeen = WallInstant(secondsSince1970: 1_000) }

            let run = try await live.bridge(bus, ["run", "--once", "--db", db])
            #expect(run.status == 0, "\(run)")
            let history = try DrinkHistory(path: db)
            let stored = try history.drinks.storedDrinks()
            #expect(stored.count == 8, "\(stored.map { ($0.bottle, $0.recordID) })")
            #expect(Set(stored.map(\.bottle)) == [Self.serial])
            #expect(Set(stored.map(\.recordID)) == Set(1...8))
            #expect(try history.bottles.all().map(\.id) == [Self.serial], "one bottle row, under the serial")
        }
    }

    @Test("bottle goal, shake-to-empty and tare are applied at the next connection and reach the bottle")
    func goalShakeTare() async throws {
        try await live.withSimulator(records: 3) { bus, folder in
            let db = folder.path + "/history.sqlite"
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            for arguments in [["goal", "2600"], ["goal", "3100"], ["shake-to-empty", "on"], ["tare"]] {
                let queued = try await live.bridge(bus, ["bottle"] + arguments + ["--db", db])
                #expect(queued.status == 0, "\(queued)")
            }
            let pending = try DrinkHistory(path: db).commands.all(statuses: [.pending])
            #expect(pending.map(\.command) == ["goal", "shake-to-empty", "tare"], "a newer goal replaced the pending one")

            let run = try await live.bridge(bus, ["run", "--once", "--db", db])
            #expect(run.status == 0, "\(run)")
            let commands = try DrinkHistory(path: db).commands.all()
            #expect(commands.map(\.status) == [.failed, .applied, .applied, .applied], "\(commands.map { ($0.command, $0.status, $0.message) })")
            #expect(commands.first?.message?.contains("replaced") == true)
            let bottle = try bottleState(folder)
            #expect(bottle["goal_ml"] as? Int == 3100)
            #expect(bottle["shake_to_empty"] as? Bool == true)
            #expect(bottle["tares"] as? Int == 1)
            #expect(try DrinkHistory(path: db).bottles.all().first?.goalML == 3100)

            // Applied once: a third run applies nothing again.
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            #expect(try bottleState(folder)["tares"] as? Int == 1)
        }
    }

    @Test("bottle delete: deleted in the history at once, on the bottle at the next connection")
    func deleteDrink() async throws {
        try await live.withSimulator(records: 4) { bus, folder in
            let db = folder.path + "/history.sqlite"
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let deleted = try await live.bridge(bus, ["bottle", "delete", "3", "--json", "--db", db])
            #expect(deleted.status == 0, "\(deleted)")
            let lines = deleted.output.split(separator: "\n")
            let drink = try json(try #require(lines.first))
            #expect(drink["event"] as? String == "drink")
            #expect(drink["deleted"] as? Bool == true)
            #expect(drink["bottle"] as? String == Self.serial)
            let command = try json(try #require(lines.last))
            #expect(command["event"] as? String == "command")
            #expect(command["status"] as? String == "pending")
            #expect(try DrinkHistory(path: db).drinks.storedDrinks(includeDeleted: false).count == 3)

            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let records = try #require(try bottleState(folder)["records"] as? [[String: Any]])
            #expect(records.filter { $0["deleted"] as? Bool == true }.map { $0["record_id"] as? Int } == [3])
            #expect(try DrinkHistory(path: db).commands.all().map(\.status) == [.applied])
        }
    }

    @Test("bad values are refused with exit 2 and the valid range; nothing is queued")
    func refusals() async throws {
        try await live.withSimulator(records: 2) { bus, folder in
            let db = folder.path + "/history.sqlite"
            let none = try await live.bridge(bus, ["bottle", "goal", "2000", "--db", db])
            #expect(none.status == 2, "no bottle adopted yet: \(none)")
            #expect(none.error.contains("run --once"))
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            for (arguments, words) in [(["goal", "999"], "1000 to 4000"), (["goal", "4001"], "1000 to 4000"),
                                       (["delete", "77"], "no drink #77"), (["tare", "--bottle", "AA:BB:CC:DD:EE:FF"], "no bottle")] {
                let refused = try await live.bridge(bus, ["bottle"] + arguments + ["--db", db])
                #expect(refused.status == 2, "\(arguments): \(refused)")
                #expect(refused.error.contains(words), "\(arguments): \(refused.error)")
                #expect(refused.error.split(separator: "\n").count == 1, "one line: \(refused.error)")
            }
            #expect(try DrinkHistory(path: db).commands.all().isEmpty)
        }
    }

    @Test("tare on an uncalibrated bottle fails with the reason and stays visible")
    func tareUncalibrated() async throws {
        try await live.withSimulator(records: 1, arguments: ["--uncalibrated"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            #expect(try await live.bridge(bus, ["bottle", "tare", "--db", db]).status == 0)
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let command = try #require(try DrinkHistory(path: db).commands.all().first)
            #expect(command.status == .failed)
            #expect(command.message?.contains("not calibrated") == true, "\(command)")
            #expect(try bottleState(folder)["tares"] as? Int == 0)
        }
    }

    @Test("the activity is fetched after the sync and listed by bottle activity")
    func activity() async throws {
        try await live.withSimulator(records: 2) { bus, folder in
            let db = folder.path + "/history.sqlite"
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let listed = try await live.bridge(bus, ["bottle", "activity", "--json", "--db", db])
            #expect(listed.status == 0, "\(listed)")
            let events = try listed.output.split(separator: "\n").map(json)
            #expect(!events.isEmpty, "the simulator reports its wake-ups: \(listed)")
            #expect(events.allSatisfy { ["motion", "backpack"].contains($0["event"] as? String) })
            // Fetched again at the next sync: stored once.
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let again = try await live.bridge(bus, ["bottle", "activity", "--json", "--db", db])
            #expect(again.output.split(separator: "\n").count >= events.count)
            #expect(Set(again.output.split(separator: "\n")).count == again.output.split(separator: "\n").count, "no duplicates")
        }
    }

    @Test("a bottle whose clock runs 2 h ahead (a USB time-zone offset) is reported by status, doctor and bottle info")
    func clockOffset() async throws {
        try await live.withSimulator(records: 2, arguments: ["--timezone-offset", "2"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            #expect(try await live.bridge(bus, ["run", "--once", "--db", db]).status == 0)
            let info = try await live.bridge(bus, ["bottle", "info", "--json", "--db", db])
            #expect(try json(try #require(info.output.split(separator: "\n").first))["clock_offset_s"] as? Int == 7200, "\(info)")
            let status = try await live.bridge(bus, ["status", "--db", db])
            #expect(status.output.contains("Bottle clock: the bottle's clock runs +2 h from UTC"), "\(status.output)")
            let doctor = try await live.bridge(bus, ["doctor", "--db", db])
            #expect(doctor.output.contains("bottle clock") && doctor.output.contains("+2 h"), "\(doctor.output)")
        }
    }

    @Test("a recorded session replays to the same bottle: serial key, firmware, clock offset, activity")
    func replayedBottleMatchesLive() async throws {
        try await live.withSimulator(records: 4, arguments: ["--timezone-offset=-3"]) { bus, folder in
            let db = folder.path + "/live.sqlite", replayed = folder.path + "/replayed.sqlite"
            let capture = folder.path + "/session.aqcap"
            #expect(try await live.bridge(bus, ["run", "--once", "--record", capture, "--db", db]).status == 0)
            let replay = try await runTool(LiveCommandTests.bridge, ["replay", capture, "--db", replayed])
            #expect(replay.status == 0, "\(replay)")
            let (a, b) = (try DrinkHistory(path: db), try DrinkHistory(path: replayed))
            let (liveBottle, replayedBottle) = (try #require(try a.bottles.all().first), try #require(try b.bottles.all().first))
            #expect(replayedBottle.id == Self.serial && liveBottle.id == Self.serial)
            #expect(replayedBottle.firmware == liveBottle.firmware && replayedBottle.model == liveBottle.model)
            #expect(replayedBottle.clockOffset == -3 * 3600 && liveBottle.clockOffset == -3 * 3600)
            #expect(replayedBottle.shakeToEmpty == liveBottle.shakeToEmpty)
            #expect(try b.drinks.storedDrinks().map(\.recordID) == (try a.drinks.storedDrinks().map(\.recordID)))
            let (liveActivity, replayedActivity) = (try a.bottles.motionEvents(), try b.bottles.motionEvents())
            #expect(!liveActivity.isEmpty)
            #expect(replayedActivity.map(\.event) == liveActivity.map(\.event))
            #expect(try b.bottles.backpackSessions().map(\.session) == (try a.bottles.backpackSessions().map(\.session)))
        }
    }

    @Test("run and scan honour bluetooth.adapter and bottle.address from the settings; the options win")
    func settingsAreHonoured() async throws {
        try await live.withSimulator(records: 2) { bus, folder in
            let db = folder.path + "/history.sqlite"
            // A stored setting (config set) naming an adapter that is not there: both commands use it.
            #expect(try await live.bridge(bus, ["config", "set", "bluetooth.adapter", "hci7", "--db", db]).status == 0)
            let run = try await live.bridge(bus, ["run", "--once", "--timeout", "5", "--db", db])
            #expect(run.status == 1 && run.error.contains("no Bluetooth adapter hci7"), "\(run)")
            let scan = try await live.bridge(bus, ["scan", "--timeout", "1", "--db", db])
            #expect(scan.status == 1 && scan.error.contains("no Bluetooth adapter hci7"), "\(scan)")
            // --adapter overrides it.
            #expect(try await live.bridge(bus, ["scan", "--timeout", "1", "--adapter", "hci0", "--db", db]).status == 0)
            #expect(try await live.bridge(bus, ["config", "unset", "bluetooth.adapter", "--db", db]).status == 0)
            // bottle.address naming another bottle: run --once waits for it and ignores this one.
            let other = try await live.bridge(bus, ["run", "--once", "--timeout", "3", "--db", db,
                                                    "--set", "bottle.address=AA:BB:CC:DD:EE:FF"])
            #expect(other.status == 1 && other.error.contains("AA:BB:CC:DD:EE:FF"), "\(other)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 0)
            let mine = try await live.bridge(bus, ["run", "--once", "--db", db, "--set", "bottle.address=\(LiveCommandTests.address)"])
            #expect(mine.status == 0, "\(mine)")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 2)
        }
    }
}

/// A drink record as the bottle sends it, from the numbers of the simulator's state file.
enum AquavateProtocolRecord {
    static func make(id: Int, timestamp: Int, amount: Int, level: Int) -> DrinkRecord {
        DrinkRecord(recordID: UInt32(id), timestamp: UInt32(timestamp), amountML: Int16(amount),
                    bottleLevelML: Int16(level), typeRaw: 0, flagsRaw: 0)
    }
}
