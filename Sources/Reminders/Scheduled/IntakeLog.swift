// Manual intakes (docs/reminders.md 3): `aquavate-bridge log TYPE`, a capture's `log` op, and the Done
// action of a scheduled reminder all record one here. Decision: the log lives in `ReminderState`,
// which the caller already persists after every engine call, rather than behind a protocol the
// caller would implement. A suppression window never reaches before the start of the reminder's
// local day, so only the last two days are kept: the caller's history database is the permanent
// record of what was taken.

import Timekeeping

/// One manual intake: its normalized type and when it was taken (UTC epoch seconds).
package struct IntakeLogEntry: Codable, Equatable, Sendable {
    package let type: String
    package let time: WallInstant

    package init(type: String, time: WallInstant) {
        self.type = type
        self.time = time
    }
}

extension IntakeLogEntry {
    /// How far back entries are kept: longer than any local day (25 h with a DST change).
    static let retention: Duration = .seconds(2 * 86_400)
    /// A bound on a flood of logs within the retention time.
    static let maxEntries = 1_000
}

/// A manual intake that was refused.
package enum IntakeLogError: Error, Equatable, CustomStringConvertible {
    /// `log water`: water is measured by the bottle.
    case waterIsMeasured
    case invalidType(InvalidIntakeType)

    package var description: String {
        switch self {
        case .waterIsMeasured:
            return "water is measured by the bottle and cannot be logged by hand; expected a manual type such as vitamin-d"
        case .invalidType(let error):
            return error.description
        }
    }
}
