// A sync chunk as one write transaction: the record-id reset is noticed (docs/protocol.md B14: ids
// restart at 1 after CLEAR_HISTORY), records that cannot be drinks are quarantined, a zone offset
// is taken off the stamps, and the drinks stored, all in the same transaction, so that the live
// bridge and a replay of its recording take the same decision from the same state, and no other
// writer can come between the look and the store.

import AquavateProtocol
import Timekeeping
import GRDB

/// What storing one chunk did.
package struct StoredChunk: Sendable, Equatable {
    /// One result per record, in order.
    package var results: [StoreResult]
    /// The chunk's first record restarted the bottle's id sequence (recorded at `storedAt`).
    package var idsRestarted: Bool
}

extension DrinkStore {
    /// Stores one chunk from `bottle` in ONE write transaction, committed (with the configured
    /// durability) when this returns; the live bridge ACKs after it.
    ///
    /// A first record whose id is below the highest of the bottle's current sequence, and which
    /// is not a record already stored, means the bottle restarted its ids: the reset is recorded
    /// (so later deletions name only records since then) before the records are stored.
    ///
    /// - Parameters:
    ///   - records: the chunk's records, in the bottle's order.
    ///   - bottle: the bottle's key (its serial, or its address until the serial is read).
    ///   - storedAt: when the chunk was stored, the stored drinks' `stored_at`.
    ///   - bounds: what a drink can be; a record outside them is quarantined (or, a tombstone,
    ///     deletes what it names and is otherwise dropped). Nil: every record is believed.
    ///   - timeShift: seconds the bottle's stamps run ahead of UTC (a whole-hour zone offset set
    ///     over USB, docs/protocol.md 5.2): drinks are stored that much earlier, their own stamp
    ///     kept as `raw_timestamp`. Results carry the records as stored.
    package func storeChunk(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant,
                           bounds: RecordBounds? = nil, timeShift: Int = 0) throws -> StoredChunk {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        guard !records.isEmpty else { return StoredChunk(results: [], idsRestarted: false) }
        let problems = records.map { bounds?.problems(with: $0) ?? [] }
        return try history.write("storing \(records.count) drink records") { db in
            // The id sequence is judged on the first record that is a drink: a quarantined one
            // is kept apart and says nothing about it.
            var restarted = false
            if let first = zip(records, problems).first(where: { $0.1.isEmpty })?.0 {
                restarted = try Self.idsRestart(at: Self.shifted(first, by: timeShift), bottle: bottle, in: db)
            }
            if restarted {
                var row = try BottleRecord.fetchOne(db, key: bottle) ?? BottleRecord(id: bottle)
                row.idResetAt = storedAt
                try row.upsert(db)
            }
            let results = try zip(records, problems).map { record, problems -> StoreResult in
                guard problems.isEmpty else {
                    return StoreResult(record: record, outcome: try Self.setAside(record, problems: problems, bounds: bounds,
                                                                                  bottle: bottle, at: storedAt, in: db))
                }
                let stored = Self.shifted(record, by: timeShift)
                let raw = stored.timestamp == record.timestamp ? nil : record.timestamp
                return StoreResult(record: stored, outcome: try Self.store(stored, bottle: bottle, at: storedAt,
                                                                           rawTimestamp: raw, in: db))
            }
            return StoredChunk(results: results, idsRestarted: restarted)
        }
    }

    /// A record that cannot be a drink. A tombstone deletes what it names, whatever else it
    /// holds (erased flash reads as all FF with the deleted bit set, TV11), and is otherwise
    /// dropped; anything else goes to the quarantine.
    private static func setAside(_ record: DrinkRecord, problems: [RecordProblem], bounds: RecordBounds?,
                                 bottle: String, at storedAt: WallInstant, in db: Database) throws -> StoreOutcome {
        if record.isDeleted {
            guard let stored = try fetchDrink(bottle: bottle, recordID: record.recordID, timestamp: record.timestamp, in: db) else {
                return .strayTombstone
            }
            return try store(stored.record.withFlags(record.flagsRaw), bottle: bottle, at: storedAt, in: db)
        }
        let reason = bounds?.problem(with: record) ?? "record #\(record.recordID) cannot be a drink"
        let isNew = try quarantine(record, problems: problems, reason: reason, bottle: bottle, at: storedAt, in: db)
        return .quarantined(problems, isNew: isNew)
    }

    /// `record` as stored when the bottle's stamps run `shift` seconds ahead; unchanged when the
    /// shifted stamp would leave the u32 range.
    static func shifted(_ record: DrinkRecord, by shift: Int) -> DrinkRecord {
        guard shift != 0, let time = UInt32(exactly: Int64(record.timestamp) - Int64(shift)) else { return record }
        var shifted = record
        shifted.timestamp = time
        return shifted
    }

    private static func idsRestart(at first: DrinkRecord, bottle: String, in db: Database) throws -> Bool {
        guard let highest = try highestRecordID(bottle: bottle, in: db), first.recordID < highest else { return false }
        let known = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM drink WHERE bottle = ? AND record_id = ? AND timestamp = ?)
            """, arguments: [bottle, first.recordID, first.timestamp]) ?? false
        return !known
    }
}
