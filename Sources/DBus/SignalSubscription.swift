// The signals one match rule delivers, buffered until read.
//
// Not an AsyncStream on purpose: an AsyncStream ends for good when a task waiting on it is
// cancelled, so racing "the next signal" against a time-out would tear the subscription down.
// Here a cancelled wait just returns nil and the subscription stays; it ends only on `cancel()`,
// when it is dropped, or when the connection closes.
import Locking
import Timekeeping

/// Signals matching one rule, in arrival order. The rule stays on the bus until `cancel()` or
/// until the subscription is dropped; an iterator keeps the subscription alive, so
/// `for await s in try await bus.subscribe(r)` works.
package final class SignalSubscription: AsyncSequence, Sendable {
    package typealias Element = DBusSignal
    package typealias Failure = Never

    package let rule: MatchRule
    private let connection: BusConnection
    private let id: UInt64
    /// Filled by the connection's owner thread, read by the subscriber's tasks.
    let buffer: EventQueue<DBusSignal>

    init(connection: BusConnection, id: UInt64, rule: MatchRule, buffer: EventQueue<DBusSignal>) {
        self.connection = connection
        self.id = id
        self.rule = rule
        self.buffer = buffer
    }

    deinit {
        let id = self.id
        connection.core.enqueue { $0.removeSubscription(id: id, completion: nil) }
    }

    /// Ends the subscription and removes the match rule from the bus; returns when the bus has
    /// done so.
    package func cancel() async {
        let id = self.id
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let queued = connection.core.enqueue { core in
                core.removeSubscription(id: id) { _ in done.resume() }
            }
            if !queued { done.resume() }
        }
        buffer.finish()
    }

    /// The next signal; nil when the subscription has ended or the waiting task is cancelled.
    package func next() async -> DBusSignal? {
        await buffer.next()
    }

    /// The next signal if one has already arrived, without waiting.
    package func nextIfAvailable() -> DBusSignal? {
        buffer.nextIfAvailable()
    }

    /// The next signal that satisfies `predicate` (others are skipped and dropped), waiting at
    /// most `timeout`.
    /// - Throws: `DBusSignalWaitTimedOut`, or `DBusDisconnected` when the subscription ends first.
    package func next(
        within timeout: Duration, where predicate: @escaping @Sendable (DBusSignal) -> Bool = { _ in true }
    ) async throws -> DBusSignal {
        let deadline = connection.clock.deadline(after: timeout)
        var firstPass = true
        // Progress: every pass takes one signal off the queue or ends (time-out, end, cancel).
        // Once the time is up it is up, however fast signals that do not match keep coming; only
        // the first pass looks even then, so that a zero time-out still finds a waiting signal.
        while true {
            let left = connection.clock.timeLeft(until: deadline)
            if left <= .zero && !firstPass { throw DBusSignalWaitTimedOut(rule: rule, timeout: timeout) }
            firstPass = false
            switch await buffer.next(within: Swift.max(left, .zero)) {
            case .element(let signal):
                if predicate(signal) { return signal }
            case .timedOut:
                throw DBusSignalWaitTimedOut(rule: rule, timeout: timeout)
            case .ended:
                if Task.isCancelled { throw CancellationError() }
                throw DBusDisconnected(reason: "the subscription to \(rule) ended")
            }
        }
    }

    package func makeAsyncIterator() -> Iterator { Iterator(subscription: self) }

    package struct Iterator: AsyncIteratorProtocol {
        let subscription: SignalSubscription
        package mutating func next() async -> DBusSignal? { await subscription.buffer.next() }
    }
}

/// No matching signal arrived in time.
package struct DBusSignalWaitTimedOut: Error, Hashable, Sendable, CustomStringConvertible {
    package var rule: MatchRule
    package var timeout: Duration
    package var description: String { "no matching signal for \(rule) within \(timeout)" }
}
