// The ordered queue with timed waits that every BlueZ wait is built on.

import BusTestSupport
import BlueZ
import Testing

@Suite(.timeLimit(.minutes(1))) struct EventQueueTests {
    @Test func keepsOrderAndWakesAWaiter() async {
        let queue = EventQueue<Int>()
        queue.push(1)
        queue.push(2)
        #expect(await queue.next() == 1)
        async let third = queue.next()
        queue.push(3)
        #expect(await queue.next() == 2)
        #expect(await third == 3)
    }

    @Test func aWaitTimesOutAndTheQueueStaysUsable() async {
        let queue = EventQueue<Int>()
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

    /// A time-out shorter than the time it takes to start waiting still times out (it used to be
    /// lost when the timer fired before the wait was registered, and the wait never ended).
    @Test func tinyTimeOutsNeverHang() async {
        let queue = EventQueue<Int>()
        for _ in 0..<2000 {
            guard case .timedOut = await queue.next(within: .nanoseconds(1)) else {
                Issue.record("expected a time-out")
                return
            }
        }
    }

    @Test func cancellingAWaitEndsItAndFinishingEndsTheQueue() async {
        let queue = EventQueue<Int>()
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
}
