// A person's daily goal set from the page's form or `POST /api/v1/commands` (docs/design.md 3.7):
// the goal today is measured against, for the bottle whose panel holds the form and no other. It
// writes that bottle's own `bottle.<ID>.daily_goal_ml` (the key it has, when it has one; else a new one
// under its id: the global key would change every other person's goal too), checked by
// `DailyGoal` as `setup --goal` and `config set daily_goal_ml` are. The bottle is then asked to show it
// as near as it can: the daily goal clamped into what it holds (`BottleGoal`), queued like any
// bottle goal, unless it shows or is about to show that already.

import AquavateProtocol
import History
import Reminders
import Reports
import Settings
import WireText

struct DailyGoalChange: Sendable, Equatable {
    /// The bottle's key in the history.
    var bottle: String
    /// The daily goal now in force for the bottle's person.
    var goalML: Int
    /// What the bottle is to show: the daily goal clamped into `BottleGoal.rangeML`.
    var bottleGoalML: Int
    /// The goal command queued for the bottle; nil when it shows that goal already.
    var command: StoredCommand?
}

enum DailyGoalSetting {
    static func set(_ goal: Int, bottle name: String?, context: WebContext) throws -> DailyGoalChange {
        if let refusal = DailyGoal.refusal(goal) { throw WebError.unprocessable(refusal) }
        let control = BottleControl(history: context.history)
        let bottle: BottleRecord
        do {
            bottle = try control.bottle(named: name)
        } catch let refused as BottleRequestRefused {
            throw WebError.unprocessable(refused.description)
        }
        let configuration = try context.configuration()
        let inEffect = configuration.effective(for: bottle).nameInEffect(Setting.dailyGoalML)
        let key = inEffect == Setting.dailyGoalML.name ? SettingCatalog.bottleKeyName(bottle: bottle.id, base: Setting.dailyGoalML.name) : inEffect
        try SettingChange(named: key, String(goal)).store(in: context.history.settings)
        let shown = BottleGoal.clamped(goal)
        let waiting = PendingChanges(try context.history.commands.all(bottle: bottle.id, statuses: [.pending, .sending])).goalML
        guard (waiting ?? bottle.goalML) != shown else {
            return DailyGoalChange(bottle: bottle.id, goalML: goal, bottleGoalML: shown, command: nil)
        }
        let (command, _) = try control.queue(.goal(shown), bottle: bottle.id, at: context.clock.now)
        return DailyGoalChange(bottle: bottle.id, goalML: goal, bottleGoalML: shown, command: command)
    }
}

/// What `POST /api/v1/commands` answers a `daily_goal` with: `{"event":"daily_goal","bottle":…,
/// "daily_goal_ml":5000,"bottle_goal_ml":4000,"command_id":12}`: the goal now in force, what the
/// bottle is to show, and the goal command queued for it (null when it shows that already; the
/// status's `pending_commands` carry it in full).
struct DailyGoalEvent: Encodable {
    let event = "daily_goal"
    var bottle: String
    var dailyGoalML: Int
    var bottleGoalML: Int
    /// Always there, `null` when nothing was queued.
    @Nullable var commandID: Int64?

    init(_ change: DailyGoalChange) {
        bottle = change.bottle
        dailyGoalML = change.goalML
        bottleGoalML = change.bottleGoalML
        commandID = change.command?.id
    }

    enum CodingKeys: String, CodingKey {
        case event, bottle, dailyGoalML = "daily_goal_ml", bottleGoalML = "bottle_goal_ml", commandID = "command_id"
    }

    func jsonLine() -> String { BridgeEvent.line(self) }
}
