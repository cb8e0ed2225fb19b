// What `status` shows: the bottle, the last sync, today's total against the goal, the pace
// (urgency and deficit), `Reminders Today: n/12` or `n`, and the pending notifications.

import AquavateProtocol
import Foundation
import History
import HostClock
import Logging
import Reminders
import Reminding
import Settings
import Timekeeping

package struct StatusReport: Sendable {
    package var at: WallInstant
    package var bottleName: String?
    package var bottleID: String?
    package var lastSync: WallInstant?
    package var battery: Int?
    package var bottleLevelML: Int?
    package var unsynced: Int?
    package var todayML: Int
    /// The person's daily goal in force (`BottleView.goalML`, `DailyGoal`): configured, else the
    /// bottle's, else 2500. What today is measured against.
    package var goalML: Int
    /// The goal the bottle holds and shows on its display (`BottleGoal`), as of its last
    /// connection; nil when it has not reported one. It may differ from `goalML` (docs/design.md 3.7).
    package var bottleGoalML: Int? = nil
    /// The goal a goal command waits to give the bottle (`BottleView.pendingGoalML`).
    package var pendingGoalML: Int? = nil
    /// That goal, when the bottle's taking it makes it the goal in force (`BottleView.waitingGoalML`):
    /// the text shows it as today's goal, marked as waiting for the bottle.
    package var waitingGoalML: Int? = nil
    /// Typed: the text shows its display name, the JSON its raw value (`on_track`, `attention`,
    /// `overdue`, as on MQTT), never display text on a wire.
    package var urgency: Urgency
    package var deficitML: Int
    package var remindersToday: Int
    package var remindersTodayText: String
    package var dailyLimit: Bool
    package var pending: Int
    /// Pending notifications of sections 3–6, the ritual streak, and why a rule schedules nothing.
    package var rules: RulesStatus?
    /// This machine's clock as the daemon judges it before SET_TIME; nil: not asked.
    package var clock: ClockTrust?
    /// The bottle's clock against this machine's at its last connection (docs/protocol.md 5.2).
    package var bottleClockOffset: Int?
    /// Bottle commands not yet applied (docs/design.md 3.5): `command` events, data on the wire
    /// (`bottle_goal_ml`, `record_id`, `on`), in words only in the text lines.
    package var pendingCommands: [BridgeEvent.CommandEvent] = []
    /// The zone of the text lines' times (the `timezone` setting); the JSON stays UTC.
    package var timeZone: TimeZone = .gmt
    /// The bottle's owner (`bottle.<ID>.owner`), when set.
    package var owner: String?
    /// Records of this bottle waiting in the quarantine (docs/design.md 3.4).
    package var quarantined: Int = 0
    /// The structural refusal that ended its last syncs, when there is one (stuck from 3 in a row).
    package var refusal: SyncRefusal?

    /// Builds the report at `instant` from the database (engine state restored, nothing saved),
    /// for `bottle` (nil: the most recently seen).
    package static func make(history: DrinkHistory, configuration: Configuration, at instant: WallInstant,
                            clock: ClockTrust? = nil, bottle chosen: BottleRecord? = nil) throws -> StatusReport {
        try make(in: BottleViews(configuration: configuration, history: history), at: instant, clock: clock, bottle: chosen)
    }

    /// The report of `bottle` (nil: the most recently seen) among `views`, read for this request.
    static func make(in views: BottleViews, at instant: WallInstant, clock: ClockTrust?, bottle chosen: BottleRecord?) throws -> StatusReport {
        let bottle = chosen ?? views.bottles.max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
        return try make(try views.resolve(bottle, at: instant), in: views, at: instant, clock: clock)
    }

    /// The report of a bottle already resolved among `views` (`BottleViews.resolve`, with its state).
    package static func make(_ view: BottleView, in views: BottleViews, at instant: WallInstant,
                            clock: ClockTrust? = nil) throws -> StatusReport {
        let view = view.status == nil ? try views.resolve(view.bottle, at: instant) : view
        guard let status = view.status else { preconditionFailure("BottleView.resolve always gives the state") }
        let history = views.history, configuration = views.configuration
        let bottle = view.bottle
        return StatusReport(at: instant, bottleName: bottle?.name, bottleID: bottle?.id, lastSync: bottle?.lastSync,
                            battery: bottle?.state?.batteryPercent, bottleLevelML: bottle?.state?.bottleLevelML,
                            unsynced: bottle?.state?.unsyncedCount, todayML: status.pace.dayTotalML, goalML: view.goalML,
                            bottleGoalML: bottle?.goalML,
                            pendingGoalML: view.pendingGoalML, waitingGoalML: view.waitingGoalML,
                            urgency: status.urgency, deficitML: status.displayedDeficitML,
                            remindersToday: status.remindersSentToday, remindersTodayText: status.remindersTodayText,
                            dailyLimit: status.dailyLimit, pending: status.pendingCount, rules: view.rules,
                            clock: clock, bottleClockOffset: bottle?.clockOffset,
                            pendingCommands: view.pendingCommands.map(BridgeEvent.CommandEvent.init),
                            timeZone: configuration.timeZone, owner: view.owner,
                            quarantined: try bottle.map { try history.drinks.quarantined(bottle: $0.id).count } ?? 0,
                            refusal: bottle?.refusal)
    }

    /// One report per bottle the history knows (adopted here or heard from the household, as
    /// the page shows them), most recently seen first; one report when there is none (`make`).
    /// Not only the adopted ones: with one adopted bottle and one of another bridge, `make`'s
    /// "most recently seen" could answer the other bridge's bottle alone.
    package static func makeEach(history: DrinkHistory, configuration: Configuration, at instant: WallInstant,
                                clock: ClockTrust? = nil) throws -> [StatusReport] {
        let views = try BottleViews(configuration: configuration, history: history)
        let known = views.bottles.sorted { ($0.lastSeen ?? .epoch, $0.id) > ($1.lastSeen ?? .epoch, $1.id) }
        guard !known.isEmpty else { return [try make(in: views, at: instant, clock: clock, bottle: nil)] }
        return try known.map { try make(in: views, at: instant, clock: clock, bottle: $0) }
    }

    package func textLines() -> [String] {
        var lines: [String] = []
        if let bottleID {
            lines.append("Bottle: \(bottleName ?? "unnamed") (\(bottleID))" + (owner.map { ", \($0)'s" } ?? ""))
        } else {
            lines.append("Bottle: none seen yet")
        }
        lines.append("Last sync: " + (lastSync.map { LocalTimeText.format($0, in: timeZone) } ?? "never"))
        if let refusal, refusal.isStuck, let bottleID {
            lines.append("STUCK: " + refusal.line(bottle: bottleName ?? bottleID, unsynced: unsynced, timeZone: timeZone))
        }
        if quarantined > 0 {
            lines.append("Quarantined: \(quarantined) record(s) the bottle sent that cannot be drinks, kept aside and not counted; `aquavate-bridge history --quarantined` lists them")
        }
        if let clock { lines.append(clock.statusLine(at: at)) }
        if let offset = bottleClockOffset, let problem = BottleClockOffset(storedSeconds: offset).problem {
            lines.append("Bottle clock: \(problem)")
        }
        if let battery, let bottleLevelML {
            lines.append("Battery: \(battery)%  Bottle level: \(bottleLevelML) ml" + (unsynced.map { "  Unsynced: \($0)" } ?? ""))
        }
        // A goal set but not yet taken by the bottle is shown at once, as the page shows it.
        let shownGoal = waitingGoalML ?? goalML
        let percent = shownGoal > 0 ? todayML * 100 / shownGoal : 0
        lines.append("Today: \(todayML) ml of \(shownGoal) ml (\(percent)%)"
                     + (waitingGoalML == nil ? "" : " · the bottle takes this goal at its next sync (\(goalML) ml until then)")
                     + (bottleGoalDiffers.map { " · daily goal; the bottle shows \($0) ml" } ?? ""))
        lines.append("Urgency: \(urgency.displayName)  Deficit: \(deficitML) ml")
        lines.append(remindersTodayText)
        lines.append("Pending reminders: \(pending)")
        if !pendingCommands.isEmpty {
            lines.append("Pending bottle commands: " + pendingCommands.map { command in
                let action = BottleAction(kind: command.command, argument: command.argument)
                return "\(action?.summary ?? command.command) (#\(command.id))"
            }.joined(separator: ", "))
        }
        if let rules {
            lines.append("Pending by rule: scheduled \(rules.scheduledPending), daily message \(rules.dailyMessagesPending), deadline \(rules.deadlinePending), rituals \(rules.ritualsPending)")
            if rules.ritualStreak > 0 { lines.append("Ritual streak: \(rules.ritualStreak) days") }
            lines += rules.notes
        }
        return lines
    }

    /// The bottle's goal when it is not the daily goal shown (docs/design.md 3.7): the bottle
    /// displays one target, the reminders and today's progress measure against the other, and a
    /// person reading one surface must see both. nil when they agree, or one waits for the bottle.
    package var bottleGoalDiffers: Int? {
        guard waitingGoalML == nil, let bottleGoalML, bottleGoalML != goalML else { return nil }
        return bottleGoalML
    }

    /// The `status` event of docs/design.md 3.4 as one JSON line (Codable, keys sorted).
    package func jsonLine() -> String { BridgeEvent.line(StatusJSON(self)) }
}

