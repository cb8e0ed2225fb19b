// The bottle's daily goal (docs/protocol.md 3.2, 6.7): what it holds, 1000…4000 ml, default 2500.
// A bottle fact, so it is written here once; every place that checks, clamps or names the range
// (the bottle's own clamp, the simulator, the goal a bottle reports, the command queue the CLI,
// the page, the JSON API and Home Assistant share, their messages and the page's form) takes it
// from here.

public enum BottleGoal {
    /// The goals the bottle stores; it clamps anything else into this range.
    public static let rangeML: ClosedRange<Int> = 1000...4000
    public static let defaultML = 2500
    /// The firmware stores any whole number of millilitres in the range (docs/protocol.md 3.2), so
    /// every surface that takes a goal steps by this: the page's form, Home Assistant's number, the
    /// API and the CLI. A coarser step on one of them once made it refuse goals the others took.
    public static let stepML = 1

    /// `any whole ml` or `in steps of 50 ml`, for help texts.
    public static var stepText: String { stepML == 1 ? "any whole ml" : "in steps of \(stepML) ml" }

    /// `1000–4000 ml`, for messages.
    public static var rangeText: String { "\(rangeML.lowerBound)–\(rangeML.upperBound) ml" }

    /// Whether the bottle holds `goal` as it is.
    public static func holds(_ goal: Int) -> Bool { rangeML.contains(goal) && (goal - rangeML.lowerBound) % stepML == 0 }

    /// `goal` clamped as the bottle clamps it when it stores it.
    public static func clamped(_ goal: Int) -> Int { min(max(goal, rangeML.lowerBound), rangeML.upperBound) }

    /// The one check of a goal a person asks for: nil when the bottle holds it, else why not in one
    /// line naming the range.
    public static func refusal(_ goal: Int) -> String? {
        holds(goal) ? nil : "a goal of \(goal) ml is outside what the bottle holds: give \(rangeML.lowerBound) to \(rangeML.upperBound) ml"
            + (stepML == 1 ? "" : ", \(stepText)")
    }
}
