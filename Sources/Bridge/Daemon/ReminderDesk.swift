// The reminder engine for the daemon: one actor owns the `ReminderRunner` (which is not
// thread-safe), so the minute ticker, the sessions' events and the person's commands (MQTT
// command topic, notification buttons) reach it one at a time. Deliveries go to every enabled
// sink through the hub (docs/reminders.md 1); the latest state and every new drink are published too.

import AquavateProtocol
import Foundation
import History
import Logging
import Reminders
import ServiceLifecycle
import Sinks
import Timekeeping

public actor ReminderDesk {
    private let runner: ReminderRunner
    private let history: DrinkHistory
    private var configuration: Configuration
    private let hub: SinkHub?
    private let logger: Logger
    private var bottleGoal: Int?
    private var bottleConnected = false
    /// The configured time zone (the `timezone` setting) the daemon's log lines about drinks
    /// show local times in.
    public nonisolated let timeZone: TimeZone

    /// - Parameters:
    ///   - hub: the sinks (journal, desktop, MQTT, push); nil logs to the journal only.
    ///   - deliver: also called with every delivery (the demo prints them).
    public init(history: DrinkHistory, configuration: Configuration, logger: Logger,
                hub: SinkHub? = nil, deliver: (@Sendable (Delivery) -> Void)? = nil) {
        let storedGoal = (try? history.bottles())?.compactMap(\.goalML).first
        self.bottleGoal = storedGoal
        self.configuration = configuration
        self.timeZone = configuration.timeZone
        self.history = history
        self.hub = hub
        self.logger = logger
        // Only the journal: the bridge behaves like a phone whose user denied notifications
        // (docs/reminders.md 1); a caller that shows deliveries itself (demo) reaches a person.
        let reachable = (hub?.reachesAPerson ?? false) || deliver != nil
        let (settings, problems) = configuration.reminderSettings(
            bottleGoal: storedGoal, personReachable: reachable, storedSchedules: StoredSchedules.tables(in: history))
        for problem in problems { logger.warning("\(problem)") }
        // The ticker wakes every minute: a longer gap is the clock jumping, handled as a restart.
        self.runner = ReminderRunner(history: history, settings: settings, logger: logger, gapRule: .daemon) { delivery in
            deliver?(delivery)
            if let hub {
                hub.deliver(SinkSetup.notification(delivery))
            } else if deliver == nil {
                logger.notice("notification \(delivery.kind.rawValue): \(delivery.title) — \(delivery.body)")
            }
        }
    }

    /// Ticks up to `instant` (runs the on-start rules the first time).
    public func advance(to instant: Double) {
        runner.advance(to: instant)
        runner.fireDue(at: instant)
    }

    /// What the ingest tells the reminders (the live session's events, in order).
    public func apply(_ input: ReminderInput) {
        switch input {
        case .currentState(let low, let percent, let time): currentState(lowBattery: low, batteryPercent: percent, at: time)
        case .bottleGoal(let goal, let time): bottleGoal(goal, at: time)
        case .historyChanged: historyChanged()
        case .drinkStored(let record): drinkStored(record)
        case .syncEnded(let time, let newRecords): syncEnded(at: time, newRecords: newRecords)
        }
    }

    public func historyChanged() {
        runner.historyChanged()
    }

    /// A new drink was stored: published as an event (MQTT).
    public func drinkStored(_ record: DrinkRecord) {
        hub?.publish(SinkDrink(recordID: Int(record.recordID), time: Double(record.timestamp), amountML: Int(record.amountML),
                               bottleLevelML: Int(record.bottleLevelML), type: record.kind.rawValue))
    }

    public func syncEnded(at instant: Double, newRecords: Int) {
        runner.advance(to: instant)
        runner.syncEnded(at: instant, newRecords: newRecords)
        publishState(at: instant)
    }

    public func currentState(lowBattery: Bool, batteryPercent: Int, at instant: Double) {
        runner.advance(to: instant)
        runner.currentState(lowBattery: lowBattery, batteryPercent: batteryPercent, at: instant)
        publishState(at: instant)
    }

    public func connection(_ connected: Bool, at instant: Double) {
        bottleConnected = connected
        publishState(at: instant)
    }

    /// The bottle told us its goal.
    public func bottleGoal(_ goal: Int, at instant: Double) {
        guard goal != bottleGoal else { return }
        bottleGoal = goal
        runner.advance(to: instant)
        reloadSettings(at: instant)
    }

    /// A command from a sink: `config set`, a manual intake, a notification's button.
    public func handle(_ command: SinkCommand, at instant: Double) {
        runner.advance(to: instant)
        switch command {
        case .configSet(let key, let value):
            // Every sink command comes from outside: only the person's settings (SettingAccess).
            // The MQTT sink asks the same gate first and answers the sender; this is the backstop.
            if let refusal = SettingCatalog.refusalFromSink(key: key, value: value) {
                logger.warning("config set \(key) from a sink refused: \(refusal)")
                break
            }
            do {
                let normalized = try SettingCatalog.requireKey(key).normalize(value)
                try history.setSetting(key, normalized)
                configuration.useStoredValues([key: normalized])
                reloadSettings(at: instant)
                logger.info("config set \(key) = \(normalized) (from a sink)")
            } catch {
                logger.warning("config set \(key) \(SettingCatalog.key(named: key)?.shown(value) ?? value) refused: \(error)")
            }
        case .log(let type):
            do {
                let normalized = try runner.logIntake(type: type, at: instant)
                logger.info("logged \(normalized)")
            } catch {
                logger.warning("log \(type) refused: \(error)")
            }
        case .bottle(let request):
            queueBottleCommand(request, at: instant)
        case .action(let notificationID, let actionID):
            do {
                let outcome = try runner.actionInvoked(notificationID: notificationID, actionID: actionID, at: instant)
                logger.info("action \(actionID) on \(notificationID): \(outcome)")
                if case .startRitual = outcome { startRitual(notificationID, at: instant) }
            } catch {
                logger.warning("action \(actionID) on \(notificationID) refused: \(error)")
            }
        }
        publishState(at: instant)
    }

    /// A bottle command from a sink (Home Assistant's goal, tare, shake-to-empty, delete): the same
    /// checks and queue as `aquavate-bridge bottle …`; the answer goes back through the sinks.
    private func queueBottleCommand(_ request: SinkBottleCommand, at instant: Double) {
        let asked: BottleRequest
        switch request {
        case .goal(let goal): asked = .goal(goal)
        case .delete(let recordID): asked = .delete(recordID: recordID)
        case .tare: asked = .tare
        case .shakeToEmpty(let on): asked = .shakeToEmpty(on)
        }
        do {
            let (command, drink) = try BottleControl(history: history).queue(asked, bottle: nil, at: instant)
            logger.info("bottle \(request.name) queued (#\(command.id), from a sink): applied at the bottle's next connection")
            publish(BridgeEvent.CommandEvent(command))
            if drink != nil { runner.historyChanged() }
        } catch {
            logger.warning("bottle \(request.name) from a sink refused: \(error)")
            hub?.publish(SinkCommandResult(id: nil, command: request.name, argument: nil, status: "refused", message: "\(error)"))
        }
    }

    /// A bottle command's state, for the sinks (MQTT `…/command/result`).
    public nonisolated func publish(_ command: BridgeEvent.CommandEvent) {
        hub?.publish(SinkCommandResult(id: command.id, command: command.command, argument: command.argument,
                                       status: command.status, message: command.message))
    }

    /// Tells the sinks who the bottle is (after a connection read its Device Information), in
    /// order with what the caller hands them next.
    public nonisolated func identifyNow(_ bottle: BottleRecord) {
        hub?.identify(SinkBottle(address: bottle.address, serial: bottle.serial, name: bottle.name,
                                 firmware: bottle.firmware, model: bottle.model))
    }

    /// Start Ritual (docs/reminders.md 6): "open" the ritual where a person is — the ritual's text
    /// again through the sinks, as an event of kind `ritual_started` (a desktop notification, an
    /// MQTT event Home Assistant automations can react to, a push).
    private func startRitual(_ notificationID: String, at instant: Double) {
        let delivered = (try? history.deliveredNotifications())?.last { $0.id == notificationID }
        hub?.deliver(SinkNotification(id: notificationID + "-started", kind: SinkNotification.Kind.ritualStarted,
                                      title: delivered.map { "Ritual started: \($0.title)" } ?? "Ritual started",
                                      body: delivered?.body ?? "", time: instant))
    }

    /// Pace, urgency, deficit and today's reminder count (`status`).
    public func status(at instant: Double) -> HydrationStatus {
        runner.status(at: instant)
    }

    /// When something is due between minute ticks.
    public var nextFireTime: Double? { runner.engine.nextFireTime }

    private func reloadSettings(at instant: Double) {
        let reachable = hub?.reachesAPerson ?? runner.engine.reminderSettings.personReachable
        let (settings, problems) = configuration.reminderSettings(
            bottleGoal: bottleGoal, personReachable: reachable, storedSchedules: StoredSchedules.tables(in: history))
        for problem in problems { logger.warning("\(problem)") }
        runner.updateSettings(settings, at: instant)
    }

    /// The retained state for Home Assistant.
    private func publishState(at instant: Double) {
        guard let hub else { return }
        let status = runner.status(at: instant)
        let bottle = (try? history.bottles())?.max { ($0.lastSeen ?? 0) < ($1.lastSeen ?? 0) }
        // The battery: the last figure that was not a just-woken 0 % (docs/protocol.md 2.1).
        hub.publish(BridgeSnapshot(
            time: instant, dayTotalML: status.pace.dayTotalML, goalML: runner.engine.settings.goalML,
            bottleLevelML: bottle?.state?.bottleLevelML, batteryPercent: bottle?.battery ?? bottle?.state?.batteryPercent,
            urgency: status.urgencyText, deficitML: status.displayedDeficitML, remindersToday: status.remindersSentToday,
            dailyLimit: status.dailyLimit, lastSync: bottle?.lastSync, unsynced: bottle?.state?.unsyncedCount,
            bottleConnected: bottleConnected, shakeToEmpty: bottle?.shakeToEmpty, bottleGoalML: bottle?.goalML))
    }
}

