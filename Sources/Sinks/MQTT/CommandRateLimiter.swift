// How many commands the command topic may bring: a token bucket, `burst` at once and then
// `perSecond`. A broker login that floods the topic would otherwise keep the reminder desk and
// the database busy with one write per message.
//
// The clock is injected (no Date() in logic), so tests move time by hand. The limiter also keeps
// the count of refusals since the last accepted command, so the log can say "refusing" once when a
// flood starts and sum it up once when it ends, instead of one warning per message.

import Locking
import Timekeeping

final class CommandRateLimiter: Sendable {
    enum Decision: Equatable {
        /// Go ahead; `refusedBefore` commands were refused since the last accepted one.
        case accept(refusedBefore: Int)
        /// Refused; `first` is true for the first refusal of a flood (the one to log and answer).
        case refuse(first: Bool)
    }

    private struct State {
        var tokens: Double
        var last: WallInstant?
        var refused = 0
    }

    let burst: Double
    let perSecond: Double
    private let clock: any WallClock
    private let state: Locked<State>

    init(burst: Int = 10, perSecond: Double = 1, clock: any WallClock) {
        self.burst = Double(burst)
        self.perSecond = perSecond
        self.clock = clock
        state = Locked(State(tokens: Double(burst)))
    }

    func decide() -> Decision {
        let now = clock.now
        return state.withLock { state in
            if let last = state.last {
                // A clock that went back adds nothing (and takes nothing away).
                state.tokens = min(burst, state.tokens + max(0, (now - last).inSeconds) * perSecond)
            }
            state.last = now
            guard state.tokens >= 1 else {
                state.refused += 1
                return .refuse(first: state.refused == 1)
            }
            state.tokens -= 1
            defer { state.refused = 0 }
            return .accept(refusedBefore: state.refused)
        }
    }
}
