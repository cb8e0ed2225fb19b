// Drinks added by hand: stored as manual, counted, deletable without a bottle command, and kept
// out of the bottle's record ids and their resets.

import AquavateProtocol
import Foundation
import GRDB
@testable import History
import Testing
import Timekeeping

@Suite struct ManualDrinkTests {
    static let bottle = "AQ-0042"
    static let now = WallInstant(secondsSince1970: Double(utc(2026, 11, 20, 18)))

    /// A history with the bottle adopted and two of its drinks (ids 1 and 2) that morning.
    static func history() throws -> DrinkHistory {
        let history = try memoryHistory()
        try history.recordBottle(BottleRecord(id: bottle, lastSeen: now))
        _ = try history.storeChunk([drink(1, at: utc(2026, 11, 20, 8)), drink(2, at: utc(2026, 11, 20, 9))],
                                   bottle: bottle, at: now)
        return history
    }

    @Test func aManualDrinkIsStoredAsManualAndCounts() throws {
        let history = try Self.history()
        let control = BottleControl(history: history)
        let first = try control.addDrink(amountML: 250, at: WallInstant(secondsSince1970: Double(utc(2026, 11, 20, 12, 30))),
                                         bottle: nil, now: Self.now)
        let second = try control.addDrink(amountML: 330, at: Self.now, bottle: Self.bottle, now: Self.now)
        #expect(first.manual && second.manual)
        #expect(first.recordID == Drink.firstManualRecordID && second.recordID == Drink.firstManualRecordID + 1)
        #expect(first.timestamp == utc(2026, 11, 20, 12, 30))
        // Read back by both ways the history reads drinks, the flag kept; the bottle's are not manual.
        #expect(try history.storedDrinks().map(\.drink.manual) == [false, false, true, true])
        #expect(try history.drinksNewestFirst(from: 0, before: UInt32.max).map(\.drink.manual) == [true, true, false, false])
        // Counted in the day: 100 + 100 + 250 + 330.
        #expect(try history.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [780])
    }

    @Test func theBottlesIdsAndResetsNeverSeeAManualDrink() throws {
        let history = try Self.history()
        _ = try BottleControl(history: history).addDrink(amountML: 250, at: Self.now, bottle: nil, now: Self.now)
        #expect(try history.highestRecordID(bottle: Self.bottle) == 2)
        // The bottle's next record is no restart of its ids.
        let next = try history.storeChunk([drink(3, at: utc(2026, 11, 20, 19))], bottle: Self.bottle,
                                          at: Self.now + .seconds(3600))
        #expect(!next.idsRestarted)
        #expect(try history.bottleState(id: Self.bottle)?.idResetAt == nil)
        // The household is told of it as a drink added by hand.
        let outbox = try history.localDrinksChanged(since: .epoch).map(\.drink.drink)
        #expect(outbox.map(\.recordID) == [1, 2, Drink.firstManualRecordID, 3])
        #expect(outbox.map(\.manual) == [false, false, true, false])
    }

    @Test func aManualDrinkFromAnotherMemberStaysManualAndOutOfTheBottlesIds() throws {
        let history = try Self.history()
        let record = DrinkRecord(recordID: Drink.firstManualRecordID + 4, timestamp: utc(2026, 11, 20, 10), amountML: 300,
                                 bottleLevelML: 0, typeRaw: 0, flagsRaw: 0)
        let results = try history.storeReplicated([record], bottle: Self.bottle, origin: "office", manual: true, at: Self.now)
        #expect(results.map(\.outcome) == [.inserted])
        #expect(try history.storedDrinks().map(\.drink.manual) == [false, false, true])
        #expect(try history.highestRecordID(bottle: Self.bottle) == 2)
        // Not published again, and this bridge's next one takes the next id.
        #expect(try history.localDrinksChanged(since: .epoch).map(\.drink.recordID) == [1, 2])
        let next = try BottleControl(history: history).addDrink(amountML: 100, at: Self.now, bottle: nil, now: Self.now)
        #expect(next.recordID == Drink.firstManualRecordID + 5)
    }

    @Test func deletingAManualDrinkQueuesNothingForTheBottle() throws {
        let history = try Self.history()
        let control = BottleControl(history: history)
        let added = try control.addDrink(amountML: 250, at: Self.now, bottle: nil, now: Self.now)
        let (command, drink) = try control.queue(.delete(recordID: Int(added.recordID)), bottle: nil, at: Self.now)
        #expect(command == nil)
        #expect(drink?.deleted == true && drink?.manual == true)
        #expect(try history.commands(bottle: Self.bottle).isEmpty)
        #expect(try history.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [200])
        // A bottle's drink still queues its delete.
        let (bottleCommand, _) = try control.queue(.delete(recordID: 1), bottle: nil, at: Self.now)
        #expect(bottleCommand?.command == "delete")
    }

    @Test(arguments: [(0, 0.0), (5001, 0.0), (-5, 0.0), (250, 1.0), (250, -1e12)])
    func badInputIsRefusedAndStoresNothing(amount: Int, offset: Double) throws {
        let history = try Self.history()
        let time = WallInstant(secondsSince1970: Self.now.secondsSince1970 + offset)
        #expect(throws: BottleRequestRefused.self) {
            try BottleControl(history: history).addDrink(amountML: amount, at: time, bottle: nil, now: Self.now)
        }
        #expect(try history.drinkCount() == 2)
    }

    @Test func anUnknownBottleIsRefused() throws {
        let history = try Self.history()
        #expect(throws: BottleRequestRefused.self) {
            try BottleControl(history: history).addDrink(amountML: 250, at: Self.now, bottle: "AQ-9999", now: Self.now)
        }
        #expect(try history.drinkCount() == 2)
    }

    /// A history file from before drinks could be added by hand: its drinks read as the bottle's.
    @Test func anOlderHistoryIsMigratedWithItsDrinksNotManual() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        do {
            let queue = try DatabaseQueue(path: path)
            try HistoryMigrations.migrator.migrate(queue, upTo: "v7-quarantine")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO drink (bottle, record_id, timestamp, amount_ml, bottle_level_ml, type, type_raw, flags, stored_at)
                    VALUES ('AQ-0042', 7, 1000, 120, 400, 'gulp', 0, 0, 1000)
                    """)
            }
        }
        let history = try DrinkHistory(path: path)
        #expect(try history.appliedMigrations().last == "v8-manual-drinks")
        #expect(try history.storedDrinks().map(\.drink.manual) == [false])
        #expect(try history.storedDrinks().map(\.recordID) == [7])
    }
}
