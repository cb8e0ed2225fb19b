// Fans notifications, state and drink events out to every enabled sink (docs/reminders.md 1,
// "Delivery"). Each sink has its own queue and worker (SinkQueue), so a sink that is down, slow
// or hanging never holds up another sink, and never the caller: `deliver` only enqueues and
// returns at once. Commands coming back from sinks (MQTT command topic, notification buttons)
// arrive on one stream, `commands`.

import AquavateProtocol
import Logging
import Timekeeping

package actor SinkHub {
    /// Everything people asked for through any sink, in arrival order. Ends after `stop()`.
    package nonisolated let commands: AsyncStream<SinkCommand>
    private nonisolated let commandSink: AsyncStream<SinkCommand>.Continuation
    private nonisolated let queues: [SinkQueue]
    /// The queues of the sinks that take the bridge's state.
    private nonisolated let stateQueues: [SinkQueue]
    private let logger: Logger
    private var workers: [Task<Void, Never>] = []
    private var phase = Phase.idle

    private enum Phase { case idle, running, stopped }

    /// - Parameters:
    ///   - queueLimit: items that may wait per sink (not counting the one being delivered);
    ///     beyond it the oldest is dropped with a log line.
    package init(sinks: [any NotificationSink], clock: any WallClock = SystemClock(),
                retry: RetryPolicy = .standard, queueLimit: Int = 200, logger: Logger) {
        self.logger = logger
        self.queues = sinks.map {
            SinkQueue(sink: $0, clock: clock, policy: retry, limit: queueLimit, logger: logger)
        }
        self.stateQueues = queues.filter(\.sink.publishesState)
        (commands, commandSink) = AsyncStream.makeStream(of: SinkCommand.self,
                                                        bufferingPolicy: .bufferingNewest(1000))
    }

    package nonisolated var sinkNames: [String] { queues.map(\.sink.name) }

    /// False when only the journal is configured: rules that schedule ahead then schedule
    /// nothing (docs/reminders.md 1, "Master switch").
    package nonisolated var reachesAPerson: Bool { queues.contains { $0.sink.reachesAPerson } }

    /// Starts every sink and its worker. Returns at once: a sink that is slow to start only
    /// delays its own deliveries. Items handed over before `start()` wait in the queues.
    package func start() {
        guard phase == .idle else { return }
        phase = .running
        for queue in queues {
            let context = SinkContext(
                command: { [commandSink] command in commandSink.yield(command) },
                reachable: { [queue] in queue.wake() },
                logger: logger)
            workers.append(Task {
                await queue.sink.start(context)
                await queue.run()
            })
        }
        logger.info("sinks: \(sinkNames.joined(separator: ", "))")
    }

    /// Hands a notification to every sink and returns at once.
    package nonisolated func deliver(_ notification: SinkNotification) {
        for queue in queues { queue.enqueue(.notification(notification)) }
    }

    /// Whether any sink takes the bridge's state (`NotificationSink.publishesState`): when none
    /// does, callers need not compute a snapshot.
    package nonisolated var publishesState: Bool { !stateQueues.isEmpty }

    /// Hands the latest state to every sink that takes it; a queued older state is replaced.
    package nonisolated func publish(_ snapshot: BridgeSnapshot) {
        for queue in stateQueues { queue.enqueue(.snapshot(snapshot)) }
    }

    /// Hands a newly stored drink to every sink that takes the state.
    package nonisolated func publish(_ drink: Drink) {
        for queue in stateQueues { queue.enqueue(.drink(drink)) }
    }

    /// Hands a bottle command's state to every sink that takes the state.
    package nonisolated func publish(_ result: SinkCommandResult) {
        for queue in stateQueues { queue.enqueue(.commandResult(result)) }
    }

    /// Tells every sink that takes the state who the bottle is (queued in order with the rest).
    package nonisolated func identify(_ bottle: SinkBottle) {
        for queue in stateQueues { queue.enqueue(.bottle(bottle)) }
    }

    package nonisolated func status() -> [SinkQueueStatus] { queues.map(\.status) }

    /// Gives the queues up to `grace` to deliver what waits (a `run --once` that just synced ends
    /// with the bottle's final state, which a dashboard must see), then closes them (items still
    /// waiting are lost, with one log line per sink), stops the sinks — whose `stop()` must end a
    /// delivery still in flight — waits for the workers, and ends `commands`. A failing sink is
    /// not waited for. The grace is measured on `clock`, by default the real one, not the hub's:
    /// it bounds the wait for real deliveries, so a test that steps the hub's clock by hand
    /// does not have to step its shutdown.
    package func stop(grace: Duration = .seconds(2), on clock: any WallClock = SystemClock()) async {
        guard phase != .stopped else { return }
        phase = .stopped
        let deadline = clock.deadline(after: grace)
        // Progress: each pass sleeps 20 ms until every queue settles or the grace runs out.
        while clock.instant < deadline, !queues.allSatisfy(\.isSettled) {
            try? await clock.sleep(for: .milliseconds(20))
        }
        for queue in queues {
            let undelivered = queue.close()
            if undelivered > 0 {
                logger.warning("sink \(queue.sink.name): stopping with \(undelivered) undelivered items")
            }
        }
        for worker in workers { worker.cancel() }
        await withTaskGroup(of: Void.self) { group in
            for queue in queues { group.addTask { await queue.sink.stop() } }
        }
        for worker in workers { await worker.value }
        workers.removeAll()
        commandSink.finish()
    }
}
