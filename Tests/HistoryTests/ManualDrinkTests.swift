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
        try history.bottles.save(BottleRecord(id: bottle, lastSeen: now))
        _ = try history.drinks.storeChunk([drink(1, at: utc(2026, 11, 20, 8)), drink(2, at: utc(2026, 11, 20, 9))],
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
        // The first id of a space of this history's own, then the next one.
        #expect(ManualIDSpace.drawable.contains(ManualIDSpace.space(of: first.recordID)))
        #expect(first.recordID == ManualIDSpace.ids(of: ManualIDSpace.space(of: first.recordID)).lowerBound)
        #expect(second.recordID == first.recordID + 1)
        #expect(first.timestamp == utc(2026, 11, 20, 12, 30))
        // Read back by both ways the history reads drinks, the flag kept; the bottle's are not manual.
        #expect(try history.drinks.storedDrinks().map(\.drink.manual) == [false, false, true, true])
        #expect(try history.drinks.drinksNewestFirst(from: 0, before: UInt32.max).map(\.drink.manual) == [true, true, false, false])
        // Counted in the day: 100 + 100 + 250 + 330.
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [780])
    }

    @Test func theBottlesIdsAndResetsNeverSeeAManualDrink() throws {
        let history = try Self.history()
        let added = try BottleControl(history: history).addDrink(amountML: 250, at: Self.now, bottle: nil, now: Self.now)
        #expect(try history.drinks.highestRecordID(bottle: Self.bottle) == 2)
        // The bottle's next record is no restart of its ids.
        let next = try history.drinks.storeChunk([drink(3, at: utc(2026, 11, 20, 19))], bottle: Self.bottle,
                                          at: Self.now + .seconds(3600))
        #expect(!next.idsRestarted)
        #expect(try history.bottles.bottle(id: Self.bottle)?.idResetAt == nil)
        // The household is told of it as a drink added by hand.
        let outbox = try history.drinks.localDrinksChanged(since: .epoch).map(\.drink.drink)
        #expect(outbox.map(\.recordID) == [1, 2, added.recordID, 3])
        #expect(outbox.map(\.manual) == [false, false, true, false])
    }

    @Test func aManualDrinkFromAnotherMemberStaysManualAndOutOfTheBottlesIds() throws {
        let history = try Self.history()
        let record = DrinkRecord(recordID: Drink.firstManualRecordID + 4, timestamp: utc(2026, 11, 20, 10), amountML: 300,
                                 bottleLevelML: 0, typeRaw: 0, flagsRaw: 0)
        let results = try history.drinks.storeReplicated([record], bottle: Self.bottle, origin: "office", manual: true, at: Self.now)
        #expect(results.map(\.outcome) == [.inserted])
        #expect(try history.drinks.storedDrinks().map(\.drink.manual) == [false, false, true])
        #expect(try history.drinks.highestRecordID(bottle: Self.bottle) == 2)
        // Not published again, and this bridge's next one is in a space of its own, not next to it.
        #expect(try history.drinks.localDrinksChanged(since: .epoch).map(\.drink.recordID) == [1, 2])
        let next = try BottleControl(history: history).addDrink(amountML: 100, at: Self.now, bottle: nil, now: Self.now)
        #expect(ManualIDSpace.space(of: next.recordID) != 0)
    }

    @Test func deletingAManualDrinkQueuesNothingForTheBottle() throws {
        let history = try Self.history()
        let control = BottleControl(history: history)
        let added = try control.addDrink(amountML: 250, at: Self.now, bottle: nil, now: Self.now)
        let (command, drink) = try control.queue(.delete(recordID: Int(added.recordID)), bottle: nil, at: Self.now)
        #expect(command == nil)
        #expect(drink?.deleted == true && drink?.manual == true)
        #expect(try history.commands.all(bottle: Self.bottle).isEmpty)
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).map(\.totalML) == [200])
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
        #expect(try history.drinks.drinkCount() == 2)
    }

    @Test func anUnknownBottleIsRefused() throws {
        let history = try Self.history()
        #expect(throws: BottleRequestRefused.self) {
            try BottleControl(history: history).addDrink(amountML: 250, at: Self.now, bottle: "AQ-9999", now: Self.now)
        }
        #expect(try history.drinks.drinkCount() == 2)
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
        #expect(try history.appliedMigrations() == DrinkHistory.knownMigrations)
        #expect(try history.drinks.storedDrinks().map(\.drink.manual) == [false])
        #expect(try history.drinks.storedDrinks().map(\.recordID) == [7])
    }

    // MARK: each member's own space of ids

    /// Draws `value` every time: which space a history takes is the test's choice.
    struct FixedDraw: RandomNumberGenerator {
        var value: UInt64
        mutating func next() -> UInt64 { value }
    }

    static func add(_ history: DrinkHistory, draw: UInt64, at time: UInt32, ml: Int = 250) throws -> StoredDrink {
        var generator = FixedDraw(value: draw)
        return try history.drinks.storeManualDrink(bottle: bottle, amountML: ml, timestamp: time,
                                            at: WallInstant(secondsSince1970: Double(time)), using: &generator)
    }

    /// The kitchen and the office each add a drink for the same bottle at the same second, before
    /// either hears of the other's: different ids (the old counter gave both 2^31, and the second
    /// to arrive was taken for the first), both kept in both, and a delete by id finds one.
    @Test func twoMembersAddingAtOnceGiveDifferentIdsAndEachDeleteFindsItsOwn() throws {
        let kitchen = try Self.history(), office = try Self.history()
        let time = utc(2026, 11, 20, 12)
        let mine = try Self.add(kitchen, draw: 7, at: time), theirs = try Self.add(office, draw: 1234, at: time)
        #expect(mine.recordID != theirs.recordID)
        for (history, other, origin) in [(kitchen, theirs, "office"), (office, mine, "kitchen")] {
            let results = try history.drinks.storeReplicated([other.drink.record], bottle: Self.bottle, origin: origin, manual: true,
                                                      at: Self.now)
            #expect(results.map(\.outcome) == [.inserted])
        }
        for history in [kitchen, office] {
            #expect(try history.drinks.storedDrinks().filter(\.drink.manual).map(\.recordID).sorted()
                    == [mine.recordID, theirs.recordID].sorted())
        }
        // The kitchen deletes the office's by its id: that one, not its own.
        let (_, deleted) = try BottleControl(history: kitchen).queue(.delete(recordID: Int(theirs.recordID)), bottle: nil, at: Self.now)
        #expect(deleted?.recordID == theirs.recordID && deleted?.deleted == true)
        #expect(try kitchen.drinks.currentDrink(bottle: Self.bottle, recordID: mine.recordID)?.deleted == false)
    }

    /// Two members drew the same space (1 in 32,767): once one hears of the other's drink in it,
    /// its next drink is in another space; a space whose ids are used up is left the same way.
    @Test func aSpaceSharedWithAnotherMemberOrFullIsLeft() throws {
        let history = try Self.history()
        let first = try Self.add(history, draw: 0, at: utc(2026, 11, 20, 10))
        #expect(first.recordID == ManualIDSpace.ids(of: 1).lowerBound, "the first free space, drawn 0")
        #expect(try Self.add(history, draw: 0, at: utc(2026, 11, 20, 11)).recordID == first.recordID + 1, "kept")
        // The office's drink in the same space arrives.
        let clash = DrinkRecord(recordID: first.recordID + 5, timestamp: utc(2026, 11, 20, 12), amountML: 300,
                                bottleLevelML: 0, typeRaw: 0, flagsRaw: 0)
        _ = try history.drinks.storeReplicated([clash], bottle: Self.bottle, origin: "office", manual: true, at: Self.now)
        let moved = try Self.add(history, draw: 0, at: utc(2026, 11, 20, 13))
        #expect(moved.recordID == ManualIDSpace.ids(of: 2).lowerBound, "the first space no drink uses")
        #expect(try Self.add(history, draw: 0, at: utc(2026, 11, 20, 14)).recordID == moved.recordID + 1)
        // Space 2 used up: the next drink opens space 3.
        let last = (recordID: ManualIDSpace.ids(of: 2).upperBound, timestamp: UInt32(utc(2026, 11, 20, 15)))
        try history.write("a full space") { db in
            try StoredDrink(Drink(bottle: Self.bottle, recordID: last.recordID, timestamp: last.timestamp, amountML: 100, bottleLevelML: 0,
                                  typeRaw: 0, flagsRaw: 0, deleted: false, manual: true),
                            storedAt: Self.now + .seconds(1), deletedAt: nil).insert(db)
        }
        #expect(try Self.add(history, draw: 0, at: utc(2026, 11, 20, 16)).recordID == ManualIDSpace.ids(of: 3).lowerBound)
    }

    /// A history of the previous release, whose drinks added by hand counted from 2^31 on every
    /// member: they keep their ids, count and can be deleted; the next one is in a space of its
    /// own; when two of them share an id, `bottle delete` means the one added here.
    @Test func aPreviousReleasesHandAddedDrinksMigrate() throws {
        let folder = try temporaryFolder()
        defer { removeFolder(folder) }
        let path = folder.appendingPathComponent("history.sqlite").path
        let first = Int64(Drink.firstManualRecordID)
        do {
            let queue = try DatabaseQueue(path: path)
            try HistoryMigrations.migrator.migrate(queue, upTo: "v8-manual-drinks")
            try queue.write { db in
                try db.execute(sql: """
                    INSERT INTO bottle (id, last_seen) VALUES ('AQ-0042', 1000);
                    INSERT INTO drink (bottle, record_id, timestamp, amount_ml, bottle_level_ml, type, type_raw, flags, stored_at, manual, origin)
                    VALUES ('AQ-0042', \(first), 1000, 250, 0, 'gulp', 0, 0, 1000, 1, NULL),
                           ('AQ-0042', \(first), 2000, 330, 0, 'gulp', 0, 0, 2000, 1, 'office')
                    """)
            }
        }
        let history = try DrinkHistory(path: path)
        #expect(try history.drinks.storedDrinks().map(\.drink.manual) == [true, true])
        let next = try BottleControl(history: history).addDrink(amountML: 100, at: Self.now, bottle: nil, now: Self.now)
        #expect(ManualIDSpace.drawable.contains(ManualIDSpace.space(of: next.recordID)))
        let (_, deleted) = try BottleControl(history: history).queue(.delete(recordID: Int(first)), bottle: nil, at: Self.now)
        #expect(deleted?.timestamp == 1000, "the one added here, not the newer from the office")
        #expect(try history.drinks.storedDrinks(includeDeleted: false).map(\.amountML) == [330, 100])
    }
}
