// What a session needs from the durable command queue (docs/design.md 3.5): the commands to apply
// once the sync is done, and a place to say how each went. The bridge's ingest implements it
// over the history; tests give it a list.

import AquavateProtocol
import Timekeeping

/// A command waiting for the bottle.
public struct QueuedCommand: Sendable, Hashable {
    /// The queue's id (the `id` of the `command` event).
    public var id: Int64
    public var action: BottleAction

    public init(id: Int64, action: BottleAction) {
        self.id = id
        self.action = action
    }
}

/// How applying a command went.
public enum CommandVerdict: Sendable, Hashable {
    /// The bottle took it; the text says what it now holds.
    case applied(String)
    /// The bottle did not take it, or cannot: not tried again. The text says why and what to do.
    case failed(String)
    /// Cut short by the link (the bottle slept, went out of range, bluetoothd restarted): tried
    /// again at the next connection, however often — only ever for a command that may be applied
    /// twice (`BottleAction.isIdempotent`).
    case interrupted(String)
    /// Written, but the bottle showed nothing that confirms it (a delete with no Current State
    /// after it): tried again at the next connection, a few times, then failed.
    case unconfirmed(String)
}

public protocol BottleCommandQueue: Sendable {
    /// The commands to apply now, oldest first.
    func pendingCommands(bottle: String, at time: WallInstant) -> [QueuedCommand]
    /// Called, and durably recorded, just before a command that must not be applied twice is
    /// written: a session that dies after it leaves the command `sending`, never `pending`.
    func sending(_ command: QueuedCommand, at time: WallInstant)
    func finished(_ command: QueuedCommand, _ verdict: CommandVerdict, at time: WallInstant)
}
