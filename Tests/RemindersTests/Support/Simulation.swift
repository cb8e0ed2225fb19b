// A timeline for the tests: the engine driven as the bridge drives it — a tick at every whole
// minute, syncs that store drinks and end, Current States, restarts through the persisted form —
// with every delivery kept, so a test can read the day minute by minute.

import Foundation
@testable import Reminders
import Timekeeping

let utc = TimeZone(identifier: "UTC")!
let madrid = TimeZone(identifier: "Europe/Madrid")!

/// The instant a local wall clock in `zone` shows `date` (`YYYY-MM-DD`) and `time` (`HH:MM` or
/// `HH:MM:SS`).
func instant(_ date: String, _ time: String, in zone: TimeZone) -> WallInstant {
    let d = date.split(separator: "-").map { Int($0)! }
    let t = time.split(separator: ":").map { Int($0)! }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let components = DateComponents(year: d[0], month: d[1], day: d[2], hour: t[0], minute: t[1], second: t.count > 2 ? t[2] : 0)
    return WallInstant(calendar.date(from: components)!)
}

/// `YYYY-MM-DD HH:MM:SS` of `instant` in `zone`, for readable expectations.
func localText(_ instant: WallInstant, in zone: TimeZone) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = zone
    formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
    return formatter.string(from: instant.date)
}

struct Simulation {
    private(set) var engine: ReminderEngine
    private(set) var ledger = InMemoryDrinkLedger()
    let zone: TimeZone
    /// The time of the last event or tick.
    private(set) var now: WallInstant
    /// The next whole minute to tick.
    private var nextTick: WallInstant
    /// Every delivery so far, in order.
    private(set) var deliveries: [Delivery] = []
    /// Every journal line so far.
    private(set) var journal: [String] = []

    /// Starts the bridge at `date` `time` (local), with `state` restored.
    init(settings: HydrationSettings, date: String, time: String, state: ReminderState = ReminderState()) {
        self.init(rules: ReminderSettings(hydration: settings), date: date, time: time, state: state)
    }

    /// Starts the bridge with every rule's settings, and optionally a drink history laid out in
    /// advance (each drink known only from its stored time).
    init(rules: ReminderSettings, date: String, time: String, state: ReminderState = ReminderState(),
         ledger: InMemoryDrinkLedger = InMemoryDrinkLedger()) {
        zone = rules.hydration.timeZone
        engine = ReminderEngine(settings: rules, state: state)
        self.ledger = ledger
        now = instant(date, time, in: zone)
        nextTick = WallInstant(secondsSince1970: (now.secondsSince1970 / 60).rounded(.up) * 60)
        deliveries += engine.start(at: now, ledger: ledger)
        journal += engine.drainJournal()
    }

    var settings: HydrationSettings { engine.settings }
    var rules: ReminderSettings { engine.reminderSettings }
    var state: ReminderState { engine.state }

    func local(_ delivery: Delivery) -> String { localText(delivery.time, in: zone) }

    /// Deliveries of `kind` (all kinds when nil), as `HH:MM:SS body` lines.
    func lines(_ kind: NotificationKind? = nil) -> [String] {
        deliveries.filter { kind == nil || $0.kind == kind }.map { String(local($0).suffix(8)) + " " + $0.body }
    }

    /// Ticks every whole minute up to and including `instant` (a tick at the same instant as an
    /// event runs before it), and returns what they delivered.
    @discardableResult
    mutating func run(until instant: WallInstant) -> [Delivery] {
        var delivered: [Delivery] = []
        while nextTick <= instant {
            delivered += engine.tick(at: nextTick, ledger: ledger)
            now = nextTick
            nextTick += .seconds(60)
        }
        now = max(now, instant)
        deliveries += delivered
        journal += engine.drainJournal()
        return delivered
    }

    @discardableResult
    mutating func run(until date: String, _ time: String) -> [Delivery] {
        run(until: instant(date, time, in: zone))
    }

