// The page's logins (docs/design.md 3.6): each successful login makes its own session, a random
// id the cookie carries (never the token, nor anything derived from it), which the server keeps
// with its expiry and forgets at logout, at expiry, or when the server stops. So a cookie taken
// from one browser is worth nothing after that browser logs out, and the token itself never
// leaves the login form.
//
// Time is monotonic: a wall clock that jumps (a Pi without a real-time clock, at its first NTP
// sync) neither ends every session at once nor keeps one for years.

import Locking
import Timekeeping

final class Sessions: Sendable {
    /// How long a login lasts.
    static let lifetime: Duration = .seconds(7 * 86_400)
    /// At most this many live sessions: the oldest gives way, so logging in in a loop cannot grow
    /// the server's memory.
    static let capacity = 64

    private let clock: any MonotonicClock
    private struct Entry {
        var end: MonotonicInstant
        /// The how-manieth login it was: the oldest gives way first, even when two end together.
        var order: UInt64
    }
    /// Session id → when it ends; and the logins so far.
    private let live = Locked<(sessions: [String: Entry], logins: UInt64)>(([:], 0))

    init(clock: any MonotonicClock) {
        self.clock = clock
    }

    /// A new session; its id for the cookie.
    func open() -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }.joined()
        let now = clock.instant
        live.withLock { live in
            live.sessions = live.sessions.filter { $0.value.end > now }
            if live.sessions.count >= Self.capacity, let oldest = live.sessions.min(by: { $0.value.order < $1.value.order })?.key {
                live.sessions[oldest] = nil
            }
            live.logins += 1
            live.sessions[id] = Entry(end: now + Self.lifetime, order: live.logins)
        }
        return id
    }

    /// Is `id` a live session? Compared in constant time against each, so the answer's timing does
    /// not tell how much of a guessed id was right.
    func isLive(_ id: String) -> Bool {
        let now = clock.instant
        return live.withLock { live in
            var found = false
            for (candidate, entry) in live.sessions where entry.end > now {
                if AccessGuard.constantTimeEqual(id, candidate) { found = true }
            }
            return found
        }
    }

    /// Ends the session `id` (logout); nothing when it is not one.
    func close(_ id: String) {
        live.withLock { live in
            for candidate in live.sessions.keys where AccessGuard.constantTimeEqual(id, candidate) {
                live.sessions[candidate] = nil
            }
        }
    }

    var count: Int { live.withLock { $0.sessions.count } }
}
