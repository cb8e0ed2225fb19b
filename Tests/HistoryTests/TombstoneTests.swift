// Deletions: tombstones from the bottle (flag 0x04) and local deletions; nothing undeletes.

import AquavateProtocol
@testable import History
import Testing
import Timekeeping

@Suite struct TombstoneTests {
    let bottle = "serial-123"
    let record = drink(8, at: 1_763_712_000, ml: 140)

    @Test func tombstoneAfterInsertDeletesTheDrink() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 100))
        let results = try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 200))

        #expect(results.map(\.outcome) == [.deleted])
        #expect(results.map(\.isNew) == [true])
        let stored = try #require(try history.drinks.storedDrinks().first)
        #expect(stored.deleted)
        #expect(stored.deletedAt == WallInstant(secondsSince1970: 200))
        #expect(stored.storedAt == WallInstant(secondsSince1970: 100))
        #expect(!stored.isIntake)
        #expect(try history.drinks.drinkCount() == 1)
    }

    @Test func tombstoneBeforeInsertStoresADeletedDrink() throws {
        let history = try memoryHistory()
        let results = try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 300))
        #expect(results.map(\.outcome) == [.insertedDeleted])
        #expect(results.map(\.isNew) == [true])
        let stored = try #require(try history.drinks.storedDrinks().first)
        #expect(stored.deleted)
        #expect(stored.deletedAt == WallInstant(secondsSince1970: 300))
        #expect(stored.amountML == 140)

        // The live copy arriving later does not resurrect it.
        let live = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 400))
        #expect(live.map(\.outcome) == [.alreadyDeleted])
        #expect(live.map(\.isNew) == [false])
        #expect(try history.drinks.storedDrinks().map(\.deleted) == [true])
    }

    @Test func tombstoneTwiceChangesNothingTheSecondTime() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 100))
        _ = try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 200))
        let again = try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 300))
        #expect(again.map(\.outcome) == [.alreadyDeleted])
        #expect(again.map(\.isNew) == [false])
        #expect(try history.drinks.storedDrinks().first?.deletedAt == WallInstant(secondsSince1970: 200))
    }

    @Test func liveCopyAfterDeleteDoesNotUndelete() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 100))
        _ = try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 200))
        let live = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 300))
        #expect(live.map(\.isNew) == [false])
        let stored = try #require(try history.drinks.storedDrinks().first)
        #expect(stored.deleted)
        #expect(stored.deletedAt == WallInstant(secondsSince1970: 200))
        #expect(try history.drinks.dayTotals(timeZone: zone("UTC")).isEmpty)
    }

    @Test func tombstoneDeletesOnlyTheDrinkWithItsTimestamp() throws {
        let history = try memoryHistory()
        let old = drink(1, at: 1000)
        let reused = drink(1, at: 2000)
        _ = try history.drinks.store([old, reused], bottle: bottle, at: WallInstant(secondsSince1970: 10))
        _ = try history.drinks.store([tombstone(of: reused)], bottle: bottle, at: WallInstant(secondsSince1970: 20))
        #expect(try history.drinks.storedDrinks().map(\.deleted) == [false, true])
    }

    @Test func localDeletionMarksOnceAndNeverInventsADrink() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 100))

        #expect(try history.drinks.markDeleted(bottle: bottle, recordID: 8, timestamp: record.timestamp, at: WallInstant(secondsSince1970: 150)))
        #expect(try history.drinks.markDeleted(bottle: bottle, recordID: 8, timestamp: record.timestamp, at: WallInstant(secondsSince1970: 160)) == false)
        #expect(try history.drinks.markDeleted(bottle: bottle, recordID: 8, timestamp: record.timestamp + 1, at: WallInstant(secondsSince1970: 170)) == false)
        #expect(try history.drinks.markDeleted(bottle: "other", recordID: 8, timestamp: record.timestamp, at: WallInstant(secondsSince1970: 170)) == false)

        let stored = try history.drinks.storedDrinks()
        #expect(stored.count == 1)
        #expect(stored.first?.deletedAt == WallInstant(secondsSince1970: 150))
        // A tombstone from the bottle after the local deletion changes nothing.
        #expect(try history.drinks.store([tombstone(of: record)], bottle: bottle, at: WallInstant(secondsSince1970: 200)).map(\.isNew) == [false])
    }

    @Test func deletedDrinksCanBeLeftOutOfListings() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([record, drink(9, at: record.timestamp + 60)], bottle: bottle, at: WallInstant(secondsSince1970: 100))
        _ = try history.drinks.markDeleted(bottle: bottle, recordID: 8, timestamp: record.timestamp, at: WallInstant(secondsSince1970: 150))
        #expect(try history.drinks.storedDrinks(includeDeleted: false).map(\.recordID) == [9])
        #expect(try history.drinks.storedDrinks().map(\.recordID) == [8, 9])
    }
}
