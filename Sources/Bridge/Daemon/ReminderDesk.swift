// The reminder engine for the daemon: one actor owns the `ReminderRunner` (which is not
// thread-safe), so the minute ticker and the sessions' events reach it one at a time.
// Deliveries go to the journal for now; the sinks come later.

import Foundation
import History
import Logging
import Reminders
import ServiceLifecycle

public actor ReminderDesk {
    private let runner: ReminderRunner
    private let configuration: Configuration
    private var bottleGoal: Int?

    /// `deliver`: where notifications go (default: the journal, one line each).
    public init(history: DrinkHistory, configuration: Configuration, logger: Logger,
                deliver: (@Sendable (Delivery) -> Void)? = nil) {
        let storedGoal = (try? history.bottles())?.compactMap(\.goalML).first
        self.bottleGoal = storedGoal
        self.configuration = configuration
        self.runner = ReminderRunner(history: history, settings: configuration.hydrationSettings(bottleGoal: storedGoal),
                                     logger: logger) { delivery in
            if let deliver {
                deliver(delivery)
            } else {
                logger.notice("notification \(delivery.kind.rawValue): \(delivery.title) — \(delivery.body)")
            }
        }
    }

    /// Ticks up to `instant` (runs the on-start rules the first time).
    public func advance(to instant: Double) {
        runner.advance(to: instant)
        runner.fireDue(at: instant)
    }

    public func historyChanged() {
        runner.historyChanged()
    }

    public func syncEnded(at instant: Double, newRecords: Int) {
        runner.advance(to: instant)
        runner.syncEnded(at: instant, newRecords: newRecords)
    }

    public func currentState(lowBattery: Bool, batteryPercent: Int, at instant: Double) {
        runner.advance(to: instant)
        runner.currentState(lowBattery: lowBattery, batteryPercent: batteryPercent, at: instant)
    }

    /// The bottle told us its goal.
    public func bottleGoal(_ goal: Int, at instant: Double) {
        guard goal != bottleGoal else { return }
        bottleGoal = goal
        runner.advance(to: instant)
        runner.updateSettings(configuration.hydrationSettings(bottleGoal: goal), at: instant)
    }

    /// Pace, urgency, deficit and today's reminder count (`status`).
    public func status(at instant: Double) -> HydrationStatus {
        runner.status(at: instant)
    }

    /// When something is due between minute ticks.
    public var nextFireTime: Double? { runner.engine.nextFireTime }
}

/// Wakes the reminder engine at every whole minute (and at a notification due between them),
/// and at no other time: an idle daemon sleeps (DESIGN.md 5).
public struct ReminderTicker: Service {
    let desk: ReminderDesk
    let clock: any BridgeClock

    public init(desk: ReminderDesk, clock: any BridgeClock) {
        self.desk = desk
        self.clock = clock
    }

    public func run() async throws {
        let desk = self.desk
        let clock = self.clock
        try? await cancelWhenGracefulShutdown {
            await desk.advance(to: clock.now)
            while !Task.isCancelled {
                let now = clock.now
                var wake = ((now / 60).rounded(.down) + 1) * 60
                if let due = await desk.nextFireTime, due > now { wake = min(wake, due) }
                try await Task.sleep(for: .milliseconds(Int64(((wake - now) * 1000).rounded(.up))))
                await desk.advance(to: clock.now)
            }
        }
    }
}
