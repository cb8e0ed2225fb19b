// The hub: fan-out, back-off on an injected clock, bounded queues, once-per-outage logging,
// and that no sink ever holds up another.

import BusTestSupport
import Logging
import Testing
@testable import Sinks
import Timekeeping

@Suite struct SinkHubTests {
    @Test func retryPolicyDoublesFromOneSecondAndStopsAtFiveMinutes() {
        let policy = RetryPolicy.standard
        #expect((1...12).map { policy.delay(afterFailures: $0) } == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300])
        #expect(policy.delay(afterFailures: 1000) == 300)
    }

    @Test func failingSinkIsRetriedOnTheBackOffScheduleAndLoggedOncePerOutage() async throws {
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let sink = FlakySink(failures: 12)
        let hub = SinkHub(sinks: [sink], clock: clock, logger: capturingLogger(lines))
        await hub.start()
        hub.deliver(notification("n1"))

        let schedule: [Double] = [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]
        for (index, delay) in schedule.enumerated() {
            let requested = try await requested.waitForCount(index + 1, "back-off sleeps")
            #expect(requested[index] == delay)
            clock.advance(by: .seconds(delay))
        }
        let delivered = try await sink.delivered.waitForCount(1, "deliveries")
        #expect(delivered.map(\.id) == ["n1"])
        #expect(sink.attempts.all.count == 13)

        // The worker logs the recovery just after the sink returned, so the line may still be on
        // its way when the delivery is seen.
        try await lines.wait(for: "the recovery logged") { lines in
            lines.contains { $0.message.contains("delivering again") && $0.level >= .notice }
        }
        // One warning when the outage starts, one notice when it ends, nothing per retry above debug.
        #expect(lines.matching("cannot deliver", minimum: .warning).count == 1)
        #expect(lines.matching("cannot deliver notification id=n1 kind=reminder: connection refused; retrying in 1 s").count == 1)
        let recovered = lines.matching("delivering again", minimum: .notice)
        #expect(recovered.count == 1)
        #expect(recovered.first?.message.contains("after 12 failed attempts over 1411 s") == true)
        #expect(lines.all.filter { $0.level >= .warning }.count == 1)
        await hub.stop()
    }

