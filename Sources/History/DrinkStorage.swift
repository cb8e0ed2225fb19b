// Storing drink records idempotently, tombstones, local deletions, and reading drinks back.

import AquavateProtocol
import GRDB

/// An INSERT OR IGNORE that inserted nothing for a key that is not there: a constraint other
/// than the key refused the row. Never expected; reported as a failed store, never swallowed.
struct RecordNeitherStoredNorFound: Error, CustomStringConvertible {
    var recordID: UInt32
    var timestamp: UInt32
    var description: String { "drink record \(recordID) at \(timestamp) was refused by the drink table" }
}

extension DrinkHistory {
    /// Stores a batch (one chunk) of records from `bottle` in ONE write transaction, committed
    /// (with the configured durability) when this returns: the live bridge ACKs after it.
    ///
    /// Idempotent on (bottle, record_id, timestamp). A record with the deleted flag is a
    /// tombstone: it deletes the stored drink, or is stored as deleted when unknown. Nothing
    /// undeletes a drink. Results are in the order of `records`.
    public func store(_ records: [DrinkRecord], bottle: String, at storedAt: Double) throws -> [StoreResult] {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        guard !records.isEmpty else { return [] }
        return try write("storing \(records.count) drink records") { db in
            try Self.storeAll(records, bottle: bottle, at: storedAt, in: db)
        }
    }

    /// The most rows one INSERT of `storeAll` carries: a chunk (17 records at the largest MTU,
    /// docs/protocol.md 4.4), so that a sync prepares one statement for its full chunks and one
    /// for its last, and the statement cache holds at most this many of them.
    static let rowsPerInsert = 17

    /// Stores `records` in the caller's transaction; one outcome per record, in order, the same
    /// as storing them one at a time. The new ones go in by one multi-row INSERT per
    /// `rowsPerInsert` records, whose RETURNING names the rows it inserted; the others (a copy
    /// already stored, a tombstone for a stored drink, a second copy within the batch) are then
    /// judged one by one, in order, against the stored row. Why not one INSERT per record: per
    /// record, GRDB's work around a statement (its arguments, the statement cache, its observers)
    /// cost more than SQLite's insert itself, ~16,000 instructions of a drink's ~77,000 in a
    /// one-shot sync (callgrind).
    static func storeAll(_ records: [DrinkRecord], bottle: String, at storedAt: Double,
                         in db: Database) throws -> [StoreResult] {
        var results: [StoreResult] = []
        results.reserveCapacity(records.count)
        var start = records.startIndex
        while start < records.endIndex {
            let slice = records[start..<min(start + rowsPerInsert, records.endIndex)]
            var inserted = try insertNew(slice, bottle: bottle, at: storedAt, in: db)
            for record in slice {
                let key = DrinkKey(record)
                if let count = inserted[key], count > 0 {
                    // The first copy of a key in the batch is the one the INSERT took.
                    inserted[key] = count - 1
                    results.append(StoreResult(record: record, outcome: record.isDeleted ? .insertedDeleted : .inserted))
                } else {
                    results.append(StoreResult(record: record, outcome: try storedBefore(record, bottle: bottle, at: storedAt, in: db)))
                }
            }
            start = slice.endIndex
        }
        return results
    }

    /// A drink's key within one bottle.
    private struct DrinkKey: Hashable {
        var recordID: UInt32
        var timestamp: UInt32
        init(_ record: DrinkRecord) { (recordID, timestamp) = (record.recordID, record.timestamp) }
        init(recordID: UInt32, timestamp: UInt32) { (self.recordID, self.timestamp) = (recordID, timestamp) }
    }

    /// One INSERT OR IGNORE of `records`; how many rows it inserted for each key.
    private static func insertNew(_ records: ArraySlice<DrinkRecord>, bottle: String, at storedAt: Double,
                                  in db: Database) throws -> [DrinkKey: Int] {
        let rows = repeatElement("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", count: records.count).joined(separator: ", ")
        let insert = try db.cachedStatement(sql: """
            INSERT OR IGNORE INTO drink
                (bottle, record_id, timestamp, amount_ml, bottle_level_ml, type, type_raw, flags, deleted, stored_at, deleted_at)
            VALUES \(rows)
            RETURNING record_id, timestamp
            """)
        var values: [DatabaseValue] = []
        values.reserveCapacity(records.count * 11)
        let bottleValue = bottle.databaseValue
        let storedAtValue = storedAt.databaseValue
        for record in records {
            let deleted = record.isDeleted
            values += [
                bottleValue, record.recordID.databaseValue, record.timestamp.databaseValue, record.amountML.databaseValue,
                record.bottleLevelML.databaseValue, record.kind.rawValue.databaseValue, record.typeRaw.databaseValue,
                record.flagsRaw.databaseValue, deleted.databaseValue, storedAtValue, deleted ? storedAtValue : .null,
            ]
        }
        insert.setUncheckedArguments(StatementArguments(values))
        var inserted: [DrinkKey: Int] = [:]
        let returned = try Row.fetchCursor(insert)
        while let row = try returned.next() {
            inserted[DrinkKey(recordID: row[0], timestamp: row[1]), default: 0] += 1
        }
        return inserted
    }

