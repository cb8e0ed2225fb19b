// The settings of docs/reminders.md 2.1, plus the two engine-wide ones the hydration rules depend on
// (the master switch of section 1 and the local time zone of section 0). A plain value: the
// bridge reads it from its configuration and database and hands it to the engine.

import Foundation

package struct HydrationSettings: Equatable, Sendable {
    /// `daily_goal_ml`: the person's daily goal (`DailyGoal`; the bottle's goal if known, else 2500).
    package var goalML: Int
    /// `reminders.enabled`: hydration reminders on/off.
    package var enabled: Bool
    /// `reminders.daily_limit`: at most `maxRemindersPerDay` reminders per reminder day. The seed's
    /// toggle; on for a fresh install.
    package var dailyLimit: Bool
    /// `reminders.back_on_track`: send "back on track" alerts.
    package var backOnTrack: Bool
    /// `reminders.active_start`, minutes after local midnight (07:00 = 420).
    package var activeStartMinute: Int
    /// `reminders.active_end`, minutes after local midnight (22:00 = 1320).
    package var activeEndMinute: Int
    /// `reminders.min_deficit_ml`: below this displayed deficit no reminder.
    package var minDeficitML: Int
    /// `reminders.reset_hour`: the local hour at which a reminder day starts.
    package var resetHour: Int
    /// `notifications.enabled`: the master switch of every notification (section 1).
    package var notificationsEnabled: Bool
    /// `timezone`: the local time zone of every rule (section 0).
    package var timeZone: TimeZone

    /// Constants of docs/reminders.md 2.1.
    package static let maxRemindersPerDay = 12
    package static let defaultGoalML = DailyGoal.defaultML
    /// What `reminders.min_deficit_ml` may be.
    package static let minDeficitRangeML = 0...10000
    /// What `reminders.reset_hour` may be: an hour of the local day.
    package static let resetHourRange = 0...23

    /// The defaults of docs/reminders.md 2.1. The time zone has no default here: the system's zone is
    /// the caller's to read (this module reads nothing from the system).
    package init(timeZone: TimeZone,
                goalML: Int = HydrationSettings.defaultGoalML,
                enabled: Bool = true,
                dailyLimit: Bool = true,
                backOnTrack: Bool = true,
                activeStartMinute: Int = 7 * 60,
                activeEndMinute: Int = 22 * 60,
                minDeficitML: Int = 150,
                resetHour: Int = 4,
                notificationsEnabled: Bool = true) {
        self.goalML = goalML
        self.enabled = enabled
        self.dailyLimit = dailyLimit
        self.backOnTrack = backOnTrack
        self.activeStartMinute = activeStartMinute
        self.activeEndMinute = activeEndMinute
        self.minDeficitML = minDeficitML
        self.resetHour = resetHour
        self.notificationsEnabled = notificationsEnabled
        self.timeZone = timeZone
    }

    /// Quiet hours (2.3 check 2): local hh:mm before `active_start` or at/after `active_end`.
    package func isQuiet(minuteOfDay: Int) -> Bool {
        minuteOfDay < activeStartMinute || minuteOfDay >= activeEndMinute
    }
}

/// Stored with the dotted names' last parts; a key that is missing takes its default, so a
/// settings record written before a setting existed reads as a fresh install would (the seed's
/// `?? true` for the daily limit).
extension HydrationSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case goalML = "goal_ml"
        case enabled
        case dailyLimit = "daily_limit"
        case backOnTrack = "back_on_track"
        case activeStartMinute = "active_start_minute"
        case activeEndMinute = "active_end_minute"
        case minDeficitML = "min_deficit_ml"
        case resetHour = "reset_hour"
        case notificationsEnabled = "notifications_enabled"
        case timeZone = "timezone"
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let identifier = try values.decode(String.self, forKey: .timeZone)
        guard let zone = TimeZone(identifier: identifier) else {
            throw DecodingError.dataCorruptedError(forKey: .timeZone, in: values,
                                                   debugDescription: "unknown time zone '\(identifier)'; expected an IANA name such as Europe/Madrid")
        }
        let defaults = HydrationSettings(timeZone: zone)
        self.init(
            timeZone: zone,
            goalML: try values.decodeIfPresent(Int.self, forKey: .goalML) ?? defaults.goalML,
            enabled: try values.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled,
            dailyLimit: try values.decodeIfPresent(Bool.self, forKey: .dailyLimit) ?? defaults.dailyLimit,
            backOnTrack: try values.decodeIfPresent(Bool.self, forKey: .backOnTrack) ?? defaults.backOnTrack,
            activeStartMinute: try values.decodeIfPresent(Int.self, forKey: .activeStartMinute) ?? defaults.activeStartMinute,
            activeEndMinute: try values.decodeIfPresent(Int.self, forKey: .activeEndMinute) ?? defaults.activeEndMinute,
            minDeficitML: try values.decodeIfPresent(Int.self, forKey: .minDeficitML) ?? defaults.minDeficitML,
            resetHour: try values.decodeIfPresent(Int.self, forKey: .resetHour) ?? defaults.resetHour,
            notificationsEnabled: try values.decodeIfPresent(Bool.self, forKey: .notificationsEnabled) ?? defaults.notificationsEnabled)
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(goalML, forKey: .goalML)
        try values.encode(enabled, forKey: .enabled)
        try values.encode(dailyLimit, forKey: .dailyLimit)
        try values.encode(backOnTrack, forKey: .backOnTrack)
        try values.encode(activeStartMinute, forKey: .activeStartMinute)
        try values.encode(activeEndMinute, forKey: .activeEndMinute)
        try values.encode(minDeficitML, forKey: .minDeficitML)
        try values.encode(resetHour, forKey: .resetHour)
        try values.encode(notificationsEnabled, forKey: .notificationsEnabled)
        try values.encode(timeZone.identifier, forKey: .timeZone)
    }
}
