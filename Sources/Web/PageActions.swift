// The page's forms (`/actions/goal`, `/actions/delete`, `/actions/undo`, `/actions/daily-limit`):
// each goes through the same checks and queue as `aquavate-bridge bottle …` and `config set`
// (BottleControl), and answers 303 to the page with what happened (PageOutcome), refusals
// included: the browser never stays on an action's address, and a reload never posts again.
// Every form names the bottle it acts on (a hidden field of the person's panel it sits in); a
// form without one is refused with a 400 before anything is read, never guessed as "the most
// recently seen bottle", which would act on whoever synced last.

import AquavateProtocol
import Foundation
import History
import Reminders
import Settings
import Timekeeping

enum PageActions {
    static func perform(_ route: WebRoute, _ form: FormFields, context: WebContext) throws -> PageOutcome {
        let bottle = try formBottle(form)
        switch route {
        case .setGoal:
            // The person's daily goal, checked as `setup --goal` and the API check it (DailyGoal).
            // A goal that is no whole number at all is a stale or forged form: nothing to show back.
            guard let goal = form["daily_goal_ml"].flatMap({ Int($0) }) else { return .refused }
            guard DailyGoal.refusal(goal) == nil else { return .goalRefused(goalML: goal) }
            do {
                _ = try DailyGoalSetting.set(goal, bottle: bottle, context: context)
                return .goalSet(goalML: goal)
            } catch is WebError {
                return .refused
            }
        case .deleteDrink:
            guard let record = form["record_id"].flatMap({ Int($0) }) else { return .deleteRefused }
            do {
                let (command, drink) = try BottleControl(history: context.history).queue(.delete(recordID: record), bottle: bottle,
                                                                                          at: context.clock.now)
                if let drink { context.drinksChanged?(drink.bottle) }
                // A drink added by hand: no command, so no undo is offered.
                guard let command else { return .manualDeleted }
                return .deleted(command: command.id)
            } catch is BottleRequestRefused {
                return .deleteRefused
            }
        case .undoDelete:
            // A household member keeps a delete for good once it has it (docs/household.md): an
            // undo here would leave this bridge counting a drink the others do not.
            guard try context.configuration()[Setting.householdKey] == nil else { return .undoShared }
            // The command must be the named bottle's: a form of one person's panel never undoes another's.
            guard let command = form["command"].flatMap({ Int64($0) }),
                  let known = try context.history.bottles.bottle(named: bottle),
                  try context.history.commands.all(bottle: known.id).contains(where: { $0.id == command }),
                  let undone = try context.history.commands.undoDelete(commandID: command) else { return .refused }
            switch undone {
            case .restored: return .restored
            case .tooLate: return .undoTooLate
            }
        case .dailyLimit:
            guard let enabled = form["enabled"], enabled == "true" || enabled == "false" else { return .refused }
            do {
                try DailyLimitSwitch.set(enabled == "true", bottle: bottle, context: context)
            } catch is WebError {
                return .refused
            }
            return .limit(on: enabled == "true")
        case .addDrink:
            let now = context.clock.now
            guard let volume = form["volume_ml"].flatMap({ Int($0) }),
                  let time = try drinkTime(form["time"], now: now, timeZone: context.configuration().timeZone) else { return .drinkRefused }
            do {
                let stored = try BottleControl(history: context.history).addDrink(amountML: volume, at: time, bottle: bottle, now: now)
                context.drinksChanged?(stored.bottle)
                return .drinkAdded(amountML: stored.amountML, timestamp: Int64(stored.timestamp))
            } catch let refusal as BottleRequestRefused {
                // An unknown bottle is a stale or forged form; the rest is the person's input.
                return refusal.isUnknownBottle ? .refused : .drinkRefused
            }
        default:
            return .refused
        }
    }

    /// The time a drink of the form was drunk: empty is now, `HH:MM` is that time today (the
    /// bridge's time zone), else ISO 8601; nil when it is none of these.
    static func drinkTime(_ text: String?, now: WallInstant, timeZone: TimeZone) -> WallInstant? {
        guard let text, !text.isEmpty else { return now }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if text.count <= 5, parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
           (0...23).contains(hour), (0...59).contains(minute) {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = timeZone
            return calendar.date(bySettingHour: hour, minute: minute, second: 0, of: now.date).map(WallInstant.init)
        }
        return ISO8601Text.parse(text)
    }

    /// The bottle a form acts on: required, and a bottle's serial or address in form.
    static func formBottle(_ form: FormFields) throws(WebError) -> String {
        guard form["bottle"]?.isEmpty == false, let name = try JSONAPI.bottleName(form) else {
            throw .badRequest("bottle is required: every form of the page names the bottle it acts on (its serial or address)")
        }
        return name
    }
}
