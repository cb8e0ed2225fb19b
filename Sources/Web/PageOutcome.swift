// What a form of the page did, carried to the page that follows (post/redirect/get): the form's
// answer is a 303 to `/?done=…`, so a reload never posts again and the browser stays on the page.
// The address carries an enum and numbers only; the page says it in the person's words.

import AquavateProtocol
import Foundation
import History
import Reminders

enum PageOutcome: Sendable, Equatable {
    /// A drink deleted through `command` (the page offers Undo while it waits for the bottle).
    case deleted(command: Int64)
    case restored
    case undoTooLate
    /// Undo refused because the household already has the delete (docs/household.md).
    case undoShared
    /// The person's daily goal set (`DailyGoal`); the bottle is asked to show it clamped into
    /// what it holds (`BottleGoal.clamped`), which the page says when they differ.
    case goalSet(goalML: Int)
    /// A daily goal outside `DailyGoal.rangeML`: said back with the range.
    case goalRefused(goalML: Int)
    case deleteRefused
    case limit(on: Bool)
    /// A drink added by hand: its amount and time (UTC seconds), said back on the page.
    case drinkAdded(amountML: Int, timestamp: Int64)
    /// A drink not added: a volume out of range or a time that has not passed.
    case drinkRefused
    /// A drink added by hand, deleted: nothing goes to the bottle, so there is no undo.
    case manualDeleted
    /// Anything else refused (a stale form, a bottle no longer known).
    case refused

    private enum Kind: String {
        case deleted, restored, undoTooLate = "undo-too-late", undoShared = "undo-shared", goal, goalRefused = "goal-refused",
             deleteRefused = "delete-refused", limitOn = "limit-on", limitOff = "limit-off", refused,
             drinkAdded = "drink-added", drinkRefused = "drink-refused", manualDeleted = "manual-deleted"
    }

    /// Where the form's answer sends the browser.
    var location: String {
        switch self {
        case .deleted(let command): return "/?done=\(Kind.deleted.rawValue)&command=\(command)"
        case .restored: return "/?done=\(Kind.restored.rawValue)"
        case .undoTooLate: return "/?done=\(Kind.undoTooLate.rawValue)"
        case .undoShared: return "/?done=\(Kind.undoShared.rawValue)"
        case .goalSet(let goal): return "/?done=\(Kind.goal.rawValue)&daily_goal_ml=\(goal)"
        case .goalRefused(let goal): return "/?done=\(Kind.goalRefused.rawValue)&daily_goal_ml=\(goal)"
        case .deleteRefused: return "/?done=\(Kind.deleteRefused.rawValue)"
        case .limit(let on): return "/?done=\((on ? Kind.limitOn : .limitOff).rawValue)"
        case .refused: return "/?done=\(Kind.refused.rawValue)"
        case .drinkAdded(let amount, let timestamp): return "/?done=\(Kind.drinkAdded.rawValue)&amount_ml=\(amount)&time=\(timestamp)"
        case .drinkRefused: return "/?done=\(Kind.drinkRefused.rawValue)"
        case .manualDeleted: return "/?done=\(Kind.manualDeleted.rawValue)"
        }
    }

    /// Back from the page's query; nil when there is none or it makes no sense (ignored, never an error).
    init?(query: FormFields) {
        guard let kind = query["done"].flatMap(Kind.init(rawValue:)) else { return nil }
        let number = { (name: String) in query[name].flatMap { Int64($0) } }
        switch kind {
        case .deleted:
            guard let command = number("command") else { return nil }
            self = .deleted(command: command)
        case .restored: self = .restored
        case .undoTooLate: self = .undoTooLate
        case .undoShared: self = .undoShared
        case .goal, .goalRefused:
            // A goal said to be set must be one (a hand-made address is ignored); a refused one is
            // shown back whatever whole number it was.
            guard let goal = number("daily_goal_ml").flatMap({ Int(exactly: $0) }), kind == .goalRefused || DailyGoal.rangeML.contains(goal) else { return nil }
            self = kind == .goal ? .goalSet(goalML: goal) : .goalRefused(goalML: goal)
        case .deleteRefused: self = .deleteRefused
        case .limitOn: self = .limit(on: true)
        case .limitOff: self = .limit(on: false)
        case .refused: self = .refused
        case .drinkAdded:
            guard let amount = number("amount_ml").flatMap({ Int(exactly: $0) }), ManualDrinkLimits.volumeML.contains(amount),
                  let time = number("time"), time >= 0, time <= Int64(UInt32.max) else { return nil }
            self = .drinkAdded(amountML: amount, timestamp: time)
        case .drinkRefused: self = .drinkRefused
        case .manualDeleted: self = .manualDeleted
        }
    }

    /// A refusal is shown as an alert; a success as a status line.
    var isRefusal: Bool {
        switch self {
        case .undoTooLate, .undoShared, .goalRefused, .deleteRefused, .refused, .drinkRefused: return true
        default: return false
        }
    }
}

extension PageOutcome {
    /// A refusal as the API answers it, for a client that did not ask for HTML (a script, curl):
    /// design 3.6's 4xx JSON `error`, in the page's words. nil: not a refusal. A browser is sent
    /// back to the page instead (post/redirect/get), where the same words are shown.
    func refusal(_ words: WebWords) -> WebError? {
        switch self {
        case .goalRefused(let goal): return .unprocessable(words.goalRefused(goal, DailyGoal.rangeML))
        case .deleteRefused: return .unprocessable(words.deleteRefused)
        case .refused: return .unprocessable(words.actionRefused)
        // Bad input, as the API's own endpoint answers it.
        case .drinkRefused: return .badRequest(words.drinkRefused)
        // The request was sound; the state of the command no longer allows it.
        case .undoTooLate: return WebError(status: .conflict, message: words.undoTooLate)
        case .undoShared: return WebError(status: .conflict, message: words.undoShared)
        case .deleted, .restored, .goalSet, .limit, .drinkAdded, .manualDeleted: return nil
        }
    }
}
