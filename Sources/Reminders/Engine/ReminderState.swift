// Everything the engine remembers between calls (docs/reminders.md 2.6: "all of this state lives in
// the database and is restored on start"). The caller saves it after every engine call that
// returns and restores it on start; a restart on the same reminder day then changes nothing, so a
// restart never re-sends a reminder or the goal alert. Sections 3–6 keep here what their rules
// remember: the day their new-day rules last ran, recent manual intakes, recent Did This taps, and
// the streak of the last ritual rebuild; their pending notifications are in the centre.

import Timekeeping

package struct ReminderState: Equatable, Sendable {
    /// The reminder day (docs/reminders.md 0) the per-day counters belong to, named by the local date
    /// on which it starts; nil before the first evaluation.
    package var reminderDay: LocalDay?
    /// `reminders_sent_today`: hydration reminders delivered this reminder day.
    package var remindersSentToday: Int = 0
    /// `last_notified_urgency`: the urgency of the last reminder, until cleared.
    package var lastNotifiedUrgency: Urgency?
    /// Set when a reminder is delivered; cleared whenever the urgency is computed as on_track.
    /// A back-on-track alert needs it (2.4 step 3, Decision).
    package var remindedSinceOnTrack: Bool = false
    /// The urgency as last computed (at the latest tick, sync or start); on_track before any.
    package var lastUrgency: Urgency = .onTrack
    /// The local calendar day whose goal-reached alert was delivered.
    package var goalReachedDay: LocalDay?
    /// LOW_BATTERY in the last Current State seen; clear in a fresh database.
    package var lastLowBattery: Bool = false
    /// The local day of the last low-battery alert (2.5: at most one a day).
    package var lowBatteryAlertDay: LocalDay?
    /// The last `n` of `hydration-<n>`.
    package var reminderSequence: Int = 0
    /// The last `n` of `hydration-back-on-track-<n>`.
    package var backOnTrackSequence: Int = 0
    /// The pending notifications.
    package var centre = NotificationCentre()
    /// The local date whose new-day rules (sections 5 and 6: the period's deadline reminder, the
    /// ritual window) have run; nil before the first start.
    package var rulesDay: LocalDay?
    /// Manual intakes of the last two days (section 3's suppression windows).
    package var intakeLog: [IntakeLogEntry] = []
    /// `ritual_completed_at` of recent local days (section 6's Did This), one per day, the latest
    /// tap kept. The caller also records each in its history database (`ActionOutcome`).
    package var ritualCompletions: [RitualCompletion] = []
    /// The streak N taken at the last ritual rebuild (section 6).
    package var ritualStreak: Int = 0

    package init() {}
}

/// A Did This: the local day of the tap and its instant.
package struct RitualCompletion: Codable, Equatable, Sendable {
    package let day: LocalDay
    package let time: WallInstant

    package init(day: LocalDay, time: WallInstant) {
        self.day = day
        self.time = time
    }

    /// How many days of completions the state keeps.
    static let retentionDays = 31
}

/// Snake-case keys named as in docs/reminders.md; a missing key takes the fresh-database value, so a
/// record written by an older bridge still loads.
extension ReminderState: Codable {
    private enum CodingKeys: String, CodingKey {
        case reminderDay = "reminder_day"
        case remindersSentToday = "reminders_sent_today"
        case lastNotifiedUrgency = "last_notified_urgency"
        case remindedSinceOnTrack = "reminded_since_on_track"
        case lastUrgency = "last_urgency"
        case goalReachedDay = "goal_reached_day"
        case lastLowBattery = "last_low_battery"
        case lowBatteryAlertDay = "low_battery_alert_day"
        case reminderSequence = "reminder_sequence"
        case backOnTrackSequence = "back_on_track_sequence"
        case pending
        case rulesDay = "rules_day"
        case intakeLog = "intake_log"
        case ritualCompletions = "ritual_completed_at"
        case ritualStreak = "ritual_streak"
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        reminderDay = try values.decodeIfPresent(LocalDay.self, forKey: .reminderDay)
        remindersSentToday = try values.decodeIfPresent(Int.self, forKey: .remindersSentToday) ?? 0
        lastNotifiedUrgency = try values.decodeIfPresent(Urgency.self, forKey: .lastNotifiedUrgency)
        remindedSinceOnTrack = try values.decodeIfPresent(Bool.self, forKey: .remindedSinceOnTrack) ?? false
        lastUrgency = try values.decodeIfPresent(Urgency.self, forKey: .lastUrgency) ?? .onTrack
        goalReachedDay = try values.decodeIfPresent(LocalDay.self, forKey: .goalReachedDay)
        lastLowBattery = try values.decodeIfPresent(Bool.self, forKey: .lastLowBattery) ?? false
        lowBatteryAlertDay = try values.decodeIfPresent(LocalDay.self, forKey: .lowBatteryAlertDay)
        reminderSequence = try values.decodeIfPresent(Int.self, forKey: .reminderSequence) ?? 0
        backOnTrackSequence = try values.decodeIfPresent(Int.self, forKey: .backOnTrackSequence) ?? 0
        centre = try values.decodeIfPresent(NotificationCentre.self, forKey: .pending) ?? NotificationCentre()
        rulesDay = try values.decodeIfPresent(LocalDay.self, forKey: .rulesDay)
        intakeLog = try values.decodeIfPresent([IntakeLogEntry].self, forKey: .intakeLog) ?? []
        ritualCompletions = try values.decodeIfPresent([RitualCompletion].self, forKey: .ritualCompletions) ?? []
        ritualStreak = try values.decodeIfPresent(Int.self, forKey: .ritualStreak) ?? 0
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encodeIfPresent(reminderDay, forKey: .reminderDay)
        try values.encode(remindersSentToday, forKey: .remindersSentToday)
        try values.encodeIfPresent(lastNotifiedUrgency, forKey: .lastNotifiedUrgency)
        try values.encode(remindedSinceOnTrack, forKey: .remindedSinceOnTrack)
        try values.encode(lastUrgency, forKey: .lastUrgency)
        try values.encodeIfPresent(goalReachedDay, forKey: .goalReachedDay)
        try values.encode(lastLowBattery, forKey: .lastLowBattery)
        try values.encodeIfPresent(lowBatteryAlertDay, forKey: .lowBatteryAlertDay)
        try values.encode(reminderSequence, forKey: .reminderSequence)
        try values.encode(backOnTrackSequence, forKey: .backOnTrackSequence)
        try values.encode(centre, forKey: .pending)
        try values.encodeIfPresent(rulesDay, forKey: .rulesDay)
        try values.encode(intakeLog, forKey: .intakeLog)
        try values.encode(ritualCompletions, forKey: .ritualCompletions)
        try values.encode(ritualStreak, forKey: .ritualStreak)
    }
}
