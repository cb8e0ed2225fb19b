// A clock that says what it is told (tests, replay). A sleep on it parks until the clock is moved
// past its deadline, so a test reads a back-off schedule exactly and never waits for it.
//
// Its two faces move together when time passes (`advance`), but setting the wall clock (`set`)
// leaves the monotonic time alone, as an NTP step does on a real host: a deadline measured on
// the monotonic side neither fires early nor is pushed back by it.

import Locking

package final class ManualClock: WallClock {
    /// What a parked sleep waits for: a wall-clock time (`sleep(for: Double)`) or a monotonic
    /// instant (`sleep(until:)`, `sleep(for: Duration)`).
    private enum Deadline {
        case wall(WallInstant)
        case monotonic(MonotonicInstant)
    }

    private struct State {
        var now: WallInstant
        var instant: MonotonicInstant
        var sleepers: [Int: (deadline: Deadline, continuation: CheckedContinuation<Void, any Error>)] = [:]
        /// The timers of waiting queues (`startTimer`), by monotonic deadline.
        var timers: [Int: (deadline: MonotonicInstant, expire: @Sendable () -> Void)] = [:]
        var cancelledBeforeParking: Set<Int> = []
        var nextID = 0

        func isDue(_ deadline: Deadline) -> Bool {
            switch deadline {
            case .wall(let time): time <= now
            case .monotonic(let time): time <= instant
            }
        }
    }

    private let state: Locked<State>
    private let onSleep: (@Sendable (Double) -> Void)?

    /// Starts at `start` and, on the monotonic side, at `instant` (by default the real clock's
    /// present, so instants from both can be compared). `onSleep` hears the duration (in seconds)
    /// of each sleep once it is parked, so a test that waits for it can then move the clock past it.
    package init(_ start: WallInstant, instant: MonotonicInstant = SystemClock().instant,
                onSleep: (@Sendable (Double) -> Void)? = nil) {
        state = Locked(State(now: start, instant: instant))
        self.onSleep = onSleep
    }

    /// Starts `secondsSince1970` after 1970 (by default 2025-11-21T08:00:00Z), as `init(_:)`.
    package convenience init(secondsSince1970: Double = 1_763_712_000, instant: MonotonicInstant = SystemClock().instant,
                            onSleep: (@Sendable (Double) -> Void)? = nil) {
        self.init(WallInstant(secondsSince1970: secondsSince1970), instant: instant, onSleep: onSleep)
    }

    package var now: WallInstant { state.withLock { $0.now } }

    package var instant: MonotonicInstant { state.withLock { $0.instant } }

    /// How many sleeps are parked, waiting for the clock to move.
    package var parkedSleepers: Int { state.withLock { $0.sleepers.count } }

    /// How many timers (time-outs of waiting queues) are running.
    package var runningTimers: Int { state.withLock { $0.timers.count } }

    /// Expires when the monotonic time passes `timeout` from now (at once for none).
    package func startTimer(after timeout: Duration, _ expire: @escaping @Sendable () -> Void) -> () -> Void {
        let id: Int? = state.withLock { state in
            guard timeout > .zero else { return nil }
            state.nextID += 1
            state.timers[state.nextID] = (state.instant + timeout, expire)
            return state.nextID
        }
        guard let id else {
            expire()
            return {}
        }
        return { [state] in _ = state.withLock { $0.timers.removeValue(forKey: id) } }
    }

    /// Sets the wall clock only (a step of the host's time); the monotonic time stays.
    package func set(_ value: WallInstant) {
        move { $0.now = value }
    }

    /// Lets `duration` pass: the wall clock moves by it (back, for a negative one) and, when
    /// forward, the monotonic time with it; wakes every sleeper whose deadline has come.
    package func advance(by duration: Duration) {
        move { state in
            state.now += duration
            if duration > .zero { state.instant = state.instant + duration }
        }
    }

    package func sleep(for seconds: Double) async throws {
        try await park(seconds: seconds) { .wall($0.now + .seconds(seconds)) }
    }

    package func sleep(until deadline: MonotonicInstant) async throws {
        try await park(seconds: nil) { _ in .monotonic(deadline) }
    }

    /// Parks the calling task until the clock passes the deadline `deadline` computes under the
    /// lock (or the task is cancelled).
    private func park(seconds: Double?, _ deadline: @escaping @Sendable (State) -> Deadline) async throws {
        let id: Int = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let parked: Double? = state.withLock { state in
                    if state.cancelledBeforeParking.remove(id) != nil { return nil }
                    let due = deadline(state)
                    state.sleepers[id] = (due, continuation)
                    switch due {
                    case .wall(let time): return seconds ?? (time - state.now).inSeconds
                    case .monotonic(let time):
                        let (whole, fraction) = state.instant.duration(to: time).components
                        return Double(whole) + Double(fraction) / 1e18
                    }
                }
                if let parked {
                    onSleep?(parked)
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, any Error>? = state.withLock { state in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper.continuation }
                state.cancelledBeforeParking.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Changes the time, then resumes (outside the lock) the sleepers it made due and expires
    /// the timers.
    private func move(_ change: (inout State) -> Void) {
        let (due, expired) = state.withLock { state in
            change(&state)
            let due = state.sleepers.filter { state.isDue($0.value.deadline) }
            for key in due.keys { state.sleepers.removeValue(forKey: key) }
            let expired = state.timers.filter { $0.value.deadline <= state.instant }
            for key in expired.keys { state.timers.removeValue(forKey: key) }
            return (due.map(\.value.continuation), expired.map(\.value.expire))
        }
        for continuation in due { continuation.resume() }
        for expire in expired { expire() }
    }
}