    /// What a record the INSERT did not take means (a copy of a stored drink, a tombstone, or
    /// a row a constraint refused), judged against the stored row.
    private static func storedBefore(_ record: DrinkRecord, bottle: String, at storedAt: Double,
                                     in db: Database) throws -> StoreOutcome {
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
    public func markDeleted(bottle: String, recordID: UInt32, timestamp: UInt32, at deletedAt: Double) throws -> Bool {
        let deletedAt = try ArgumentChecks.instant(deletedAt, "deletion time")
        return try write("deleting drink \(recordID)") { db in
            try Self.markDeleted(bottle: bottle, recordID: recordID, timestamp: timestamp, at: deletedAt, in: db)
        }
    }

    @discardableResult
    private static func markDeleted(bottle: String, recordID: UInt32, timestamp: UInt32,
                                    at deletedAt: Double, in db: Database) throws -> Bool {
        let statement = try db.cachedStatement(sql: """
            UPDATE drink SET deleted = 1, deleted_at = ?
            WHERE bottle = ? AND record_id = ? AND timestamp = ? AND deleted = 0
            """)
        try statement.execute(arguments: [deletedAt, bottle, recordID, timestamp])
        return db.changesCount > 0
    }

    private static func fetchDrink(bottle: String, recordID: UInt32, timestamp: UInt32,
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
    public func storedDrinks(bottle: String? = nil, from: Double? = nil, to: Double? = nil,
                             includeDeleted: Bool = true) throws -> [StoredDrink] {
        var request = StoredDrink.all()
        if let bottle { request = request.filter(StoredDrink.Columns.bottle == bottle) }
        // Timestamps are whole seconds: `≥ from` is `≥ ⌈from⌉`, `< to` is `< ⌈to⌉`.
        if let from {
            request = request.filter(StoredDrink.Columns.timestamp >= (try ArgumentChecks.seconds(from.rounded(.up), "from")))
        }
        if let to {
            request = request.filter(StoredDrink.Columns.timestamp < (try ArgumentChecks.seconds(to.rounded(.up), "to")))
        }
        if !includeDeleted { request = request.filter(StoredDrink.Columns.deleted == false) }
        request = request.order(StoredDrink.Columns.timestamp, StoredDrink.Columns.recordID, StoredDrink.Columns.bottle)
        return try read("reading drinks") { db in try request.fetchAll(db) }
    }

    /// The bottles that have drinks stored, by key, in order.
    public func drinkBottles() throws -> [String] {
        try read("listing the bottles of the drinks") { db in
            try String.fetchAll(db, sql: "SELECT DISTINCT bottle FROM drink ORDER BY bottle")
        }
    }

    /// Number of stored drinks (deleted ones included).
    public func drinkCount(bottle: String? = nil) throws -> Int {
        var request = StoredDrink.all()
        if let bottle { request = request.filter(StoredDrink.Columns.bottle == bottle) }
        return try read("counting drinks") { db in try request.fetchCount(db) }
    }

    /// The highest record id of `bottle`'s current id sequence (B14): among drinks stored at or
    /// after the bottle's recorded `idResetAt` (all its drinks when none was recorded).
    /// A sync that delivers a lower id means the bottle restarted its ids: record that with
    /// `recordIDReset(bottle:at:)` before storing the chunk.
    public func highestRecordID(bottle: String) throws -> UInt32? {
        try read("reading the highest record id") { db in try Self.highestRecordID(bottle: bottle, in: db) }
    }

    /// The same, inside a transaction (`storeChunk` checks it in the chunk's own, at every chunk).
    ///
    /// The key's index (bottle, record_id, timestamp) walked from the highest id down to the
    /// first drink of the current sequence (nearly always the first one): MAX(record_id) with the
    /// `stored_at` condition read every drink of the bottle instead, at every chunk of a sync
    /// (7 M instructions over the 36 chunks of 600 records). The statement is prepared once.
    static func highestRecordID(bottle: String, in db: Database) throws -> UInt32? {
        try UInt32.fetchOne(db.cachedStatement(sql: """
            SELECT record_id FROM drink
            WHERE bottle = ?
              AND stored_at >= COALESCE((SELECT id_reset_at FROM bottle WHERE id = ?), stored_at)
            ORDER BY record_id DESC LIMIT 1
            """), arguments: [bottle, bottle])
    }
}

extension DrinkHistory {
    /// The drink `recordID` of `bottle`'s current id sequence (B14: ids restart after the bottle's
    /// history is cleared, so an id names a drink only among those stored since the last restart).
    public func currentDrink(bottle: String, recordID: UInt32) throws -> StoredDrink? {
        try read("finding drink \(recordID)") { db in
            try StoredDrink.fetchOne(db, sql: """
                SELECT * FROM drink
                WHERE bottle = ? AND record_id = ?
                  AND stored_at >= COALESCE((SELECT id_reset_at FROM bottle WHERE id = ?), stored_at)
                ORDER BY timestamp DESC LIMIT 1
                """, arguments: [bottle, recordID, bottle])
        }
    }
}

extension DrinkHistory {
    /// The highest row id of the drink table (0 when empty): drinks are only ever added (INSERT OR
    /// IGNORE) with rising row ids, so this changes exactly when a drink is stored. One index step.
    public func drinkRowIDHigh() throws -> Int64 {
        try read("reading the newest drink row") { db in
            try Int64.fetchOne(db, sql: "SELECT COALESCE(MAX(rowid), 0) FROM drink") ?? 0
        }
    }

    /// Drinks stored per bottle (deleted ones included) among rows after `rowID`: with
    /// `drinkRowIDHigh` a caller keeps counts up to date by reading only what was added.
    public func drinkCountsByBottle(afterRowID rowID: Int64 = 0) throws -> [String: Int] {
        try read("counting drinks") { db in
            var counts: [String: Int] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT bottle, COUNT(*) FROM drink WHERE rowid > ? GROUP BY bottle", arguments: [rowID])
            while let row = try rows.next() { counts[row[0]] = row[1] }
            return counts
        }
    }
}
