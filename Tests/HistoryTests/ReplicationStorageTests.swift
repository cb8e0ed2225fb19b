// Drinks received from another bridge of the household (docs/design.md 6): stored once whatever
// the broker does (duplicated, reordered deliveries; a deletion before the drink), with their
// origin; and the outbox, which holds only this bridge's own drinks.

import Timekeeping
import AquavateProtocol
import Foundation
import History
import Testing

@Suite("Household replication storage")
struct ReplicationStorageTests {
    func drink(_ id: UInt32, deleted: Bool = false) -> DrinkRecord {
        DrinkRecord(recordID: id, timestamp: 1_795_330_800 + id * 60, amountML: 100, bottleLevelML: 400, typeRaw: 0,
                    flagsRaw: deleted ? DrinkRecordFlags.deleted.rawValue : 0)
    }

    @Test("duplicated and reordered deliveries store each drink once; a deletion that overtakes its drink still deletes it")
    func duplicatesAndReordering() throws {
        let history = try DrinkHistory(path: nil)
        let deliveries: [DrinkRecord] = [drink(3), drink(1), drink(3), drink(2, deleted: true), drink(1), drink(2), drink(4)]
        for (index, record) in deliveries.enumerated() {
            _ = try history.drinks.storeReplicated([record], bottle: "SERIAL1", origin: "office", at: WallInstant(secondsSince1970: 1_000 + Double(index)))
        }
        let stored = try history.drinks.storedDrinks()
        #expect(stored.map(\.recordID).sorted() == [1, 2, 3, 4], "each once")
        #expect(stored.filter(\.deleted).map(\.recordID) == [2], "the deletion holds though the drink came after it")
        #expect(try history.drinks.localDrinksChanged(since: WallInstant(secondsSince1970: 0)).isEmpty, "received drinks are never published again")
    }

    @Test("the outbox: this bridge's drinks stored or deleted after the mark, oldest change first")
    func outbox() throws {
        let history = try DrinkHistory(path: nil)
        _ = try history.drinks.store([drink(1), drink(2)], bottle: "SERIAL1", at: WallInstant(secondsSince1970: 100))
        _ = try history.drinks.store([drink(3)], bottle: "SERIAL1", at: WallInstant(secondsSince1970: 200))
        _ = try history.drinks.storeReplicated([drink(9)], bottle: "SERIAL2", origin: "office", at: WallInstant(secondsSince1970: 150))
        #expect(try history.drinks.localDrinksChanged(since: WallInstant(secondsSince1970: 0)).map(\.drink.recordID) == [1, 2, 3])
        #expect(try history.drinks.localDrinksChanged(since: WallInstant(secondsSince1970: 100)).map(\.drink.recordID) == [3])
        #expect(try history.drinks.markDeleted(bottle: "SERIAL1", recordID: 1, timestamp: drink(1).timestamp, at: WallInstant(secondsSince1970: 300)))
        let changed = try history.drinks.localDrinksChanged(since: WallInstant(secondsSince1970: 200))
        #expect(changed.map(\.drink.recordID) == [1] && changed.first?.drink.deleted == true && changed.first?.changedAt == WallInstant(secondsSince1970: 300))
    }
}
