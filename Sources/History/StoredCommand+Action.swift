// What a queued command asks of the bottle, read back from the queue. `BottleControl` stores an
// action as its `kind` and `argument` text; the same `BottleAction` parses that text back, here
// and nowhere else, so that the page, `status`, Home Assistant's state and the ingest agree on
// what a stored `2500` or `on` means. The modules that may not see the bottle's protocol (the
// reminders' `Reminding`, docs/architecture.md) read the parsed values of `PendingChanges`.

import AquavateProtocol

extension StoredCommand {
    /// What the command asks, parsed from its stored kind and argument; nil for one this version
    /// cannot read (an unknown kind, a goal outside the bottle's range, a malformed argument).
    package var action: BottleAction? { BottleAction(kind: command, argument: argument) }
}

/// What a bottle's commands not yet applied will change at its next connection: of each kind the
/// newest counts, as a newer goal or switch replaces a pending one (docs/design.md 3.5).
package struct PendingChanges: Sendable, Equatable {
    /// The goal the newest goal command gives the bottle.
    package var goalML: Int?
    /// The setting the newest shake-to-empty command gives the bottle.
    package var shakeToEmpty: Bool?

    /// From a bottle's commands, oldest first; only those still pending or being sent count.
    package init(_ commands: [StoredCommand]) {
        for command in commands where command.status == .pending || command.status == .sending {
            switch command.action {
            case .setGoal(let goal)?: goalML = goal
            case .shakeToEmpty(let on)?: shakeToEmpty = on
            case .deleteDrink?, .tare?, nil: break
            }
        }
    }
}
