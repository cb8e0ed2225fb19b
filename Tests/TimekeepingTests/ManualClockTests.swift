// The manual clock: it says what it is told, and a sleep on it parks until the clock passes its
// deadline (or the sleeping task is cancelled), never for real time.

import Locking
import Testing
import Timekeeping

@Suite struct ManualClockTests {
    @Test func saysWhatItIsTold() {
        let clock = ManualClock()
        #expect(clock.now == WallInstant(secondsSince1970: 1_763_712_000))
        clock.advance(by: .seconds(1.5))
        #expect(clock.now == WallInstant(secondsSince1970: 1_763_712_001.5))
        clock.set(WallInstant(secondsSince1970: 42))
        #expect(clock.now == WallInstant(secondsSince1970: 42))
        clock.advance(by: .seconds(-2))
        #expect(clock.now == WallInstant(secondsSince1970: 40))
    }

    @Test func aSleepWakesWhenTheClockPassesItsDeadline() async throws {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(secondsSince1970: 100, onSleep: { announced.continuation.yield($0) })
        let sleeper = Task { try await clock.sleep(for: 10) }
        var sleeps = announced.stream.makeAsyncIterator()
        #expect(await sleeps.next() == 10)
        #expect(clock.parkedSleepers == 1)
        clock.advance(by: .seconds(9))
        #expect(clock.parkedSleepers == 1)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.parkedSleepers == 0)
    }

    @Test func cancellingASleepEndsIt() async {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(onSleep: { announced.continuation.yield($0) })
        let sleeper = Task { try await clock.sleep(for: 60) }
        var sleeps = announced.stream.makeAsyncIterator()
        _ = await sleeps.next()
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.parkedSleepers == 0)
    }

    @Test func aSleepCancelledBeforeItParksDoesNotPark() async {
        let clock = ManualClock()
        let sleeper = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: 1)
        }
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.parkedSleepers == 0)
    }

    @Test func theMonotonicSideMovesWithTimeAndNotWithASetWallClock() {
        let clock = ManualClock(secondsSince1970: 100)
        let start = clock.instant
        clock.advance(by: .seconds(90))
        #expect(clock.now == WallInstant(secondsSince1970: 190))
        #expect(clock.instant - start == .seconds(90))
        #expect(clock.elapsed(since: start) == .seconds(90))
        clock.advance(by: .seconds(1.5))
        #expect(clock.instant - start == .milliseconds(91_500))
        // An NTP step, years forward and back: deadlines on the monotonic side do not see it.
        clock.set(WallInstant(secondsSince1970: 2_000_000_000))
        clock.set(WallInstant(secondsSince1970: 50))
        clock.advance(by: .seconds(-10))
        #expect(clock.now == WallInstant(secondsSince1970: 40))
        #expect(clock.instant - start == .milliseconds(91_500))
        let deadline = clock.deadline(after: .seconds(5))
        #expect(clock.timeLeft(until: deadline) == .seconds(5))
    }

    @Test func aMonotonicSleepWakesAtItsInstantAndNotAtAWallClockStep() async throws {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(secondsSince1970: 100, onSleep: { announced.continuation.yield($0) })
        let sleeper = Task { try await clock.sleep(for: .seconds(30)) }
        var sleeps = announced.stream.makeAsyncIterator()
        #expect(await sleeps.next() == 30)
        clock.set(WallInstant(secondsSince1970: 1_000_000))
        #expect(clock.parkedSleepers == 1, "a step of the wall clock does not end a monotonic wait")
        clock.advance(by: .seconds(30) - .nanoseconds(1))
        #expect(clock.parkedSleepers == 1)
        clock.advance(by: .nanoseconds(1))
        try await sleeper.value
        #expect(clock.parkedSleepers == 0)

        let until = Task { [deadline = clock.deadline(after: .seconds(2))] in try await clock.sleep(until: deadline) }
        #expect(await sleeps.next() == 2)
        clock.advance(by: .seconds(2))
        try await until.value
    }

    @Test func theSystemClocksInstantsMoveForward() {
        let clock = SystemClock()
        let first = clock.instant
        #expect(clock.instant >= first)
        #expect(first + .seconds(1) > first && first - .seconds(1) < first)
        #expect((first + .seconds(3)) - first == .seconds(3))
    }

    /// The timers of waiting queues (Locking's `EventQueue`) run on the clock's monotonic side.
    @Test func aTimerExpiresWhenTheMonotonicTimePassesItAndNotWhenCancelled() {
        let clock = ManualClock()
        let fired = Locked(0)
        _ = clock.startTimer(after: .seconds(10)) { fired.withLock { $0 += 1 } }
        let cancel = clock.startTimer(after: .seconds(5)) { fired.withLock { $0 += 100 } }
        #expect(clock.runningTimers == 2)
        cancel()
        clock.set(WallInstant(secondsSince1970: 9_999_999_999))
        #expect(fired.withLock { $0 } == 0, "a step of the wall clock expires nothing")
        clock.advance(by: .seconds(9))
        #expect(fired.withLock { $0 } == 0)
        clock.advance(by: .seconds(1))
        #expect(fired.withLock { $0 } == 1)
        #expect(clock.runningTimers == 0)
        _ = clock.startTimer(after: .zero) { fired.withLock { $0 += 1 } }
        #expect(fired.withLock { $0 } == 2, "no time at all: expired at once")
    }
}
