// How far behind the pace the owner is (docs/reminders.md 2.2). Ordered, because the reminder rule
// only ever escalates (2.3 check 6) and the after-sync rule compares levels (2.4).

package enum Urgency: String, Codable, Sendable, CaseIterable, Comparable {
    case onTrack = "on_track"
    case attention
    case overdue

    private var level: Int {
        switch self {
        case .onTrack: return 0
        case .attention: return 1
        case .overdue: return 2
        }
    }

    package static func < (lhs: Urgency, rhs: Urgency) -> Bool { lhs.level < rhs.level }

    /// The anchor app's label, shown by `status`.
    package var displayName: String {
        switch self {
        case .onTrack: return "On Track"
        case .attention: return "Time to Hydrate"
        case .overdue: return "Overdue"
        }
    }
}
