// Replay of hand-made captures: the sync reconstruction, bad input, crashes, day totals.

import AquavateProtocol
import Foundation
import History
@testable import Reports
import TestFixtures
import Testing

@Suite("Replay behaviour")
struct ReplayBehaviourTests {
    let base: UInt32 = 1_795_248_000 // 2026-11-21T08:00:00Z

    @Test("bad lines are reported with file and line, and every other line is still used")
    func badLinesSkipped() throws {
        let folder = TemporaryFolder()
        let records = (1...3).map { record(UInt32($0), base + UInt32($0) * 60, 50) }
        var lines = [testHeader] + syncLines(at: Double(base) + 600, records)
        lines.insert("this is not json", at: 2)                                       // line 3
        lines.insert(#"{"t":1795248601,"op":"teleport"}"#, at: 4)                   // line 5
        lines.insert(#"{"t":1795248601,"op":"read","char":"flux","value":"00"}"#, at: 5) // line 6
        lines.insert(#"{"t":1795248601,"op":"read","char":"battery-level","value":"zz"}"#, at: 6) // line 7
        let file = folder.write("bad.aqcap", lines.joined(separator: "\n") + "\n")
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([file], history: history)
        #expect(outcome.rejectedLines == 4)
        #expect(outcome.errors.map(\.line) == [3, 5, 6, 7])
        #expect(outcome.errors.allSatisfy { $0.file == file })
        #expect(outcome.drinks.count == 3)
        #expect(outcome.syncs.map(\.outcome) == [.complete])
    }

    @Test("a wrong-length Current State from the bottle is rejected, the rest is used")
    func badCurrentState() throws {
        let folder = TemporaryFolder()
        let lines = [testHeader,
                     eventLine(Double(base), "read", "current-state", [0xB0, 0xE8, 0x90, 0x67, 0xC2, 0x01, 0xC2, 0x01, 0xE2, 0x04, 0x57, 0x07, 0x03]),
                     eventLine(Double(base) + 1, "read", "current-state", [0xB0, 0xE8, 0x90, 0x67, 0xC2, 0x01, 0xC2, 0x01, 0xE2, 0x04, 0x57, 0x07, 0x03, 0x00])]
        let outcome = try runReplay([folder.write("state.aqcap", lines.joined(separator: "\n"))], history: try DrinkHistory(path: nil))
        #expect(outcome.rejectedLines == 1)
        #expect(outcome.errors.first?.line == 2)
        #expect(outcome.errors.first?.message.contains("14") == true)
        #expect(outcome.states == [BridgeEvent.StateEvent(time: .init(secondsSince1970: Double(base) + 1), dailyTotalML: 1250, bottleLevelML: 450,
                                                          battery: 87, unsynced: 3, flags: ["time_valid", "calibrated", "stable"])])
    }

    @Test("a chunk whose record_count disagrees with its length (TV14) is rejected and not stored")
    func recordCountMismatch() throws {
        let folder = TemporaryFolder()
        let records = [record(1, base, 40), record(2, base + 60, 40)]
        var bad = chunk(0, of: 1, records)
        bad[4] = 3 // claims three records, carries two
        let lines = [testHeader, eventLine(Double(base) + 100, "connect"),
                     eventLine(Double(base) + 100.1, "write", "sync-control", SyncControl.start(count: 2, chunkSize: 17).encoded()),
                     eventLine(Double(base) + 100.2, "notify", "drink-data", bad),
                     eventLine(Double(base) + 104, "disconnect")]
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([folder.write("mismatch.aqcap", lines.joined(separator: "\n"))], history: history)
        #expect(outcome.rejectedLines == 1)
        #expect(outcome.errors.first?.line == 4)
        #expect(outcome.drinks.isEmpty)
        #expect(outcome.syncs.map(\.outcome) == [.rejected])
        #expect(try history.drinks.storedDrinks().isEmpty)
    }

