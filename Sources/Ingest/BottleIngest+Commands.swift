// The ingest is the session's command queue (docs/design.md 3.5): it hands the session what is
// pending for this bottle, records each result in the history, and says it as a `command` event.

import AquavateProtocol
import Timekeeping
import BottleSession
import History
import Reports

extension BottleIngest: BottleCommandQueue {
    /// An unconfirmed command is tried at this many connections before it is reported failed;
    /// one cut short by the link is tried until it is applied (it may be applied twice).
    static let commandAttempts = 3

    package func pendingCommands(bottle: String, at time: WallInstant) -> [QueuedCommand] {
        let stored: [StoredCommand]
        do {
            stored = try history.commands.all(bottle: bottle, statuses: [.pending, .sending])
        } catch {
            logger.warning("could not read the bottle's commands: \(error); none applied this time")
            return []
        }
        var ready: [QueuedCommand] = []
        for command in stored {
            guard let action = command.action else {
                record(command, .failed, "not a command this bridge knows (\(command.command) \(command.argument ?? ""))", at: time)
                continue
            }
            if command.status == .sending, !action.isIdempotent {
                // The bridge stopped between the write and its end: whether the bottle took it
                // cannot be known, and it must not be applied twice. (One that may be applied
                // twice is simply tried again.)
                record(command, .failed, "the bridge stopped while \(action.summary) was being sent; not repeated: check the bottle", at: time)
                continue
            }
            if case .deleteDrink(let recordID, let timestamp) = action,
               (try? history.drinks.currentDrink(bottle: bottle, recordID: recordID))??.timestamp != timestamp {
                // B14: the bottle restarted its record ids since; #recordID is another drink now.
                record(command, .failed, "drink #\(recordID) is not in the bottle's current records (its ids restarted); the bridge's history keeps it deleted", at: time)
                continue
            }
            ready.append(QueuedCommand(id: command.id, action: action))
        }
        return ready
    }

    package func claim(_ command: QueuedCommand, at time: WallInstant) -> Bool {
        do {
            // A command that must not be applied twice counts its attempt here, before the write.
            let claimed = try history.commands.claim(id: command.id, attempted: !command.action.isIdempotent, at: time)
            if !claimed { logger.info("\(bottleName): \(command.action.summary) is no longer pending (undone); not sent") }
            return claimed
        } catch {
            logger.warning("could not mark command #\(command.id) as being sent: \(error); not sent this time")
            return false
        }
    }

    package func finished(_ command: QueuedCommand, _ verdict: CommandVerdict, at time: WallInstant) {
        let attempted = command.action.isIdempotent
        switch verdict {
        case .applied(let message):
            logger.info("\(bottleName): \(command.action.summary) applied: \(message)")
            update(command.id, .applied, message, attempted: attempted, at: time)
        case .failed(let message):
            logger.warning("\(bottleName): \(command.action.summary) failed: \(message)")
            update(command.id, .failed, message, attempted: attempted, at: time)
        case .interrupted(let message):
            logger.notice("\(bottleName): \(command.action.summary) interrupted: \(message)")
            update(command.id, .pending, message, attempted: false, at: time)
        case .unconfirmed(let message):
            let attempts = ((try? history.commands.all(bottle: bottleID))?.first { $0.id == command.id }?.attempts ?? 0) + 1
            if attempts >= Self.commandAttempts {
                logger.warning("\(bottleName): \(command.action.summary) failed after \(attempts) attempts: \(message)")
                update(command.id, .failed, "gave up after \(attempts) attempts: \(message)", attempted: true, at: time)
            } else {
                logger.notice("\(bottleName): \(command.action.summary) unconfirmed: \(message)")
                update(command.id, .pending, message, attempted: true, at: time)
            }
        }
    }

    private func record(_ command: StoredCommand, _ status: StoredCommand.Status, _ message: String, at time: WallInstant) {
        logger.warning("\(bottleName): command #\(command.id) (\(command.command)) \(status.rawValue): \(message)")
        update(command.id, status, message, attempted: false, at: time)
    }

    private func update(_ id: Int64, _ status: StoredCommand.Status, _ message: String, attempted: Bool, at time: WallInstant) {
        do {
            if let row = try history.commands.update(id: id, status: status, message: message, attempted: attempted, at: time) {
                emitEvent(.command(BridgeEvent.CommandEvent(row)))
            }
        } catch {
            logger.warning("could not record the result of command #\(id): \(error)")
        }
    }
}
