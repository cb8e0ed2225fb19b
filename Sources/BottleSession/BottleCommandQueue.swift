// What a session needs from the durable command queue (docs/design.md 3.5): the commands to apply
// once the sync is done, and a place to say how each went. The bridge's ingest implements it
// over the history; tests give it a list.

import AquavateProtocol
import Timekeeping

/// A command waiting for the bottle.
package struct QueuedCommand: Sendable, Hashable {
    /// The queue's id (the `id` of the `command` event).
    package var id: Int64
    package var action: BottleAction

    package init(id: Int64, action: BottleAction) {
        self.id = id
        self.action = action
    }
}

/// How applying a command went.
package enum CommandVerdict: Sendable, Hashable {
    /// The bottle took it; the text says what it now holds.
    case applied(String)
    /// The bottle did not take it, or cannot: not tried again. The text says why and what to do.
    case failed(String)
    /// Cut short by the link (the bottle slept, went out of range, bluetoothd restarted): tried
    /// again at the next connection, however often — only ever for a command that may be applied
    /// twice (`BottleAction.isIdempotent`).
    case interrupted(String)
    /// Written, but the bottle showed nothing that confirms it (a delete with no Current State
    /// after it), or not written because the connection did not show its characteristic: tried
    /// again at the next connection, a few times, then failed.
    case unconfirmed(String)
}

package protocol BottleCommandQueue: Sendable {
    /// The commands to apply now, oldest first.
    func pendingCommands(bottle: String, at time: WallInstant) -> [QueuedCommand]
    /// Takes the command in hand just before it is written, durably (`sending`): false when it is
    /// no longer pending (the person undid a delete while earlier commands were applied), and
    /// then it is not written. Claiming is what makes an undo and the session exclusive: without
    /// it the session would send a delete from memory that the history has already undone, and
    /// count a drink the bottle no longer holds. A session that dies after the claim leaves the
    /// command `sending`: the next connection repeats it when it may be applied twice, else
    /// reports it failed.
    func claim(_ command: QueuedCommand, at time: WallInstant) -> Bool
    func finished(_ command: QueuedCommand, _ verdict: CommandVerdict, at time: WallInstant)
}
