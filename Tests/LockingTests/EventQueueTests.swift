// The ordered queue with timed waits that every BlueZ wait and every D-Bus subscription is
// built on.

@testable import Locking
import Testing

@Suite(.timeLimit(.minutes(1))) struct EventQueueTests {
    @Test func keepsOrderAndWakesAWaiter() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        queue.push(1)
        queue.push(2)
        #expect(await queue.next() == 1)
        async let third = queue.next()
        queue.push(3)
        #expect(await queue.next() == 2)
        #expect(await third == 3)
    }

    @Test func aWaitTimesOutAndTheQueueStaysUsable() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        guard case .timedOut = await queue.next(within: .milliseconds(20)) else {
            Issue.record("expected a time-out")
            return
        }
        queue.push(7)
        guard case .element(7) = await queue.next(within: .seconds(5)) else {
            Issue.record("expected the element after a time-out")
            return
        }
    }

    /// The queue reads no clock: a wait ends when the timer its owner handed it expires, however
    /// long the time-out, and a wait that ends otherwise cancels its timer.
    @Test func aWaitEndsByItsOwnersTimer() async {
        let timer = SteppedTimer()
        let queue = EventQueue<Int>(timer: timer)
        let waiting = Task { await queue.next(within: .seconds(3600)) }
        await waitUntilWaiting(queue, count: 1)
        #expect(timer.timeouts == [.seconds(3600)])
        timer.expireAll()
        guard case .timedOut = await waiting.value else {
            Issue.record("expected the wait to end by its timer")
            return
        }
        let answered = Task { await queue.next(within: .seconds(60)) }
        await waitUntilWaiting(queue, count: 1)
        queue.push(5)
        guard case .element(5) = await answered.value else {
            Issue.record("expected the element")
            return
        }
        #expect(timer.timeouts.isEmpty, "the timer of a wait that got its element is cancelled")
    }

    /// A time-out shorter than the time it takes to start waiting still times out (it used to be
    /// lost when the timer fired before the wait was registered, and the wait never ended).
    @Test func tinyTimeOutsNeverHang() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        for _ in 0..<2000 {
            guard case .timedOut = await queue.next(within: .nanoseconds(1)) else {
                Issue.record("expected a time-out")
                return
            }
        }
    }

    @Test func cancellingAWaitEndsItAndFinishingEndsTheQueue() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        let waiting = Task { await queue.next(within: nil) }
        waiting.cancel()
        guard case .ended = await waiting.value else {
            Issue.record("expected the cancelled wait to end")
            return
        }
        queue.push(1)
        queue.finish()
        queue.push(2)  // ignored once finished
        #expect(await queue.next() == 1)
        #expect(await queue.next() == nil)
        #expect(queue.isFinished)
    }

    /// What needs no waiting is answered without waiting: a buffered element and an ended queue
    /// even with a zero time-out, and a zero time-out on an empty queue is a time-out.
    @Test func zeroTimeOutsAnswerAtOnce() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        guard case .timedOut = await queue.next(within: .zero) else {
            Issue.record("expected a time-out")
            return
        }
        queue.push(4)
        guard case .element(4) = await queue.next(within: .zero) else {
            Issue.record("expected the buffered element")
            return
        }
        queue.finish()
        for _ in 0..<10_000 {
            guard case .ended = await queue.next(within: .zero) else {
                Issue.record("expected the end")
                return
            }
        }
    }

    /// Several tasks may wait on one queue (a D-Bus subscription read from two places): they are
    /// served in the order they began to wait, and a cancelled one takes nothing with it.
    @Test func severalWaitersAreServedInOrder() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        let first = Task { await queue.next() }
        await waitUntilWaiting(queue, count: 1)
        let cancelled = Task { await queue.next(within: .seconds(60)) }
        await waitUntilWaiting(queue, count: 2)
        let second = Task { await queue.next() }
        await waitUntilWaiting(queue, count: 3)
        cancelled.cancel()
        guard case .ended = await cancelled.value else {
            Issue.record("expected the cancelled wait to end")
            return
        }
        queue.push(1)
        queue.push(2)
        #expect(await first.value == 1)
        #expect(await second.value == 2)
        queue.finish()
        #expect(await queue.next() == nil)
    }

    /// A push racing the waits is never lost: every element reaches exactly one waiter.
    @Test func concurrentWaitersShareTheElements() async {
        let queue = EventQueue<Int>(timer: DispatchTimer())
        let received = await withTaskGroup(of: [Int].self) { group -> [Int] in
            for _ in 0..<4 {
                group.addTask {
                    var got: [Int] = []
                    while let element = await queue.next() { got.append(element) }
                    return got
                }
            }
            group.addTask {
                for element in 0..<1000 { queue.push(element) }
                queue.finish()
                return []
            }
            var all: [Int] = []
            for await part in group { all += part }
            return all
        }
        #expect(received.sorted() == Array(0..<1000))
    }

    /// Until `count` tasks wait on `queue` (so that the order they began to wait is known).
    private func waitUntilWaiting(_ queue: EventQueue<Int>, count: Int) async {
        // Progress: each pass yields a millisecond to the tasks that are on their way to waiting.
        while queue.waitingCount < count {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}
