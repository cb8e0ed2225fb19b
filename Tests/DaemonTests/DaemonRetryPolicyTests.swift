// The loop's two policies as values (DaemonRetryPolicy.swift): `--once`'s bounded tries and the
// daemon's waits, each decision checked on its own; then `--once` giving up after its tries with
// the waits stepped by the injected manual clock, without a moment of real waiting.

import BlueZ
@testable import Daemon
import History
import Logging
@testable import Settings
import TestFixtures
import Testing
import Timekeeping

@Suite(.timeLimit(.minutes(1))) struct DaemonRetryPolicyTests {
    @Test("--once: a good session ends the run; failed sessions are waited for, then the retries are spent, then it fails")
    func onceAfterSessions() {
        var once = OnceRetries(retriesLeft: 1, sessionRetriesLeft: 2)
        #expect(once.afterSession(succeeded: false, summary: "link lost") == .again(notice: "link lost; waiting for the bottle to advertise again"))
        #expect(once.afterSession(succeeded: false, summary: "link lost") == .again(notice: "link lost; waiting for the bottle to advertise again"))
        #expect(once.afterSession(succeeded: false, summary: "link lost") == .again(notice: nil), "the one plain retry")
        #expect(once.afterSession(succeeded: false, summary: "link lost") == .finish(.failed("link lost")))
        var fresh = OnceRetries(retriesLeft: 0, sessionRetriesLeft: 0)
        #expect(fresh.afterSession(succeeded: true, summary: "3 drinks") == .finish(.succeeded("3 drinks")))
    }

    @Test("--once: what the machine lacks fails at once with its fix, unless the bottle was seen; other failures are waited for")
    func onceAfterFailures() {
        var once = OnceRetries(retriesLeft: 0, sessionRetriesLeft: 3)
        #expect(once.afterFailure("bluetoothd is gone", isSetUp: true, bottleSeen: false) == .finish(.failed("bluetoothd is gone")))
        #expect(once.sessionRetriesLeft == 3, "no wait spent on it")
        #expect(once.afterFailure("bluetoothd is gone", isSetUp: true, bottleSeen: true) == .again(notice: "bluetoothd is gone; trying again"))
        #expect(once.afterFailure("connect failed", isSetUp: false, bottleSeen: false) == .again(notice: "connect failed; trying again"))
        #expect(once.afterFailure("connect failed", isSetUp: false, bottleSeen: false) == .again(notice: "connect failed; trying again"))
        #expect(once.afterFailure("connect failed", isSetUp: false, bottleSeen: false) == .finish(.failed("connect failed")))
    }

    @Test("--once: bluetoothd restarting after the bottle was seen is waited for however long it takes, spending no tries; before, it fails at once")
    func onceWaitsForARestartedBluetoothd() {
        var once = OnceRetries(retriesLeft: 0, sessionRetriesLeft: 1)
        for _ in 0..<10 {
            #expect(once.afterFailure("no adapter", isSetUp: true, bottleSeen: true, restarting: true)
                    == .again(notice: "no adapter; waiting for bluetoothd and its adapter to come back"))
        }
        #expect(once.sessionRetriesLeft == 1, "no try spent on it: --once's time-out bounds the wait")
        #expect(once.afterFailure("bluetoothd is gone", isSetUp: true, bottleSeen: false, restarting: true) == .finish(.failed("bluetoothd is gone")))
    }

    @Test("the daemon: set-up failures wait 2 s doubling to 60 s, and start again at 2 s once an adapter was reached")
    func setUpBackOff() {
        var backoff = DaemonBackoff()
        let policy = ConnectPolicy()
        let gone = BluetoothServiceUnavailable(detail: "test")
        var waits: [Duration] = []
        for _ in 0..<8 {
            let (wait, isSetUp) = backoff.wait(after: gone, connectPolicy: policy)
            #expect(isSetUp)
            waits.append(wait)
        }
        #expect(waits == [2, 4, 8, 16, 32, 60, 60, 60].map { .seconds($0) })
        backoff.reachedAdapter()
        #expect(backoff.wait(after: NoBluetoothAdapter(), connectPolicy: policy) == (.seconds(2), true))
    }

    @Test("the daemon: a failed connect waits as ConnectPolicy says, never less than the minimum pause; a session is followed by its pause")
    func connectAndSessionWaits() {
        var backoff = DaemonBackoff()
        let policy = ConnectPolicy()
        struct Refused: Error {}
        #expect(backoff.wait(after: Refused(), connectPolicy: policy) == (max(policy.backoff(after: Refused()), DaemonBackoff.minimumPause), false))
        #expect(backoff.wait(after: LinkLost(device: "F4:12:FA:00:A3:F2", reason: .disconnected), connectPolicy: policy) == (DaemonBackoff.minimumPause, false),
                "a normal disconnect's 0 s is the minimum pause, not a spin")
        #expect(backoff.setUpDelay == DaemonBackoff.firstSetUpDelay, "a connect failure leaves the set-up back-off alone")
        let cooldown = Duration.seconds(600), failed = Duration.seconds(5)
        #expect(DaemonBackoff.pause(afterSession: true, severalBottles: false, cooldown: cooldown, failedSessionPause: failed) == (cooldown, false))
        #expect(DaemonBackoff.pause(afterSession: true, severalBottles: true, cooldown: cooldown, failedSessionPause: failed) == (failed, true))
        #expect(DaemonBackoff.pause(afterSession: false, severalBottles: true, cooldown: cooldown, failedSessionPause: failed) == (failed, false))
    }

    /// `run --once` without bluetoothd and with two retries: it waits 2 s and 4 s on the manual
    /// clock, then fails with the reason; no third wait.
    @Test("--once spends its retries on the injected clock, then fails with the one-line reason")
    func onceGivesUpAfterItsRetriesOnTheManualClock() async throws {
        let announced = AsyncStream<Double>.makeStream()
        let clock = ManualClock(onSleep: { announced.continuation.yield($0) })
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let history = try DrinkHistory(path: nil)
        var options = DaemonOptions()
        options.bus = .address("unix:path=/nonexistent/aquavate-daemon-retry-test")
        options.once = true
        options.onceRetries = 2
        let desk = ReminderDesk(history: history, configuration: Configuration(), logger: quiet)
        let daemon = BridgeDaemon(options: options, history: history, desk: desk, clock: clock, logger: quiet)
        let running = Task { try await daemon.run() }
        defer { running.cancel() }

        var sleeps = announced.stream.makeAsyncIterator()
        for expected in [2.0, 4] {
            #expect(await sleeps.next() == expected, "the set-up back-off")
            clock.advance(by: .seconds(expected))
        }
        try await running.value
        guard case .failed(let why) = daemon.outcome else {
            Issue.record("expected --once to fail after its retries, not \(daemon.outcome)")
            return
        }
        #expect(why.contains("is not available on the system bus") && !why.contains("\n"), "\(why)")
    }
}