    @Test func eachOutageIsLoggedOnceWhenItStartsAndOnceWhenItEnds() async throws {
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let sink = FlakySink(failures: 3)
        let hub = SinkHub(sinks: [sink], clock: clock, logger: capturingLogger(lines))
        await hub.start()

        hub.deliver(notification("first"))
        for count in 1...3 {
            let requested = try await requested.waitForCount(count, "back-off sleeps")
            clock.advance(by: .seconds(requested[count - 1]))
        }
        try await sink.delivered.waitForCount(1)
        sink.setRemainingFailures(2)
        hub.deliver(notification("second"))
        for count in 4...5 {
            let requested = try await requested.waitForCount(count, "back-off sleeps")
            clock.advance(by: .seconds(requested[count - 1]))
        }
        try await sink.delivered.waitForCount(2)
        // As above: the second recovery's line follows the second delivery.
        try await lines.wait(for: "two recoveries logged") { lines in
            lines.filter { $0.message.contains("delivering again") && $0.level >= .notice }.count >= 2
        }

        #expect(requested.all == [1, 2, 4, 1, 2])  // the schedule starts over after a recovery
        #expect(lines.matching("cannot deliver", minimum: .warning).map(\.message).map { $0.contains("id=second") }
            == [false, true])
        #expect(lines.matching("delivering again", minimum: .notice).count == 2)
        await hub.stop()
    }

    @Test func aHangingSinkNeverHoldsUpAWorkingOne() async throws {
        let hanging = HangingSink()
        let working = RecordingSink()
        let hub = SinkHub(sinks: [hanging, working], clock: ManualClock(), logger: capturingLogger(Recorder()))
        await hub.start()
        for index in 0..<50 { hub.deliver(notification("n\(index)")) }

        let delivered = try await working.notifications.waitForCount(50, "deliveries to the working sink")
        #expect(delivered.map(\.id) == (0..<50).map { "n\($0)" })
        #expect(hanging.entered.all == ["n0"])  // still stuck in its first delivery
        #expect(hub.status().first { $0.sink == "hanging" }?.waiting == 49)
        await hub.stop()
    }

    @Test func aSinkThatIsDownNeverHoldsUpAWorkingOne() async throws {
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let down = FlakySink(name: "down", failures: .max)
        let working = RecordingSink()
        let hub = SinkHub(sinks: [down, working], clock: clock, logger: capturingLogger(lines))
        await hub.start()
        for index in 0..<20 { hub.deliver(notification("n\(index)")) }
        hub.publish(storedDrink(7, at: 1_763_712_000, amountML: 250, bottleLevelML: 330))

        try await working.notifications.waitForCount(20)
        try await working.drinks.waitForCount(1)
        try await requested.waitForCount(1, "the down sink's first back-off")
        #expect(lines.matching("sink down: cannot deliver", minimum: .warning).count == 1)
        let status = hub.status().first { $0.sink == "down" }
        #expect(status?.waiting == 20)  // 19 notifications + the drink; n0 is being retried
        #expect(status?.failingSince == clock.now)
        await hub.stop()
    }

    @Test func theQueueIsBoundedAndDropsTheOldestWithALogLine() async throws {
        let lines = Recorder<LogLine>()
        let hanging = HangingSink()
        let hub = SinkHub(sinks: [hanging], clock: ManualClock(), logger: capturingLogger(lines))
        await hub.start()
        hub.deliver(notification("n0"))
        try await hanging.entered.waitForCount(1)  // n0 is in flight, not waiting
        for index in 1...205 { hub.deliver(notification("n\(index)")) }

        let dropped = lines.matching("queue full", minimum: .warning)
        #expect(dropped.map(\.message) == (1...5).map {
            "sink hanging: queue full (200 waiting), dropped the oldest: notification id=n\($0) kind=reminder"
        })
        #expect(hub.status() == [SinkQueueStatus(sink: "hanging", waiting: 200, dropped: 5, failingSince: nil)])

        hanging.release()
        let delivered = try await hanging.delivered.waitForCount(201)
        #expect(delivered.map(\.id) == ["n0"] + (6...205).map { "n\($0)" })
        await hub.stop()
    }

    @Test func aRejectedItemIsDroppedWithoutRetrying() async throws {
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let lines = Recorder<LogLine>()
        let sink = FlakySink(failures: 1, error: .rejected("push server answered 404 Not Found: check push.url"))
        let hub = SinkHub(sinks: [sink], clock: clock, logger: capturingLogger(lines))
        await hub.start()
        hub.deliver(notification("refused"))
        hub.deliver(notification("accepted"))

        let delivered = try await sink.delivered.waitForCount(1)
        #expect(delivered.map(\.id) == ["accepted"])
        #expect(sink.attempts.all == ["refused", "accepted"])
        #expect(requested.all.isEmpty)
        #expect(lines.matching("dropped notification id=refused kind=reminder: push server answered 404", minimum: .error).count == 1)
        await hub.stop()
    }

    @Test func onlyTheNewestStateIsSentAfterAnOutage() async throws {
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let sink = FlakySink(failures: 1)
        let hub = SinkHub(sinks: [sink], clock: clock, logger: capturingLogger(Recorder()))
        await hub.start()
        hub.publish(snapshot(total: 100))
        try await requested.waitForCount(1)
        for total in [200, 300, 400] { hub.publish(snapshot(total: total)) }
        #expect(hub.status().first?.waiting == 1)
        clock.advance(by: .seconds(1))

        let sent = try await sink.snapshots.waitForCount(1)
        #expect(sent.map(\.dayTotalML) == [400])
        #expect(sink.attempts.all == ["state", "state"])
        await hub.stop()
    }

    @Test func aSinkThatSaysItIsReachableIsRetriedWithoutWaitingOutTheBackOff() async throws {
        let requested = Recorder<Double>()
        let clock = ManualClock(onSleep: { requested.append($0) })
        let sink = FlakySink(failures: 3)
        let hub = SinkHub(sinks: [sink], clock: clock, logger: capturingLogger(Recorder()))
        await hub.start()
        hub.deliver(notification("n1"))
        try await requested.waitForCount(1)
        sink.setRemainingFailures(0)
        sink.context?.reachable()

        let delivered = try await sink.delivered.waitForCount(1)
        #expect(delivered.map(\.id) == ["n1"])
        #expect(clock.now == 1_763_712_000)  // the clock never moved
        await hub.stop()
    }

    @Test func theStateGoesOnlyToSinksThatTakeIt() async throws {
        let quiet = NotesOnlySink()
        let recording = RecordingSink()
        let quietHub = SinkHub(sinks: [quiet], clock: ManualClock(), logger: capturingLogger(Recorder()))
        #expect(!quietHub.publishesState)
        let hub = SinkHub(sinks: [quiet, recording], clock: ManualClock(), logger: capturingLogger(Recorder()))
        #expect(hub.publishesState)
        await hub.start()
        hub.publish(snapshot(total: 100))
        hub.deliver(notification("n1"))
        // Each queue is delivered in order: once the notification is there, the state went before it.
        _ = try await recording.notifications.waitForCount(1)
        _ = try await quiet.notifications.waitForCount(1)
        #expect(try await recording.snapshots.waitForCount(1).map(\.dayTotalML) == [100])
        #expect(quiet.offered.all.isEmpty)
        await hub.stop()
    }

    @Test func itemsHandedOverBeforeStartAreDeliveredAfterIt() async throws {
        let sink = RecordingSink()
        let hub = SinkHub(sinks: [sink], clock: ManualClock(), logger: capturingLogger(Recorder()))
        hub.deliver(notification("early"))
        await hub.start()
        let delivered = try await sink.notifications.waitForCount(1)
        #expect(delivered.map(\.id) == ["early"])
        await hub.stop()
    }

    @Test func commandsFromSinksArriveOnOneStreamThatEndsAtStop() async throws {
        let first = RecordingSink(name: "first")
        let second = RecordingSink(name: "second")
        let hub = SinkHub(sinks: [first, second], clock: ManualClock(), logger: capturingLogger(Recorder()))
        await hub.start()
        // Sinks are started by their workers; deliver one item each to know they have been.
        hub.deliver(notification("ping"))
        try await first.notifications.waitForCount(1)
        try await second.notifications.waitForCount(1)

        first.context?.command(.log(type: "vitamin-d"))
        second.context?.command(.action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this"))
        first.context?.command(.configSet(key: "reminders.daily_limit", value: "false"))
        await hub.stop()

        var received: [SinkCommand] = []
        for await command in hub.commands { received.append(command) }
        #expect(received == [
            .log(type: "vitamin-d"),
            .action(notificationID: "ritual-morning-2026-11-22", actionID: "did-this"),
            .configSet(key: "reminders.daily_limit", value: "false"),
        ])
        #expect(first.stopped.all == [true])
        #expect(second.stopped.all == [true])
    }

    @Test func stoppingLogsWhatWasNeverDelivered() async throws {
        let lines = Recorder<LogLine>()
        let hanging = HangingSink()
        let hub = SinkHub(sinks: [hanging], clock: ManualClock(), logger: capturingLogger(lines))
        await hub.start()
        for index in 0..<4 { hub.deliver(notification("n\(index)")) }
        try await hanging.entered.waitForCount(1)
        await hub.stop()
        #expect(lines.matching("sink hanging: stopping with 3 undelivered items", minimum: .warning).count == 1)
        hub.deliver(notification("late"))
        #expect(hub.status().first?.waiting == 0)
    }
}
