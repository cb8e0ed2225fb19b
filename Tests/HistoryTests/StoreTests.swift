// Storing chunks: idempotence, record-id reuse, what the history keeps.

import Timekeeping
import AquavateProtocol
@testable import History
import Testing

@Suite struct StoreTests {
    let bottle = "F4:12:FA:00:A3:F4"

    @Test func sameChunkTwiceIsStoredOnce() throws {
        let history = try memoryHistory()
        let chunk = (1...17).map { drink(UInt32($0), at: 1_763_712_000 + UInt32($0) * 60, ml: Int16(30 + $0)) }

        let first = try history.drinks.store(chunk, bottle: bottle, at: WallInstant(secondsSince1970: 1000))
        #expect(first.map(\.isNew) == Array(repeating: true, count: 17))
        #expect(first.map(\.record) == chunk)
        #expect(try history.drinks.drinkCount() == 17)

        let second = try history.drinks.store(chunk, bottle: bottle, at: WallInstant(secondsSince1970: 2000))
        #expect(second.map(\.isNew) == Array(repeating: false, count: 17))
        #expect(second.map(\.outcome) == Array(repeating: .duplicate, count: 17))
        #expect(try history.drinks.drinkCount() == 17)
        // The first commit's time stays: the drink was known from then on.
        #expect(try history.drinks.storedDrinks().allSatisfy { $0.storedAt == WallInstant(secondsSince1970: 1000) })
    }

    @Test func overlappingChunksStoreOnlyTheNewRecords() throws {
        let history = try memoryHistory()
        let records = (1...10).map { drink(UInt32($0), at: 5000 + UInt32($0)) }
        _ = try history.drinks.store(Array(records[0..<6]), bottle: bottle, at: WallInstant(secondsSince1970: 1))
        let results = try history.drinks.store(Array(records[4..<10]), bottle: bottle, at: WallInstant(secondsSince1970: 2))
        #expect(results.map(\.isNew) == [false, false, true, true, true, true])
        #expect(try history.drinks.storedDrinks().map(\.recordID) == Array(1...10))
    }

    @Test func sameRecordIDWithAnotherTimestampAfterClearHistoryIsAnotherDrink() throws {
        let history = try memoryHistory()
        let before = drink(1, at: 1_763_712_000, ml: 120)
        let afterClear = drink(1, at: 1_763_800_000, ml: 45)
        _ = try history.drinks.store([before], bottle: bottle, at: WallInstant(secondsSince1970: 10))
        let results = try history.drinks.store([afterClear], bottle: bottle, at: WallInstant(secondsSince1970: 20))

        #expect(results.map(\.outcome) == [.inserted])
        let stored = try history.drinks.storedDrinks()
        #expect(stored.map(\.recordID) == [1, 1])
        #expect(stored.map(\.amountML) == [120, 45])
    }

    @Test func sameKeyOnAnotherBottleIsAnotherDrink() throws {
        let history = try memoryHistory()
        let record = drink(7, at: 1_763_712_000)
        _ = try history.drinks.store([record], bottle: "bottle-a", at: WallInstant(secondsSince1970: 1))
        let results = try history.drinks.store([record], bottle: "bottle-b", at: WallInstant(secondsSince1970: 2))
        #expect(results.map(\.isNew) == [true])
        #expect(try history.drinks.drinkCount() == 2)
        #expect(try history.drinks.storedDrinks(bottle: "bottle-b").map(\.bottle) == ["bottle-b"])
    }

