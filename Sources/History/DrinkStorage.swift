// The drink store (`history.drinks`): every read and write of the drink table and the quarantine
// beside it goes through it. This file holds storing records idempotently, tombstones, local
// deletions, and reading drinks back; the others of the store are named after what they do
// (ChunkStorage, DrinkInsert, DrinkPages, DayTotals, NewestDrink, ManualDrinks, Quarantine,
// Replication, ForeignDeletions).

import AquavateProtocol
import Timekeeping
import GRDB

/// An INSERT OR IGNORE that inserted nothing for a key that is not there: a constraint other
/// than the key refused the row. Never expected; reported as a failed store, never swallowed.
struct RecordNeitherStoredNorFound: Error, CustomStringConvertible {
    var recordID: UInt32
    var timestamp: UInt32
    var description: String { "drink record \(recordID) at \(timestamp) was refused by the drink table" }
}

/// The drinks' part of the history: the drinks a bottle synced, a person added by hand or another
/// member of the household sent, their day totals, and the records set aside in the quarantine
/// (`history.drinks`), over the history's one database writer.
package struct DrinkStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The drinks and the quarantine (DrinkStore).
    package var drinks: DrinkStore { DrinkStore(history: self) }
}

extension DrinkStore {
    /// Stores a batch (one chunk) of records from `bottle` in ONE write transaction, committed
    /// (with the configured durability) when this returns: the live bridge ACKs after it.
    ///
    /// Idempotent on (bottle, record_id, timestamp). A record with the deleted flag is a
    /// tombstone: it deletes the stored drink, or is stored as deleted when unknown. Nothing
    /// undeletes a drink. Results are in the order of `records`.
    package func store(_ records: [DrinkRecord], bottle: String, at storedAt: WallInstant) throws -> [StoreResult] {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        guard !records.isEmpty else { return [] }
        return try history.write("storing \(records.count) drink records") { db in
            try records.map { record in
                StoreResult(record: record, outcome: try Self.store(record, bottle: bottle, at: storedAt, in: db))
            }
        }
    }

    static func store(_ record: DrinkRecord, bottle: String, at storedAt: WallInstant, rawTimestamp: UInt32? = nil,
                      in db: Database) throws -> StoreOutcome {
        // New records are the common case: one INSERT, no lookup. A conflict on the key (and
        // only on the key: every other constraint holds by construction) inserts nothing.
        if try insert(record, bottle: bottle, at: storedAt, rawTimestamp: rawTimestamp, in: db) {
            return record.isDeleted ? .insertedDeleted : .inserted
        }
        guard let stored = try fetchDrink(bottle: bottle, recordID: record.recordID,
                                          timestamp: record.timestamp, in: db) else {
            throw RecordNeitherStoredNorFound(recordID: record.recordID, timestamp: record.timestamp)
        }
        if stored.deleted { return .alreadyDeleted }
        if record.isDeleted {
            try markDeleted(bottle: bottle, recordID: record.recordID, timestamp: record.timestamp,
                            at: storedAt, in: db)
            return .deleted
        }
        return stored.hasSameContent(as: record) ? .duplicate : .conflicting
    }

    /// Deletes a stored drink locally (the bridge's own DELETE). Returns whether it changed
    /// anything: false when the drink is unknown or already deleted.
    package func markDeleted(bottle: String, recordID: UInt32, timestamp: UInt32, at deletedAt: WallInstant) throws -> Bool {
        let deletedAt = try ArgumentChecks.instant(deletedAt, "deletion time")
        return try history.write("deleting drink \(recordID)") { db in
            try Self.markDeleted(bottle: bottle, recordID: recordID, timestamp: timestamp, at: deletedAt, in: db)
        }
    }

