// A batch (`DrinkStore.store`, one transaction): its outcomes and the rows it leaves must be
// those of its records stored one at a time, whatever the batch holds — copies within it,
// tombstones before or after their drink, conflicting copies, more records than a chunk.
// Checked against a model of the rules written out here, on random batches.

import Timekeeping
import AquavateProtocol
@testable import History
import Testing

@Suite struct BatchStoreTests {
    let bottle = "F4:12:FA:00:A3:F4"

    /// The rules of `StoreOutcome`, one record at a time, over a dictionary.
    struct Model {
        struct Row: Equatable { var amount: Int16; var level: Int16; var typeRaw: UInt8; var deleted: Bool }
        var rows: [String: Row] = [:]

        mutating func store(_ record: DrinkRecord) -> StoreOutcome {
            let key = "\(record.recordID)@\(record.timestamp)"
            guard let stored = rows[key] else {
                rows[key] = Row(amount: record.amountML, level: record.bottleLevelML, typeRaw: record.typeRaw, deleted: record.isDeleted)
                return record.isDeleted ? .insertedDeleted : .inserted
            }
            if stored.deleted { return .alreadyDeleted }
            if record.isDeleted {
                rows[key]?.deleted = true
                return .deleted
            }
            let same = stored.amount == record.amountML && stored.level == record.bottleLevelML && stored.typeRaw == record.typeRaw
            return same ? .duplicate : .conflicting
        }
    }

    /// A small generator with a seed, so that a failure names the batch that made it.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    @Test(arguments: 1...40)
    func aBatchStoresAsItsRecordsOneAtATime(seed: Int) throws {
        let history = try memoryHistory()
        var model = Model()
        var random = Generator(state: UInt64(seed))
        for batch in 0..<4 {
            // Few keys, so that copies meet within a batch and across batches.
            let records = (0..<(1 + random.next(60))).map { _ -> DrinkRecord in
                let id = UInt32(1 + random.next(25))
                let record = drink(id, at: 1_763_712_000 + id * 60, ml: Int16(20 + random.next(3)))
                return random.next(5) == 0 ? tombstone(of: record) : record
            }
            let expected = records.map { model.store($0) }
            let results = try history.drinks.store(records, bottle: bottle, at: WallInstant(secondsSince1970: Double(1000 + batch)))
            #expect(results.map(\.outcome) == expected, "seed \(seed), batch \(batch)")
            #expect(results.map(\.record) == records)
        }
        let stored = try history.drinks.storedDrinks()
        #expect(stored.count == model.rows.count)
        for drink in stored {
            let row = model.rows["\(drink.recordID)@\(drink.timestamp)"]
            #expect(row == Model.Row(amount: Int16(drink.amountML), level: Int16(drink.bottleLevelML), typeRaw: drink.typeRaw, deleted: drink.deleted),
                    "seed \(seed), drink #\(drink.recordID)")
        }
    }

    @Test func aCopyWithinOneInsertIsJudgedAfterTheFirst() throws {
        let history = try memoryHistory()
        let live = drink(7, at: 1_763_712_000, ml: 80)
        let other = drink(7, at: 1_763_712_000, ml: 90)
        let results = try history.drinks.store([live, other, tombstone(of: live), live], bottle: bottle, at: WallInstant(secondsSince1970: 1))
        #expect(results.map(\.outcome) == [.inserted, .conflicting, .deleted, .alreadyDeleted])
        #expect(try history.drinks.storedDrinks().map(\.amountML) == [80])
    }
}
