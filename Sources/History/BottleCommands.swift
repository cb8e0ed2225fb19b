// The durable queue of commands for the bottle (docs/design.md 3.5): `bottle goal`, `delete`,
// `tare`, `shake-to-empty`, from the CLI, Home Assistant or the web, kept until the bottle's next
// connection applies them, through restarts. Every command keeps its last status and message,
// so one the bottle did not take stays visible as `failed` with the reason.

import GRDB
import Timekeeping

/// One queued command.
package struct StoredCommand: Sendable, Hashable {
    package enum Status: String, Sendable, Hashable, CaseIterable {
        case pending
        /// Written, or about to be, and not to be repeated (tare): a session that ends in this
        /// state leaves it uncertain, and the next connection reports it failed.
        case sending
        case applied
        case failed
    }

    package var id: Int64
    package var bottle: String
    package var command: String
    package var argument: String?
    package var status: Status
    package var message: String?
    package var attempts: Int
    package var createdAt: WallInstant
    package var updatedAt: WallInstant
}

extension StoredCommand: FetchableRecord {
    package static let databaseTableName = "bottle_command"

    package init(row: Row) throws {
        id = try row.decode(Int64.self, forColumn: "id")
        bottle = try row.decode(String.self, forColumn: "bottle")
        command = try row.decode(String.self, forColumn: "command")
        argument = try row.decode(String?.self, forColumn: "argument")
        let raw = try row.decode(String.self, forColumn: "status")
        status = Status(rawValue: raw) ?? .failed
        message = try row.decode(String?.self, forColumn: "message")
        attempts = try row.decode(Int.self, forColumn: "attempts")
        createdAt = try row.decode(WallInstant.self, forColumn: "created_at")
        updatedAt = try row.decode(WallInstant.self, forColumn: "updated_at")
    }
}

/// The bottle command queue's part of the history (`history.commands`): the queued commands, a
/// delete withdrawn (DeleteUndo) and the refused commands' tally (RefusedCommandCounts), over the
/// history's one database writer. `BottleControl` is the door requests come through: it checks
/// them against the bottles and drinks as well, then queues here.
package struct CommandStore: Sendable {
    let history: DrinkHistory
}

extension DrinkHistory {
    /// The bottle command queue (CommandStore).
    package var commands: CommandStore { CommandStore(history: self) }
}

extension CommandStore {
    /// Queues a command; a pending one of the same kind is replaced when `replacing` (a newer
    /// goal replaces a pending goal: it is marked failed, "replaced by …"). Returns the new one.
    @discardableResult
    package func queue(bottle: String, command: String, argument: String?, replacing: Bool,
                             at time: WallInstant) throws -> StoredCommand {
        let bottle = try ArgumentChecks.bottle(bottle)
        let time = try ArgumentChecks.instant(time, "command time")
        return try history.write("queueing \(command) for \(bottle)") { db in
            if replacing {
                try db.execute(sql: """
                    UPDATE bottle_command SET status = 'failed', message = ?, updated_at = ?
                    WHERE bottle = ? AND command = ? AND status = 'pending'
                    """, arguments: ["replaced by a newer \(command) command", time, bottle, command])
            }
            try db.execute(sql: """
                INSERT INTO bottle_command (bottle, command, argument, status, attempts, created_at, updated_at)
                VALUES (?, ?, ?, 'pending', 0, ?, ?)
                """, arguments: [bottle, command, argument, time, time])
            let id = db.lastInsertedRowID
            return try StoredCommand.fetchOne(db, sql: "SELECT * FROM bottle_command WHERE id = ?", arguments: [id])!
        }
    }

    /// Commands of `bottle` (every bottle when nil), oldest first; only those with one of
    /// `statuses` when given.
    package func all(bottle: String? = nil, statuses: Set<StoredCommand.Status>? = nil) throws -> [StoredCommand] {
        try history.read("reading bottle commands") { db in
            var sql = "SELECT * FROM bottle_command"
            var clauses: [String] = []
            var arguments: StatementArguments = []
            if let bottle {
                clauses.append("bottle = ?")
                arguments += [bottle]
            }
            if let statuses {
                clauses.append("status IN (\(statuses.map { "'\($0.rawValue)'" }.sorted().joined(separator: ", ")))")
            }
            if !clauses.isEmpty { sql += " WHERE " + clauses.joined(separator: " AND ") }
            return try StoredCommand.fetchAll(db, sql: sql + " ORDER BY id", arguments: arguments)
        }
    }

    /// Marks a pending command `sending`, in one statement, and says whether it was still pending:
    /// the session's claim, exclusive with `undoDelete` (which only withdraws a pending one).
    @discardableResult
    package func claim(id: Int64, attempted: Bool, at time: WallInstant) throws -> Bool {
        let time = try ArgumentChecks.instant(time, "command time")
        return try history.write("claiming bottle command \(id)") { db in
            try db.execute(sql: """
                UPDATE bottle_command SET status = 'sending', attempts = attempts + ?, updated_at = ?
                WHERE id = ? AND status IN ('pending', 'sending')
                """, arguments: [attempted ? 1 : 0, time, id])
            return db.changesCount > 0
        }
    }

    /// Sets a command's status and message; `attempted` counts one more attempt. Returns the row.
    @discardableResult
    package func update(id: Int64, status: StoredCommand.Status, message: String?, attempted: Bool = false,
                              at time: WallInstant) throws -> StoredCommand? {
        let time = try ArgumentChecks.instant(time, "command time")
        return try history.write("updating bottle command \(id)") { db in
            try db.execute(sql: """
                UPDATE bottle_command SET status = ?, message = ?, attempts = attempts + ?, updated_at = ? WHERE id = ?
                """, arguments: [status.rawValue, message, attempted ? 1 : 0, time, id])
            return try StoredCommand.fetchOne(db, sql: "SELECT * FROM bottle_command WHERE id = ?", arguments: [id])
        }
    }
}