    @Test("records are committed at their chunk, before the ACK: a crash after any line loses nothing")
    func crashAtEveryLine() throws {
        let records = (1...40).map { record(UInt32($0), base + UInt32($0) * 97, Int16(30 + $0)) }
        let lines = [testHeader] + syncLines(at: Double(base) + 5000, records)
        let folder = TemporaryFolder()
        let full = folder.write("full.aqcap", lines.joined(separator: "\n"))
        for cut in 1..<lines.count {
            let database = folder.path + "/crash-\(cut).sqlite"
            // The bridge ran up to line `cut` and died; what it stored is in the database.
            let partial = folder.write("partial-\(cut).aqcap", lines.prefix(cut).joined(separator: "\n"))
            let before = try runReplay([partial], history: try DrinkHistory(path: database, durability: .normal))
            let storedBefore = before.drinks.count
            // Every record in a chunk line at or before the cut is stored already.
            let chunksSeen = lines.prefix(cut).filter { $0.contains("drink-data") }.count
            #expect(storedBefore == min(40, chunksSeen * 17), "cut after line \(cut)")
            // The restarted bridge syncs again (the bottle resends everything unmarked).
            _ = try runReplay([full], history: try DrinkHistory(path: database, durability: .normal))
            let stored = try DrinkHistory(path: database).drinks.storedDrinks()
            #expect(stored.count == 40, "cut after line \(cut)")
            #expect(Set(stored.map(\.recordID)).count == 40)
        }
    }

    @Test("a read-back echo and a duplicate notification are not stored twice")
    func echoesIgnored() throws {
        let records = (1...5).map { record(UInt32($0), base + UInt32($0), 60) }
        let value = chunk(0, of: 1, records)
        let lines = [testHeader, eventLine(Double(base) + 10, "connect"),
                     eventLine(Double(base) + 10.1, "write", "sync-control", SyncControl.start(count: 5, chunkSize: 17).encoded()),
                     eventLine(Double(base) + 10.2, "notify", "drink-data", value),
                     eventLine(Double(base) + 10.21, "notify", "drink-data", value),
                     eventLine(Double(base) + 10.22, "read", "drink-data", value),
                     eventLine(Double(base) + 10.3, "write", "sync-control", SyncControl.ack.encoded()),
                     eventLine(Double(base) + 10.4, "read", "drink-data", value),
                     eventLine(Double(base) + 11, "disconnect")]
        let folder = TemporaryFolder()
        let outcome = try runReplay([folder.write("echo.aqcap", lines.joined(separator: "\n"))], history: try DrinkHistory(path: nil))
        #expect(outcome.drinks.count == 5)
        #expect(outcome.syncs == [BridgeEvent.SyncEvent(time: .init(secondsSince1970: Double(base) + 10.3), records: 5, chunks: 1, outcome: .complete)])
    }

    @Test("a read of Drink Data outside a sync is the stale last chunk (B5) and is ignored")
    func staleReadIgnored() throws {
        let value = chunk(0, of: 1, [record(9, base, 80)])
        let lines = [testHeader, eventLine(Double(base) + 10, "connect"),
                     eventLine(Double(base) + 10.2, "read", "drink-data", value),
                     eventLine(Double(base) + 11, "disconnect")]
        let folder = TemporaryFolder()
        let outcome = try runReplay([folder.write("stale.aqcap", lines.joined(separator: "\n"))], history: try DrinkHistory(path: nil))
        #expect(outcome.drinks.isEmpty)
        #expect(outcome.rejectedLines == 0)
    }

    @Test("a record with the deleted flag is a tombstone: reported deleted and never counted")
    func tombstone() throws {
        let live = record(7, base + 100, 45)
        let deleted = record(7, base + 100, 45, flags: 0x05)
        let lines = [testHeader] + syncLines(at: Double(base) + 200, [live]) + syncLines(at: Double(base) + 400, [deleted])
        let folder = TemporaryFolder()
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([folder.write("tomb.aqcap", lines.joined(separator: "\n"))], history: history)
        #expect(outcome.drinks.map(\.deleted) == [false, true])
        #expect(outcome.days == [BridgeEvent.DayEvent(date: "2026-11-21", totalML: 0, drinks: 0, goalML: 2500)])
    }

