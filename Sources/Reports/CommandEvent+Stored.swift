// A stored bottle command as a `command` event: the ingest says each result this way, and the
// CLI and the web answer a queued command with it.

import History

extension BridgeEvent.CommandEvent {
    /// The event for a stored command; one being sent counts as pending (docs/design.md 3.5).
    package init(_ command: StoredCommand) {
        self.init(id: command.id, bottle: command.bottle, command: command.command, argument: command.argument,
                  status: command.status == .sending ? "pending" : command.status.rawValue,
                  message: command.message, time: command.updatedAt)
    }
}