/// The `status` event on the wire. A value the report does not have is left out (synthesized
/// encoding of an optional), as are the stuck and rule fields when there is nothing to say.
struct StatusJSON: Encodable {
    let event = "status"
    var time: String
    var todayML: Int
    var goalML: Int
    var dailyGoalML: Int
    var bottleGoalML: Int?
    var pendingGoalML: Int?
    var urgency: String
    var deficitML: Int
    var remindersToday: Int
    var remindersTodayText: String
    var dailyLimit: Bool
    var pending: Int
    var bottle: String?
    var bottleName: String?
    var owner: String?
    var lastSync: String?
    var battery: Int?
    var bottleLevelML: Int?
    var unsynced: Int?
    var bottleClockOffset: Int?
    var pendingCommands: [CommandJSON]
    var quarantined: Int
    var stuck: Bool
    var stuckSince: String?
    var stuckReason: String?
    var stuckConnections: Int?
    var clockSynchronised: Bool?
    var setTimeWithheld: Bool?
    var scheduledPending: Int?
    var dailyMessagesPending: Int?
    var deadlinePending: Int?
    var ritualsPending: Int?
    var ritualStreak: Int?
    var notes: [String]?

    enum CodingKeys: String, CodingKey {
        case event, time, todayML = "today_ml", goalML = "goal_ml", dailyGoalML = "daily_goal_ml", bottleGoalML = "bottle_goal_ml", pendingGoalML = "pending_goal_ml", urgency, deficitML = "deficit_ml",
             remindersToday = "reminders_today", remindersTodayText = "reminders_today_text", dailyLimit = "daily_limit",
             pending, bottle, bottleName = "bottle_name", owner, lastSync = "last_sync", battery,
             bottleLevelML = "bottle_level_ml", unsynced, bottleClockOffset = "bottle_clock_offset_s",
             pendingCommands = "pending_commands", quarantined, stuck, stuckSince = "stuck_since",
             stuckReason = "stuck_reason", stuckConnections = "stuck_connections",
             clockSynchronised = "clock_synchronised", setTimeWithheld = "set_time_withheld",
             scheduledPending = "scheduled_pending", dailyMessagesPending = "daily_messages_pending",
             deadlinePending = "deadline_pending", ritualsPending = "rituals_pending", ritualStreak = "ritual_streak", notes
    }

