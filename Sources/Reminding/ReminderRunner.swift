// Drives the reminder engine for the bridge: restores its state from the database, runs the
// minute ticks, feeds it syncs and Current States, and saves the state after every step that
// changed it, together with what was delivered (docs/reminders.md 1, 2.6).
//
// Replay and the live daemon use the same runner: replay passes the capture's clock, the daemon
// the system clock. Nothing here reads the time itself.

import Foundation
import Timekeeping
import History
import Logging
import Reminders

package final class ReminderRunner {
    /// The key the history saves the state under: the bottle's, or `SavedReminders.everyBottle`
    /// for the one engine of every bottle (replay, and the history of a bridge from before
    /// several bottles).
    static func stateKey(bottle: String?) -> String {
        bottle ?? SavedReminders.everyBottle
    }

    /// The bottle whose reminders these are (nil: every bottle's drinks, one engine).
    package private(set) var bottle: String?
    /// The key of the older state this runner took over (every bottle's, or the bottle's former key), removed at its first save.
    private var inherited: String?

    package private(set) var engine: ReminderEngine
    package let ledger: HistoryLedger
    private let reminders: ReminderStore
    private let logger: Logger
    private let deliver: (Delivery) -> Void
    private var savedState: ReminderState
    /// The last whole minute (UTC seconds) that was ticked.
    private var lastTick: WallInstant?
    private var started = false
    /// The latest instant evaluated (the clock jump rule measures from it).
    private var lastInstant: WallInstant?
    private let gapRule: TimeGapRule
    /// Minute ticks run so far (tests check that a long timeline does not tick without end).
    package private(set) var ticksRun = 0

    /// Restores the engine from `history` (a fresh database starts from the defaults).
    package convenience init(history: DrinkHistory, settings: HydrationSettings, logger: Logger,
                            gapRule: TimeGapRule = .replay, deliver: @escaping (Delivery) -> Void) {
        self.init(history: history, settings: ReminderSettings(hydration: settings), logger: logger, gapRule: gapRule,
                  deliver: deliver)
    }

    /// Restores the engine from `history` with every rule's settings. `gapRule`: what a gap in
    /// time is (the daemon passes `.daemon`; replay and the one-shot commands tick through).
    ///
    /// - Parameters:
    ///   - bottle: one bottle's reminders (its drinks only, its own state); nil: one engine for all.
    ///   - inheritsLegacy: the bottle takes over the single engine's state (`reminders`) when it
    ///     has none of its own yet: a history from before several bottles keeps its counters
    ///     (the bottle it synced inherits them; its first save removes the old name).
    package init(history: DrinkHistory, settings: ReminderSettings, logger: Logger, gapRule: TimeGapRule = .replay,
                bottle: String? = nil, inheritsLegacy: Bool = false, deliver: @escaping (Delivery) -> Void) {
        self.gapRule = gapRule
        reminders = history.reminders
        self.bottle = bottle
        self.ledger = HistoryLedger(drinks: history.drinks, bottle: bottle)
        self.logger = logger
        self.deliver = deliver
        var state = ReminderState()
        do {
            var saved = try reminders.saved(bottle: Self.stateKey(bottle: bottle))
            if saved == nil, bottle != nil, inheritsLegacy, let legacy = try reminders.saved(bottle: SavedReminders.everyBottle) {
                saved = legacy
                inherited = SavedReminders.everyBottle
            }
            if let saved {
                state = ReminderState(saved: saved)
            }
        } catch {
            logger.warning("the saved reminder state could not be read (\(error)); starting from a fresh state")
        }
        self.savedState = state
        self.engine = ReminderEngine(settings: settings, state: state)
    }

    /// The bottle's key changed (its serial was read; or the one runner of a bridge that had no
    /// bottle now serves its first): the state moves with it (BottleStore.move moved the
    /// stored row; this saves under the new name from now on, and removes the old one).
    package func rename(bottle newKey: String, at instant: WallInstant) {
        guard newKey != bottle else { return }
        let old = Self.stateKey(bottle: bottle)
        bottle = newKey
        ledger.bottle = newKey
        inherited = inherited ?? old
        save(deliveries: [], at: instant, force: true, durability: .normal)
    }

    /// Runs the on-start rules at the first event of a run, then the ticks up to `instant`.
    /// Call before handling every event at `instant`: ticks at whole minutes up to and including
    /// `instant` run before the event (docs/reminders.md 0).
    package func advance(to instant: WallInstant) {
        if started, let last = lastInstant, let lastTick, gapRule.isRestart(from: last, lastTick: lastTick, to: instant) {
            let moved = (instant - last).inSeconds
            let days = (moved / 86_400 * 10).rounded() / 10
            logger.notice("time moved by \(Int64(moved.rounded())) s (\(days) days) since the last evaluation; the reminders start again as after a restart, without replaying the gap (docs/reminders.md 0)")
            started = false
            lastInstant = nil
        }
        lastInstant = max(lastInstant ?? instant, instant)
        if !started {
            started = true
            handle(engine.start(at: instant, ledger: ledger), at: instant, durability: .normal)
            lastTick = WallInstant(secondsSince1970: (instant.secondsSince1970 / 60).rounded(.up) * 60 - 60)
        }
        guard var minute = lastTick.map({ $0 + .seconds(60) }) else { return }
        while minute <= instant {
            handle(engine.tick(at: minute, ledger: ledger), at: minute, durability: .normal)
            ticksRun += 1
            lastTick = minute
            minute += .seconds(60)
        }
    }

    /// The drinks stored changed (a chunk committed new records or tombstones).
    package func historyChanged() {
        ledger.historyChanged()
    }

    /// A sync session ended (last chunk ACKed, or interrupted) having committed `newRecords`.
    package func syncEnded(at instant: WallInstant, newRecords: Int) {
        handle(engine.syncEnded(at: instant, newRecords: newRecords, ledger: ledger), at: instant, durability: .normal)
    }

    /// A Current State arrived (low battery, 2.5).
    package func currentState(lowBattery: Bool, batteryPercent: Int, at instant: WallInstant) {
        handle(engine.currentState(lowBattery: lowBattery, batteryPercent: batteryPercent, at: instant), at: instant,
               durability: .normal)
    }

    /// The settings changed (a goal read from the bottle, `config set` in the daemon).
    package func updateSettings(_ settings: HydrationSettings, at instant: WallInstant) {
        guard settings != engine.settings else { return }
        var all = engine.reminderSettings
        all.hydration = settings
        updateSettings(all, at: instant)
    }

    /// Every rule's settings changed: what changed is rescheduled at once.
    package func updateSettings(_ settings: ReminderSettings, at instant: WallInstant) {
        guard settings != engine.reminderSettings else { return }
        handle(engine.updateSettings(settings, at: instant, ledger: ledger), at: instant)
    }

    /// A manual intake (`log TYPE`, a capture's `log` op): recorded in the history and handed to
    /// the scheduled-intake rules. Returns the normalised type.
    @discardableResult
    package func logIntake(type: String, at instant: WallInstant) throws -> String {
        let normalized = try engine.logIntake(type: type, at: instant)
        try reminders.recordPersonEvent(PersonEvent(time: instant, kind: .intake, name: normalized))
        handle([], at: instant)
        return normalized
    }

    /// An action invoked on a notification (a sink's button, a capture's `action` op). Did This
    /// and Done are recorded in the history database; the outcome says what else to do.
    @discardableResult
    package func actionInvoked(notificationID: String, actionID: String, at instant: WallInstant) throws -> ActionOutcome {
        let outcome = try engine.actionInvoked(notificationID: notificationID, actionID: actionID, at: instant)
        try reminders.recordPersonEvent(PersonEvent(time: instant, kind: .action, name: actionID, notificationID: notificationID))
        if case .intakeLogged(let type, let at) = outcome {
            try reminders.recordPersonEvent(PersonEvent(time: at, kind: .intake, name: type))
        }
        handle([], at: instant)
        return outcome
    }

    package func rulesStatus() -> RulesStatus {
        engine.rulesStatus()
    }

    /// Schedules the test notification of `notify test` (5 s later).
    @discardableResult
    package func scheduleTestNotification(at instant: WallInstant) -> Bool {
        let scheduled = engine.scheduleTestNotification(at: instant)
        handle([], at: instant)
        return scheduled
    }

    /// Delivers what is due between ticks (the daemon wakes for `engine.nextFireTime`).
    package func fireDue(at instant: WallInstant) {
        handle(engine.fireDue(at: instant), at: instant)
    }

    package func status(at instant: WallInstant) -> HydrationStatus {
        engine.status(at: instant, ledger: ledger)
    }

    /// `durability` of the state's save when nothing was delivered: `.normal` where the rules
    /// ran on time and bottle traffic alone (the start, ticks, a sync's end, a Current State, a
    /// new key), whose state the same rules derive again from the history and the clock after a
    /// power cut; what a person did (an intake, an action, a setting) and every delivery are
    /// saved at the history's own (a person is never told twice because a save was lost).
    private func handle(_ deliveries: [Delivery], at instant: WallInstant, durability: Durability? = nil) {
        for line in engine.drainJournal() {
            logger.info("\(line)")
        }
        for delivery in deliveries {
            deliver(delivery)
        }
        save(deliveries: deliveries, at: instant, durability: durability)
    }

    private func save(deliveries: [Delivery], at instant: WallInstant, force: Bool = false, durability: Durability? = nil) {
        guard force || engine.state != savedState || !deliveries.isEmpty else { return }
        do {
            try reminders.save(engine.state.saved, bottle: Self.stateKey(bottle: bottle), at: instant, delivered: deliveries.map {
                DeliveredNotification(id: $0.id, kind: $0.kind.rawValue, time: $0.time, title: $0.title, body: $0.body)
            }, replacing: inherited, durability: durability)
            inherited = nil
            savedState = engine.state
        } catch {
            logger.error("could not save the reminder state: \(error); it will be saved at the next change")
        }
    }
}
