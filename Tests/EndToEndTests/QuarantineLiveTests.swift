// Records the firmware really produces that cannot be drinks, against the real bridge
// (docs/design.md 3.4; docs/protocol.md B9, docs/protocol-vectors.md TV11): `aquavate-sim --fault
// odd-record=KIND` mixes one among ordinary drinks, in an ordinary chunk. For every kind, one
// `run --once` stores every ordinary drink exactly once, leaves the bottle with nothing unsynced,
// and lists the odd one (`history --quarantined`, `status --json`); its recording replays to the
// same history and the same quarantine. A bottle whose chunks are structurally wrong
// (`--fault bad-total`) is called stuck after 3 connections in a row, on every surface.

import AquavateProtocol
import BusTestSupport
import Foundation
import History
import ProcessSupport
import TestFixtures
import Timekeeping
import Testing

@Suite("odd records and stuck bottles against run --once")
struct QuarantineLiveTests {
    let live = LiveCommandTests()

    /// The simulator's state file: its records and unsynced count.
    static func simulatorState(_ path: String) throws -> (records: [[String: Any]], unsynced: Int) {
        let state = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
        return (state["records"] as? [[String: Any]] ?? [], state["unsynced_count"] as? Int ?? -1)
    }

    func jsonLines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    @Test("every ordinary drink is stored once, nothing stays unsynced, the odd record is listed; replay agrees",
          arguments: ["1970", "2000", "2106", "erased"])
    func oddRecord(kind: String) async throws {
        // MTU 100: five records a chunk, so the odd one shares its chunk with ordinary drinks.
        try await live.withSimulator(records: 12, arguments: ["--fault", "mtu=100", "--fault", "odd-record=\(kind)"]) { bus, folder in
            let db = folder.path + "/live.sqlite", replayed = folder.path + "/replayed.sqlite"
            let capture = folder.path + "/session.aqcap"
            let run = try await live.bridge(bus, ["run", "--once", "--record", capture, "--db", db])
            #expect(run.status == 0, "\(run)")
            #expect(!run.error.contains("refused"), "no chunk is refused: \(run.error)")

            // The bottle: 13 records, all synced now.
            let stateFile = folder.path + "/sim.json"
            try await waitUntil(.seconds(10), "the bottle to mark its records synced") { (try? Self.simulatorState(stateFile).unsynced) == 0 }
            let ring = try Self.simulatorState(stateFile).records
            #expect(ring.count == 13, "12 drinks and the odd one: \(ring.count)")
            let bounds = RecordBounds(now: Date.now.timeIntervalSince1970)
            func record(_ entry: [String: Any]) -> DrinkRecord {
                DrinkRecord(recordID: UInt32(truncatingIfNeeded: entry["record_id"] as? Int ?? 0),
                            timestamp: UInt32(truncatingIfNeeded: entry["timestamp"] as? Int ?? 0),
                            amountML: Int16(truncatingIfNeeded: entry["amount_ml"] as? Int ?? 0),
                            bottleLevelML: Int16(truncatingIfNeeded: entry["bottle_level_ml"] as? Int ?? 0),
                            typeRaw: 0, flagsRaw: 0)
            }
            let ordinary = ring.map(record).filter { bounds.problems(with: $0).isEmpty }
            #expect(ordinary.count == 12)

            // The history: each ordinary drink exactly once, with the bottle's own values.
            let history = try DrinkHistory(path: db)
            let stored = try history.drinks.storedDrinks()
            #expect(stored.map { "\($0.recordID)@\($0.timestamp)/\($0.amountML)" }.sorted()
                    == ordinary.map { "\($0.recordID)@\($0.timestamp)/\($0.amountML)" }.sorted())
            #expect(!stored.contains { $0.deleted })

            // The odd one listed (an erased slot is a tombstone for nothing: not listed, not stored).
            let listed = try await live.bridge(bus, ["history", "--quarantined", "--json", "--db", db])
            #expect(listed.status == 0, "\(listed)")
            let entries = jsonLines(listed.output)
            let expected = kind == "erased" ? 0 : 1
            #expect(entries.count == expected, "\(listed.output)")
            if let entry = entries.first {
                #expect(entry["event"] as? String == "quarantined")
                #expect(entry["problems"] as? [String] == ["time"])
                #expect((entry["raw"] as? String)?.count == 28)
                #expect((entry["reason"] as? String)?.contains("stamped") == true)
                #expect(entry["restorable"] as? Bool == true)
            }
            let status = try await live.bridge(bus, ["status", "--json", "--db", db])
            #expect(jsonLines(status.output).first?["quarantined"] as? Int == expected, "\(status.output)")
            #expect(jsonLines(status.output).first?["stuck"] as? Bool == false)

            // The recording replays to the same drinks and the same quarantine.
            let replay = try await runTool(LiveCommandTests.bridge, ["replay", capture, "--db", replayed, "--json"])
            #expect(replay.status == 0, "\(replay)")
            #expect(jsonLines(replay.output).contains { $0["event"] as? String == "sync" && $0["quarantined"] as? Int == expected },
                    "the sync event counts the quarantined record: \(replay.output)")
            let again = try DrinkHistory(path: replayed)
            #expect(try again.drinks.storedDrinks().map { "\($0.recordID)@\($0.timestamp)/\($0.amountML)" }
                    == stored.map { "\($0.recordID)@\($0.timestamp)/\($0.amountML)" })
            #expect(try again.drinks.quarantined().map(\.rawHex) == history.drinks.quarantined().map(\.rawHex))

            // A person restores a time-only record at the time they remember; it then counts.
            if let number = entries.first?["id"] as? Int {
                let at = ISO8601Text.format(WallInstant(Date.now) - .seconds(3600))
                let restore = try await live.bridge(bus, ["bottle", "restore", "\(number)", "--at", at, "--db", db])
                #expect(restore.status == 0, "\(restore)")
                #expect(try history.drinks.storedDrinks().count == 13)
                #expect(try history.drinks.quarantined().isEmpty)
                let twice = try await live.bridge(bus, ["bottle", "restore", "\(number)", "--at", at, "--db", db])
                #expect(twice.status != 0 && twice.error.contains("restored already"), "\(twice)")
            }
        }
    }

    @Test("the same structural refusal at 3 connections in a row: the bottle is stuck, said by status, doctor and the journal")
    func stuck() async throws {
        try await live.withSimulator(records: 5, arguments: ["--fault", "bad-total"]) { bus, folder in
            let db = folder.path + "/history.sqlite"
            // `run --once` tries the bottle again within its --timeout: each connection counts.
            var refusals = 0
            var journalSaidStuck = false
            for run in 1...3 {
                let result = try await live.bridge(bus, ["run", "--once", "--timeout", "4", "--failure-pause", "0.5", "--db", db])
                #expect(result.status == 1, "run \(run): \(result)")
                let refused = result.error.split(separator: "\n").filter { $0.contains("refused and not acknowledged") }.count
                #expect(refused >= 1, "run \(run): \(result.error)")
                refusals += refused
                let status = jsonLines(try await live.bridge(bus, ["status", "--json", "--db", db]).output).first
                #expect(status?["stuck"] as? Bool == (refusals >= 3), "after \(refusals) refusals: \(status ?? [:])")
                if refusals >= 3 {
                    #expect(status?["stuck_connections"] as? Int == refusals)
                    #expect((status?["stuck_reason"] as? String)?.contains("255 chunks") == true)
                    #expect(status?["unsynced"] as? Int == 5, "the drinks waiting on the bottle")
                }
                journalSaidStuck = journalSaidStuck || result.error.contains("is stuck since")
                if refusals >= 3 { break }
            }
            #expect(refusals >= 3)
            #expect(journalSaidStuck, "the journal says which bottle is stuck and since when")
            #expect(try DrinkHistory(path: db).drinks.drinkCount() == 0)
            let text = try await live.bridge(bus, ["status", "--db", db])
            #expect(text.output.contains("STUCK: ") && text.output.contains("5 drink(s) wait on the bottle"), "\(text.output)")
            let doctor = try await live.bridge(bus, ["doctor", "--db", db])
            #expect(doctor.output.split(separator: "\n").contains { $0.hasPrefix("FAIL  bottle sync") && $0.contains("stuck") },
                    "\(doctor.output)")
        }
    }

    @Test("a bottle whose clock runs +2 h (a zone offset set over USB): drinks stored at their real time, the stamp kept; replay agrees")
    func zoneOffset() async throws {
        let now = Date.now.timeIntervalSince1970
        let real = (1...3).map { UInt32(now) - UInt32(3600 * $0) }
        // What the bottle stamped: its clock, 2 h ahead.
        let file = TemporaryFolder()
        let recordsFile = file.path + "/records.json"
        let entries = real.enumerated().map { index, time in
            ["record_id": index + 1, "timestamp": Int(time) + 7200, "amount_ml": 150, "bottle_level_ml": 400, "type": 0, "flags": 0]
        }
        try JSONSerialization.data(withJSONObject: entries).write(to: URL(fileURLWithPath: recordsFile))
        try await withPrivateBus { bus in
            let folder = TemporaryFolder()
            let state = folder.path + "/sim.json"
            _ = try bus.spawn(LiveCommandTests.simulator, ["--bus", bus.address, "--records-file", recordsFile, "--timezone-offset", "2",
                                                           "--disconnect-delay", "0.1", "--state-file", state], logName: "sim")
            try await waitUntil(.seconds(20), "the simulator to be ready (\(bus.log("sim")))") { FileManager.default.fileExists(atPath: state) }
            let db = folder.path + "/live.sqlite", replayed = folder.path + "/replayed.sqlite"
            let capture = folder.path + "/session.aqcap"
            let run = try await live.bridge(bus, ["run", "--once", "--record", capture, "--db", db])
            #expect(run.status == 0, "\(run)")
            let stored = try DrinkHistory(path: db).drinks.storedDrinks()
            #expect(stored.map(\.timestamp).sorted() == real.sorted(), "stored at the real time: \(stored.map(\.timestamp)) vs \(real)")
            let raw = try DrinkHistory(path: db).drinks.rawTimestamps()
            #expect(raw.sorted() == real.map { $0 + 7200 }.sorted(), "each stamp kept")
            let status = try await live.bridge(bus, ["status", "--db", db])
            #expect(status.output.contains("+2 h from UTC") && status.output.contains("earlier than stamped"), "\(status.output)")
            let replay = try await runTool(LiveCommandTests.bridge, ["replay", capture, "--db", replayed])
            #expect(replay.status == 0, "\(replay)")
            #expect(try DrinkHistory(path: replayed).drinks.storedDrinks().map(\.timestamp) == stored.map(\.timestamp))
        }
    }
}
