// Deleting a drink another member of the household added by hand: the history lists the ones
// deleted here (to tell the household), deletes one as another member asks (only a hand-added
// drink of the origin named), and lists one origin's deleted ones by day (to tell again while
// that origin's digest still counts them).

import AquavateProtocol
import History
import Testing
import Timekeeping

@Suite("deleting other members' drinks added by hand")
struct ForeignDeletionTests {
    static let bottle = "F4:12:FA:00:A3:F2"

    func record(_ id: UInt32, at timestamp: UInt32, amount: Int16 = 300) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: timestamp, amountML: amount, bottleLevelML: 0, typeRaw: 0, flagsRaw: 0)
    }

    func at(_ seconds: Double) -> WallInstant { WallInstant(secondsSince1970: seconds) }

    @Test("the deletions of other members' hand-added drinks made after a mark, and none of this bridge's or of a bottle's drinks")
    func deletionsToTell() throws {
        let history = try DrinkHistory(path: nil)
        let first = Drink.firstManualRecordID + 65_536
        _ = try history.drinks.storeReplicated([record(first, at: 1_000), record(first + 1, at: 1_100)], bottle: Self.bottle, origin: "kitchen",
                                        manual: true, at: at(2_000))
        _ = try history.drinks.storeReplicated([record(7, at: 1_200, amount: 100)], bottle: Self.bottle, origin: "kitchen", at: at(2_000))
        let own = try history.drinks.storeManualDrink(bottle: Self.bottle, amountML: 200, timestamp: 1_300, at: at(2_000))
        for (id, timestamp) in [(first, UInt32(1_000)), (7, 1_200), (own.recordID, own.timestamp)] {
            #expect(try history.drinks.markDeleted(bottle: Self.bottle, recordID: id, timestamp: timestamp, at: at(3_000)))
        }
        #expect(try history.drinks.markDeleted(bottle: Self.bottle, recordID: first + 1, timestamp: 1_100, at: at(4_000)))
        let all = try history.drinks.foreignManualDeletions(since: at(0))
        #expect(all == [.init(bottle: Self.bottle, recordID: first, timestamp: 1_000, origin: "kitchen", deletedAt: at(3_000)),
                        .init(bottle: Self.bottle, recordID: first + 1, timestamp: 1_100, origin: "kitchen", deletedAt: at(4_000))])
        #expect(try history.drinks.foreignManualDeletions(since: at(3_000)).map(\.recordID) == [first + 1], "after the mark only")
        #expect(try history.drinks.foreignManualDeletions(origin: "kitchen", from: 1_050, to: 2_000).map(\.recordID) == [first + 1], "by time")
        #expect(try history.drinks.foreignManualDeletions(origin: "office", from: 0, to: 2_000).isEmpty, "by origin")
    }

    @Test("a deletion heard deletes only the hand-added drink of the origin it names, once")
    func deletionHeard() throws {
        let history = try DrinkHistory(path: nil)
        let id = Drink.firstManualRecordID + 65_536
        _ = try history.drinks.storeReplicated([record(id, at: 1_000)], bottle: Self.bottle, origin: "kitchen", manual: true, at: at(2_000))
        _ = try history.drinks.storeReplicated([record(7, at: 1_200, amount: 100)], bottle: Self.bottle, origin: "kitchen", at: at(2_000))
        let own = try history.drinks.storeManualDrink(bottle: Self.bottle, amountML: 200, timestamp: 1_300, at: at(2_000))

        #expect(try !history.drinks.deleteManualDrink(bottle: Self.bottle, recordID: id, timestamp: 1_000, origin: "office", at: at(3_000)),
                "another origin's name does not reach the kitchen's drink")
        #expect(try !history.drinks.deleteManualDrink(bottle: Self.bottle, recordID: id, timestamp: 1_001, origin: "kitchen", at: at(3_000)),
                "another time is another drink")
        #expect(try !history.drinks.deleteManualDrink(bottle: Self.bottle, recordID: 7, timestamp: 1_200, origin: "kitchen", at: at(3_000)),
                "a bottle's drink is deleted on the bottle, not by a member's word")
        #expect(try history.drinks.storedDrinks().allSatisfy { !$0.deleted })

        #expect(try history.drinks.deleteManualDrink(bottle: Self.bottle, recordID: id, timestamp: 1_000, origin: "kitchen", at: at(3_000)))
        #expect(try !history.drinks.deleteManualDrink(bottle: Self.bottle, recordID: id, timestamp: 1_000, origin: "kitchen", at: at(3_500)), "once")
        #expect(try history.drinks.deleteManualDrink(bottle: Self.bottle, recordID: own.recordID, timestamp: own.timestamp, origin: nil, at: at(3_000)),
                "this bridge's own, named with no origin")
        #expect(try history.drinks.storedDrinks().filter(\.deleted).map(\.recordID).sorted() == [id, own.recordID].sorted())
        let changed = try history.drinks.localDrinksChanged(since: at(2_500))
        #expect(changed.map(\.drink.recordID) == [own.recordID] && changed.first?.changedAt == at(3_000),
                "this bridge's own deleted drink goes out as its tombstone")
    }
}
