// The one door to the bottle's command queue (docs/design.md 3.5): the CLI, Home Assistant and the
// web all come through here, so every command meets the same checks — the goal's range, a drink
// that exists, a bottle that is adopted — and the same queue.

import AquavateProtocol
import Timekeeping

/// What a person asks, before it is checked.
package enum BottleRequest: Sendable, Hashable {
    case goal(Int)
    case delete(recordID: Int)
    case tare
    case shakeToEmpty(Bool)
}

/// A request refused, in one line that says why and what is valid (exit 2 on the CLI).
package struct BottleRequestRefused: Error, CustomStringConvertible, Sendable {
    package var description: String
    /// The bottle named is not known (or none was named where several are): a web form that
    /// names one is stale or forged, not a person's mistake in what they typed.
    package var isUnknownBottle = false
    package init(description: String) { self.description = description }
}

package struct BottleControl: Sendable {
    package let history: DrinkHistory

    package init(history: DrinkHistory) {
        self.history = history
    }

    /// The bottle a command is for: the one named (key, serial or address), or the only one adopted.
    package func bottle(named name: String?) throws -> BottleRecord {
        if let name {
            guard let bottle = try history.bottles.bottle(named: name) else {
                throw BottleRequestRefused(description: "no bottle \(name) is known: 'aquavate-bridge bottle info' lists the adopted bottles")
            }
            return bottle
        }
        let bottles = try history.bottles.all()
        switch bottles.count {
        case 0:
            throw BottleRequestRefused(description: "no bottle is adopted yet: run 'aquavate-bridge run --once' near the bottle first")
        case 1:
            return bottles[0]
        default:
            let names = bottles.map { $0.serial ?? $0.address ?? $0.id }.joined(separator: ", ")
            throw BottleRequestRefused(description: "\(bottles.count) bottles are adopted (\(names)): name one with --bottle")
        }
    }

    /// Checks and queues a request; a delete takes effect in the history at once (the drink stops
    /// counting), and on the bottle at its next connection. Returns the queued command and, for
    /// a delete, the drink as it now stands. A drink added by hand is deleted in the history
    /// only: the bottle never had it, so no command is queued (nil).
    @discardableResult
    package func queue(_ request: BottleRequest, bottle name: String?, at time: WallInstant) throws -> (StoredCommand?, StoredDrink?) {
        let bottle = try bottle(named: name)
        let action: BottleAction
        var drink: StoredDrink?
        switch request {
        case .goal(let goal):
            if let refusal = BottleGoal.refusal(goal) { throw BottleRequestRefused(description: refusal) }
            action = .setGoal(goal)
        case .delete(let recordID):
            guard let id = UInt32(exactly: recordID),
                  let stored = try history.drinks.currentDrink(bottle: bottle.id, recordID: id) else {
                throw BottleRequestRefused(description: "the history has no drink #\(recordID) of \(bottle.serial ?? bottle.id): 'aquavate-bridge history' lists the record ids")
            }
            guard !stored.deleted else {
                throw BottleRequestRefused(description: "drink #\(recordID) is already deleted")
            }
            _ = try history.drinks.markDeleted(bottle: bottle.id, recordID: stored.recordID, timestamp: stored.timestamp, at: time)
            drink = try history.drinks.currentDrink(bottle: bottle.id, recordID: id)
            if stored.manual { return (nil, drink) }
            action = .deleteDrink(recordID: stored.recordID, timestamp: stored.timestamp)
        case .tare:
            action = .tare
        case .shakeToEmpty(let on):
            action = .shakeToEmpty(on)
        }
        let command = try history.commands.queue(bottle: bottle.id, command: action.kind, argument: action.argument,
                                               replacing: action.replacesPendingOfSameKind, at: time)
        return (command, drink)
    }
}
