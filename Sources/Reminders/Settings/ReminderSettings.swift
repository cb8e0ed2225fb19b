// Every setting of the reminder engine (docs/reminders.md 2–6): the hydration settings of section 2,
// which also carry the engine-wide master switch and time zone, and the settings of sections 3–6.
// A plain value, read by the bridge from its configuration and database, handed to the engine, and
// changed through `ReminderEngine.updateSettings`, which reschedules what changed.

import Timekeeping

public struct ReminderSettings: Equatable, Sendable {
    /// Section 2, plus `notifications.enabled` and `timezone`.
    public var hydration: HydrationSettings
    /// Section 3: the `[[schedule]]` tables.
    public var schedules: [IntakeSchedule]
    /// Section 4: `messages.*`.
    public var messages: MessageSettings
    /// Section 5: `deadline.*`.
    public var deadline: DeadlineSettings
    /// Section 6: `rituals.*`.
    public var rituals: RitualSettings
    /// Section 1: whether an enabled sink reaches a person (desktop with a notification server,
    /// MQTT, HTTP push, `replay --json`). False when only the log would get them: then, like a
    /// phone whose user denied permission, the rules that schedule ahead (sections 4 and 6)
    /// schedule nothing and `status` says why. Default true; the bridge computes it from its sinks.
    public var personReachable: Bool

    public init(hydration: HydrationSettings, schedules: [IntakeSchedule] = [],
                messages: MessageSettings = MessageSettings(), deadline: DeadlineSettings = DeadlineSettings(),
                rituals: RitualSettings = RitualSettings(), personReachable: Bool = true) {
        self.hydration = hydration
        self.schedules = schedules
        self.messages = messages
        self.deadline = deadline
        self.rituals = rituals
        self.personReachable = personReachable
    }

    /// The keys `apply(key:value:)` takes (docs/design.md 3.2). `messages.pool` is not one: it names a
    /// file, which the caller reads and hands over as `messages.userPool`.
    public static let keys = [
        "messages.enabled", "messages.locale",
        "deadline.enabled", "deadline.period", "deadline.hours_before", "deadline.weekly_goal_ml",
        "rituals.enabled", "rituals.morning", "rituals.evening", "rituals.terrain", "rituals.nickname",
    ]

    /// Sets one key of sections 4–6 from its text (a TOML value, `config set`, `--set`), or refuses
    /// it with the reason and the valid choices, leaving the settings unchanged.
    public mutating func apply(key: String, value: String) throws(SettingValueError) {
        let text = value.trimmingWhitespace()
        switch key {
        case "messages.enabled": messages.enabled = try Self.bool(key, text)
        case "messages.locale": messages.locale = try MessageLocale.validate(text)
        case "deadline.enabled": deadline.enabled = try Self.bool(key, text)
        case "deadline.period": deadline.period = try DeadlinePeriod.validate(text)
        case "deadline.hours_before":
            guard let hours = Int(text), DeadlineSettings.hoursBeforeRange.contains(hours) else {
                throw SettingValueError(key: key, value: value, expected: "a whole number of hours from 1 to 23")
            }
            deadline.hoursBefore = hours
        case "deadline.weekly_goal_ml":
            guard let goal = Int(text), goal >= 1 else {
                throw SettingValueError(key: key, value: value, expected: "a whole number of millilitres from 1 (default: 7 × goal_ml)")
            }
            deadline.weeklyGoalML = goal
        case "rituals.enabled": rituals.enabled = try Self.bool(key, text)
        case "rituals.morning", "rituals.evening":
            guard let time = try? TimeOfDay(parsing: text) else {
                throw SettingValueError(key: key, value: value, expected: "HH:MM from 00:00 to 23:59")
            }
            if key == "rituals.morning" { rituals.morning = time } else { rituals.evening = time }
        case "rituals.terrain": rituals.terrain = try RitualTerrain.validate(text)
        case "rituals.nickname":
            guard !text.isEmpty, text.count <= 40, !text.contains(where: \.isNewline) else {
                throw SettingValueError(key: key, value: value, expected: "a short name on one line (1 to 40 characters), e.g. Low Flame")
            }
            rituals.nickname = text
        default:
            throw SettingValueError(key: key, value: value, expected: "a key of sections 4–6: \(Self.keys.joined(separator: ", "))")
        }
    }

    private static func bool(_ key: String, _ text: String) throws(SettingValueError) -> Bool {
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw SettingValueError(key: key, value: text, expected: "true or false")
        }
    }
}

/// Stored as one record: the hydration settings under `hydration`, each section under its own key;
/// a missing key takes the fresh-install value.
extension ReminderSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case hydration, schedules, messages, deadline, rituals
        case personReachable = "person_reachable"
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(hydration: try values.decode(HydrationSettings.self, forKey: .hydration),
                  schedules: try values.decodeIfPresent([IntakeSchedule].self, forKey: .schedules) ?? [],
                  messages: try values.decodeIfPresent(MessageSettings.self, forKey: .messages) ?? MessageSettings(),
                  deadline: try values.decodeIfPresent(DeadlineSettings.self, forKey: .deadline) ?? DeadlineSettings(),
                  rituals: try values.decodeIfPresent(RitualSettings.self, forKey: .rituals) ?? RitualSettings(),
                  personReachable: try values.decodeIfPresent(Bool.self, forKey: .personReachable) ?? true)
    }

    public func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(hydration, forKey: .hydration)
        try values.encode(schedules, forKey: .schedules)
        try values.encode(messages, forKey: .messages)
        try values.encode(deadline, forKey: .deadline)
        try values.encode(rituals, forKey: .rituals)
        try values.encode(personReachable, forKey: .personReachable)
    }
}