    @discardableResult
    private static func markDeleted(bottle: String, recordID: UInt32, timestamp: UInt32,
                                    at deletedAt: WallInstant, in db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: """
            UPDATE drink SET deleted = 1, deleted_at = ?
            WHERE bottle = ? AND record_id = ? AND timestamp = ? AND deleted = 0
            """)
        try statement.execute(arguments: [deletedAt, bottle, recordID, timestamp])
        return db.changesCount > 0
    }

    static func fetchDrink(bottle: String, recordID: UInt32, timestamp: UInt32,
                                   in db: Database) throws -> StoredDrink? {
        let statement = try db.cachedStatement(sql: """
            SELECT * FROM drink WHERE bottle = ? AND record_id = ? AND timestamp = ?
            """)
        return try StoredDrink.fetchOne(statement, arguments: [bottle, recordID, timestamp])
    }

    /// Stored drinks ordered by timestamp, record_id (then bottle).
    ///
    /// - Parameters:
    ///   - bottle: only this bottle's drinks; nil for all.
    ///   - from: only record timestamps ≥ `from` (UTC seconds).
    ///   - to: only record timestamps < `to`.
    ///   - includeDeleted: false leaves deleted drinks out.
    package func storedDrinks(bottle: String? = nil, from: WallInstant? = nil, to: WallInstant? = nil,
                             includeDeleted: Bool = true) throws -> [StoredDrink] {
        var request = StoredDrink.all()
        if let bottle { request = request.filter(StoredDrink.Columns.bottle == bottle) }
        // Timestamps are whole seconds: `≥ from` is `≥ ⌈from⌉`, `< to` is `< ⌈to⌉`.
        if let from {
            request = request.filter(StoredDrink.Columns.timestamp >= (try ArgumentChecks.seconds(WallInstant(secondsSince1970: from.secondsSince1970.rounded(.up)), "from")))
        }
        if let to {
            request = request.filter(StoredDrink.Columns.timestamp < (try ArgumentChecks.seconds(WallInstant(secondsSince1970: to.secondsSince1970.rounded(.up)), "to")))
        }
        if !includeDeleted { request = request.filter(StoredDrink.Columns.deleted == false) }
        request = request.order(StoredDrink.Columns.timestamp, StoredDrink.Columns.recordID, StoredDrink.Columns.bottle)
        return try history.read("reading drinks") { db in try request.fetchAll(db) }
    }

    /// The bottles that have drinks stored, by key, in order.
    package func drinkBottles() throws -> [String] {
        try history.read("listing the bottles of the drinks") { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT bottle FROM drink ORDER BY bottle")
        }
    }

    /// Number of stored drinks (deleted ones included).
    package func drinkCount(bottle: String? = nil) throws -> Int {
        var request = StoredDrink.all()
        if let bottle { request = request.filter(StoredDrink.Columns.bottle == bottle) }
        return try history.read("counting drinks") { db in try request.fetchCount(db) }
    }

    /// The highest record id of `bottle`'s current id sequence (B14): among drinks stored at or
    /// after the bottle's recorded `idResetAt` (all its drinks when none was recorded).
    /// A sync that delivers a lower id means the bottle restarted its ids: record that with
    /// `recordIDReset(bottle:at:)` before storing the chunk.
    package func highestRecordID(bottle: String) throws -> UInt32? {
        try history.read("reading the highest record id") { db in try Self.highestRecordID(bottle: bottle, in: db) }
    }

    /// The same, inside a transaction (`storeChunk` checks it in the chunk's own, at every chunk).
    ///
    /// The key's index (bottle, record_id, timestamp) walked from the highest id down to the
    /// first drink of the current sequence (nearly always the first one), below the ids of the
    /// drinks people add by hand (they are no part of the bottle's sequence): MAX(record_id) with the
    /// `stored_at` condition read every drink of the bottle instead, at every chunk of a sync
    /// (7 M instructions over the 36 chunks of 600 records). The statement is prepared once.
    static func highestRecordID(bottle: String, in db: Database) throws -> UInt32? {
        try UInt32.fetchOne(db.cachedStatement(sql: """
            SELECT record_id FROM drink
            WHERE bottle = ? AND record_id < ?
              AND stored_at >= COALESCE((SELECT id_reset_at FROM bottle WHERE id = ?), stored_at)
            ORDER BY record_id DESC LIMIT 1
            """), arguments: [bottle, Drink.firstManualRecordID, bottle])
    }
}

extension DrinkStore {
    /// The drink `recordID` of `bottle`'s current id sequence (B14: ids restart after the bottle's
    /// history is cleared, so an id names a drink only among those stored since the last restart);
    /// a drink added by hand has an id of its own whatever the bottle restarted. Two members of
    /// the previous release could give two hand-added drinks the same id: then the one added
    /// here is meant (its delete reaches every member by bottle, id and time, so each deletes
    /// that one), else the newest.
    package func currentDrink(bottle: String, recordID: UInt32) throws -> StoredDrink? {
        try history.read("finding drink \(recordID)") { db in
            try StoredDrink.fetchOne(db, sql: """
                SELECT * FROM drink
                WHERE bottle = ? AND record_id = ?
                  AND (manual OR stored_at >= COALESCE((SELECT id_reset_at FROM bottle WHERE id = ?), stored_at))
                ORDER BY origin IS NULL DESC, timestamp DESC LIMIT 1
                """, arguments: [bottle, recordID, bottle])
        }
    }
}

extension DrinkStore {
    /// The highest row id of the drink table (0 when empty): drinks are only ever added (INSERT OR
    /// IGNORE) with rising row ids, so this changes exactly when a drink is stored. One index step.
    package func drinkRowIDHigh() throws -> Int64 {
        try history.read("reading the newest drink row") { db in
            try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM drink") ?? 0
        }
    }

    /// Drinks stored per bottle (deleted ones included) among rows after `rowID`: with
    /// `drinkRowIDHigh` a caller keeps counts up to date by reading only what was added.
    package func drinkCountsByBottle(afterRowID rowID: Int64 = 0) throws -> [String: Int] {
        try history.read("counting drinks") { db in
            var counts: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT bottle, COUNT(*) FROM drink WHERE rowid > ? GROUP BY bottle", arguments: [rowID])
            while let row = try rows.next() { counts[row[0]] = row[1] }
            return counts
        }
    }
}
