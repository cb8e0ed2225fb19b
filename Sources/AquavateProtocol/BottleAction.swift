// What a person can ask of the bottle from the Pi, as its phone app does (docs/design.md 3.5,
// docs/protocol.md 3.2, 3.6, 3.7, 6): the bridge queues these and applies them at the bottle's next
// connection, after the sync.

public enum BottleAction: Sendable, Hashable {
    /// Bottle Config's daily goal (`BottleGoal`), written read-modify-write (docs/protocol.md 3.2, 6.7).
    case setGoal(Int)
    /// DELETE_DRINK_RECORD, keyed by id AND timestamp: ids restart after CLEAR_HISTORY (B14).
    case deleteDrink(recordID: UInt32, timestamp: UInt32)
    /// TARE_NOW: what is in the bottle now counts as empty. Not idempotent.
    case tare
    /// Device Settings bit 0.
    case shakeToEmpty(Bool)

    /// The name in the queue, the `command` event and the CLI.
    public var kind: String {
        switch self {
        case .setGoal: return "goal"
        case .deleteDrink: return "delete"
        case .tare: return "tare"
        case .shakeToEmpty: return "shake-to-empty"
        }
    }

    /// The argument as stored and shown: `2500`, `17@1763712000`, `on`; nil for tare.
    public var argument: String? {
        switch self {
        case .setGoal(let goal): return String(goal)
        case .deleteDrink(let id, let timestamp): return "\(id)@\(timestamp)"
        case .tare: return nil
        case .shakeToEmpty(let on): return on ? "on" : "off"
        }
    }

    /// Back from `kind` and `argument`; nil when they do not make a valid action.
    public init?(kind: String, argument: String?) {
        switch kind {
        case "goal":
            guard let goal = argument.flatMap({ Int($0) }), BottleGoal.holds(goal) else { return nil }
            self = .setGoal(goal)
        case "delete":
            let parts = argument?.split(separator: "@") ?? []
            guard parts.count == 2, let id = UInt32(parts[0]), let timestamp = UInt32(parts[1]) else { return nil }
            self = .deleteDrink(recordID: id, timestamp: timestamp)
        case "tare":
            self = .tare
        case "shake-to-empty":
            guard let argument, ["on", "off"].contains(argument) else { return nil }
            self = .shakeToEmpty(argument == "on")
        default:
            return nil
        }
    }

    /// Whether applying it twice is the same as once. Tare is not (the second tare zeroes
    /// whatever was poured since), so it is applied at most once.
    public var isIdempotent: Bool { self != .tare }

    /// A newer command of the same kind replaces a pending one (a goal, the switch); a delete or
    /// a tare never replaces another.
    public var replacesPendingOfSameKind: Bool {
        switch self {
        case .setGoal, .shakeToEmpty: return true
        case .deleteDrink, .tare: return false
        }
    }

    /// In words, for logs and `status`: "goal 2500 ml", "delete drink #17", "tare", "shake-to-empty on".
    public var summary: String {
        switch self {
        case .setGoal(let goal): return "goal \(goal) ml"
        case .deleteDrink(let id, _): return "delete drink #\(id)"
        case .tare: return "tare"
        case .shakeToEmpty(let on): return "shake-to-empty \(on ? "on" : "off")"
        }
    }
}
