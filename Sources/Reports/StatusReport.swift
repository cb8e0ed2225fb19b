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

public struct StatusReport: Sendable {
    public var at: Double
    public var bottleName: String?
    public var bottleID: String?
    public var lastSync: Double?
    public var battery: Int?
    public var bottleLevelML: Int?
    public var unsynced: Int?
    public var todayML: Int
    public var goalML: Int
    /// Typed: the text shows its display name, the JSON its raw value (`on_track`, `attention`,
    /// `overdue`, as on MQTT), never display text on a wire.
    public var urgency: Urgency
    public var deficitML: Int
    public var remindersToday: Int
    public var remindersTodayText: String
    public var dailyLimit: Bool
    public var pending: Int
    /// Pending notifications of sections 3–6, the ritual streak, and why a rule schedules nothing.
    public var rules: RulesStatus?
    /// This machine's clock as the daemon judges it before SET_TIME; nil: not asked.
    public var clock: ClockTrust?
    /// The bottle's clock against this machine's at its last connection (docs/protocol.md 5.2).
    public var bottleClockOffset: Int?
    /// Bottle commands not yet applied (docs/design.md 3.5): `command` events, data on the wire
    /// (`goal_ml`, `record_id`, `on`), in words only in the text lines.
    public var pendingCommands: [BridgeEvent.CommandEvent] = []
    /// The zone of the text lines' times (the `timezone` setting); the JSON stays UTC.
    public var timeZone: TimeZone = .gmt
    /// The bottle's owner (`bottle.<ID>.owner`), when set.
    public var owner: String?
    /// Records of this bottle waiting in the quarantine (docs/design.md 3.4).
    public var quarantined: Int = 0
    /// The structural refusal that ended its last syncs, when there is one (stuck from 3 in a row).
    public var refusal: SyncRefusal?

    /// Builds the report at `instant` from the database (engine state restored, nothing saved),
    /// for `bottle` (nil: the most recently seen).
    public static func make(history: DrinkHistory, configuration: Configuration, at instant: Double,
                            clock: ClockTrust? = nil, bottle chosen: BottleRecord? = nil) throws -> StatusReport {
        let bottles = try history.bottles()
        let bottle = chosen ?? bottles.max { ($0.lastSeen ?? 0) < ($1.lastSeen ?? 0) }
        // The reminders as the daemon's desk keeps them: per adopted bottle (the most recently
        // seen inherits a single-bottle history's state), or one engine before any was adopted.
        let adopted = bottles.filter { $0.address != nil }
        let key = adopted.isEmpty ? nil : bottle?.id
        let own = configuration.effective(for: bottle)
        let (all, _) = own.reminderSettings(bottleGoal: bottle?.goalML, personReachable: true,
                                            storedSchedules: StoredSchedules.tables(in: history))
        let settings = all.hydration
        let runner = ReminderRunner(history: history, settings: all,
                                    logger: Logger(label: "status") { _ in SwiftLogNoOpLogHandler() },
                                    bottle: key, inheritsLegacy: key != nil && key == adopted.first?.id) { _ in }
        let status = runner.status(at: instant)
        return StatusReport(at: instant, bottleName: bottle?.name, bottleID: bottle?.id, lastSync: bottle?.lastSync,
                            battery: bottle?.state?.batteryPercent, bottleLevelML: bottle?.state?.bottleLevelML,
                            unsynced: bottle?.state?.unsyncedCount, todayML: status.pace.dayTotalML, goalML: settings.goalML,
                            urgency: status.urgency, deficitML: status.displayedDeficitML,
                            remindersToday: status.remindersSentToday, remindersTodayText: status.remindersTodayText,
                            dailyLimit: status.dailyLimit, pending: status.pendingCount, rules: runner.rulesStatus(),
                            clock: clock, bottleClockOffset: bottle?.clockOffset,
                            pendingCommands: try pendingCommands(history: history, bottle: bottle?.id),
                            timeZone: configuration.timeZone, owner: own.owner,
                            quarantined: try bottle.map { try history.quarantined(bottle: $0.id).count } ?? 0,
                            refusal: bottle?.refusal)
    }

    /// One report per adopted bottle, most recently seen first (one report when there are none
    /// or one: `make`).
    public static func makeEach(history: DrinkHistory, configuration: Configuration, at instant: Double,
                                clock: ClockTrust? = nil) throws -> [StatusReport] {
        let adopted = try history.bottles().filter { $0.address != nil }
        guard adopted.count > 1 else { return [try make(history: history, configuration: configuration, at: instant, clock: clock)] }
        return try adopted.map { try make(history: history, configuration: configuration, at: instant, clock: clock, bottle: $0) }
    }

    private static func pendingCommands(history: DrinkHistory, bottle: String?) throws -> [BridgeEvent.CommandEvent] {
        guard let bottle else { return [] }
        return try history.commands(bottle: bottle, statuses: [.pending, .sending]).map(BridgeEvent.CommandEvent.init)
    }

    public func textLines() -> [String] {
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
        let percent = goalML > 0 ? todayML * 100 / goalML : 0
        lines.append("Today: \(todayML) ml of \(goalML) ml (\(percent)%)")
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

    public func jsonLine() -> String {
        var object: [String: any Sendable] = [
            "event": "status", "time": ISO8601Text.formatWithMilliseconds(at), "today_ml": todayML, "goal_ml": goalML,
            "urgency": urgency.rawValue, "deficit_ml": deficitML, "reminders_today": remindersToday,
            "reminders_today_text": remindersTodayText, "daily_limit": dailyLimit, "pending": pending,
        ]
        if let bottleID { object["bottle"] = bottleID }
        if let bottleName { object["bottle_name"] = bottleName }
        if let owner { object["owner"] = owner }
        if let lastSync { object["last_sync"] = ISO8601Text.formatWithMilliseconds(lastSync) }
        if let battery { object["battery"] = battery }
        if let bottleLevelML { object["bottle_level_ml"] = bottleLevelML }
        if let unsynced { object["unsynced"] = unsynced }
        if let bottleClockOffset { object["bottle_clock_offset_s"] = bottleClockOffset }
        object["pending_commands"] = pendingCommands.map { BridgeEvent.commandObject($0) as [String: any Sendable] }
        object["quarantined"] = quarantined
        object["stuck"] = refusal?.isStuck ?? false
        if let refusal, refusal.isStuck {
            object["stuck_since"] = ISO8601Text.formatWithMilliseconds(refusal.since)
            object["stuck_reason"] = refusal.reason
            object["stuck_connections"] = refusal.connections
        }
        if let clock {
            object["clock_synchronised"] = clock.sync == .synchronised
            object["set_time_withheld"] = clock.setTimePolicy.reasonToWithhold(now: at, bottleTime: nil) != nil
        }
        if let rules {
            object["scheduled_pending"] = rules.scheduledPending
            object["daily_messages_pending"] = rules.dailyMessagesPending
            object["deadline_pending"] = rules.deadlinePending
            object["rituals_pending"] = rules.ritualsPending
            object["ritual_streak"] = rules.ritualStreak
            if !rules.notes.isEmpty { object["notes"] = rules.notes }
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