/// Wakes the reminder engine at every whole minute (and at a notification due between them),
/// and at no other time: an idle daemon sleeps (docs/design.md 5).
public struct ReminderTicker: Service {
    let desk: ReminderDesk
    let clock: any WallClock
    /// Each tick is progress for the watchdog; each sleep a declared wait.
    let heartbeat: Heartbeat

    public init(desk: ReminderDesk, clock: any WallClock, heartbeat: Heartbeat = .unobserved) {
        self.desk = desk
        self.clock = clock
        self.heartbeat = heartbeat
    }

    public func run() async throws {
        let desk = self.desk
        let clock = self.clock
        let heartbeat = self.heartbeat
        try? await cancelWhenGracefulShutdown {
            await desk.advance(to: clock.now)
            heartbeat.mark("reminder tick")
            // Progress: each pass sleeps until the next whole minute (or the next due reminder,
            // always in the future) and advances the desk once.
            while !Task.isCancelled {
                let now = clock.now
                var wake = ((now / 60).rounded(.down) + 1) * 60
                if let due = await desk.nextFireTime, due > now { wake = min(wake, due) }
                let sleep = Duration.milliseconds(Int64(((wake - now) * 1000).rounded(.up)))
                heartbeat.waiting(for: sleep, "waiting for the next reminder tick")
                try await Task.sleep(for: sleep)
                await desk.advance(to: clock.now)
                heartbeat.mark("reminder tick")
            }
        }
    }
}

/// Runs the sinks for the daemon and hands the person's commands to the desk.
public struct SinkService: Service {
    let hub: SinkHub
    let desk: ReminderDesk
    let clock: any WallClock

    public init(hub: SinkHub, desk: ReminderDesk, clock: any WallClock) {
        self.hub = hub
        self.desk = desk
        self.clock = clock
    }

    public func run() async throws {
        await hub.start()
        let hub = self.hub, desk = self.desk, clock = self.clock
        await withGracefulShutdownHandler {
            for await command in hub.commands {
                await desk.handle(command, at: clock.now)
            }
        } onGracefulShutdown: {
            Task { await hub.stop() }
        }
        await hub.stop()
    }
}
