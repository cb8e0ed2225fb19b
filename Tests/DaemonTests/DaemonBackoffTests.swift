// The daemon's back-off runs on its injected clock: with bluetoothd out of reach, the waits
// between attempts double from 2 s up to the 60 s cap, and a manual clock steps through the whole
// schedule (more than three minutes of it) without a moment of real waiting. A wait ends when the
// clock passes its end, not a millisecond before.

@testable import Daemon
import History
import Logging
@testable import Settings
import TestFixtures
import Testing
import Timekeeping

@Suite(.timeLimit(.minutes(1))) struct DaemonBackoffTests {
    @Test func theSetUpBackOffIsSteppedByTheInjectedClock() async throws {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(onSleep: { announced.continuation.yield($0) })
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let history = try DrinkHistory(path: nil)
        var options = DaemonOptions()
        // No bus there: every attempt fails at once as "bluetoothd cannot be reached".
        options.bus = .address("unix:path=/nonexistent/aquavate-daemon-backoff-test")
        let desk = ReminderDesk(history: history, configuration: Configuration(), logger: quiet)
        let daemon = BridgeDaemon(options: options, history: history, desk: desk, clock: clock, logger: quiet)
        let running = Task { try await daemon.run() }
        defer { running.cancel() }

        var sleeps = announced.stream.makeAsyncIterator()
        for expected in [2.0, 4, 8, 16, 32, 60, 60] {
            let slept = await sleeps.next()
            #expect(slept == expected, "the back-off schedule")
            #expect(clock.parkedSleepers == 1)
            clock.advance(by: .seconds(expected) - .milliseconds(1))
            #expect(clock.parkedSleepers == 1, "a millisecond before its end, the wait of \(expected) s still waits")
            clock.advance(by: .milliseconds(1))
        }
        #expect(await sleeps.next() == 60, "and 60 s from then on")
        #expect(daemon.phase.hasPrefix("waiting 60"), "\(daemon.phase)")
        running.cancel()
        try await running.value
        #expect(daemon.outcome == .stopped)
    }

    /// `run --once --timeout 30`: the run's time limit is on the same clock, so it ends the run
    /// when the manual clock passes it, whatever the loop was waiting for.
    @Test func aOnceRunEndsAtItsTimeLimitOnTheInjectedClock() async throws {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(onSleep: { announced.continuation.yield($0) })
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let history = try DrinkHistory(path: nil)
        var options = DaemonOptions()
        options.bus = .address("unix:path=/nonexistent/aquavate-daemon-backoff-test")
        options.once = true
        options.onceTimeout = .seconds(30)
        options.onceRetries = 100
        let desk = ReminderDesk(history: history, configuration: Configuration(), logger: quiet)
        let daemon = BridgeDaemon(options: options, history: history, desk: desk, clock: clock, logger: quiet)
        let running = Task { try await daemon.run() }
        defer { running.cancel() }

        var sleeps = announced.stream.makeAsyncIterator()
        var parked: [Double] = []
        for _ in 0..<2 { if let slept = await sleeps.next() { parked.append(slept) } }
        #expect(parked.sorted() == [2, 31], "the first back-off, and the time limit with its second of grace")
        clock.advance(by: .seconds(30))
        #expect(clock.parkedSleepers >= 1, "the limit has not come yet")
        clock.advance(by: .seconds(1))
        try await running.value
        guard case .failed(let why) = daemon.outcome else {
            Issue.record("expected the run to fail at its limit, not \(daemon.outcome)")
            return
        }
        #expect(why.hasPrefix("gave up after 30"), "\(why)")
    }
}
