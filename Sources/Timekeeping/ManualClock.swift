// A clock that says what it is told (tests, replay). A sleep on it parks until the clock is moved
// past its deadline, so a test reads a back-off schedule exactly and never waits for it.

import Locking

public final class ManualClock: WallClock {
    private struct State {
        var now: Double
        var sleepers: [Int: (deadline: Double, continuation: CheckedContinuation<Void, any Error>)] = [:]
        var cancelledBeforeParking: Set<Int> = []
        var nextID = 0
    }

    private let state: Locked<State>
    private let onSleep: (@Sendable (Double) -> Void)?

    /// Starts at `start` (by default 2025-11-21T08:00:00Z). `onSleep` hears the duration of each
    /// sleep once it is parked, so a test that waits for it can then move the clock past it.
    public init(_ start: Double = 1_763_712_000, onSleep: (@Sendable (Double) -> Void)? = nil) {
        state = Locked(State(now: start))
        self.onSleep = onSleep
    }

    public var now: Double { state.withLock { $0.now } }

    /// How many sleeps are parked, waiting for the clock to move.
    public var parkedSleepers: Int { state.withLock { $0.sleepers.count } }

    public func set(_ value: Double) {
        move { $0 = value }
    }

    /// Moves the clock forward (or, with a negative value, back) and wakes every sleeper whose
    /// deadline has come.
    public func advance(by seconds: Double) {
        move { $0 += seconds }
    }

    public func sleep(for seconds: Double) async throws {
        let id: Int = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let parked: Bool = state.withLock { state in
                    if state.cancelledBeforeParking.remove(id) != nil { return false }
                    state.sleepers[id] = (state.now + seconds, continuation)
                    return true
                }
                if parked {
                    onSleep?(seconds)
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

    /// Changes the time, then resumes (outside the lock) the sleepers it made due.
    private func move(_ change: (inout Double) -> Void) {
        let due: [CheckedContinuation<Void, any Error>] = state.withLock { state in
            change(&state.now)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for key in due.keys { state.sleepers.removeValue(forKey: key) }
            return due.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }
}