    init(_ report: StatusReport) {
        time = ISO8601Text.formatWithMilliseconds(report.at)
        todayML = report.todayML
        goalML = report.goalML
        dailyGoalML = report.goalML
        bottleGoalML = report.bottleGoalML
        pendingGoalML = report.pendingGoalML
        urgency = report.urgency.rawValue
        deficitML = report.deficitML
        remindersToday = report.remindersToday
        remindersTodayText = report.remindersTodayText
        dailyLimit = report.dailyLimit
        pending = report.pending
        bottle = report.bottleID
        bottleName = report.bottleName
        owner = report.owner
        lastSync = report.lastSync.map(ISO8601Text.formatWithMilliseconds)
        battery = report.battery
        bottleLevelML = report.bottleLevelML
        unsynced = report.unsynced
        bottleClockOffset = report.bottleClockOffset
        pendingCommands = report.pendingCommands.map(CommandJSON.init)
        quarantined = report.quarantined
        stuck = report.refusal?.isStuck ?? false
        if let refusal = report.refusal, refusal.isStuck {
            stuckSince = ISO8601Text.formatWithMilliseconds(refusal.since)
            stuckReason = refusal.reason
            stuckConnections = refusal.connections
        }
        if let clock = report.clock {
            clockSynchronised = clock.sync == .synchronised
            setTimeWithheld = clock.setTimePolicy.reasonToWithhold(now: report.at, bottleTime: nil) != nil
        }
        if let rules = report.rules {
            scheduledPending = rules.scheduledPending
            dailyMessagesPending = rules.dailyMessagesPending
            deadlinePending = rules.deadlinePending
            ritualsPending = rules.ritualsPending
            ritualStreak = rules.ritualStreak
            if !rules.notes.isEmpty { notes = rules.notes }
        }
    }
}
