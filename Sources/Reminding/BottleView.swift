// One bottle as every surface shows it (docs/design.md 3.6, 6): its effective settings — its own
// `bottle.<ID>.<key>` over the global key, level by level; the goal: configured, else the goal the
// bottle confirmed, else 2500 ml — its owner, and its state (the day against that goal, pace,
// urgency, deficit, reminders today under its daily limit) from its own reminder engine.
//
// `status`, `status --json`, the page, `/api/v1/status`, `/api/v1/days`, `/metrics`, the Home
// Assistant state and the reminder engines all resolve a bottle here, so that a per-bottle setting
// reads the same on every one of them.

import Foundation
import Timekeeping
import History
import Logging
import Reminders
import Settings

package struct BottleView: Sendable {
    /// The bottle; nil for a history without bottle rows (every drink counts).
    package let bottle: BottleRecord?
    /// The settings as this bottle sees them (`Configuration.effective(for:)`).
    package let configuration: Configuration
    /// Every rule's settings for its person, the goal resolved.
    package let settings: ReminderSettings
    /// What left something out of `settings` (a refused schedule table, an unreadable pool file).
    package let problems: [String]
    /// The day, pace, urgency and reminders today; nil when only the settings were resolved.
    package let status: HydrationStatus?
    /// Pending notifications of sections 3–6 and the ritual streak; nil with `status`.
    package let rules: RulesStatus?
    /// The bottle's commands waiting for its next connection (pending or being sent), oldest
    /// first; empty when none waits or only the settings were resolved.
    package var pendingCommands: [StoredCommand] = []
    /// The goal a goal command waits to give the bottle at its next connection (the newest: a
    /// newer goal replaces a pending one, docs/design.md 3.5); nil when none waits or only the
    /// settings were resolved.
    package var pendingGoalML: Int? { PendingChanges(pendingCommands).goalML }

    package var hydration: HydrationSettings { settings.hydration }
    package var goalML: Int { hydration.goalML }
    package var dailyLimit: Bool { hydration.dailyLimit }
    package var remindersEnabled: Bool { hydration.enabled }
    /// The bottle goal set through the command queue (`bottle goal`, the API's `goal`, Home
    /// Assistant's number) that the bottle has yet to take, when its taking it will make it the
    /// daily goal in force (no `daily_goal_ml` setting gives the daily goal, docs/design.md 3.7): every
    /// surface shows it at once as the goal, marked as waiting for the bottle. `goalML` (the JSON's `daily_goal_ml`) stays the goal in force, the one the reminders
    /// count against, until the bottle confirms the new one at its next sync.
    package var waitingGoalML: Int? {
        guard let pendingGoalML, configuration[Setting.dailyGoalML] == nil, pendingGoalML != goalML else { return nil }
        return pendingGoalML
    }
    /// The goal a person reads: the one waiting for the bottle, else the one in force.
    package var shownGoalML: Int { waitingGoalML ?? goalML }

    /// The person the bottle belongs to (`bottle.<ID>.owner`), when set.
    package var owner: String? { configuration.owner }
    /// The history's key of the bottle.
    package var id: String? { bottle?.id }

    /// The setting a switch of the daily limit changes for this bottle: its own
    /// `bottle.<ID>.reminders.daily_limit` when it has one, else the global key.
    package var dailyLimitKey: String { configuration.nameInEffect(Setting.dailyLimit) }

    /// The bottle's settings alone, without its state: what a reminder engine is made from, and
    /// what a surface showing only settings (the goal of `/api/v1/days`) needs. Reads the stored
    /// schedules and the pool file: a request about several bottles takes `BottleViews`, which
    /// reads them once.
    ///
    /// - Parameters:
    ///   - bottleGoal: the goal the bottle confirmed, when the caller knows better than the row.
    ///   - personReachable: whether a sink reaches a person (docs/reminders.md 1).
    package static func settings(of bottle: BottleRecord?, configuration: Configuration, history: DrinkHistory,
                                bottleGoal: Int?? = nil, personReachable: Bool = true) -> BottleView {
        settings(of: bottle, configuration: configuration, shared: SharedRuleInputs(configuration: configuration, history: history),
                 bottleGoal: bottleGoal, personReachable: personReachable)
    }

    /// The bottle's goal and reminder switches alone (the hydration rule's settings), resolved as
    /// `settings(of:)` resolves them: what needs neither the stored schedules nor the pool file,
    /// so a surface that shows only these (the Home Assistant state, published at every change)
    /// reads neither.
    package static func hydration(of bottle: BottleRecord?, configuration: Configuration, bottleGoal: Int?? = nil) -> HydrationSettings {
        configuration.effective(for: bottle).hydrationSettings(bottleGoal: bottleGoal ?? bottle?.goalML)
    }

    /// The bottle's settings alone, with what every bottle shares already read.
    package static func settings(of bottle: BottleRecord?, configuration: Configuration, shared: SharedRuleInputs,
                                bottleGoal: Int?? = nil, personReachable: Bool = true) -> BottleView {
        let own = configuration.effective(for: bottle)
        let (settings, problems) = own.reminderSettings(bottleGoal: bottleGoal ?? bottle?.goalML, personReachable: personReachable,
                                                        shared: shared)
        return BottleView(bottle: bottle, configuration: own, settings: settings, problems: problems, status: nil, rules: nil)
    }

    /// The bottle's settings and its state at `instant` (`BottleViews.resolve`), for a caller that
    /// resolves one bottle: every other read of the history's bottles, pending commands, stored
    /// schedules and pool file is made for it alone.
    package static func resolve(_ bottle: BottleRecord?, configuration: Configuration, history: DrinkHistory, at instant: WallInstant,
                               live: HydrationStatus? = nil) throws -> BottleView {
        try BottleViews(configuration: configuration, history: history).resolve(bottle, at: instant, live: live)
    }

    /// Every bottle of the history (one view of no bottle when it has none), in its order.
    package static func resolveEach(configuration: Configuration, history: DrinkHistory, at instant: WallInstant) throws -> [BottleView] {
        try BottleViews(configuration: configuration, history: history).resolveEach(at: instant)
    }
}
