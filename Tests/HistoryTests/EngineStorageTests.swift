// The reminder engine's state document and the delivered log.

import Timekeeping
import AquavateProtocol
import Foundation
import History
import Testing

@Suite("Engine state and delivered log")
struct EngineStorageTests {
    /// A state with something in every table, for bottle rows to be keyed on.
    static let saved = SavedReminders(
        counters: ReminderCounters(reminderDay: LocalDay("2026-11-28"), remindersSentToday: 2, lastNotifiedUrgency: "overdue",
                                   remindedSinceOnTrack: true, lastUrgency: "attention", goalReachedDay: nil, lastLowBattery: false,
                                   lowBatteryAlertDay: nil, reminderSequence: 5, backOnTrackSequence: 1, rulesDay: LocalDay("2026-11-28"),
                                   ritualStreak: 3),
        pending: [SavedPendingNotification(id: "r", fireTime: WallInstant(secondsSince1970: 30), kind: "ritual", title: "T", body: "B", thread: "R")],
        actions: [SavedNotificationAction(notificationId: "r", actionId: "did-this", label: "Did This")],
        intakes: [SavedIntake(type: "zinc", time: WallInstant(secondsSince1970: 5))],
        rituals: [SavedRitualCompletion(day: LocalDay("2026-11-27")!, time: WallInstant(secondsSince1970: 7))])

    @Test("the state survives a reopen, field by field; a save replaces it; another bottle's is its own")
    func stateRoundTrip() throws {
        let folder = NSTemporaryDirectory() + "engine-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/h.sqlite"
        var second = Self.saved
        second.pending = []
        second.actions = []
        second.counters.remindersSentToday = 3
        do {
            let history = try DrinkHistory(path: path)
            #expect(try history.reminders.saved(bottle: "B") == nil)
            try history.reminders.save(Self.saved, bottle: "B", at: WallInstant(secondsSince1970: 10))
            try history.reminders.save(Self.saved, bottle: "C", at: WallInstant(secondsSince1970: 10))
            try history.reminders.save(second, bottle: "B", at: WallInstant(secondsSince1970: 20),
                                      delivered: [DeliveredNotification(id: "hydration-1", kind: "reminder", time: WallInstant(secondsSince1970: 20), title: "T", body: "B")])
        }
        let reopened = try DrinkHistory(path: path)
        let b = try #require(try reopened.reminders.saved(bottle: "B"))
        #expect(b.counters.remindersSentToday == 3 && b.pending.isEmpty && b.actions.isEmpty && b.intakes.map(\.type) == ["zinc"])
        let c = try #require(try reopened.reminders.saved(bottle: "C"))
        #expect(c.counters.bottle == "C" && c.counters.remindersSentToday == 2 && c.counters.rulesDay == LocalDay("2026-11-28") && c.pending.map(\.id) == ["r"] && c.actions.map(\.actionId) == ["did-this"]
                && c.rituals.map(\.day) == [LocalDay("2026-11-27")!] && c.pending.first?.thread == "R")
        #expect(try reopened.reminders.delivered() == [DeliveredNotification(id: "hydration-1", kind: "reminder", time: WallInstant(secondsSince1970: 20), title: "T", body: "B")])
        #expect(try reopened.reminders.delivered(since: WallInstant(secondsSince1970: 21)).isEmpty)
    }

    @Test("a bottle moved to its serial takes its reminders, unless the serial has its own; a save replacing an older key removes it")
    func movedAndReplaced() throws {
        let history = try DrinkHistory(path: nil)
        try history.bottles.recordConnection(address: "F4:12:FA:00:A3:F4", name: "Aquavate-A3F2", at: WallInstant(secondsSince1970: 100))
        try history.reminders.save(Self.saved, bottle: "F4:12:FA:00:A3:F4", at: WallInstant(secondsSince1970: 100))
        #expect(try history.bottles.move(from: "F4:12:FA:00:A3:F4", toSerial: "F4:12:FA:00:A3:F2"))
        #expect(try history.reminders.saved(bottle: "F4:12:FA:00:A3:F4") == nil)
        #expect(try history.reminders.saved(bottle: "F4:12:FA:00:A3:F2")?.pending.map(\.id) == ["r"])
        try history.reminders.save(Self.saved, bottle: SavedReminders.everyBottle, at: WallInstant(secondsSince1970: 200))
        try history.reminders.save(Self.saved, bottle: "AQ9", at: WallInstant(secondsSince1970: 200), replacing: SavedReminders.everyBottle)
        #expect(try history.reminders.saved(bottle: SavedReminders.everyBottle) == nil)
        #expect(try history.reminders.saved(bottle: "AQ9") != nil)
    }
}

@Suite("Intake totals over any window")
struct IntakeTotalTests {
    @Test("sums live intake in [from, to) as known at an instant")
    func window() throws {
        let history = try DrinkHistory(path: nil)
        let base: UInt32 = 1_795_248_000
        _ = try history.drinks.store([
            DrinkRecord(recordID: 1, timestamp: base, amountML: 100, bottleLevelML: 500, typeRaw: 1, flagsRaw: 0),
            DrinkRecord(recordID: 2, timestamp: base + 60, amountML: 50, bottleLevelML: 450, typeRaw: 0, flagsRaw: 0),
            DrinkRecord(recordID: 3, timestamp: base + 120, amountML: -200, bottleLevelML: 650, typeRaw: 0, flagsRaw: 0),
        ], bottle: "B", at: WallInstant(secondsSince1970: Double(base) + 200))
        _ = try history.drinks.store([DrinkRecord(recordID: 4, timestamp: base + 180, amountML: 70, bottleLevelML: 380, typeRaw: 0, flagsRaw: 0)],
                              bottle: "B", at: WallInstant(secondsSince1970: Double(base) + 400))
        _ = try history.drinks.markDeleted(bottle: "B", recordID: 2, timestamp: base + 60, at: WallInstant(secondsSince1970: Double(base) + 500))
        #expect(try history.drinks.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 1000)) == 170)
        #expect(try history.drinks.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 60)) == 100)
        #expect(try history.drinks.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 1000), knownAt: WallInstant(secondsSince1970: Double(base) + 300)) == 150)
        #expect(try history.drinks.intakeTotal(from: WallInstant(secondsSince1970: Double(base)), to: WallInstant(secondsSince1970: Double(base) + 1000), knownAt: WallInstant(secondsSince1970: Double(base) + 450)) == 220)
        #expect(try history.drinks.intakeTotal(from: WallInstant(secondsSince1970: Double(base) + 1), to: WallInstant(secondsSince1970: Double(base) + 1000)) == 70)
    }
}
