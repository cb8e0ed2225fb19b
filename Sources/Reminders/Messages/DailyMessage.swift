// The daily message of docs/reminders.md 4: one notification at 10:00 local, its text determined by the
// date alone, so the same date always gives the same text whoever computes it.

import Timekeeping

package enum DailyMessage {
    /// Fixed (the seed's non-goal: no user-selectable time).
    package static let time = TimeOfDay(hour: 10, minute: 0)!
    /// The rolling window: today and the 6 days after it.
    package static let windowDays = 7
    /// Fewer pending than this after a 10:00 tick (or at start) and the window is refilled.
    package static let refillBelow = 2
    static let thread = "daily-message"
    static let idPrefix = "daily-affirmation-"

    /// `daily-affirmation-YYYY-MM-DD`.
    package static func id(for day: LocalDay) -> String { idPrefix + day.description }

    /// The date in an id this rule makes, or nil.
    static func day(fromID id: String) -> LocalDay? {
        guard id.hasPrefix(idPrefix) else { return nil }
        return LocalDay(String(id.dropFirst(idPrefix.count)))
    }

    /// `pool[(days since 1970-01-01 of the local date) mod pool size]`; the modulo is the
    /// non-negative one, so dates before 1970 work too. Nil for an empty pool.
    package static func message(for day: LocalDay, pool: [String]) -> String? {
        guard !pool.isEmpty else { return nil }
        let index = day.daysSince1970 % pool.count
        return pool[index < 0 ? index + pool.count : index]
    }
}

/// The pool file's format and the shipped pools.
package enum MessagePool {
    /// A pool file's messages: one per line, lines trimmed, blank lines and lines starting with
    /// `#` skipped.
    package static func messages(fromLines lines: [String]) -> [String] {
        lines.map { $0.trimmingWhitespace() }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }

    /// The pool shipped for `locale`.
    package static func shipped(_ locale: MessageLocale) -> [String] {
        switch locale {
        case .en: return englishMessages
        case .es: return spanishMessages
        }
    }
}
