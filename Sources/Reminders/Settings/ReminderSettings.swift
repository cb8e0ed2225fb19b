// Every setting of the reminder engine (docs/reminders.md 2–6): the hydration settings of section 2,
// which also carry the engine-wide master switch and time zone, and the settings of sections 3–6.
// A plain value, read by the bridge from its configuration and database, handed to the engine, and
// changed through `ReminderEngine.updateSettings`, which reschedules what changed. The settings'
// names and how each is read from text are the configuration's table (Settings/Setting.swift),
// made from the ranges and choices the rules declare here.

import Timekeeping

package struct ReminderSettings: Equatable, Sendable {
    /// Section 2, plus `notifications.enabled` and `timezone`.
    package var hydration: HydrationSettings
    /// Section 3: the `[[schedule]]` tables.
    package var schedules: [IntakeSchedule]
    /// Section 4: `messages.*`.
    package var messages: MessageSettings
    /// Section 5: `deadline.*`.
    package var deadline: DeadlineSettings
    /// Section 6: `rituals.*`.
    package var rituals: RitualSettings
    /// Section 1: whether an enabled sink reaches a person (desktop with a notification server,
    /// MQTT, HTTP push, `replay --json`). False when only the log would get them: then, like a
    /// phone whose user denied permission, the rules that schedule ahead (sections 4 and 6)
    /// schedule nothing and `status` says why. Default true; the bridge computes it from its sinks.
    package var personReachable: Bool

    package init(hydration: HydrationSettings, schedules: [IntakeSchedule] = [],
                messages: MessageSettings = MessageSettings(), deadline: DeadlineSettings = DeadlineSettings(),
                rituals: RitualSettings = RitualSettings(), personReachable: Bool = true) {
        self.hydration = hydration
        self.schedules = schedules
        self.messages = messages
        self.deadline = deadline
        self.rituals = rituals
        self.personReachable = personReachable
    }
}

/// Stored as one record: the hydration settings under `hydration`, each section under its own key;
/// a missing key takes the fresh-install value.
extension ReminderSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case hydration, schedules, messages, deadline, rituals
        case personReachable = "person_reachable"
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(hydration: try values.decode(HydrationSettings.self, forKey: .hydration),
                  schedules: try values.decodeIfPresent([IntakeSchedule].self, forKey: .schedules) ?? [],
                  messages: try values.decodeIfPresent(MessageSettings.self, forKey: .messages) ?? MessageSettings(),
                  deadline: try values.decodeIfPresent(DeadlineSettings.self, forKey: .deadline) ?? DeadlineSettings(),
                  rituals: try values.decodeIfPresent(RitualSettings.self, forKey: .rituals) ?? RitualSettings(),
                  personReachable: try values.decodeIfPresent(Bool.self, forKey: .personReachable) ?? true)
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(hydration, forKey: .hydration)
        try values.encode(schedules, forKey: .schedules)
        try values.encode(messages, forKey: .messages)
        try values.encode(deadline, forKey: .deadline)
        try values.encode(rituals, forKey: .rituals)
        try values.encode(personReachable, forKey: .personReachable)
    }
}
