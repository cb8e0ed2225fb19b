// An ordered, unbounded queue between producers (a signal pump, a D-Bus owner thread) and the
// tasks that wait for its elements with a deadline. D-Bus subscriptions buffer their signals in
// one, and BlueZ builds every wait of the bridge on them (object changes, sightings, link events).
//
// Why here, in Locking, and not in DBus: it is a concurrency primitive built on `Locked` and a
// timer, with no D-Bus in it, and both DBus and BlueZ (and any module above Locking) need it;
// the DBus module stays the Swift face of libdbus. The timer is handed in (`WaitTimer` says why):
// the queue reads no clock.
//
// Not an AsyncStream: an AsyncStream's iterator ends for good when the waiting task is
// cancelled, so racing "the next event" against a time-out would lose the queue. Here a wait
// that times out (or is cancelled) returns and the queue stays usable.
//
// Waiters are served in the order they started waiting; most queues have one consumer, but a
// D-Bus subscription may be read by several tasks at once.
//
// Continuations are always resumed AFTER the lock is released: resuming takes the task's status
// lock, and a task being cancelled holds that lock while its cancellation handler (below) takes
// ours. Resuming under our lock deadlocked a D-Bus owner thread against a cancelling reader (seen
// in the full test suite; gdb showed the two locks crossed).

package final class EventQueue<Element: Sendable>: Sendable {
    /// What a wait gave.
    package enum Wait: Sendable {
        case element(Element)
        case timedOut
        /// The queue was finished and is empty, or the waiting task was cancelled.
        case ended
    }

    private struct Waiter {
        let id: UInt64
        /// Unsafe, not checked: every resume goes through `takeWaiter` under the lock, so it
        /// happens exactly once; a checked continuation allocates a canary per wait, and waits
        /// happen dozens of times a sync.
        let continuation: UnsafeContinuation<Wait, Never>
    }

    private struct State {
        var items: [Element] = []
        var head = 0
        /// In the order they began to wait.
        var waiters: [Waiter] = []
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

        /// The oldest waiter.
        mutating func takeFirstWaiter() -> Waiter? {
            waiters.isEmpty ? nil : waiters.removeFirst()
        }

        /// Waiter `id`, if it is still waiting.
        mutating func takeWaiter(_ id: UInt64) -> Waiter? {
            guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
            return waiters.remove(at: index)
        }
    }

    private let state = Locked(State())
    /// What ends a wait whose time is up: the owner's clock.
    private let timer: any WaitTimer

    package init(timer: any WaitTimer) {
        self.timer = timer
    }

    /// Appends an element (ignored once finished); the oldest waiter, if any, takes it at once.
    package func push(_ element: Element) {
        let waiter = state.withLock { state -> Waiter? in
            guard !state.finished else { return nil }
            if let waiter = state.takeFirstWaiter() { return waiter }
            state.items.append(element)
            return nil
        }
        waiter?.continuation.resume(returning: .element(element))
    }

    /// Ends the queue: waits return `.ended` once the buffered elements are taken.
    package func finish() {
        let waiters = state.withLock { state -> [Waiter] in
            state.finished = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.continuation.resume(returning: .ended) }
    }

    package var isFinished: Bool { state.withLock { $0.finished } }

    /// How many tasks wait now (for tests that need waits in a known order).
    var waitingCount: Int { state.withLock { $0.waiters.count } }

    /// The next element if one is buffered.
    package func nextIfAvailable() -> Element? {
        state.withLock { $0.pop() }
    }

    /// The next element, waiting at most `timeout` (nil: no limit).
    package func next(within timeout: Duration?) async -> Wait {
        // Answer at once, without a timer task, what needs no waiting: a buffered element, an
        // ended queue, a time-out of zero. A consumer that keeps asking an ended queue then costs
        // nothing but its own loop (a timer task per call would pile up at 100 MB/s).
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
        // The time-out is a timer (a libdispatch one on the real clock), not a task sleeping that
        // is cancelled when an element comes first: on Linux (Swift 6.3) every cancelled task
        // sleep leaves about 150 bytes behind (heaptrack, over a daemon soak: ~4 waits a sync,
        // ~0.6 KB a sync). The timer is cancelled as soon as the wait ends: one left pending
        // until its deadline (the daemon waits up to minutes) holds its memory all that while,
        // and a soak counted thousands of them (heaptrack: ~3 a sync, ~250 bytes a sync).
        let cancelTimer = timeout.map { timeout in
            timer.startTimer(after: timeout) { [weak self] in self?.expire(id) }
        }
        defer {
            cancelTimer?()
            state.withLock { state in
                state.active.remove(id)
                state.expired.remove(id)
            }
        }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Wait, Never>) in
                let immediate = state.withLock { state -> Wait? in
                    if let item = state.pop() { return .element(item) }
                    if state.finished || Task.isCancelled { return .ended }
                    if state.expired.contains(id) { return .timedOut }
                    state.waiters.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let immediate { continuation.resume(returning: immediate) }
            }
        } onCancel: {
            self.resumeWaiter(id, with: .ended)
        }
    }

    /// The next element, waiting without limit; nil once ended (or when the waiting task is
    /// cancelled).
    package func next() async -> Element? {
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
