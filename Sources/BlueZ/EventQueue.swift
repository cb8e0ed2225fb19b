// An ordered, unbounded queue between producers (the signal pump) and one consumer that waits
// with a deadline.
//
// Not an AsyncStream: an AsyncStream's iterator ends for good when the waiting task is
// cancelled, so racing "the next event" against a time-out would lose the queue. Here a wait
// that times out (or is cancelled) returns and the queue stays usable.

import Dispatch
import Locking

public final class EventQueue<Element: Sendable>: Sendable {
    /// What a wait gave.
    public enum Wait: Sendable {
        case element(Element)
        case timedOut
        /// The queue was finished and is empty, or the waiting task was cancelled.
        case ended
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Wait, Never>
    }

    private struct State {
        var items: [Element] = []
        var head = 0
        var waiter: Waiter?
        var finished = false
        var nextID: UInt64 = 0
        /// Waits whose time ran out before they were registered (a very short time-out on a
        /// busy machine): they must still time out, not wait for ever.
        var expired: Set<UInt64> = []
        /// Waits in progress (so that a late timer marks nothing).
        var active: Set<UInt64> = []

        mutating func pop() -> Element? {
            guard head < items.count else { return nil }
            let item = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return item
        }

        mutating func takeWaiter(_ id: UInt64? = nil) -> Waiter? {
            guard let waiter, id == nil || waiter.id == id else { return nil }
            self.waiter = nil
            return waiter
        }
    }

    private let state = Locked(State())

    public init() {}

    /// Appends an element (ignored once finished).
    public func push(_ element: Element) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.finished else { return nil }
            if let waiter = state.takeWaiter() { return waiter }
            state.items.append(element)
            return nil
        }
        waiter?.continuation.resume(returning: .element(element))
    }

    /// Ends the queue: waits return `.ended` once the buffered elements are taken.
    public func finish() {
        let waiter = state.withLock { state -> Waiter? in
            state.finished = true
            return state.takeWaiter()
        }
        waiter?.continuation.resume(returning: .ended)
    }

    public var isFinished: Bool { state.withLock { $0.finished } }

    /// The next element if one is buffered.
    public func nextIfAvailable() -> Element? {
        state.withLock { $0.pop() }
    }

    /// The next element, waiting at most `timeout` (nil: no limit). One waiter at a time.
    public func next(within timeout: Duration?) async -> Wait {
        // Answer at once, without a timer task, what needs no waiting: a buffered element, an
        // ended queue, a time-out of zero. A consumer that keeps asking an ended queue then costs
        // nothing but its own loop (issue 10 saw a timer task per call pile up at 100 MB/s).
        let ready = state.withLock { state -> Wait? in
            if let item = state.pop() { return .element(item) }
            if state.finished { return .ended }
            if let timeout, timeout <= .zero { return .timedOut }
            return nil
        }
        if let ready { return ready }
        if Task.isCancelled { return .ended }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            state.active.insert(state.nextID)
            return state.nextID
        }
        // The time-out is a libdispatch timer, not a task in `Task.sleep` that is cancelled when
        // an element comes first: on Linux (Swift 6.3) every cancelled `Task.sleep` leaves about
        // 150 bytes behind (heaptrack, over a daemon soak: ~4 waits a sync, ~0.6 KB a sync). A
        // timer that fires after its wait is over finds nothing to do.
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            let nanoseconds = Int(min(max(seconds, 0), 315_360_000)) * 1_000_000_000 + Int(max(attoseconds, 0) / 1_000_000_000)
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
                self?.expire(id)
            }
        }
        defer {
            state.withLock { state in
                state.active.remove(id)
                state.expired.remove(id)
            }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Wait, Never>) in
                let immediate = state.withLock { state -> Wait? in
                    if let item = state.pop() { return .element(item) }
                    if state.finished || Task.isCancelled { return .ended }
                    if state.expired.contains(id) { return .timedOut }
                    state.waiter = Waiter(id: id, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            self.resumeWaiter(id, with: .ended)
        }
    }

    /// The next element, waiting without limit; nil once ended.
    public func next() async -> Element? {
        if case .element(let element) = await next(within: nil) { return element }
        return nil
    }

    /// The time of wait `id` ran out: resume it, or mark it for when it registers.
    private func expire(_ id: UInt64) {
        let waiter = state.withLock { state -> Waiter? in
            if let waiter = state.takeWaiter(id) { return waiter }
            if state.active.contains(id) { state.expired.insert(id) }
            return nil
        }
        waiter?.continuation.resume(returning: .timedOut)
    }

    private func resumeWaiter(_ id: UInt64, with result: Wait) {
        let waiter = state.withLock { $0.takeWaiter(id) }
        waiter?.continuation.resume(returning: result)
    }
}
