// The signals one match rule delivers, buffered until read.
//
// Not an AsyncStream on purpose: an AsyncStream ends for good when a task waiting on it is
// cancelled, so racing "the next signal" against a time-out would tear the subscription down.
// Here a cancelled wait just returns nil and the subscription stays; it ends only on `cancel()`,
// when it is dropped, or when the connection closes.
import Locking

/// Signals matching one rule, in arrival order. The rule stays on the bus until `cancel()` or
/// until the subscription is dropped; an iterator keeps the subscription alive, so
/// `for await s in try await bus.subscribe(r)` works.
public final class SignalSubscription: AsyncSequence, Sendable {
    public typealias Element = DBusSignal
    public typealias Failure = Never

    public let rule: MatchRule
    private let connection: BusConnection
    private let id: UInt64
    let buffer: SignalBuffer

    init(connection: BusConnection, id: UInt64, rule: MatchRule, buffer: SignalBuffer) {
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
    public func cancel() async {
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
    public func next() async -> DBusSignal? {
        await buffer.next()
    }

    /// The next signal if one has already arrived, without waiting.
    public func nextIfAvailable() -> DBusSignal? {
        buffer.take()
    }

    /// The next signal that satisfies `predicate` (others are skipped and dropped), waiting at
    /// most `timeout`.
    /// - Throws: `DBusSignalWaitTimedOut`, or `DBusDisconnected` when the subscription ends first.
    public func next(
        within timeout: Duration, where predicate: @escaping @Sendable (DBusSignal) -> Bool = { _ in true }
    ) async throws -> DBusSignal {
        let outcome = await withTaskGroup(of: DBusSignal??.self) { group -> DBusSignal?? in
            group.addTask {
                while let signal = await self.buffer.next() {
                    if predicate(signal) { return .some(signal) }
                }
                return .some(nil)  // ended (or cancelled)
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return .none  // time is up
            }
            let first = await group.next() ?? .none
            group.cancelAll()
            return first
        }
        switch outcome {
        case .some(.some(let signal)): return signal
        case .some(.none):
            if Task.isCancelled { throw CancellationError() }
            throw DBusDisconnected(reason: "the subscription to \(rule) ended")
        case .none:
            throw DBusSignalWaitTimedOut(rule: rule, timeout: timeout)
        }
    }

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: self) }

    public struct Iterator: AsyncIteratorProtocol {
        let subscription: SignalSubscription
        public mutating func next() async -> DBusSignal? { await subscription.buffer.next() }
    }
}

/// No matching signal arrived in time.
public struct DBusSignalWaitTimedOut: Error, Hashable, Sendable, CustomStringConvertible {
    public var rule: MatchRule
    public var timeout: Duration
    public var description: String { "no matching signal for \(rule) within \(timeout)" }
}

/// The queue between the owner thread (which yields) and the readers (which wait).
final class SignalBuffer: Sendable {
    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<DBusSignal?, Never>
    }

    private struct State {
        var signals: [DBusSignal] = []
        var head = 0
        var waiters: [Waiter] = []
        var finished = false
        var nextWaiter: UInt64 = 0

        mutating func pop() -> DBusSignal? {
            guard head < signals.count else { return nil }
            let signal = signals[head]
            head += 1
            if head == signals.count {
                signals.removeAll(keepingCapacity: true)
                head = 0
            }
            return signal
        }
    }

    private let state = Locked(State())

    // Continuations are always resumed AFTER the lock is released. Resuming takes the task's
    // status-record lock, and a task being cancelled holds that lock while its cancellation
    // handler (below) takes ours: resuming under our lock deadlocked the owner thread against a
    // cancelling reader (seen in the full test suite; gdb showed the two locks crossed).

    func yield(_ signal: DBusSignal) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.finished else { return nil }
            if !state.waiters.isEmpty {
                return state.waiters.removeFirst()
            }
            state.signals.append(signal)
            return nil
        }
        waiter?.continuation.resume(returning: signal)
    }

    func finish() {
        let waiters = state.withLock { state -> [Waiter] in
            state.finished = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    /// The oldest buffered signal, if any.
    func take() -> DBusSignal? {
        state.withLock { state in state.pop() }
    }

    func next() async -> DBusSignal? {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiter += 1
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<DBusSignal?, Never>) in
                enum Now { case signal(DBusSignal), end, wait }
                let now = state.withLock { state -> Now in
                    if let signal = state.pop() { return .signal(signal) }
                    if state.finished || Task.isCancelled { return .end }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return .wait
                }
                switch now {
                case .signal(let signal): continuation.resume(returning: signal)
                case .end: continuation.resume(returning: nil)
                case .wait: break
                }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiters.remove(at: index)
            }
            waiter?.continuation.resume(returning: nil)
        }
    }
}
