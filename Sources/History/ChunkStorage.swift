// A sync chunk as one write transaction: the record-id reset is noticed (docs/protocol.md B14: ids
// restart at 1 after CLEAR_HISTORY) and the records stored in the same transaction, so that the
// live bridge and a replay of its recording take the same decision from the same state, and no
// other writer can come between the look and the store.

import AquavateProtocol
import GRDB

/// What storing one chunk did.
public struct StoredChunk: Sendable, Equatable {
    /// One result per record, in order.
    public var results: [StoreResult]
    /// The chunk's first record restarted the bottle's id sequence (recorded at `storedAt`).
    public var idsRestarted: Bool
}

extension DrinkHistory {
    /// Stores one chunk from `bottle` in ONE write transaction, committed (with the configured
    /// durability) when this returns; the live bridge ACKs after it.
    ///
    /// A first record whose id is below the highest of the bottle's current sequence, and which
    /// is not a record already stored, means the bottle restarted its ids: the reset is recorded
    /// (so later deletions name only records since then) before the records are stored.
    public func storeChunk(_ records: [DrinkRecord], bottle: String, at storedAt: Double) throws -> StoredChunk {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        guard !records.isEmpty else { return StoredChunk(results: [], idsRestarted: false) }
        return try write("storing \(records.count) drink records") { db in
            let restarted = try Self.idsRestart(at: records[0], bottle: bottle, in: db)
            if restarted {
                var row = try BottleRecord.fetchOne(db, key: bottle) ?? BottleRecord(id: bottle)
                row.idResetAt = storedAt
                try row.upsert(db)
            }
            let results = try records.map { record in
                StoreResult(record: record, outcome: try Self.store(record, bottle: bottle, at: storedAt, in: db))
            }
            return StoredChunk(results: results, idsRestarted: restarted)
        }
    }

    private static func idsRestart(at first: DrinkRecord, bottle: String, in db: Database) throws -> Bool {
        guard let highest = try highestRecordID(bottle: bottle, in: db), first.recordID < highest else { return false }
        let known = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM drink WHERE bottle = ? AND record_id = ? AND timestamp = ?)
            """, arguments: [bottle, first.recordID, first.timestamp]) ?? false
        return !known
    }
}
