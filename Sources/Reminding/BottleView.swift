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

public struct BottleView: Sendable {
    /// The bottle; nil for a history without bottle rows (every drink counts).
    public let bottle: BottleRecord?
    /// The settings as this bottle sees them (`Configuration.effective(for:)`).
    public let configuration: Configuration
    /// Every rule's settings for its person, the goal resolved.
    public let settings: ReminderSettings
    /// What left something out of `settings` (a refused schedule table, an unreadable pool file).
    public let problems: [String]
    /// The day, pace, urgency and reminders today; nil when only the settings were resolved.
    public let status: HydrationStatus?
    /// Pending notifications of sections 3–6 and the ritual streak; nil with `status`.
    public let rules: RulesStatus?
    /// The goal a goal command waits to give the bottle at its next connection (the newest: a
    /// newer goal replaces a pending one, docs/design.md 3.5); nil when none waits or only the
    /// settings were resolved.
    public var pendingGoalML: Int? = nil

    public var hydration: HydrationSettings { settings.hydration }
    public var goalML: Int { hydration.goalML }
    public var dailyLimit: Bool { hydration.dailyLimit }
    public var remindersEnabled: Bool { hydration.enabled }
    /// The goal set on the page, the API, Home Assistant or the CLI that the bottle has yet to take,
    /// when its taking it will make it the goal in force (no `goal_ml` setting overrides the
    /// bottle's goal): every surface shows it at once as the goal, marked as waiting for the
    /// bottle. `goalML` (the JSON's `goal_ml`) stays the goal in force, the one the reminders
    /// count against, until the bottle confirms the new one at its next sync.
    public var waitingGoalML: Int? {
        guard let pendingGoalML, configuration[Setting.goalML] == nil, pendingGoalML != goalML else { return nil }
        return pendingGoalML
    }
    /// The goal a person reads: the one waiting for the bottle, else the one in force.
    public var shownGoalML: Int { waitingGoalML ?? goalML }

    /// The person the bottle belongs to (`bottle.<ID>.owner`), when set.
    public var owner: String? { configuration.owner }
    /// The history's key of the bottle.
    public var id: String? { bottle?.id }

    /// The setting a switch of the daily limit changes for this bottle: its own
    /// `bottle.<ID>.reminders.daily_limit` when it has one, else the global key.
    public var dailyLimitKey: String { configuration.nameInEffect(Setting.dailyLimit) }

    /// The bottle's settings alone, without its state: what a reminder engine is made from, and
    /// what a surface showing only settings (the goal of `/api/v1/days`) needs.
    ///
    /// - Parameters:
    ///   - bottleGoal: the goal the bottle confirmed, when the caller knows better than the row.
    ///   - personReachable: whether a sink reaches a person (docs/reminders.md 1).
    public static func settings(of bottle: BottleRecord?, configuration: Configuration, history: DrinkHistory,
                                bottleGoal: Int?? = nil, personReachable: Bool = true) -> BottleView {
        let own = configuration.effective(for: bottle)
        let (settings, problems) = own.reminderSettings(bottleGoal: bottleGoal ?? bottle?.goalML, personReachable: personReachable,
                                                        storedSchedules: StoredSchedules.tables(in: history))
        return BottleView(bottle: bottle, configuration: own, settings: settings, problems: problems, status: nil, rules: nil)
    }

    /// The bottle's settings and its state at `instant`: from `live` (a running engine's status)
    /// when given, else from its engine's state saved in the history (restored, nothing saved).
    public static func resolve(_ bottle: BottleRecord?, configuration: Configuration, history: DrinkHistory, at instant: WallInstant,
                               live: HydrationStatus? = nil) throws -> BottleView {
        let view = settings(of: bottle, configuration: configuration, history: history)
        let waiting = try bottle.flatMap { PendingChanges(try history.commands(bottle: $0.id, statuses: [.pending, .sending])).goalML }
        if let live {
            return BottleView(bottle: bottle, configuration: view.configuration, settings: view.settings, problems: view.problems,
                              status: live, rules: nil, pendingGoalML: waiting)
        }
        // The reminders as the daemon's desk keeps them: per adopted bottle (the most recently
        // seen inherits a single-bottle history's state), or one engine before any was adopted.
        let adopted = try history.bottles().filter { $0.address != nil }
        let key = adopted.isEmpty ? nil : bottle?.id
        let runner = ReminderRunner(history: history, settings: view.settings,
                                    logger: Logger(label: "bottle-view") { _ in SwiftLogNoOpLogHandler() },
                                    bottle: key, inheritsLegacy: key != nil && key == adopted.first?.id) { _ in }
        return BottleView(bottle: bottle, configuration: view.configuration, settings: view.settings, problems: view.problems,
                          status: runner.status(at: instant), rules: runner.rulesStatus(), pendingGoalML: waiting)
    }

    /// Every bottle of the history (one view of no bottle when it has none), in its order.
    public static func resolveEach(configuration: Configuration, history: DrinkHistory, at instant: WallInstant) throws -> [BottleView] {
        let bottles = try history.bottles()
        if bottles.isEmpty { return [try resolve(nil, configuration: configuration, history: history, at: instant)] }
        return try bottles.map { try resolve($0, configuration: configuration, history: history, at: instant) }
    }
}