    /// A sync ending at `date` `time`: the drinks (drunk at the given local times, or a minute
    /// before the sync) are stored at its end, then the after-sync steps run. Returns what the
    /// sync itself delivered.
    @discardableResult
    mutating func sync(_ amounts: [Int], drunkAt drinkTimes: [String]? = nil, on date: String, at time: String) -> [Delivery] {
        let end = instant(date, time, in: zone)
        let drunk = drinkTimes.map { $0.map { instant(date, $0, in: zone) } } ?? amounts.map { _ in end - .seconds(60) }
        return sync(amounts, drunkAt: drunk, endingAt: end)
    }

    /// The same, with instants.
    @discardableResult
    mutating func sync(_ amounts: [Int], drunkAt drinkTimes: [WallInstant], endingAt end: WallInstant) -> [Delivery] {
        run(until: end)
        for (amount, drunk) in zip(amounts, drinkTimes) {
            ledger.record(timestamp: drunk, amountML: amount, storedAt: end)
        }
        let delivered = engine.syncEnded(at: end, newRecords: amounts.count, ledger: ledger)
        deliveries += delivered
        journal += engine.drainJournal()
        return delivered
    }

    /// A sync ending with `newRecords` new records without storing a drink (0: it re-sent only
    /// records already stored).
    @discardableResult
    mutating func endSync(newRecords: Int, on date: String, at time: String) -> [Delivery] {
        let end = instant(date, time, in: zone)
        run(until: end)
        let delivered = engine.syncEnded(at: end, newRecords: newRecords, ledger: ledger)
        deliveries += delivered
        return delivered
    }

    /// Stores a drink without ending a sync (a committed chunk of a sync still under way).
    mutating func storeChunk(_ amount: Int, on date: String, at time: String) {
        let stored = instant(date, time, in: zone)
        run(until: stored)
        ledger.record(timestamp: stored - .seconds(60), amountML: amount, storedAt: stored)
    }

    @discardableResult
    mutating func currentState(lowBattery: Bool, percent: Int, on date: String, at time: String) -> [Delivery] {
        let at = instant(date, time, in: zone)
        run(until: at)
        let delivered = engine.currentState(lowBattery: lowBattery, batteryPercent: percent, at: at)
        deliveries += delivered
        return delivered
    }

    mutating func updateSettings(_ change: (inout HydrationSettings) -> Void, on date: String, at time: String) {
        let at = instant(date, time, in: zone)
        run(until: at)
        var settings = engine.settings
        change(&settings)
        deliveries += engine.updateSettings(settings, at: at)
    }

    /// Changes any rule's settings through `updateSettings(_:at:ledger:)`.
    mutating func updateRules(_ change: (inout ReminderSettings) -> Void, on date: String, at time: String) {
        let at = instant(date, time, in: zone)
        run(until: at)
        var rules = engine.reminderSettings
        change(&rules)
        deliveries += engine.updateSettings(rules, at: at, ledger: ledger)
        journal += engine.drainJournal()
    }

    /// A manual intake (`aquavate-bridge log TYPE`).
    @discardableResult
    mutating func log(_ type: String, on date: String, at time: String) throws(IntakeLogError) -> String {
        let at = instant(date, time, in: zone)
        run(until: at)
        defer { journal += engine.drainJournal() }
        return try engine.logIntake(type: type, at: at)
    }

    /// An action invoked on a notification.
    mutating func invoke(_ action: String, on id: String, date: String, at time: String) throws(NotificationActionError) -> ActionOutcome {
        let at = instant(date, time, in: zone)
        run(until: at)
        defer { journal += engine.drainJournal() }
        return try engine.actionInvoked(notificationID: id, actionID: action, at: at)
    }

