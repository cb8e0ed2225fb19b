// Deleting a drink another member of the household added by hand. Only a drink's origin
// publishes the drink (and its tombstone), so a member that deletes another's hand-added drink
// tells the household (and the origin) by a deletion message of its own; these are what the
// household's replication needs of the history for that: the deletions to tell, a deletion
// heard to apply, and the deletions of one origin's drinks held here, to tell again while that
// origin's digest still counts the drink.
//
// Only drinks added by hand: a bottle's drink is deleted on the bottle, and the bottle's next
// sync says so to whoever syncs it.

import AquavateProtocol
import Timekeeping
import GRDB

extension DrinkStore {
    /// A hand-added drink of another member, deleted here.
    package struct ForeignDeletion: Sendable, Equatable {
        package var bottle: String
        package var recordID: UInt32
        package var timestamp: UInt32
        /// The member that added it.
        package var origin: String
        /// When this history deleted it.
        package var deletedAt: WallInstant

        package init(bottle: String, recordID: UInt32, timestamp: UInt32, origin: String, deletedAt: WallInstant) {
            self.bottle = bottle
            self.recordID = recordID
            self.timestamp = timestamp
            self.origin = origin
            self.deletedAt = deletedAt
        }
    }

    /// The hand-added drinks of other members deleted here after `since`, oldest first, at most
    /// `limit` (deleted here by a person, or by a deletion or tombstone heard: the history does
    /// not tell them apart, the caller does).
    package func foreignManualDeletions(since: WallInstant, limit: Int = 500) throws -> [ForeignDeletion] {
        try history.read("reading the deletions of other members' drinks") { db in
            try Row.fetchAll(db, sql: Self.foreignDeletionsSinceSQL, arguments: [since, limit]).map(Self.foreignDeletion)
        }
    }

    /// The deletions to tell since a mark, which the household asks every 10 s: through the index
    /// of deleted drinks (`drink_on_deleted_at`), never a read of the whole drink table.
    static let foreignDeletionsSinceSQL = """
        SELECT bottle, record_id, timestamp, origin, deleted_at FROM drink
        WHERE origin IS NOT NULL AND manual AND deleted AND deleted_at > ?
        ORDER BY deleted_at, bottle, record_id LIMIT ?
        """

    /// The hand-added drinks of `origin` held here as deleted whose time is in `from..<to`
    /// (seconds since 1970), at most `limit`: the deletions to tell again when that origin's
    /// digest of those days differs from what is held here.
    package func foreignManualDeletions(origin: String, from: Int64, to: Int64, limit: Int = 256) throws -> [ForeignDeletion] {
        try history.read("reading the deletions of \(origin)'s drinks") { db in
            try Row.fetchAll(db, sql: """
                SELECT bottle, record_id, timestamp, origin, deleted_at FROM drink
                WHERE origin = ? AND manual AND deleted AND timestamp >= ? AND timestamp < ?
                ORDER BY timestamp, bottle, record_id LIMIT ?
                """, arguments: [origin, from, to, limit]).map(Self.foreignDeletion)
        }
    }

    /// Deletes the hand-added drink (bottle, id, time) that `origin` added (nil: this history
    /// added it), as another member asked; whether it changed anything (false when it is not
    /// held here, not hand-added, of another origin, or already deleted).
    package func deleteManualDrink(bottle: String, recordID: UInt32, timestamp: UInt32, origin: String?,
                                  at deletedAt: WallInstant) throws -> Bool {
        let bottle = try ArgumentChecks.bottle(bottle)
        let deletedAt = try ArgumentChecks.instant(deletedAt, "deletion time")
        return try history.write("deleting hand-added drink \(recordID)") { db in
            try db.execute(sql: """
                UPDATE drink SET deleted = 1, deleted_at = ?
                WHERE bottle = ? AND record_id = ? AND timestamp = ? AND manual AND origin IS ? AND deleted = 0
                """, arguments: [deletedAt, bottle, recordID, timestamp, origin])
            return db.changesCount > 0
        }
    }

    private static func foreignDeletion(_ row: Row) -> ForeignDeletion {
        ForeignDeletion(bottle: row["bottle"], recordID: row["record_id"], timestamp: row["timestamp"], origin: row["origin"],
                        deletedAt: row["deleted_at"])
    }
}
