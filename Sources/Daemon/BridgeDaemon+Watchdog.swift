// What the daemon tells the watchdog (LoopProgress): the bounds behind its marks and waits.

import BottleSession

extension BridgeDaemon {
    /// The longest the daemon works after a mark before it marks again or declares a wait: a
    /// step whose own time-outs bound it. The longest such steps are a few D-Bus calls in a row
    /// (25 s each at most: connecting to bluetoothd, GetManagedObjects, starting discovery) and,
    /// inside a session, the quiet between two events (a GATT operation's 10 s, a chunk's 5 s,
    /// the StartNotify calls before the first Current State). Generous, because going past it
    /// costs a restart; a session that stops producing events for this long is stuck.
    public static let watchdogPatience: Duration = .seconds(120)
}

extension SessionEvent {
    /// The event in a few words, for the watchdog's "last progress" when the loop later stalls.
    var watchdogMark: String {
        switch self {
        case .currentState: return "current state received"
        case .battery: return "battery level received"
        case .bottleConfig: return "bottle config received"
        case .stored(let results, _): return "\(results.count) record(s) stored"
        case .syncEnded(let round): return "sync round ended (\(round.outcome.rawValue))"
        case .identity: return "device information read"
        case .deviceSettings: return "device settings read"
        case .clockOffset: return "bottle clock compared"
        case .activity: return "activity fetched"
        }
    }
}
