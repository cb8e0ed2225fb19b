// How far the bottle's clock is from the bridge's (docs/protocol.md 5.2, B9).
//
// Every timestamp the bottle makes is its system clock plus a whole-hour time-zone offset that
// can only be set over USB. The bridge cannot read the offset; it can only compare the Current
// State timestamp, read at connection before SET_TIME, with its own UTC clock: a difference near
// a whole number of hours (beyond a few minutes) is a zone offset, which shifts every record;
// anything else is the clock having drifted (a power loss, an RTC chip), which SET_TIME mends.

public enum BottleClockOffset: Sendable, Hashable {
    /// Within `tolerance` of the bridge's clock.
    case inSync
    /// A whole-hour offset (−12…+14): the bottle's timestamps are shifted by it.
    case zone(hours: Int)
    /// Off by this many seconds (bottle minus bridge), not a whole number of hours.
    case drift(seconds: Int)

    /// Differences up to this many seconds are ordinary (the Current State can be a few seconds old).
    public static let tolerance = 120

    /// `bottleTime`: the Current State timestamp; `bridgeTime`: UTC seconds when it was read.
    /// Nil for the all-zero placeholder (timestamp 0: the bottle has not rebuilt its state yet).
    public init?(bottleTime: UInt32, bridgeTime: Double) {
        guard bottleTime != 0, bridgeTime.isFinite, abs(bridgeTime) < 1e15 else { return nil }
        // Whole seconds in integers: this module links no maths library.
        let difference = Int(bottleTime) - Int(bridgeTime)
        if abs(difference) <= Self.tolerance {
            self = .inSync
            return
        }
        let hours = (difference + (difference >= 0 ? 1800 : -1800)) / 3600
        if hours != 0, (-12...14).contains(hours), abs(difference - hours * 3600) <= Self.tolerance {
            self = .zone(hours: hours)
        } else {
            self = .drift(seconds: difference)
        }
    }

    /// The signed difference in seconds this stands for (bottle minus bridge).
    public var seconds: Int {
        switch self {
        case .inSync: return 0
        case .zone(let hours): return hours * 3600
        case .drift(let seconds): return seconds
        }
    }

    /// From a stored difference (the history keeps seconds).
    public init(storedSeconds seconds: Int) {
        if seconds == 0 {
            self = .inSync
        } else if seconds % 3600 == 0, (-12...14).contains(seconds / 3600) {
            self = .zone(hours: seconds / 3600)
        } else {
            self = .drift(seconds: seconds)
        }
    }

    /// One line for `status` and `doctor`; nil when in sync.
    public var problem: String? {
        switch self {
        case .inSync:
            return nil
        case .zone(let hours):
            return "the bottle's clock runs \(hours > 0 ? "+" : "")\(hours) h from UTC: a time-zone offset set over USB, which shifts every drink's stamp and the bottle's own day; the bridge stores its drinks \(abs(hours)) h \(hours > 0 ? "earlier" : "later") than stamped (each stamp kept), so your days are right; set the offset back to 0 on the bottle's serial console"
        case .drift(let seconds):
            return "the bottle's clock was \(Self.words(seconds)) \(seconds > 0 ? "ahead" : "behind") at the last connection; the bridge set it (SET_TIME), but drinks recorded before that carry the wrong time"
        }
    }

    private static func words(_ seconds: Int) -> String {
        let magnitude = abs(seconds)
        if magnitude >= 7200 { return "\(magnitude / 3600) h" }
        if magnitude >= 120 { return "\(magnitude / 60) min" }
        return "\(magnitude) s"
    }
}
