// The quarantine (docs/design.md 3.4): a record that cannot be a drink is kept aside with its raw
// bytes and reasons in the chunk's own transaction, the rest of the chunk is stored; a re-send
// changes nothing; an erased-flash tombstone names nothing and is dropped without touching the id
// sequence; a person restores a record whose only fault is its time, or discards it; a bottle's
// quarantine moves with it to its serial; a zone offset is taken off the stored stamps.

import Timekeeping
import AquavateProtocol
import GRDB
@testable import History
import Testing

@Suite struct QuarantineTests {
    let bottle = "F4:12:FA:00:A3:F4"
    let now = 1_795_248_000.0
    var bounds: RecordBounds { RecordBounds(now: now) }
    let base: UInt32 = 1_795_200_000

    @Test func aRecordStampedIn1970IsQuarantinedAndTheRestOfItsChunkStored() throws {
        let history = try memoryHistory()
        let odd = drink(2, at: 259_200, ml: 180)
        let chunk = [drink(1, at: base), odd, drink(3, at: base + 60)]
        let stored = try history.drinks.storeChunk(chunk, bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        #expect(stored.results.map(\.outcome) == [.inserted, .quarantined([.time], isNew: true), .inserted])
        #expect(try history.drinks.storedDrinks().map(\.recordID) == [1, 3])
        let entries = try history.drinks.quarantined()
        #expect(entries.count == 1)
        let entry = try #require(entries.first)
        #expect(entry.record == odd && entry.bottle == bottle && entry.problems == [.time] && entry.receivedAt.secondsSince1970 == now)
        #expect(entry.rawHex == odd.encoded().map { String(format: "%02x", $0) }.joined())
        #expect(entry.reason.contains("record #2") && entry.reason.contains("259200"))
        #expect(entry.isRestorable)
        #expect(try history.drinks.quarantinedCounts() == [bottle: 1])

        // The same chunk again (its ACK was lost): nothing new anywhere.
        let again = try history.drinks.storeChunk(chunk, bottle: bottle, at: WallInstant(secondsSince1970: now + 5), bounds: bounds)
        #expect(again.results.map(\.outcome) == [.duplicate, .quarantined([.time], isNew: false), .duplicate])
        #expect(try history.drinks.quarantined().count == 1)
        #expect(try history.drinks.drinkCount() == 2)
    }

    @Test func anErasedSlotIsATombstoneForNothingAndLeavesTheIdSequenceAlone() throws {
        let history = try memoryHistory()
        let erased = try DrinkRecord(decoding: Array(repeating: 0xFF, count: 14))
        #expect(erased.isDeleted)
        let stored = try history.drinks.storeChunk([drink(1, at: base), erased, drink(2, at: base + 60)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        #expect(stored.results.map(\.outcome) == [.inserted, .strayTombstone, .inserted])
        #expect(try history.drinks.quarantined().isEmpty)
        #expect(try history.drinks.highestRecordID(bottle: bottle) == 2)
        // The next sync's first record continues the sequence: no id restart is seen.
        let next = try history.drinks.storeChunk([drink(3, at: base + 120)], bottle: bottle, at: WallInstant(secondsSince1970: now + 60), bounds: bounds)
        #expect(!next.idsRestarted)
    }

    @Test func aTombstoneThatNamesAStoredDrinkDeletesItWhateverElseItHolds() throws {
        let history = try memoryHistory()
        _ = try history.drinks.storeChunk([drink(7, at: base)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        var bent = tombstone(of: drink(7, at: base))
        bent.amountML = .max
        let stored = try history.drinks.storeChunk([bent], bottle: bottle, at: WallInstant(secondsSince1970: now + 1), bounds: bounds)
        #expect(stored.results.map(\.outcome) == [.deleted])
        #expect(try history.drinks.storedDrinks().map(\.deleted) == [true])
    }

    @Test func restoringATimeOnlyRecordMakesItADrinkAtTheGivenTimeWithItsStampKept() throws {
        let history = try memoryHistory()
        _ = try history.drinks.storeChunk([drink(1, at: base), drink(2, at: 259_200, ml: 180)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        let id = try #require(try history.drinks.quarantined().first?.id)
        let restored = try history.drinks.restoreQuarantined(id: id, timestamp: base + 30, at: WallInstant(secondsSince1970: now + 10))
        #expect(restored.recordID == 2 && restored.timestamp == base + 30 && restored.amountML == 180)
        #expect(try history.drinks.storedDrinks().map(\.recordID) == [1, 2])
        #expect(try history.drinks.quarantined().isEmpty)
        #expect(try history.drinks.quarantined(includeResolved: true).map(\.resolution) == [.restored])
        let raw = try history.read("raw") { db in try Int.fetchOne(db, sql: "SELECT raw_timestamp FROM drink WHERE record_id = 2") }
        #expect(raw == 259_200)
        // Once only.
        #expect(throws: QuarantineActionError.alreadyResolved(id: id, .restored)) {
            try history.drinks.restoreQuarantined(id: id, timestamp: base + 40, at: WallInstant(secondsSince1970: now + 20))
        }
    }

    @Test func aRecordWrongInItsAmountCannotBeRestoredOnlyDiscarded() throws {
        let history = try memoryHistory()
        _ = try history.drinks.storeChunk([drink(1, at: base, ml: .max)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        let entry = try #require(try history.drinks.quarantined().first)
        #expect(entry.problems == [.amount] && !entry.isRestorable)
        #expect(throws: QuarantineActionError.notOnlyTime(id: entry.id, [.amount])) {
            try history.drinks.restoreQuarantined(id: entry.id, timestamp: base, at: WallInstant(secondsSince1970: now))
        }
        try history.drinks.discardQuarantined(id: entry.id, at: WallInstant(secondsSince1970: now + 1))
        #expect(try history.drinks.quarantined().isEmpty)
        #expect(try history.drinks.drinkCount() == 0)
        #expect(throws: QuarantineActionError.unknown(id: 999)) { try history.drinks.discardQuarantined(id: 999, at: WallInstant(secondsSince1970: now)) }
    }

    @Test func aRestoreTimeOutsideTheBoundsIsRefused() throws {
        let history = try memoryHistory()
        _ = try history.drinks.storeChunk([drink(1, at: 259_200)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        let id = try #require(try history.drinks.quarantined().first?.id)
        #expect(throws: QuarantineActionError.timeOutOfRange(id: id)) {
            try history.drinks.restoreQuarantined(id: id, timestamp: 1_000, at: WallInstant(secondsSince1970: now))
        }
        #expect(try history.drinks.drinkCount() == 0)
    }

    @Test func theQuarantineMovesWithTheBottleToItsSerial() throws {
        let history = try memoryHistory()
        _ = try history.drinks.storeChunk([drink(1, at: base), drink(2, at: .max)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds)
        try history.bottles.update(id: bottle) { $0.refusal = SyncRefusal(reason: "chunk 0 announces 255 chunks", since: WallInstant(secondsSince1970: now), connections: 2) }
        #expect(try history.bottles.move(from: bottle, toSerial: "SERIAL-1"))
        #expect(try history.drinks.quarantinedCounts() == ["SERIAL-1": 1])
        #expect(try history.bottles.bottle(id: "SERIAL-1")?.refusal?.connections == 2)
    }

    @Test func aZoneOffsetIsTakenOffTheStoredStampAndTheStampKept() throws {
        let history = try memoryHistory()
        // The bottle runs +2 h: a drink at 08:00 UTC is stamped 10:00.
        let stored = try history.drinks.storeChunk([drink(1, at: base + 7200)], bottle: bottle, at: WallInstant(secondsSince1970: now), bounds: bounds, timeShift: 7200)
        #expect(stored.results.map(\.record.timestamp) == [base])
        #expect(try history.drinks.storedDrinks().map(\.timestamp) == [base])
        let raw = try history.read("raw") { db in try Int.fetchOne(db, sql: "SELECT raw_timestamp FROM drink") }
        #expect(raw == Int(base) + 7200)
        // The same record re-sent is the same drink.
        let again = try history.drinks.storeChunk([drink(1, at: base + 7200)], bottle: bottle, at: WallInstant(secondsSince1970: now + 1), bounds: bounds, timeShift: 7200)
        #expect(again.results.map(\.outcome) == [.duplicate])
    }

    @Test func refusalsAreKeptOnTheBottleRow() throws {
        let history = try memoryHistory()
        try history.bottles.update(id: bottle) { $0.refusal = SyncRefusal(reason: "r", since: WallInstant(secondsSince1970: 5), connections: 3) }
        let refusal = try #require(try history.bottles.bottle(id: bottle)?.refusal)
        #expect(refusal == SyncRefusal(reason: "r", since: WallInstant(secondsSince1970: 5), connections: 3) && refusal.isStuck)
        try history.bottles.update(id: bottle) { $0.refusal = nil }
        #expect(try history.bottles.bottle(id: bottle)?.refusal == nil)
    }
}
