// The reminder engine's state document and the delivered log.

import Timekeeping
import AquavateProtocol
import Foundation
import History
import Testing

@Suite("Engine state and delivered log")
struct EngineStorageTests {
    @Test("the state document survives a reopen; a save replaces it")
    func stateRoundTrip() throws {
        let folder = NSTemporaryDirectory() + "engine-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/h.sqlite"
        do {
            let history = try DrinkHistory(path: path)
            #expect(try history.engineState(named: "reminders") == nil)
            try history.saveEngineState(named: "reminders", json: #"{"a":1}"#, at: WallInstant(secondsSince1970: 10))
            try history.saveEngineState(named: "reminders", json: #"{"a":2}"#, at: WallInstant(secondsSince1970: 20),
                                        delivered: [DeliveredNotification(id: "hydration-1", kind: "reminder", time: WallInstant(secondsSince1970: 20), title: "T", body: "B")])
        }
        let reopened = try DrinkHistory(path: path)
        #expect(try reopened.engineState(named: "reminders") == #"{"a":2}"#)
        #expect(try reopened.deliveredNotifications() == [DeliveredNotification(id: "hydration-1", kind: "reminder", time: WallInstant(secondsSince1970: 20), title: "T", body: "B")])
        #expect(try reopened.deliveredNotifications(since: WallInstant(secondsSince1970: 21)).isEmpty)
    }
}

@Suite("Intake totals over any window")
struct IntakeTotalTests {
    @Test("sums live intake in [from, to) as known at an instant")
    func window() throws {
        let history = try DrinkHistory(path: nil)
        let base: UInt32 = 1_795_248_000
        _ = try history.store([
            DrinkRecord(recordID: 1, timestamp: base, amountML: 100, bottleLevelML: 500, typeRaw: 1, flagsRaw: 0),
            DrinkRecord(recordID: 2, timestamp: base + 60, amountML: 50, bottleLevelML: 450, typeRaw: 0, flagsRaw: 0),
            DrinkRecord(recordID: 3, timestamp: base + 120, amountML: -200, bottleLevelML: 650, typeRaw: 0, flagsRaw: 0),
        ], bottle: "B", at: WallInstant(secondsSince1970: Double(base) + 200))
        _ = try history.store([DrinkRecord(recordID: 4, timestamp: base + 180, amountML: 70, bottleLevelML: 380, typeRaw: 0, flagsRaw: 0)],
                              bottle: "B", at: WallInstant(secondsSince1970: Double(base) + 400))
        _ = try history.markDeleted(bottle: "B", recordID: 2, timestamp: base + 60, at: WallInstant(secondsSince1970: Double(base) + 500))
        #expect(try history.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 1000)) == 170)
        #expect(try history.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 60)) == 100)
        #expect(try history.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 1000), knownAt: WallInstant(secondsSince1970: Double(base) + 300)) == 150)
        #expect(try history.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 1000), knownAt: WallInstant(secondsSince1970: Double(base) + 450)) == 220)
        #expect(try history.intakeTotal(from: WallInstant(secondsSince1970: Double(base) + 1), to: WallInstant(secondsSince1970: Double(base) + 1000)) == 70)
    }
}
