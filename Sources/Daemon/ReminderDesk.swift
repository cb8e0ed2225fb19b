// The reminder engine for the daemon: one actor owns the `ReminderRunner`s (which are not
// thread-safe), one seat per bottle (ReminderSeat), so that the minute ticker (ReminderTicker),
// the sessions' events and the person's commands (ReminderDesk+Commands, through SinkService)
// reach them one at a time. Deliveries go to every enabled sink through the hub (docs/reminders.md
// 1); the latest state (ReminderDesk+State) and every new drink are published too.

import AquavateProtocol
import Delivery
import Foundation
import History
import Ingest
import Locking
import Logging
import Reminders
import Reminding
import Reports
import Settings
import Sinks
import Timekeeping

package actor ReminderDesk {
    var seats: [ReminderSeat] = []
    let history: DrinkHistory
    var configuration: Configuration
    let hub: SinkHub?
    let logger: Logger
    let deliverAlso: (@Sendable (Delivery) -> Void)?
    /// The configured time zone (the `timezone` setting) the daemon's log lines about drinks
    /// show local times in.
    package nonisolated let timeZone: TimeZone

    /// - Parameters:
    ///   - hub: the sinks (journal, desktop, MQTT, push); nil logs to the journal only.
    ///   - deliver: also called with every delivery (the demo prints them).
    package init(history: DrinkHistory, configuration: Configuration, logger: Logger,
                hub: SinkHub? = nil, deliver: (@Sendable (Delivery) -> Void)? = nil) {
        self.configuration = configuration
        self.timeZone = configuration.timeZone
        self.history = history
        self.hub = hub
        self.logger = logger
        self.deliverAlso = deliver
        // The adopted bottles, most recently seen first: that one inherits the reminder state of
        // a history from before several bottles (ReminderRunner's `inheritsLegacy`).
        let known = (try? history.bottles.all()) ?? []
        let adopted = known.filter { $0.address != nil }
        let context = ReminderSeat.Context(history: history, configuration: configuration, hub: hub, deliver: deliver, logger: logger,
                                  gate: deliveryGate)
        if adopted.isEmpty {
            seats = [ReminderSeat.make(key: nil, bottleGoal: known.compactMap(\.goalML).first, inheritsLegacy: false, context)]
        } else {
            seats = adopted.enumerated().map { index, bottle in
                ReminderSeat.make(key: bottle.id, bottleGoal: bottle.goalML, inheritsLegacy: index == 0, context)
            }
        }
        ReminderSeat.relabel(seats, context)
        // The sinks learn every adopted bottle (its own Home Assistant device and topics), the
        // most recently seen last: it is the one an item without a bottle is about.
        for bottle in adopted.reversed() {
            hub?.identify(SinkBottle(address: bottle.address, serial: bottle.serial, name: bottle.name,
                                     firmware: bottle.firmware, model: bottle.model))
            // Its last command, as the history has it: Home Assistant's "Last bottle command"
            // survives a restart of the daemon and of the broker.
            if let last = try? history.commands.all(bottle: bottle.id).last {
                let event = BridgeEvent.CommandEvent(last)
                var result = Self.sinkResult(event)
                result.isReplay = true
                hub?.publish(result)
            }
        }
    }

    var context: ReminderSeat.Context {
        ReminderSeat.Context(history: history, configuration: configuration, hub: hub, deliver: deliverAlso, logger: logger, gate: deliveryGate)
    }

    func relabel() { ReminderSeat.relabel(seats, context) }

    /// The seat of bottle `key`, made when the bottle is new (the first bottle takes over the
    /// runner of a desk that had none).
    func seat(_ key: String) -> ReminderSeat {
        if let seat = seats.first(where: { $0.key == key }) { return seat }
        if seats.count == 1, let only = seats.first, only.key == nil {
            only.key = key
            only.runner.rename(bottle: key, at: lastInstant)
            relabel()
            return only
        }
        let state = try? history.bottles.bottle(id: key)
        let seat = ReminderSeat.make(key: key, bottleGoal: state?.goalML, inheritsLegacy: false, context)
        seats.append(seat)
        relabel()
        // The bottle by its name, as the sync's lines name it (its key when it has none yet).
        logger.info("reminders for \(state?.name ?? key) start (\(seats.count) bottles)")
        return seat
    }

    /// Whether this bridge delivers a reminder of a bottle (its key) now: in a household, only
    /// the bridge that reminds for it does (HouseholdClaims); the engine counts them either way.
    /// The gate may keep `later` and call it once, to deliver the reminder at a hand-over.
    package typealias DeliveryGate = @Sendable (_ bottle: String, _ reminder: GatedReminder, _ later: @escaping @Sendable () -> Void) -> Bool

    /// What the gate is told of a reminder: the engine's own id, its kind and time.
    package struct GatedReminder: Sendable {
        package var id: String
        package var kind: String
        package var time: WallInstant
    }

    private let deliveryGate = Locked<DeliveryGate?>(nil)

    package func deliverOnlyWhere(_ gate: @escaping DeliveryGate) {
        deliveryGate.withLock { $0 = gate }
    }

    /// Told when this bridge stored drinks (the household's replication publishes them).
    private var storedHere: (@Sendable () -> Void)?

    package func whenDrinksStored(_ action: @escaping @Sendable () -> Void) {
        storedHere = action
    }

    /// `bottle forget` removed bottles from the history while the daemon runs: their persons'
    /// reminders stop here (their saved state stays, as their drinks do). A desk left with no
    /// seat gets the one engine of a bridge that has adopted no bottle.
    package func bottlesForgotten() {
        let known = Set(((try? history.bottles.all()) ?? []).filter { $0.address != nil }.map(\.id))
        let before = seats.count
        seats.removeAll { seat in seat.key.map { !known.contains($0) } ?? false }
        guard seats.count != before else { return }
        if seats.isEmpty {
            seats = [ReminderSeat.make(key: nil, bottleGoal: nil, inheritsLegacy: false, context)]
        }
        relabel()
    }

    /// Another bridge's drinks of bottle `key` were stored (docs/design.md 6): the reminders of
    /// that bottle, if this bridge runs them, re-read its day.
    package func historyChangedElsewhere(bottle key: String) {
        seats.first { $0.key == key }?.runner.historyChanged()
    }

    /// The latest instant the desk was told (a seat made between events starts there).
    var lastInstant: WallInstant = .epoch

    /// Ticks up to `instant` (runs the on-start rules the first time).
    package func advance(to instant: WallInstant) {
        lastInstant = max(lastInstant, instant)
        for seat in seats {
            seat.runner.advance(to: instant)
            seat.runner.fireDue(at: instant)
            publishState(seat, at: instant, onlyIfChanged: true)
        }
    }

    /// What the ingest tells the reminders (the live session's events, in order) of bottle `key`.
    package func apply(_ input: ReminderInput, bottle key: String) {
        switch input {
        case .currentState(let low, let percent, let time): currentState(lowBattery: low, batteryPercent: percent, at: time, bottle: key)
        case .bottleGoal(let goal, let time): bottleGoal(goal, at: time, bottle: key)
        case .stored(let drinks):
            historyChanged(bottle: key)
            for drink in drinks { drinkStored(drink, bottle: key) }
        case .syncEnded(let time, let newRecords): syncEnded(at: time, newRecords: newRecords, bottle: key)
        case .identified(let previous, let serial, let time): identified(previous: previous, serial: serial, at: time)
        }
    }

    func seat(or key: String?) -> ReminderSeat {
        key.map { seat($0) } ?? seats[0]
    }

    package func historyChanged(bottle key: String? = nil) {
        seat(or: key).runner.historyChanged()
    }

    /// A new drink of bottle `key` was stored: published as an event (MQTT), on that bottle's topics.
    package func drinkStored(_ record: DrinkRecord, bottle key: String) {
        storedHere?()
        hub?.publish(Drink(record, bottle: key))
    }

    package func syncEnded(at instant: WallInstant, newRecords: Int, bottle key: String? = nil) {
        let seat = seat(or: key)
        if newRecords > 0 { storedHere?() }
        seat.runner.advance(to: instant)
        seat.runner.syncEnded(at: instant, newRecords: newRecords)
        publishState(seat, at: instant)
    }

    package func currentState(lowBattery: Bool, batteryPercent: Int, at instant: WallInstant, bottle key: String? = nil) {
        let seat = seat(or: key)
        seat.runner.advance(to: instant)
        seat.runner.currentState(lowBattery: lowBattery, batteryPercent: batteryPercent, at: instant)
        publishState(seat, at: instant)
    }

    package func connection(_ connected: Bool, at instant: WallInstant, bottle key: String? = nil) {
        let seat = seat(or: key)
        seat.connected = connected
        publishState(seat, at: instant)
    }

    /// The bottle's serial was read: its reminders move with its history (BottleStore.move).
    private func identified(previous: String, serial: String, at instant: WallInstant) {
        guard let seat = seats.first(where: { $0.key == previous }) else { return }
        if let existing = seats.first(where: { $0.key == serial }), existing !== seat {
            // The serial already had its reminders (a bottle seen under two addresses): keep those.
            seats.removeAll { $0 === seat }
        } else {
            seat.key = serial
            seat.runner.rename(bottle: serial, at: instant)
        }
        relabel()
    }

    /// The bottle told us its goal.
    package func bottleGoal(_ goal: Int, at instant: WallInstant, bottle key: String? = nil) {
        let seat = seat(or: key)
        guard goal != seat.bottleGoal else { return }
        seat.bottleGoal = goal
        seat.runner.advance(to: instant)
        reloadSettings(seat, at: instant)
    }

    /// Pace, urgency, deficit and today's reminder count (`status`) of bottle `key` (nil: the
    /// most recently adopted).
    package func status(at instant: WallInstant, bottle key: String? = nil) -> HydrationStatus {
        (key.flatMap { key in seats.first { $0.key == key } } ?? seats[0]).runner.status(at: instant)
    }

    /// The bottles whose reminders the desk runs (nil: the one runner before any bottle).
    package var bottles: [String?] { seats.map(\.key) }

    /// When something is due between minute ticks.
    package var nextFireTime: WallInstant? { seats.compactMap { $0.runner.engine.nextFireTime }.min() }

    func reloadSettings(_ seat: ReminderSeat, at instant: WallInstant) {
        let reachable = hub?.reachesAPerson ?? seat.runner.engine.reminderSettings.personReachable
        seat.runner.updateSettings(ReminderSeat.settings(for: seat.key, bottleGoal: seat.bottleGoal, personReachable: reachable, context), at: instant)
    }
}
