// The settings of docs/reminders.md 6 (`rituals.enabled`, `rituals.morning`, `rituals.evening`,
// `rituals.terrain`, `rituals.nickname`).

import Timekeeping

package struct RitualSettings: Equatable, Sendable {
    /// `rituals.enabled`, default false.
    package var enabled: Bool
    /// `rituals.morning`, default 08:00.
    package var morning: TimeOfDay
    /// `rituals.evening`, default 20:00.
    package var evening: TimeOfDay
    /// `rituals.terrain`; nil until configured, and until then the rule schedules placeholders.
    package var terrain: RitualTerrain?
    /// `rituals.nickname`, the terrain's display name in titles; default `Terrain`.
    package var nickname: String

    package static let defaultNickname = "Terrain"
    /// How long a nickname may be, in characters: it is read in a notification's title.
    package static let nicknameLengthRange = 1...40

    package init(enabled: Bool = false, morning: TimeOfDay = TimeOfDay(hour: 8, minute: 0)!,
                evening: TimeOfDay = TimeOfDay(hour: 20, minute: 0)!, terrain: RitualTerrain? = nil,
                nickname: String = RitualSettings.defaultNickname) {
        self.enabled = enabled
        self.morning = morning
        self.evening = evening
        self.terrain = terrain
        self.nickname = nickname
    }

    package func time(of phase: RitualPhase) -> TimeOfDay { phase == .morning ? morning : evening }
}

extension RitualSettings: Codable {
    private enum CodingKeys: String, CodingKey {
        case enabled, morning, evening, terrain, nickname
    }

    package init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = RitualSettings()
        self.init(enabled: try values.decodeIfPresent(Bool.self, forKey: .enabled) ?? defaults.enabled,
                  morning: try values.decodeIfPresent(TimeOfDay.self, forKey: .morning) ?? defaults.morning,
                  evening: try values.decodeIfPresent(TimeOfDay.self, forKey: .evening) ?? defaults.evening,
                  terrain: try values.decodeIfPresent(RitualTerrain.self, forKey: .terrain),
                  nickname: try values.decodeIfPresent(String.self, forKey: .nickname) ?? defaults.nickname)
    }

    package func encode(to encoder: any Encoder) throws {
        var values = encoder.container(keyedBy: CodingKeys.self)
        try values.encode(enabled, forKey: .enabled)
        try values.encode(morning, forKey: .morning)
        try values.encode(evening, forKey: .evening)
        try values.encodeIfPresent(terrain, forKey: .terrain)
        try values.encode(nickname, forKey: .nickname)
    }
}
