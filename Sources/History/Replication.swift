// What the household's replication (docs/design.md 6) needs of the history: drinks received
// from another bridge stored idempotently with their origin, and this bridge's own drinks that
// changed since an instant (stored or deleted), to publish.
//
// Only the Household module calls these, yet they belong to the drink store, not to
// HouseholdStore: they read and write rows of the drink table, which the day totals, the pages
// and the reminders count like any other drink, under the same idempotent rule as a sync
// (`DrinkStore.store`); HouseholdStore holds only the member's own bookkeeping tables.

import AquavateProtocol
import Timekeeping
import GRDB

extension DrinkStore {
    /// Stores drinks another bridge (`origin`) synced, in one transaction: idempotent on
    /// (bottle, record_id, timestamp) like `store`, a deleted one deletes. A drink this bridge
    /// already has keeps its origin. `manual`: drinks a person added by hand on `origin` (kept
    /// so, out of the bottle's record ids). Results are in the order of `records`.
    package func storeReplicated(_ records: [DrinkRecord], bottle: String, origin: String, manual: Bool = false,
                                at storedAt: WallInstant) throws -> [StoreResult] {
        let bottle = try ArgumentChecks.bottle(bottle)
        let storedAt = try ArgumentChecks.instant(storedAt, "storage time")
        guard !records.isEmpty else { return [] }
        return try history.write("storing \(records.count) drinks from \(origin)") { db in
            let mark = try db.cachedStatement(sql: """
                UPDATE drink SET origin = ?, manual = ? WHERE bottle = ? AND record_id = ? AND timestamp = ?
                """)
            return try records.map { record in
                let outcome = try Self.store(record, bottle: bottle, at: storedAt, in: db)
                if outcome == .inserted || outcome == .insertedDeleted {
                    try mark.execute(arguments: [origin, manual, bottle, record.recordID, record.timestamp])
                }
                return StoreResult(record: record, outcome: outcome)
            }
        }
    }

    /// This bridge's own drinks (not received from another) stored or deleted after `since`,
    /// oldest change first, at most `limit`; with the instant of each one's change (drinks added
    /// by hand here among them: the drink message says which they are).
    package func localDrinksChanged(since: WallInstant, limit: Int = 500) throws -> [(drink: StoredDrink, changedAt: WallInstant)] {
        try history.read("reading the drinks to publish") { db in
            let rows = try Row.fetchAll(db, sql: Self.localDrinksChangedSQL, arguments: [since, since, limit])
            return try rows.map { (try StoredDrink(row: $0), $0["changed_at"] as WallInstant) }
        }
    }

    /// This bridge's drinks changed since a mark, which the household asks every 10 s: through
    /// the indexes of `stored_at` and of deleted drinks (`drink_on_deleted_at`) together, never
    /// a read of the whole drink table.
    static let localDrinksChangedSQL = """
        SELECT *, max(stored_at, coalesce(deleted_at, stored_at)) AS changed_at FROM drink
        WHERE origin IS NULL AND (stored_at > ? OR deleted_at > ?)
        ORDER BY changed_at, bottle, record_id LIMIT ?
        """
}

extension DrinkStore {
    /// One drink as the household's anti-entropy digest counts it.
    package struct DigestRow: Sendable, Equatable {
        package var bottle: String
        package var recordID: Int64
        package var timestamp: Int64
        package var deleted: Bool

        package init(bottle: String, recordID: Int64, timestamp: Int64, deleted: Bool) {
            self.bottle = bottle
            self.recordID = recordID
            self.timestamp = timestamp
            self.deleted = deleted
        }
    }

    /// The drinks synced by `origin` (nil: this bridge) whose time is at or after `from`
    /// (seconds since 1970), deleted ones included: what the household's digests compare.
    package func digestRows(origin: String?, from: Int64) throws -> [DigestRow] {
        try history.read("reading the drinks of a digest") { db in
            try Row.fetchAll(db, sql: """
                SELECT bottle, record_id, timestamp, deleted FROM drink WHERE origin IS ? AND timestamp >= ?
                """, arguments: [origin, from]).map {
                DigestRow(bottle: $0["bottle"], recordID: $0["record_id"], timestamp: $0["timestamp"], deleted: $0["deleted"])
            }
        }
    }
}