    /// A drink stored without the end of a sync being reported (a caller may also simply know it).
    mutating func storeDrink(_ amount: Int, drunkAt drunk: String, on date: String, storedAt stored: String) {
        ledger.record(timestamp: instant(date, drunk, in: zone), amountML: amount, storedAt: instant(date, stored, in: zone))
    }

    /// The pending notifications of `kind`, by fire time then id.
    func pending(_ kind: NotificationKind) -> [PendingNotification] {
        engine.state.centre.pending.filter { $0.kind == kind }.sorted { ($0.fireTime, $0.id) < ($1.fireTime, $1.id) }
    }

    /// `YYYY-MM-DD HH:MM id` of the pending notifications of `kind`.
    func pendingLines(_ kind: NotificationKind) -> [String] {
        pending(kind).map { String(localText($0.fireTime, in: zone).prefix(16)) + " " + $0.id }
    }

    /// Deliveries of `kind` as `YYYY-MM-DD HH:MM id` lines.
    func deliveredLines(_ kind: NotificationKind? = nil) -> [String] {
        deliveries.filter { kind == nil || $0.kind == kind }.map { String(local($0).prefix(16)) + " " + $0.id }
    }

    mutating func notifyTest(on date: String, at time: String) -> Bool {
        let at = instant(date, time, in: zone)
        run(until: at)
        let scheduled = engine.scheduleTestNotification(at: at)
        journal += engine.drainJournal()
        return scheduled
    }

    /// Calls `fireDue` at the engine's next fire time if it is at or before `instant`.
    @discardableResult
    mutating func fireDueNotifications(until limit: WallInstant) -> [Delivery] {
        guard let next = engine.nextFireTime, next <= limit else { return [] }
        run(until: next)
        let delivered = engine.fireDue(at: next)
        deliveries += delivered
        return delivered
    }

    /// The bridge stops now and starts again at `date` `time`: no ticks in between; settings and
    /// state go through their persisted (JSON) form; the drink history is kept.
    mutating func restart(on date: String, at time: String) throws {
        let stateData = try JSONEncoder().encode(engine.state)
        let settingsData = try JSONEncoder().encode(engine.reminderSettings)
        let restoredState = try JSONDecoder().decode(ReminderState.self, from: stateData)
        let restoredSettings = try JSONDecoder().decode(ReminderSettings.self, from: settingsData)
        engine = ReminderEngine(settings: restoredSettings, state: restoredState)
        now = instant(date, time, in: zone)
        nextTick = WallInstant(secondsSince1970: (now.secondsSince1970 / 60).rounded(.up) * 60)
        deliveries += engine.start(at: now, ledger: ledger)
        journal += engine.drainJournal()
    }

    func status() -> HydrationStatus { engine.status(at: now, ledger: ledger) }
}

extension ReminderSettings {
    /// Every rule at its default (sections 3–6 off) in `zone`, changed by `change`.
    static func rules(_ zone: TimeZone = utc, _ change: (inout ReminderSettings) -> Void = { _ in }) -> ReminderSettings {
        var settings = ReminderSettings(hydration: HydrationSettings(timeZone: zone))
        change(&settings)
        return settings
    }
}

extension IntakeSchedule {
    /// A schedule from the configuration's text values, which must be valid.
    static func make(_ id: String, name: String? = nil, intake: String, _ frequency: IntakeFrequency, first: String,
                     minML: Int = 1, body: String? = nil) -> IntakeSchedule {
        try! IntakeSchedule(id: id, name: name, intake: IntakeType(parsing: intake, minML: minML), frequency: frequency,
                            first: LocalDateTime(parsing: first), body: body)
    }
}

extension HydrationSettings {
    /// Defaults of docs/reminders.md 2.1 in UTC, changed by `change`.
    static func test(_ zone: TimeZone = utc, _ change: (inout HydrationSettings) -> Void = { _ in }) -> HydrationSettings {
        var settings = HydrationSettings(timeZone: zone)
        change(&settings)
        return settings
    }
}
