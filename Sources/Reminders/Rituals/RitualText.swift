// A ritual notification's identifier, title and body (docs/reminders.md 6).

import Timekeeping

package enum RitualText {
    /// A streak longer than this puts `Day {N}` in the titles.
    package static let streakTitleAbove = 3
    /// The window: today and the 6 days after it, two a day.
    package static let windowDays = 7
    static let thread = "ritual"
    static let idPrefix = "ritual-"

    package static let placeholderMorningTitle = "Good morning"
    package static let placeholderMorningBody = "Your daily routine is ready."
    package static let placeholderEveningTitle = "Wind down"
    package static let placeholderEveningBody = "Time for your evening ritual."

    /// `ritual-{morning|evening}-YYYY-MM-DD`.
    package static func id(_ phase: RitualPhase, _ day: LocalDay) -> String { "\(idPrefix)\(phase.rawValue)-\(day)" }

    /// The phase and date of an id this rule makes, or nil.
    static func parse(id: String) -> (phase: RitualPhase, day: LocalDay)? {
        for phase in RitualPhase.allCases {
            let prefix = "\(idPrefix)\(phase.rawValue)-"
            if id.hasPrefix(prefix), let day = LocalDay(String(id.dropFirst(prefix.count))) { return (phase, day) }
        }
        return nil
    }

    /// The title for `phase` with the streak `streak` taken at the last rebuild; placeholders
    /// (no terrain yet) never carry a streak.
    package static func title(_ phase: RitualPhase, terrain: RitualTerrain?, nickname: String, streak: Int) -> String {
        guard let terrain else { return phase == .morning ? placeholderMorningTitle : placeholderEveningTitle }
        if streak > streakTitleAbove {
            return phase == .morning ? "Day \(streak) — your \(nickname) rhythm" : "Day \(streak) — wind-down time"
        }
        return phase == .morning ? "Your \(nickname) body thrives with \(terrain.group.principle)"
                                 : "Time to settle your \(nickname) pattern"
    }

    /// The action for `day`: `pool[(ordinal day of the date in its year) mod 7]`; the placeholder
    /// body before a terrain is set.
    package static func body(_ phase: RitualPhase, terrain: RitualTerrain?, day: LocalDay) -> String {
        guard let terrain else { return phase == .morning ? placeholderMorningBody : placeholderEveningBody }
        let pool = RitualActions.pool(terrain.group, phase)
        return pool[day.ordinalInYear % pool.count]
    }
}
