// One sink's queue and its worker: items are delivered in order, one at a time; a failure keeps
// the item at the head and retries it with back-off, so a sink that is down or slow only ever
// delays itself (docs/reminders.md 1). The queue is bounded; when it is full the oldest waiting item
// is dropped, with a log line.
//
// Logging: the first failure of an outage is a warning, later failures are debug lines, and the
// first success after it is one notice ("delivering again"). A broker that is down all night
// writes two lines, not one per retry.
//
// Concurrency: `enqueue`, `wake` and `close` may be called from any thread; the state they share
// with the worker is `state`, whose lock is never held across an await or a sink call.

import Foundation
import Locking
import Logging
import MQTT
import Timekeeping

/// What a sink's queue looks like now (for `status` and tests).
package struct SinkQueueStatus: Sendable, Equatable {
    package var sink: String
    /// Items waiting, not counting the one being delivered.
    package var waiting: Int
    /// Items dropped because the queue was full, since start.
    package var dropped: Int
    /// When the current outage began (UTC seconds); nil while the sink delivers.
    package var failingSince: WallInstant?
    /// Items the sink took (delivered) since start.
    package var delivered: Int = 0
    /// Items the destination refused (dropped without retry) since start.
    package var rejected: Int = 0
    /// The last failure or refusal, one line; nil when there was none.
    package var lastProblem: String?
}

final class SinkQueue: Sendable {
    let sink: any NotificationSink
    /// "Now" for the log lines and the back-off's sleeps: injected, so that tests step through the
    /// back-off schedule without waiting minutes.
    private let clock: any WallClock
    private let policy: RetryPolicy
    private let limit: Int
    private let logger: Logger

    private let state = Locked(State())

    private struct State {
        var waiting: [SinkItem] = []
        var itemWaiter: CheckedContinuation<Void, Never>?
        var backoffTask: Task<Void, Error>?
        var wakeRequested = false
        var closed = false
        var failingSince: WallInstant?
        var failures = 0
        var dropped = 0
        var deliveredCount = 0
        var rejectedCount = 0
        var lastProblem: String?
        /// An item was taken and is being delivered (or retried).
        var inFlight = false
    }

    init(sink: any NotificationSink, clock: any WallClock, policy: RetryPolicy, limit: Int, logger: Logger) {
        self.sink = sink
        self.clock = clock
        self.policy = policy
        self.limit = max(1, limit)
        self.logger = logger
    }

    private var name: String { sink.name }

    // MARK: - Called by the hub (any thread)

    func enqueue(_ item: SinkItem) {
        let limit = self.limit
        let (accepted, droppedItem, waiter) = state.withLock { state -> (Bool, SinkItem?, CheckedContinuation<Void, Never>?) in
            if state.closed { return (false, nil, nil) }
            // Only the newest state of a bottle matters: a queued older snapshot of the same
            // bottle is replaced, not repeated (another bottle's stays).
            if let bottle = item.snapshotBottle,
               let index = state.waiting.firstIndex(where: { $0.snapshotBottle == bottle }) {
                state.waiting.remove(at: index)
            }
            var droppedItem: SinkItem?
            if state.waiting.count >= limit {
                droppedItem = state.waiting.removeFirst()
                state.dropped += 1
            }
            state.waiting.append(item)
            let waiter = state.itemWaiter
            state.itemWaiter = nil
            return (true, droppedItem, waiter)
        }
        waiter?.resume()
        if let droppedItem {
            logger.warning("sink \(name): queue full (\(limit) waiting), dropped the oldest: \(droppedItem.summary)")
        }
        if !accepted {
            logger.debug("sink \(name): stopped, not queueing \(item.summary)")
        }
    }

    /// The sink can deliver again: cut the current back-off short.
    func wake() {
        let task = state.withLock { state -> Task<Void, Error>? in
            if let backoffTask = state.backoffTask { return backoffTask }
            if state.failingSince != nil { state.wakeRequested = true }
            return nil
        }
        task?.cancel()
    }

    /// Nothing waits and nothing is being delivered — or the sink is failing, and waiting for it
    /// would not help.
    var isSettled: Bool {
        state.withLock { ($0.waiting.isEmpty && !$0.inFlight) || $0.failingSince != nil }
    }

    /// Stops taking items and wakes the worker so it can end. Returns what was never delivered.
    func close() -> Int {
        let (waiter, task, count) = state.withLock { state -> (CheckedContinuation<Void, Never>?, Task<Void, Error>?, Int) in
            state.closed = true
            let waiter = state.itemWaiter
            state.itemWaiter = nil
            let count = state.waiting.count
            state.waiting.removeAll()
            return (waiter, state.backoffTask, count)
        }
        waiter?.resume()
        task?.cancel()
        return count
    }

