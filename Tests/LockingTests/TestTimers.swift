// The timers the queue's tests hand it. The product's come from Timekeeping (its clocks), which
// sits above this module; these tests build on nothing above it.

import Dispatch
import Locking

/// A real time-out, as `SystemClock` gives it: a libdispatch timer.
struct DispatchTimer: WaitTimer {
    func startTimer(after timeout: Duration, _ expire: @escaping @Sendable () -> Void) -> () -> Void {
        let (seconds, attoseconds) = timeout.components
        let source = DispatchSource.makeTimerSource(queue: .global())
        source.schedule(deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
        source.setEventHandler(handler: expire)
        source.resume()
        return { source.cancel() }
    }
}

/// A time-out that comes only when the test says so.
final class SteppedTimer: WaitTimer {
    private let running = Locked<[Int: (timeout: Duration, expire: @Sendable () -> Void)]>([:])
    private let nextID = Locked(0)

    func startTimer(after timeout: Duration, _ expire: @escaping @Sendable () -> Void) -> () -> Void {
        let id = nextID.withLock { $0 += 1; return $0 }
        running.withLock { $0[id] = (timeout, expire) }
        return { [running] in _ = running.withLock { $0.removeValue(forKey: id) } }
    }

    /// The time-outs asked for and not yet expired or cancelled.
    var timeouts: [Duration] { running.withLock { $0.values.map(\.timeout) } }

    /// Expires every running timer.
    func expireAll() {
        let expiring = running.withLock { running in
            defer { running.removeAll() }
            return running.values.map(\.expire)
        }
        for expire in expiring { expire() }
    }
}