    @Test("day totals follow the local calendar across the DST change (Europe/Madrid, 2026-10-25)")
    func dstDayTotals() throws {
        // 2026-10-24T21:59:59Z = 23:59:59 CEST (still the 24th); 22:00:00Z = 00:00 CEST on the 25th.
        // The 25th has 25 hours: it ends at 2026-10-25T23:00:00Z (00:00 CET on the 26th).
        let records = [record(1, 1_792_879_199, 100), record(2, 1_792_879_200, 200),
                       record(3, 1_792_969_200 - 1, 300), record(4, 1_792_969_200, 400)]
        let lines = [testHeader] + syncLines(at: 1_792_970_000, records)
        let folder = TemporaryFolder()
        let outcome = try runReplay([folder.write("dst.aqcap", lines.joined(separator: "\n"))], history: try DrinkHistory(path: nil),
                                    settings: ["timezone=Europe/Madrid", "daily_goal_ml=2000"])
        #expect(outcome.days == [
            BridgeEvent.DayEvent(date: "2026-10-24", totalML: 100, drinks: 1, goalML: 2000),
            BridgeEvent.DayEvent(date: "2026-10-25", totalML: 500, drinks: 2, goalML: 2000),
            BridgeEvent.DayEvent(date: "2026-10-26", totalML: 400, drinks: 1, goalML: 2000),
        ])
        let utc = try runReplay([folder.path + "/dst.aqcap"], history: try DrinkHistory(path: nil), settings: ["timezone=UTC"])
        #expect(utc.days.map(\.date) == ["2026-10-24", "2026-10-25"])
    }

    @Test("START with no chunk before the disconnect is an empty sync; QUERY aborts")
    func emptyAndAborted() throws {
        let records = (1...20).map { record(UInt32($0), base + UInt32($0), 40) }
        let lines = [testHeader, eventLine(Double(base) + 10, "connect"),
                     eventLine(Double(base) + 10.1, "write", "sync-control", SyncControl.start(count: 1, chunkSize: 17).encoded()),
                     eventLine(Double(base) + 13.1, "write", "sync-control", SyncControl.start(count: 20, chunkSize: 17).encoded()),
                     eventLine(Double(base) + 13.2, "notify", "drink-data", chunk(0, of: 2, Array(records[0..<17]))),
                     eventLine(Double(base) + 13.3, "write", "sync-control", SyncControl.ack.encoded()),
                     eventLine(Double(base) + 13.4, "write", "sync-control", SyncControl.query.encoded()),
                     eventLine(Double(base) + 14, "disconnect")]
        let folder = TemporaryFolder()
        let outcome = try runReplay([folder.write("abort.aqcap", lines.joined(separator: "\n"))], history: try DrinkHistory(path: nil))
        #expect(outcome.syncs.map(\.outcome) == [.empty, .interrupted])
        #expect(outcome.drinks.count == 17)
    }

    @Test("a missing file is reported and the other files are still replayed")
    func missingFile() throws {
        let outcome = try runReplay(["/nonexistent/nothing.aqcap", shippedCapture("wedge.aqcap")], history: try DrinkHistory(path: nil))
        #expect(outcome.failedFiles == 1)
        #expect(outcome.drinks.count == 2)
    }

    @Test("ids restarting at 1 (CLEAR_HISTORY, B14) are new drinks, and the reset is remembered")
    func idReset() throws {
        let before = (1...3).map { record(UInt32($0), base + UInt32($0) * 60, 50) }
        let after = (1...2).map { record(UInt32($0), base + 3600 + UInt32($0) * 60, 70) }
        let lines = [testHeader] + syncLines(at: Double(base) + 1000, before) + syncLines(at: Double(base) + 5000, after)
            + syncLines(at: Double(base) + 6000, after)
        let folder = TemporaryFolder()
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([folder.write("reset.aqcap", lines.joined(separator: "\n"))], history: history)
        #expect(outcome.drinks.map(\.isNew) == [true, true, true, true, true, false, false])
        #expect(try history.drinks.storedDrinks().count == 5)
        let bottle = try #require(try history.bottles.bottle(id: "F4:12:FA:00:A3:F4"))
        #expect(abs((bottle.idResetAt?.secondsSince1970 ?? 0) - (Double(base) + 5000.13)) < 0.001)
        #expect(abs((bottle.lastSync?.secondsSince1970 ?? 0) - (Double(base) + 6000.14)) < 0.001)
        #expect(try history.drinks.highestRecordID(bottle: "F4:12:FA:00:A3:F4") == 2)
    }

    @Test("the last Current State is kept in the bottle's record")
    func bottleStateKept() throws {
        let history = try DrinkHistory(path: nil)
        _ = try runReplay([shippedCapture("wedge.aqcap")], history: history)
        let bottle = try #require(try history.bottles.bottle(id: "F4:12:FA:00:A3:F4"))
        #expect(bottle.name == "Aquavate-A3F2")
        #expect(bottle.state?.unsyncedCount == 1)
        #expect(bottle.state?.flagsRaw == 0x07)
    }
}