    @Test func aDifferentCopyUnderAStoredKeyKeepsTheFirstAndSaysSo() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([drink(3, at: 9000, ml: 80)], bottle: bottle, at: WallInstant(secondsSince1970: 1))
        let results = try history.drinks.store([drink(3, at: 9000, ml: 95)], bottle: bottle, at: WallInstant(secondsSince1970: 2))
        #expect(results.map(\.outcome) == [.conflicting])
        #expect(results.map(\.isNew) == [false])
        #expect(try history.drinks.storedDrinks().map(\.amountML) == [80])
    }

    @Test func storedDrinkKeepsEveryFieldAsSent() throws {
        let history = try memoryHistory()
        let record = drink(42, at: 1_763_712_345, ml: 150, level: -3, type: 1, flags: 0x01)
        _ = try history.drinks.store([record], bottle: bottle, at: WallInstant(secondsSince1970: 1_763_712_400.25))

        let stored = try #require(try history.drinks.storedDrinks().first)
        #expect(stored.bottle == bottle)
        #expect(stored.record == record)
        #expect(stored.kind == .pour)
        #expect(stored.bottleLevelML == -3)
        #expect(stored.deleted == false)
        #expect(stored.deletedAt == nil)
        #expect(stored.storedAt == WallInstant(secondsSince1970: 1_763_712_400.25))
        #expect(stored.isIntake)
    }

    @Test func unknownTypeBytesAreGulpsAndKeptRaw() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([drink(1, at: 100, type: 7)], bottle: bottle, at: WallInstant(secondsSince1970: 1))
        let stored = try #require(try history.drinks.storedDrinks().first)
        #expect(stored.kind == .gulp)
        #expect(stored.typeRaw == 7)
    }

    @Test func refillsAndZeroAmountsAreStoredButAreNotIntake() throws {
        let history = try memoryHistory()
        let results = try history.drinks.store([drink(1, at: 100, ml: -250), drink(2, at: 200, ml: 0)], bottle: bottle, at: WallInstant(secondsSince1970: 1))
        #expect(results.map(\.isNew) == [true, true])
        let stored = try history.drinks.storedDrinks()
        #expect(stored.map(\.amountML) == [-250, 0])
        #expect(stored.allSatisfy { !$0.isIntake })
    }

    @Test func aRecordRepeatedInsideOneBatchIsStoredOnce() throws {
        let history = try memoryHistory()
        let record = drink(5, at: 500)
        let results = try history.drinks.store([record, record], bottle: bottle, at: WallInstant(secondsSince1970: 1))
        #expect(results.map(\.outcome) == [.inserted, .duplicate])
        #expect(try history.drinks.drinkCount() == 1)
    }

    @Test func storedDrinksAreOrderedAndFiltered() throws {
        let history = try memoryHistory()
        _ = try history.drinks.store([drink(3, at: 300), drink(1, at: 100), drink(2, at: 100)], bottle: "b", at: WallInstant(secondsSince1970: 1))
        _ = try history.drinks.store([drink(9, at: 200)], bottle: "a", at: WallInstant(secondsSince1970: 1))
        _ = try history.drinks.store([tombstone(of: drink(4, at: 400))], bottle: "b", at: WallInstant(secondsSince1970: 2))

        #expect(try history.drinks.storedDrinks().map(\.recordID) == [1, 2, 9, 3, 4])
        #expect(try history.drinks.storedDrinks(bottle: "b").map(\.recordID) == [1, 2, 3, 4])
        #expect(try history.drinks.storedDrinks(from: WallInstant(secondsSince1970: 200)).map(\.recordID) == [9, 3, 4])
        #expect(try history.drinks.storedDrinks(to: WallInstant(secondsSince1970: 300)).map(\.recordID) == [1, 2, 9])
        #expect(try history.drinks.storedDrinks(from: WallInstant(secondsSince1970: 100.5), to: WallInstant(secondsSince1970: 300.5)).map(\.recordID) == [9, 3])
        #expect(try history.drinks.storedDrinks(includeDeleted: false).map(\.recordID) == [1, 2, 9, 3])
    }

    @Test func emptyBatchStoresNothing() throws {
        let history = try memoryHistory()
        #expect(try history.drinks.store([], bottle: bottle, at: WallInstant(secondsSince1970: 1)).isEmpty)
        #expect(try history.drinks.drinkCount() == 0)
    }

    @Test func badArgumentsAreRefusedWithoutStoringAnything() throws {
        let history = try memoryHistory()
        #expect(throws: HistoryError.self) { try history.drinks.store([drink(1, at: 1)], bottle: "", at: WallInstant(secondsSince1970: 1)) }
        #expect(throws: HistoryError.self) { try history.drinks.store([drink(1, at: 1)], bottle: bottle, at: WallInstant(secondsSince1970: .nan)) }
        #expect(throws: HistoryError.self) { try history.drinks.store([drink(1, at: 1)], bottle: bottle, at: WallInstant(secondsSince1970: .infinity)) }
        #expect(try history.drinks.drinkCount() == 0)
        let error = HistoryError.invalidArgument(what: "empty bottle id", expected: "the bottle's address or serial number")
        #expect(!error.description.contains("\n"))
    }
}
