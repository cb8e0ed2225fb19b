// Persisted settings, bottle state, and the highest record id for B14.

import Foundation
@testable import History
import Testing
import Timekeeping

@Suite struct SettingsTests {
    @Test func settingsRoundTrip() throws {
        let history = try memoryHistory()
        #expect(try history.settings.value("timezone") == nil)
        try history.settings.set("timezone", "Europe/Madrid")
        try history.settings.set("reminders.daily_limit", "false")
        try history.settings.set("messages.pool", "")
        #expect(try history.settings.value("timezone") == "Europe/Madrid")
        #expect(try history.settings.value("messages.pool") == "")

        try history.settings.set("timezone", "Pacific/Auckland")
        #expect(try history.settings.value("timezone") == "Pacific/Auckland")
        #expect(try history.settings.all() == ["timezone": "Pacific/Auckland", "reminders.daily_limit": "false",
                                              "messages.pool": ""])

        try history.settings.set("reminders.daily_limit", nil)
        try history.settings.set("never.set", nil)
        #expect(try history.settings.value("reminders.daily_limit") == nil)
        #expect(try history.settings.all() == ["timezone": "Pacific/Auckland", "messages.pool": ""])
    }

    @Test func anEmptyKeyIsRefused() throws {
        let history = try memoryHistory()
        #expect(throws: HistoryError.self) { try history.settings.set("", "x") }
        #expect(try history.settings.all().isEmpty)
    }
}

@Suite struct BottleStateTests {
    let state = CurrentStateSnapshot(receivedAt: WallInstant(secondsSince1970: 1_763_712_000.5), bottleTime: 1_763_712_000, dailyTotalML: 1250,
                                     bottleLevelML: 420, batteryPercent: 87, unsyncedCount: 3, flagsRaw: 0x07)

    @Test func bottleRecordRoundTripsWithAndWithoutState() throws {
        let history = try memoryHistory()
        #expect(try history.bottles.bottle(id: "F4:12:FA:00:A3:F4") == nil)
        let bottle = BottleRecord(id: "F4:12:FA:00:A3:F4", name: "Aquavate-A3F2", serial: "AQ-0001",
                                  address: "F4:12:FA:00:A3:F4", goalML: 2000, lastSeen: WallInstant(secondsSince1970: 10), lastSync: WallInstant(secondsSince1970: 20),
                                  idResetAt: nil, state: state)
        try history.bottles.save(bottle)
        #expect(try history.bottles.bottle(id: bottle.id) == bottle)

        var stateless = bottle
        stateless.state = nil
        stateless.name = nil
        try history.bottles.save(stateless)
        #expect(try history.bottles.bottle(id: bottle.id) == stateless)
    }

    @Test func updateBottleChangesOnlyWhatItTouches() throws {
        let history = try memoryHistory()
        let created = try history.bottles.update(id: "b") { $0.lastSeen = WallInstant(secondsSince1970: 100) }
        #expect(created == BottleRecord(id: "b", lastSeen: WallInstant(secondsSince1970: 100)))

        try history.bottles.update(id: "b") { $0.state = state; $0.lastSync = WallInstant(secondsSince1970: 200) }
        try history.bottles.update(id: "b") { $0.lastSeen = WallInstant(secondsSince1970: 300); $0.id = "ignored" }
        #expect(try history.bottles.bottle(id: "b") == BottleRecord(id: "b", lastSeen: WallInstant(secondsSince1970: 300), lastSync: WallInstant(secondsSince1970: 200), state: state))
        #expect(try history.bottles.bottle(id: "ignored") == nil)
    }

    /// `bottles.update` writes through its own prepared upsert (BottleRecord.save): the row it
    /// leaves is, column by column, the one GRDB's `upsert` (`bottles.save`) leaves.
    @Test func theSavedRowIsTheOneGRDBsUpsertStores() throws {
        let history = try memoryHistory()
        var full = BottleRecord(id: "AQ-0001", name: "Aquavate-A3F2", serial: "AQ-0001", address: "F4:12:FA:00:A3:F4",
                                goalML: 2000, lastSeen: WallInstant(secondsSince1970: 10.25), lastSync: WallInstant(secondsSince1970: 20), idResetAt: WallInstant(secondsSince1970: 5), state: state)
        full.firmware = "1.2.3"
        full.model = "A1"
        full.shakeToEmpty = true
        full.calibrated = false
        full.scale = 412.5
        full.clockOffset = -3
        full.battery = 86
        func row(_ id: String) throws -> [String] {
            try history.read("reading the raw row") { try BottleRecord.storedColumns(id: id, in: $0) }
        }
        try history.bottles.save(full)
        let byGRDB = try row("AQ-0001")
        try history.bottles.forget(id: "AQ-0001", at: WallInstant(secondsSince1970: 1))
        try history.bottles.update(id: "AQ-0001") { $0 = full }
        #expect(try row("AQ-0001") == byGRDB)
        #expect(byGRDB.count == BottleRecord.columns.count)
        #expect(try history.bottles.bottle(id: "AQ-0001") == full)
        // Saved over an existing row: every column replaced, nil ones too.
        var emptied = BottleRecord(id: "AQ-0001", lastSeen: WallInstant(secondsSince1970: 30))
        emptied.battery = nil
        try history.bottles.update(id: "AQ-0001") { $0 = emptied }
        #expect(try history.bottles.bottle(id: "AQ-0001") == emptied)
        try history.bottles.save(full)
        try history.bottles.save(emptied)
        let emptiedByGRDB = try row("AQ-0001")
        try history.bottles.update(id: "AQ-0001") { $0 = full }
        try history.bottles.update(id: "AQ-0001") { $0 = emptied }
        #expect(try row("AQ-0001") == emptiedByGRDB)
    }

    @Test func bottlesAreListedMostRecentlySeenFirst() throws {
        let history = try memoryHistory()
        try history.bottles.save(BottleRecord(id: "old", lastSeen: WallInstant(secondsSince1970: 10)))
        try history.bottles.save(BottleRecord(id: "never"))
        try history.bottles.save(BottleRecord(id: "new", lastSeen: WallInstant(secondsSince1970: 20)))
        #expect(try history.bottles.all().map(\.id) == ["new", "old", "never"])
    }

    @Test func highestRecordIDFollowsTheCurrentIDSequence() throws {
        let history = try memoryHistory()
        #expect(try history.drinks.highestRecordID(bottle: "b") == nil)
        _ = try history.drinks.store((1...40).map { drink(UInt32($0), at: 1000 + UInt32($0)) }, bottle: "b", at: WallInstant(secondsSince1970: 100))
        _ = try history.drinks.store([drink(7, at: 50)], bottle: "other", at: WallInstant(secondsSince1970: 100))
        #expect(try history.drinks.highestRecordID(bottle: "b") == 40)
        #expect(try history.drinks.highestRecordID(bottle: "other") == 7)

        // After CLEAR_HISTORY the bottle starts again at 1: lower than 40, so a reset.
        try history.bottles.recordIDReset(bottle: "b", at: WallInstant(secondsSince1970: 200))
        #expect(try history.drinks.highestRecordID(bottle: "b") == nil)
        _ = try history.drinks.store([drink(1, at: 9000), drink(2, at: 9001)], bottle: "b", at: WallInstant(secondsSince1970: 200))
        #expect(try history.drinks.highestRecordID(bottle: "b") == 2)
        #expect(try history.bottles.bottle(id: "b")?.idResetAt == WallInstant(secondsSince1970: 200))
        #expect(try history.drinks.drinkCount(bottle: "b") == 42)
    }
}
