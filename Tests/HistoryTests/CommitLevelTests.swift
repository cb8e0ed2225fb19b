// Which commits wait for the disk. A chunk, and anything a person was told or did, is committed
// at the history's level (FULL: synced before the call returns); what the bottle states again at
// every connection, and state the reminder rules derive again, without a sync of its own
// (NORMAL), so that a one-shot sync pays for the syncs it needs. Observed at each commit: the
// level the writer connection holds when GRDB says the transaction committed.

import AquavateProtocol
import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

@Suite struct CommitLevelTests {
    /// The writer's `synchronous` level at every commit, in order ("2" FULL, "1" NORMAL).
    final class CommitLevels: TransactionObserver, @unchecked Sendable {
        var levels: [String] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) {
            levels.append((try? String.fetchOne(db, sql: "PRAGMA synchronous")) ?? "?")
        }
        func databaseDidRollback(_ db: Database) {}
    }

    @Test func factsTheBottleRestatesAreNotSyncedButDeliveriesAre() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let history = try DrinkHistory(path: folder.appendingPathComponent("h.sqlite").path)
        let observer = CommitLevels()
        history.writer.add(transactionObserver: observer, extent: .databaseLifetime)

        try history.bottles.recordConnection(address: "F4:12:FA:00:A3:F4", name: "Aquavate-A3F2", at: WallInstant(secondsSince1970: 100))
        #expect(try history.bottles.move(from: "F4:12:FA:00:A3:F4", toSerial: "F4:12:FA:00:A3:F2"))
        try history.bottles.storeActivity(bottle: "F4:12:FA:00:A3:F2", motion: [
            MotionEvent(timestamp: 1_763_712_000, durationSec: 30, wakeReason: .motion, sleepTypeRaw: 0),
        ], backpack: [])
        try history.reminders.save(EngineStorageTests.saved, bottle: "", at: WallInstant(secondsSince1970: 200), durability: .normal)
        let told = DeliveredNotification(id: "hydration-1", kind: "hydration", time: WallInstant(secondsSince1970: 300), title: "Drink", body: "Time for water")
        try history.reminders.save(EngineStorageTests.saved, bottle: "", at: WallInstant(secondsSince1970: 300), delivered: [told], durability: .normal)
        try history.reminders.save(EngineStorageTests.saved, bottle: "", at: WallInstant(secondsSince1970: 400))
        try history.settings.set("goal_ml", "2500")

        // connection, move, activity, state alone: NORMAL; a delivery, a state without a level
        // asked, a person's setting: FULL.
        #expect(observer.levels == ["1", "1", "1", "1", "2", "2", "2"])
        // And all of it is there.
        let reopened = try DrinkHistory(path: folder.appendingPathComponent("h.sqlite").path)
        #expect(try reopened.reminders.delivered().map(\.id) == ["hydration-1"])
        #expect(try reopened.bottles.motionEvents().count == 1)
        #expect(try reopened.bottles.bottle(id: "F4:12:FA:00:A3:F2")?.address == "F4:12:FA:00:A3:F4")
    }
}
