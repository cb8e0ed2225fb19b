// Replay of the sample captures in captures/: what each one must store and report.

import AquavateProtocol
import Foundation
import History
@testable import Reports
import TestFixtures
import Testing
import Timekeeping

@Suite("Replay of the shipped captures")
struct ShippedCaptureTests {
    @Test("a day of syncs: every drink stored once, eight complete syncs, one local day")
    func dayOfSyncs() throws {
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([shippedCapture("day-of-syncs.aqcap")], history: history)
        #expect(outcome.rejectedLines == 0)
        #expect(outcome.drinks.count == 19)
        #expect(outcome.drinks.allSatisfy { $0.isNew && !$0.deleted && $0.bottle == "F4:12:FA:00:A3:F4" })
        #expect(outcome.syncs.count == 8)
        #expect(outcome.syncs.allSatisfy { $0.outcome == .complete })
        #expect(outcome.syncs.map(\.records).reduce(0, +) == 19)
        let total = outcome.drinks.map(\.amountML).reduce(0, +)
        #expect(outcome.days == [BridgeEvent.DayEvent(date: "2026-11-20", totalML: total, drinks: 19, goalML: 2500)])
        #expect(try history.drinks.storedDrinks().count == 19)
        // Record ids are consecutive and arrive oldest first.
        #expect(outcome.drinks.map(\.recordID) == Array(1...19))
    }

    @Test("replaying the same capture twice into one database stores nothing twice")
    func idempotentReplay() throws {
        let folder = TemporaryFolder()
        let path = folder.path + "/history.sqlite"
        let first = try runReplay([shippedCapture("day-of-syncs.aqcap")], history: try DrinkHistory(path: path, durability: .normal))
        let second = try runReplay([shippedCapture("day-of-syncs.aqcap")], history: try DrinkHistory(path: path, durability: .normal))
        #expect(first.drinks.filter(\.isNew).count == 19)
        #expect(second.drinks.count == 19)
        #expect(second.drinks.allSatisfy { !$0.isNew })
        #expect(second.days == first.days)
        #expect(try DrinkHistory(path: path).drinks.storedDrinks().count == 19)
    }

    @Test("interrupted sync (TV31): the 30 records stored at once, the resend adds nothing")
    func interruptedSync() throws {
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([shippedCapture("interrupted-sync.aqcap")], history: history)
        #expect(outcome.rejectedLines == 0)
        #expect(outcome.syncs.map(\.outcome) == [.interrupted, .complete])
        #expect(outcome.syncs.map(\.records) == [30, 30])
        #expect(outcome.syncs.map(\.chunks) == [2, 2])
        #expect(outcome.drinks.prefix(30).allSatisfy { $0.isNew })
        #expect(outcome.drinks.suffix(30).allSatisfy { !$0.isNew })
        #expect(try history.drinks.storedDrinks().count == 30)
    }

    @Test("a 600-record backlog arrives in 36 chunks of at most 17")
    func backlog() throws {
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([shippedCapture("backlog-600.aqcap")], history: history)
        #expect(outcome.rejectedLines == 0)
        #expect(outcome.syncs == [BridgeEvent.SyncEvent(time: outcome.syncs.first?.time ?? WallInstant(secondsSince1970: 0), records: 600, chunks: 36, outcome: .complete)])
        #expect(try history.drinks.storedDrinks().count == 600)
        #expect(outcome.days.count == 20)
        #expect(outcome.days.allSatisfy { $0.drinks == 30 })
    }

    @Test("a truncated chunk is rejected with its line, recovered by the read-back, stored once")
    func truncatedReadBack() throws {
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([shippedCapture("truncated-readback.aqcap")], history: history)
        #expect(outcome.rejectedLines == 1)
        #expect(outcome.errors.count == 1)
        #expect(outcome.errors.first?.line == 5)
        #expect(outcome.errors.first?.file == shippedCapture("truncated-readback.aqcap"))
        #expect(outcome.errors.first?.message.contains("drink-data") == true)
        #expect(outcome.syncs.map(\.outcome) == [.complete])
        #expect(outcome.syncs.first?.records == 25)
        #expect(outcome.drinks.count == 25)
        #expect(try history.drinks.storedDrinks().count == 25)
    }

    @Test("the deleted-unsynced wedge (TV32): a complete sync, then an empty one")
    func wedge() throws {
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([shippedCapture("wedge.aqcap")], history: history)
        #expect(outcome.rejectedLines == 0)
        #expect(outcome.syncs.map(\.outcome) == [.complete, .empty])
        #expect(outcome.drinks.map(\.recordID) == [6, 7])
        #expect(outcome.states.last?.unsynced == 1)
    }

    @Test("a sync through the real bluetoothd 5.66 (btmon, imported): the link dropped after chunk 2, then all 120 records again, each stored once")
    func realBlueZDropResume() throws {
        let history = try DrinkHistory(path: nil)
        let outcome = try runReplay([shippedCapture("real-bluez-drop-resume.aqcap")], history: history)
        #expect(outcome.rejectedLines == 0)
        #expect(outcome.syncs.map(\.outcome) == [.interrupted, .complete])
        #expect(outcome.syncs.map(\.records) == [51, 120])
        #expect(outcome.syncs.map(\.chunks) == [3, 8])
        #expect(outcome.drinks.filter(\.isNew).count == 120)
        #expect(outcome.drinks.allSatisfy { $0.bottle == "F4:12:FA:00:02:F4" })
        #expect(outcome.states.last?.unsynced == 0)
        #expect(try history.drinks.storedDrinks().count == 120)
    }

    @Test("all the captures together form one timeline and one history")
    func allTogether() throws {
        let history = try DrinkHistory(path: nil)
        let names = ["backlog-600.aqcap", "interrupted-sync.aqcap", "day-of-syncs.aqcap", "truncated-readback.aqcap", "wedge.aqcap"]
        let outcome = try runReplay(names.map(shippedCapture), history: history)
        #expect(outcome.rejectedLines == 1)
        // Every capture comes from the same bottle address with ids restarting per capture, but
        // the timestamps differ, so (bottle, id, timestamp) keeps them apart.
        #expect(try history.drinks.storedDrinks().count == 600 + 30 + 19 + 25 + 2)
    }
}
