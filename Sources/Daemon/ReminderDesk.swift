// The reminder engine for the daemon: one actor owns the `ReminderRunner` (which is not
// thread-safe), so the minute ticker, the sessions' events and the person's commands (MQTT
// command topic, notification buttons) reach it one at a time. Deliveries go to every enabled
// sink through the hub (docs/reminders.md 1); the latest state and every new drink are published too.

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
import ServiceLifecycle
import Settings
import Sinks
import Timekeeping

public actor ReminderDesk {
    /// One person's reminders: a bottle's runner (docs/design.md 6), or, before any bottle was
    /// adopted, the one runner of every drink (`key` nil).
    private final class Seat {
        var key: String?
        let runner: ReminderRunner
        var bottleGoal: Int?
        var connected = false
        /// The state last handed to the sinks (its time aside), so that a minute tick publishes
        /// only what changed: the deficit growing, a reminder sent, the urgency, a new day.
        var published: BridgeSnapshot?
        /// How its deliveries are labelled (owner's name, notification id suffix).
        let label: Locked<SeatLabel>

        init(key: String?, runner: ReminderRunner, bottleGoal: Int?, label: Locked<SeatLabel>) {
            self.key = key
            self.runner = runner
            self.bottleGoal = bottleGoal
            self.label = label
        }
    }

    /// What a delivery of a seat carries: the owner's name before the title, and `@<bottle>`
    /// after the id while the desk serves several bottles (so each has its own threads, and a
    /// button pressed on one reaches its own engine).
    struct SeatLabel: Sendable {
        var owner: String?
        var idSuffix: String?
        /// The bottle's key, for the sinks.
        var bottle: String?
    }

    private var seats: [Seat] = []
    private let history: DrinkHistory
    private var configuration: Configuration
    private let hub: SinkHub?
    private let logger: Logger
    private let deliverAlso: (@Sendable (Delivery) -> Void)?
    /// The configured time zone (the `timezone` setting) the daemon's log lines about drinks
    /// show local times in.
    public nonisolated let timeZone: TimeZone

    /// - Parameters:
    ///   - hub: the sinks (journal, desktop, MQTT, push); nil logs to the journal only.
    ///   - deliver: also called with every delivery (the demo prints them).
    public init(history: DrinkHistory, configuration: Configuration, logger: Logger,
                hub: SinkHub? = nil, deliver: (@Sendable (Delivery) -> Void)? = nil) {
        self.configuration = configuration
        self.timeZone = configuration.timeZone
        self.history = history
        self.hub = hub
        self.logger = logger
        self.deliverAlso = deliver
        // The adopted bottles, most recently seen first: that one inherits the reminder state of
        // a history from before several bottles (ReminderRunner's `inheritsLegacy`).
        let known = (try? history.bottles()) ?? []
        let adopted = known.filter { $0.address != nil }
        let context = SeatContext(history: history, configuration: configuration, hub: hub, deliver: deliver, logger: logger,
                                  gate: deliveryGate)
        if adopted.isEmpty {
            seats = [Self.makeSeat(key: nil, bottleGoal: known.compactMap(\.goalML).first, inheritsLegacy: false, context)]
        } else {
            seats = adopted.enumerated().map { index, bottle in
                Self.makeSeat(key: bottle.id, bottleGoal: bottle.goalML, inheritsLegacy: index == 0, context)
            }
        }
        Self.relabel(seats, context)
        // The sinks learn every adopted bottle (its own Home Assistant device and topics), the
        // most recently seen last: it is the one an item without a bottle is about.
        for bottle in adopted.reversed() {
            hub?.identify(SinkBottle(address: bottle.address, serial: bottle.serial, name: bottle.name,
                                     firmware: bottle.firmware, model: bottle.model))
            // Its last command, as the history has it: Home Assistant's "Last bottle command"
            // survives a restart of the daemon and of the broker.
            if let last = try? history.commands(bottle: bottle.id).last {
                let event = BridgeEvent.CommandEvent(last)
                var result = Self.sinkResult(event)
                result.isReplay = true
                hub?.publish(result)
            }
        }
    }

    /// What making and labelling a seat needs (the desk's own values, at that moment).
    private struct SeatContext {
        let history: DrinkHistory
        let configuration: Configuration
        let hub: SinkHub?
        let deliver: (@Sendable (Delivery) -> Void)?
        let logger: Logger
        let gate: Locked<DeliveryGate?>
    }

    private var context: SeatContext {
        SeatContext(history: history, configuration: configuration, hub: hub, deliver: deliverAlso, logger: logger, gate: deliveryGate)
    }

    private static func makeSeat(key: String?, bottleGoal: Int?, inheritsLegacy: Bool, _ context: SeatContext) -> Seat {
        let settings = settings(for: key, bottleGoal: bottleGoal, personReachable: nil, context)
        let label = Locked(SeatLabel())
        let hub = context.hub, deliver = context.deliver, logger = context.logger, gate = context.gate
        let history = context.history
        // The ticker wakes every minute: a longer gap is the clock jump, handled as a restart.
        let runner = ReminderRunner(history: context.history, settings: settings, logger: logger, gapRule: .daemon,
                                    bottle: key, inheritsLegacy: inheritsLegacy) { engineDelivery in
            let label = label.withLock { $0 }
            let delivery = label.apply(to: engineDelivery)
            let send: @Sendable () -> Void = {
                deliver?(delivery)
                if let hub {
                    var notification = SinkSetup.notification(delivery)
                    notification.bottle = label.bottle
                    hub.deliver(notification)
                } else if deliver == nil {
                    logger.notice("notification \(delivery.kind.rawValue): \(delivery.title) — \(delivery.body)")
                }
            }
            // The engine's own id (without the `@<bottle>` suffix, which depends on how many
            // bottles this bridge serves): the household compares it across bridges.
            // A bridge that has adopted no bottle yet runs one engine, on the drinks other
            // bridges replicated to it: in a household those reminders are the person of the
            // bottle the history knows, and the bridge that reminds for it sends them, not this one.
            let gated = gate.withLock { $0 }
            let bottle = label.bottle ?? (gated == nil ? nil : Self.householdBottle(history))
            if let bottle, let gate = gated, !gate(bottle, GatedReminder(id: engineDelivery.id, kind: engineDelivery.kind.rawValue, time: engineDelivery.time), send) {
                logger.info("notification \(delivery.id) of \(bottle) left to the bridge that reminds for it")
                return
            }
            send()
        }
        return Seat(key: key, runner: runner, bottleGoal: bottleGoal, label: label)
    }

    /// The bottle an engine without one reminds about: the most recently seen bottle the history
    /// knows, else the bottle of drinks other bridges replicated (they make no bottle row).
    private static func householdBottle(_ history: DrinkHistory) -> String? {
        (try? history.bottles())?.first?.id ?? (try? history.drinkBottles())?.first
    }

    /// The reminder settings of one bottle's person (its own keys over the global ones).
    private static func settings(for key: String?, bottleGoal: Int?, personReachable: Bool?, _ context: SeatContext) -> ReminderSettings {
        // Only the journal: the bridge behaves like a phone whose user denied notifications
        // (docs/reminders.md 1); a caller that shows deliveries itself (demo) reaches a person.
        let reachable = personReachable ?? ((context.hub?.reachesAPerson ?? false) || context.deliver != nil)
        let view = view(of: key, bottleGoal: .some(bottleGoal), personReachable: reachable, context)
        for problem in view.problems { context.logger.warning("\(problem)") }
        return view.settings
    }

    /// Bottle `key`'s settings as every surface resolves them (nil: the one engine before any
    /// bottle was adopted, on the global settings); `bottleGoal`: the goal the seat knows the
    /// bottle confirmed, when it knows it.
    private static func view(of key: String?, bottleGoal: Int??, personReachable: Bool, _ context: SeatContext) -> BottleView {
        let row = key.map { key in (try? context.history.bottleState(id: key)) ?? BottleRecord(id: key) }
        return BottleView.settings(of: row, configuration: context.configuration, history: context.history,
                                   bottleGoal: bottleGoal, personReachable: personReachable)
    }

    /// Each seat's owner and, with several bottles, the id suffix.
    private static func relabel(_ seats: [Seat], _ context: SeatContext) {
        let several = seats.count > 1
        for seat in seats {
            // The owner alone: the whole view would read the stored schedules and the pool file.
            let row = seat.key.map { key in (try? context.history.bottleState(id: key)) ?? BottleRecord(id: key) }
            let owner = context.configuration.effective(for: row).owner
            seat.label.withLock { $0 = SeatLabel(owner: owner, idSuffix: several ? seat.key : nil, bottle: seat.key) }
        }
    }

    private func relabel() { Self.relabel(seats, context) }

    /// The seat of bottle `key`, made when the bottle is new (the first bottle takes over the
    /// runner of a desk that had none).
    private func seat(_ key: String) -> Seat {
        if let seat = seats.first(where: { $0.key == key }) { return seat }
        if seats.count == 1, let only = seats.first, only.key == nil {
            only.key = key
            only.runner.rename(bottle: key, at: lastInstant)
            relabel()
            return only
        }
        let goal = (try? history.bottleState(id: key))?.goalML
        let seat = Self.makeSeat(key: key, bottleGoal: goal, inheritsLegacy: false, context)
        seats.append(seat)
        relabel()
        logger.info("reminders for bottle \(key) start (\(seats.count) bottles)")
        return seat
    }

    /// Whether this bridge delivers a reminder of a bottle (its key) now: in a household, only
    /// the bridge that reminds for it does (HouseholdClaims); the engine counts them either way.
    /// The gate may keep `later` and call it once, to deliver the reminder at a hand-over.
    public typealias DeliveryGate = @Sendable (_ bottle: String, _ reminder: GatedReminder, _ later: @escaping @Sendable () -> Void) -> Bool

    /// What the gate is told of a reminder: the engine's own id, its kind and time.
    public struct GatedReminder: Sendable {
        public var id: String
        public var kind: String
        public var time: WallInstant
    }

    private let deliveryGate = Locked<DeliveryGate?>(nil)

    public func deliverOnlyWhere(_ gate: @escaping DeliveryGate) {
        deliveryGate.withLock { $0 = gate }
    }

    /// Told when this bridge stored drinks (the household's replication publishes them).
    private var storedHere: (@Sendable () -> Void)?

    public func whenDrinksStored(_ action: @escaping @Sendable () -> Void) {
        storedHere = action
    }

    /// `bottle forget` removed bottles from the history while the daemon runs: their persons'
    /// reminders stop here (their saved state stays, as their drinks do). A desk left with no
    /// seat gets the one engine of a bridge that has adopted no bottle.
    public func bottlesForgotten() {
        let known = Set(((try? history.bottles()) ?? []).filter { $0.address != nil }.map(\.id))
        let before = seats.count
        seats.removeAll { seat in seat.key.map { !known.contains($0) } ?? false }
        guard seats.count != before else { return }
        if seats.isEmpty {
            seats = [Self.makeSeat(key: nil, bottleGoal: nil, inheritsLegacy: false, context)]
        }
        relabel()
    }

    /// Another bridge's drinks of bottle `key` were stored (docs/design.md 6): the reminders of
    /// that bottle, if this bridge runs them, re-read its day.
    public func historyChangedElsewhere(bottle key: String) {
        seats.first { $0.key == key }?.runner.historyChanged()
    }

    /// The latest instant the desk was told (a seat made between events starts there).
    private var lastInstant: WallInstant = .epoch

    /// Ticks up to `instant` (runs the on-start rules the first time).
    public func advance(to instant: WallInstant) {
        lastInstant = max(lastInstant, instant)
        for seat in seats {
            seat.runner.advance(to: instant)
            seat.runner.fireDue(at: instant)
            publishState(seat, at: instant, onlyIfChanged: true)
        }
    }

    /// What the ingest tells the reminders (the live session's events, in order) of bottle `key`.
    public func apply(_ input: ReminderInput, bottle key: String) {
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

    private func seat(or key: String?) -> Seat {
        key.map { seat($0) } ?? seats[0]
    }

    public func historyChanged(bottle key: String? = nil) {
        seat(or: key).runner.historyChanged()
    }

    /// A new drink of bottle `key` was stored: published as an event (MQTT), on that bottle's topics.
    public func drinkStored(_ record: DrinkRecord, bottle key: String) {
        storedHere?()
        hub?.publish(Drink(record, bottle: key))
    }

    public func syncEnded(at instant: WallInstant, newRecords: Int, bottle key: String? = nil) {
        let seat = seat(or: key)
        if newRecords > 0 { storedHere?() }
        seat.runner.advance(to: instant)
        seat.runner.syncEnded(at: instant, newRecords: newRecords)
        publishState(seat, at: instant)
    }

    public func currentState(lowBattery: Bool, batteryPercent: Int, at instant: WallInstant, bottle key: String? = nil) {
        let seat = seat(or: key)
        seat.runner.advance(to: instant)
        seat.runner.currentState(lowBattery: lowBattery, batteryPercent: batteryPercent, at: instant)
        publishState(seat, at: instant)
    }

    public func connection(_ connected: Bool, at instant: WallInstant, bottle key: String? = nil) {
        let seat = seat(or: key)
        seat.connected = connected
        publishState(seat, at: instant)
    }

    /// The bottle's serial was read: its reminders move with its history (History.moveBottle).
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
    public func bottleGoal(_ goal: Int, at instant: WallInstant, bottle key: String? = nil) {
        let seat = seat(or: key)
        guard goal != seat.bottleGoal else { return }
        seat.bottleGoal = goal
        seat.runner.advance(to: instant)
        reloadSettings(seat, at: instant)
    }

    /// A command from a sink: `config set`, a manual intake, a notification's button.
    public func handle(_ command: SinkCommand, at instant: WallInstant) {
        advance(to: instant)
        switch command {
        case .configSet(let key, let value):
            // Every sink command comes from outside: only the person's settings (SettingAccess).
            // The MQTT sink asks the same gate first and answers the sender; this is the backstop.
            if let refusal = SettingCatalog.refusalFromSink(key: key, value: value) {
                logger.warning("config set \(key) from a sink refused: \(refusal)")
                break
            }
            do {
                let setting = try SettingCatalog.requireKey(key)
                let normalized = try setting.normalize(value)
                try history.setSetting(setting.name, normalized)
                configuration.useStoredValues([setting.name: normalized])
                for seat in seats { reloadSettings(seat, at: instant) }
                relabel()
                logger.info("config set \(setting.name) = \(normalized) (from a sink)")
            } catch {
                logger.warning("config set \(key) \(SettingCatalog.key(named: key)?.shown(value) ?? value) refused: \(error)")
            }
        case .log(let type, let bottle):
            // A manual intake is the person's: the named bottle's (its serial or address), else
            // the most recently adopted bottle's (the only one, usually).
            guard let seat = bottle.map(seat(named:)) ?? seats.first else {
                logger.warning("log \(type) refused: no adopted bottle \(bottle ?? "") ('aquavate-bridge bottle info' lists them)")
                break
            }
            do {
                let normalized = try seat.runner.logIntake(type: type, at: instant)
                logger.info("logged \(normalized)\(seat.key.map { " for \($0)" } ?? "")")
            } catch {
                logger.warning("log \(type) refused: \(error)")
            }
        case .bottle(let request):
            queueBottleCommand(request, bottle: nil, at: instant)
        case .bottleOf(let request, let bottle):
            queueBottleCommand(request, bottle: bottle, at: instant)
        case .action(let notificationID, let actionID):
            let (seat, id) = route(notificationID)
            do {
                let outcome = try seat.runner.actionInvoked(notificationID: id, actionID: actionID, at: instant)
                logger.info("action \(actionID) on \(notificationID): \(outcome)")
                if case .startRitual = outcome { startRitual(notificationID, at: instant) }
            } catch {
                logger.warning("action \(actionID) on \(notificationID) refused: \(error)")
            }
        }
        for seat in seats { publishState(seat, at: instant) }
    }

    /// The seat of an adopted bottle named by its key, serial or address (any case); nil when
    /// the desk runs no such bottle's reminders.
    private func seat(named name: String) -> Seat? {
        let key = (try? history.bottle(named: name))?.id ?? name
        return seats.first { $0.key != nil && $0.key?.uppercased() == key.uppercased() }
    }

    /// The seat a notification id belongs to (`…@<bottle>` with several bottles) and the
    /// engine's own id.
    private func route(_ notificationID: String) -> (Seat, String) {
        if let at = notificationID.lastIndex(of: "@") {
            let key = String(notificationID[notificationID.index(after: at)...])
            if let seat = seats.first(where: { $0.key == key }) { return (seat, String(notificationID[..<at])) }
        }
        return (seats[0], notificationID)
    }

    /// A bottle command from a sink (Home Assistant's goal, tare, shake-to-empty, delete): the same
    /// checks and queue as `aquavate-bridge bottle …`; the answer goes back through the sinks.
    private func queueBottleCommand(_ request: SinkBottleCommand, bottle: String?, at instant: WallInstant) {
        let asked: BottleRequest
        switch request {
        case .goal(let goal): asked = .goal(goal)
        case .delete(let recordID): asked = .delete(recordID: recordID)
        case .deleteLast:
            // The newest drink that still counts, of the bottle the command is for.
            let key = bottle.flatMap { try? history.bottle(named: $0)?.id } ?? seats.first?.key
            guard let newest = (try? history.storedDrinks(bottle: key, includeDeleted: false))?.last(where: { $0.isIntake }) else {
                logger.warning("bottle delete (last drink) from a sink refused: no drink to delete")
                hub?.publish(SinkCommandResult(id: nil, command: request.name, status: "refused",
                                               message: "the history has no drink to delete", bottle: bottle))
                return
            }
            asked = .delete(recordID: Int(newest.recordID))
        case .tare: asked = .tare
        case .shakeToEmpty(let on): asked = .shakeToEmpty(on)
        }
        do {
            let (command, drink) = try BottleControl(history: history).queue(asked, bottle: bottle, at: instant)
            if let command {
                logger.info("bottle \(request.name) queued (#\(command.id), from a sink): applied at the bottle's next connection")
                publish(BridgeEvent.CommandEvent(command))
            } else {
                logger.info("bottle \(request.name) from a sink: a drink added by hand, deleted in the history only")
            }
            if drink != nil { for seat in seats { seat.runner.historyChanged() } }
        } catch {
            logger.warning("bottle \(request.name) from a sink refused: \(error)")
            hub?.publish(SinkCommandResult(id: nil, command: request.name, status: "refused", message: "\(error)",
                                           bottle: bottle))
        }
    }

    /// A bottle command's state, for the sinks (MQTT `…/command/result`).
    public nonisolated func publish(_ command: BridgeEvent.CommandEvent) {
        hub?.publish(Self.sinkResult(command))
    }

    /// The `command` event for the sinks: what it asks as numbers, as the JSON event has them.
    nonisolated static func sinkResult(_ command: BridgeEvent.CommandEvent) -> SinkCommandResult {
        let asked = command.asked
        return SinkCommandResult(id: command.id, command: command.command, status: command.status, message: command.message,
                                 bottle: command.bottle, goalML: asked.goalML, recordID: asked.recordID, on: asked.on)
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
    private func startRitual(_ notificationID: String, at instant: WallInstant) {
        let engineID = route(notificationID).1
        let delivered = (try? history.deliveredNotifications())?.last { $0.id == engineID }
        hub?.deliver(SinkNotification(id: notificationID + "-started", kind: SinkNotification.Kind.ritualStarted,
                                      title: delivered.map { "Ritual started: \($0.title)" } ?? "Ritual started",
                                      body: delivered?.body ?? "", time: instant))
    }

    /// Pace, urgency, deficit and today's reminder count (`status`) of bottle `key` (nil: the
    /// most recently adopted).
    public func status(at instant: WallInstant, bottle key: String? = nil) -> HydrationStatus {
        (key.flatMap { key in seats.first { $0.key == key } } ?? seats[0]).runner.status(at: instant)
    }

    /// The bottles whose reminders the desk runs (nil: the one runner before any bottle).
    public var bottles: [String?] { seats.map(\.key) }

    /// When something is due between minute ticks.
    public var nextFireTime: WallInstant? { seats.compactMap { $0.runner.engine.nextFireTime }.min() }

    private func reloadSettings(_ seat: Seat, at instant: WallInstant) {
        let reachable = hub?.reachesAPerson ?? seat.runner.engine.reminderSettings.personReachable
        seat.runner.updateSettings(Self.settings(for: seat.key, bottleGoal: seat.bottleGoal, personReachable: reachable, context), at: instant)
    }

    /// The retained state for Home Assistant.
    private func publishState(_ seat: Seat, at instant: WallInstant, onlyIfChanged: Bool = false) {
        // Nobody takes it (only the journal): not worth the status and the database reads, a
        // chunk at a time during a sync.
        guard let hub, hub.publishesState else { return }
        let status = seat.runner.status(at: instant)
        let bottle = seat.key.flatMap { try? history.bottleState(id: $0) }
            ?? (try? history.bottles())?.max { ($0.lastSeen ?? .epoch) < ($1.lastSeen ?? .epoch) }
        let key = seat.key ?? bottle?.id
        let dayStart = LocalDay(containing: instant, timeZone: timeZone).interval(in: timeZone).start
        let lastDrink = (try? history.storedDrinks(bottle: key, from: dayStart, includeDeleted: false))?.last { $0.isIntake }
        let pending = key.flatMap { try? history.commands(bottle: $0, statuses: [.pending, .sending]) } ?? []
        let changes = PendingChanges(pending)
        // The bottle's goal and switch as every surface resolves them (its row as read above); its
        // state from its running engine. Only these: the whole settings would read the stored
        // schedules and the pool file at every state published, for nothing the state shows.
        let row = seat.key.map { key in bottle.flatMap { $0.id == key ? $0 : nil } ?? BottleRecord(id: key) }
        let hydration = BottleView.hydration(of: row, configuration: configuration, bottleGoal: .some(seat.bottleGoal))
        var snapshot = BridgeSnapshot(
            time: instant, dayTotalML: status.pace.dayTotalML, goalML: hydration.goalML,
            // The battery: the last figure that was not a just-woken 0 % (docs/protocol.md 2.1).
            bottleLevelML: bottle?.state?.bottleLevelML, batteryPercent: bottle?.battery ?? bottle?.state?.batteryPercent,
            urgency: HydrationUrgency(status.urgency), deficitML: status.displayedDeficitML, remindersToday: status.remindersSentToday,
            dailyLimit: status.dailyLimit, lastSync: bottle?.lastSync, unsynced: bottle?.state?.unsyncedCount,
            bottleConnected: seat.connected, shakeToEmpty: bottle?.shakeToEmpty, bottleGoalML: bottle?.goalML,
            bottle: seat.key)
        snapshot.dayStart = dayStart
        snapshot.lastSeen = bottle?.lastSeen
        snapshot.lastDrinkML = lastDrink.map { Int($0.amountML) }
        snapshot.lastDrinkTime = lastDrink.map { WallInstant(secondsSince1970: Double($0.timestamp)) }
        snapshot.remindersEnabled = hydration.enabled
        snapshot.pendingGoalML = changes.goalML
        snapshot.pendingShakeToEmpty = changes.shakeToEmpty
        snapshot.pendingCommands = pending.count
        snapshot.quarantined = key.flatMap { try? history.quarantined(bottle: $0).count } ?? 0
        if let refusal = bottle?.refusal, refusal.isStuck {
            snapshot.stuck = true
            snapshot.stuckSince = refusal.since
        }
        var unchanged = seat.published
        unchanged?.time = snapshot.time
        if onlyIfChanged && unchanged == snapshot { return }
        seat.published = snapshot
        hub.publish(snapshot)
    }
}

extension HydrationUrgency {
    /// The reminders' urgency as it crosses the wire (one case for each, no display text).
    init(_ urgency: Urgency) {
        switch urgency {
        case .onTrack: self = .onTrack
        case .attention: self = .attention
        case .overdue: self = .overdue
        }
    }
}

extension ReminderDesk.SeatLabel {
    /// The delivery as its person sees it.
    func apply(to delivery: Delivery) -> Delivery {
        guard owner != nil || idSuffix != nil else { return delivery }
        return Delivery(id: idSuffix.map { "\(delivery.id)@\($0)" } ?? delivery.id, kind: delivery.kind, time: delivery.time,
                        title: owner.map { "\($0): \(delivery.title)" } ?? delivery.title, body: delivery.body,
                        actions: delivery.actions, thread: idSuffix.map { "\(delivery.thread ?? delivery.kind.rawValue)@\($0)" } ?? delivery.thread)
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
                var wake = WallInstant(secondsSince1970: ((now.secondsSince1970 / 60).rounded(.down) + 1) * 60)
                if let due = await desk.nextFireTime, due > now { wake = min(wake, due) }
                let sleep = Duration.milliseconds(Int64(((wake - now).inSeconds * 1000).rounded(.up)))
                heartbeat.waiting(for: sleep, "waiting for the next reminder tick")
                try await clock.sleep(for: sleep)
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
