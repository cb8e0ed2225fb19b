// A SinkClock whose time moves only when the test says so. Every sleep is announced on `sleeps`
// (its duration) and parks until `advance(by:)` passes its deadline, so a test reads the
// back-off schedule exactly and never waits for it.

import Foundation
@testable import Sinks

final class ManualClock: SinkClock, @unchecked Sendable {
    private let lock = NSLock()
    private var current: Double
    private var sleepers: [Int: (deadline: Double, continuation: CheckedContinuation<Void, Error>)] = [:]
    private var cancelledBeforeParking: Set<Int> = []
    private var nextID = 0
    /// Durations of the sleeps asked for, in order.
    let requested = Recorder<Double>()

    init(now: Double = 1_763_712_000) {
        current = now
    }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    var now: Double { locked { current } }

    func sleep(for seconds: Double) async throws {
        let id: Int = locked {
            nextID += 1
            return nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
                let parked: Bool = locked {
                    if cancelledBeforeParking.remove(id) != nil { return false }
                    sleepers[id] = (current + seconds, continuation)
                    return true
                }
                if parked {
                    requested.append(seconds)
                } else {
                    continuation.resume(throwing: CancellationError())
                }
            }
        } onCancel: {
            let continuation: CheckedContinuation<Void, Error>? = locked {
                if let sleeper = sleepers.removeValue(forKey: id) { return sleeper.continuation }
                cancelledBeforeParking.insert(id)
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Moves time on and wakes every sleeper whose deadline has come.
    func advance(by seconds: Double) {
        let due: [CheckedContinuation<Void, Error>] = locked {
            current += seconds
            let due = sleepers.filter { $0.value.deadline <= current }
            for key in due.keys { sleepers.removeValue(forKey: key) }
            return due.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    var parkedSleepers: Int { locked { sleepers.count } }
}
