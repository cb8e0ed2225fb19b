// The manual clock: it says what it is told, and a sleep on it parks until the clock passes its
// deadline (or the sleeping task is cancelled), never for real time.

import Testing
import Timekeeping

@Suite struct ManualClockTests {
    @Test func saysWhatItIsTold() {
        let clock = ManualClock()
        #expect(clock.now == 1_763_712_000)
        clock.advance(by: 1.5)
        #expect(clock.now == 1_763_712_001.5)
        clock.set(42)
        #expect(clock.now == 42)
        clock.advance(by: -2)
        #expect(clock.now == 40)
    }

    @Test func aSleepWakesWhenTheClockPassesItsDeadline() async throws {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(100, onSleep: { announced.continuation.yield($0) })
        let sleeper = Task { try await clock.sleep(for: 10) }
        var sleeps = announced.stream.makeAsyncIterator()
        #expect(await sleeps.next() == 10)
        #expect(clock.parkedSleepers == 1)
        clock.advance(by: 9)
        #expect(clock.parkedSleepers == 1)
        clock.advance(by: 1)
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
}
