// The user's terrain (docs/reminders.md 6, seed 004): eight terrains in three groups, each group with its
// principle and its two pools of seven actions.

package enum RitualTerrain: String, CaseIterable, Codable, Sendable {
    case coldDeficient = "cold_deficient"
    case coldBalanced = "cold_balanced"
    case warmExcess = "warm_excess"
    case warmDeficient = "warm_deficient"
    case warmBalanced = "warm_balanced"
    case neutralBalanced = "neutral_balanced"
    case neutralDeficient = "neutral_deficient"
    case neutralExcess = "neutral_excess"

    package enum Group: String, CaseIterable, Sendable {
        case cold, warm, neutral

        /// The word in the morning title: cold → warmth, warm → calm, neutral → balance.
        package var principle: String {
            switch self {
            case .cold: return "warmth"
            case .warm: return "calm"
            case .neutral: return "balance"
            }
        }
    }

    package var group: Group {
        switch self {
        case .coldDeficient, .coldBalanced: return .cold
        case .warmExcess, .warmDeficient, .warmBalanced: return .warm
        case .neutralBalanced, .neutralDeficient, .neutralExcess: return .neutral
        }
    }

    /// Every terrain's name, for error messages.
    package static var choices: String { allCases.map(\.rawValue).joined(separator: ", ") }
}

/// Morning or evening.
package enum RitualPhase: String, CaseIterable, Codable, Sendable {
    case morning, evening
}
