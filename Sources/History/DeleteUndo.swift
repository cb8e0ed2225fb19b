// Undoing a delete a person just asked for (the page's "Undo"): while the bottle has not been sent
// the command, the command is withdrawn and the drink counts again, in one transaction. Once the
// bottle has it (sending, applied) the drink is gone from the bottle too, and it is too late: the
// history must not count a drink the bottle no longer holds.

import AquavateProtocol
import GRDB

/// What undoing a delete did.
package enum DeleteUndo: Sendable, Equatable {
    /// The command was withdrawn and the drink restored.
    case restored(StoredDrink)
    /// The bottle already has the command (or it ended): nothing changed.
    case tooLate
}

extension CommandStore {
    /// Withdraws the pending delete `commandID` and restores its drink. nil: no delete command
    /// with that id exists.
    package func undoDelete(commandID: Int64) throws -> DeleteUndo? {
        try history.write("undoing delete command \(commandID)") { db in
            guard let command = try StoredCommand.fetchOne(db, sql: "SELECT * FROM bottle_command WHERE id = ? AND command = 'delete'",
                                                           arguments: [commandID]) else { return nil }
            // A delete the session has ever taken in hand (claimed, or tried and cut short) may
            // have reached the bottle: only one never touched can be withdrawn.
            guard command.status == .pending, command.attempts == 0, command.message == nil,
                  case .deleteDrink(let recordID, let timestamp)? = command.action
            else { return .tooLate }
            guard var drink = try DrinkStore.fetchDrink(bottle: command.bottle, recordID: recordID, timestamp: timestamp, in: db) else {
                return .tooLate
            }
            try db.execute(sql: """
                UPDATE drink SET deleted = 0, deleted_at = NULL
                WHERE bottle = ? AND record_id = ? AND timestamp = ? AND deleted = 1
                """, arguments: [command.bottle, recordID, timestamp])
            try db.execute(sql: "DELETE FROM bottle_command WHERE id = ?", arguments: [commandID])
            drink.deleted = false
            drink.deletedAt = nil
            return .restored(drink)
        }
    }
}