    var status: SinkQueueStatus {
        let name = self.name
        return state.withLock { state in
            SinkQueueStatus(sink: name, waiting: state.waiting.count, dropped: state.dropped, failingSince: state.failingSince,
                            delivered: state.deliveredCount, rejected: state.rejectedCount, lastProblem: state.lastProblem)
        }
    }

    // MARK: - The worker

    /// Delivers until closed or cancelled.
    func run() async {
        while let first = await nextItem() {
            var item = first
            // Progress: each pass is one delivery attempt; a failure awaits its back-off first.
            while true {
                if isClosed { return }
                do {
                    try await item.send(to: sink)
                    state.withLock {
                        $0.deliveredCount += 1
                        $0.inFlight = false
                    }
                    deliveredAfterFailures()
                    break
                } catch let error as SinkDeliveryError {
                    if case .rejected = error {
                        rejected(item, error)
                        state.withLock { $0.inFlight = false }
                        break
                    }
                    if isClosed { return }
                    await backoff(failed(item, error))
                } catch {
                    if isClosed { return }
                    await backoff(failed(item, error))
                }
                item = freshest(item)
            }
        }
    }

    private var isClosed: Bool { state.withLock { $0.closed } || Task.isCancelled }

    private func nextItem() async -> SinkItem? {
        // Progress: each pass takes an item or awaits the next push (or the close).
        while true {
            let (item, isClosed) = state.withLock { state -> (SinkItem?, Bool) in
                if state.closed { return (nil, true) }
                if state.waiting.isEmpty { return (nil, false) }
                state.inFlight = true
                return (state.waiting.removeFirst(), false)
            }
            if isClosed { return nil }
            if let item { return item }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.closed || !state.waiting.isEmpty { return true }
                    state.itemWaiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// A newer snapshot of the same bottle waiting behind a stale one that failed goes out instead of it.
    private func freshest(_ item: SinkItem) -> SinkItem {
        guard let bottle = item.snapshotBottle else { return item }
        return state.withLock { state in
            guard let index = state.waiting.firstIndex(where: { $0.snapshotBottle == bottle }) else { return item }
            return state.waiting.remove(at: index)
        }
    }

    /// Waits `delay` on the monotonic clock (a wall clock stepped by NTP neither cuts it short
    /// nor stretches it), or until woken.
    private func backoff(_ delay: Duration) async {
        let clock = self.clock
        let task = Task { try await clock.sleep(for: delay) }
        let skip = state.withLock { state -> Bool in
            if state.wakeRequested || state.closed {
                state.wakeRequested = false
                return true
            }
            state.backoffTask = task
            return false
        }
        if skip { task.cancel() }
        await withTaskCancellationHandler {
            _ = try? await task.value
        } onCancel: {
            task.cancel()
        }
        state.withLock { $0.backoffTask = nil }
    }

    // MARK: - Outage bookkeeping and its log lines

    /// Returns the back-off before the next attempt.
    private func failed(_ item: SinkItem, _ error: Error) -> Duration {
        let now = clock.now
        let (count, firstOfOutage) = state.withLock { state -> (Int, Bool) in
            state.failures += 1
            state.lastProblem = "\(error)"
            if state.failingSince == nil {
                state.failingSince = now
                return (state.failures, true)
            }
            return (state.failures, false)
        }
        let delay = policy.delay(afterFailures: count)
        if firstOfOutage {
            let text = "sink \(name): cannot deliver \(item.summary): \(error); retrying in \(delay.secondsText) "
                + "with back-off up to \(policy.maximumDelay.secondsText); further failures are not logged until it recovers"
            logger.warning("\(text)")
        } else {
            logger.debug("sink \(name): attempt \(count) failed: \(error); next in \(delay.secondsText)")
        }
        return delay
    }

    private func deliveredAfterFailures() {
        let now = clock.now
        let outage = state.withLock { state -> (since: WallInstant, failures: Int, waiting: Int)? in
            guard let since = state.failingSince else { return nil }
            let outage = (since, state.failures, state.waiting.count)
            state.failingSince = nil
            state.failures = 0
            state.wakeRequested = false
            return outage
        }
        if let outage {
            let text = "sink \(name): delivering again after \(outage.failures) failed attempts over "
                + "\((now - outage.since).secondsText); \(outage.waiting) more queued"
            logger.notice("\(text)")
        }
    }

    private func rejected(_ item: SinkItem, _ error: SinkDeliveryError) {
        // The destination answered, so whatever outage there was is over.
        state.withLock { state in
            state.rejectedCount += 1
            state.lastProblem = "\(error)"
        }
        deliveredAfterFailures()
        logger.error("sink \(name): dropped \(item.summary): \(error)")
    }
}
