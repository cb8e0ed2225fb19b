// The reminder engine (docs/reminders.md 1): one value that the bridge drives with the events of its
// timeline — start, a tick at every whole local minute, the end of a sync, a Current State, a
// settings change, `notify test`, a manual intake, an invoked action — each call returning the
// notifications delivered at that instant, in delivery order, for the caller to hand to its sinks
// and append to the delivered log. The engine does no I/O and never reads the system clock: every
// call says what time it is.
//
// After every call the caller saves `state` (and restores it into a new engine on start). The
// hydration rules of section 2 live in `ReminderEngine+Hydration.swift`; sections 3–6 are further
// rules of this engine (`ReminderEngine+Rules.swift` and one file per section), filling the
// centre's pending notifications in section order under its one limit of 64.

import Foundation
import Timekeeping

package struct ReminderEngine: Sendable {
    /// Every setting of sections 2–6.
    package private(set) var reminderSettings: ReminderSettings
    /// Section 2's settings, with the master switch and the time zone. Read in place (`_read`):
    /// the hydration rules read it at every tick, and a copy would retain the time zone each time.
    package var settings: HydrationSettings {
        _read { yield reminderSettings.hydration }
    }
    /// Everything to persist after each call.
    package internal(set) var state: ReminderState
    /// Log lines the rules asked for (e.g. `[HydrationReminder] Back on track!`), oldest first,
    /// until the caller drains them.
    package internal(set) var journal: [String] = []

    var clock: LocalClock
    /// Local dates and times to instants, in the same zone as `clock`.
    var calendar: LocalCalendar
    /// A settings change made without a ledger (`updateSettings(_:at:)` with hydration settings
    /// only) leaves the refill of sections 3–6 to the next tick. Not persisted: a start refills.
    var pendingRefill: RuleChanges?
    /// The day total last asked of the ledger, valid while the local day and the ledger's
    /// revision stay the same. Not persisted: a restarted engine asks again.
    var dayTotalCache: (day: LocalDay, revision: Int, total: Int)?

    /// An engine with the hydration rules only (sections 3–6 at their defaults: off).
    package init(settings: HydrationSettings, state: ReminderState = ReminderState()) {
        self.init(settings: ReminderSettings(hydration: settings), state: state)
    }

    /// An engine with every rule's settings.
    package init(settings: ReminderSettings, state: ReminderState = ReminderState()) {
        self.reminderSettings = settings
        self.state = state
        self.clock = LocalClock(timeZone: settings.hydration.timeZone)
        self.calendar = LocalCalendar(timeZone: settings.hydration.timeZone)
    }

    /// Pending notifications of every rule (the seed's badge).
    package var pendingCount: Int { state.centre.count }

    /// Pending notifications of one kind (e.g. `.deadline` for section 5's count in `status`).
    package func pendingCount(of kind: NotificationKind) -> Int {
        state.centre.count { $0.kind == kind }
    }

    /// When the next notification that `fireDue(at:)` would deliver is due, so the caller can call
    /// it between minute ticks (the test notification fires 5 s after it is asked for). Sections
    /// 3–6 are left out: they fire at whole minutes, by the tick (`NotificationKind.firesOnTick`).
    package var nextFireTime: WallInstant? {
        state.centre.pending.lazy.filter { !$0.kind.firesOnTick }.map(\.fireTime).min()
    }

    /// Returns the journal lines and empties it.
    package mutating func drainJournal() -> [String] {
        defer { journal.removeAll() }
        return journal
    }

    // MARK: Events

    /// On start (docs/reminders.md 0: at the first event's time of each run): applies a reminder-day
    /// reset that fell while the bridge was down, enforces the master switch on the restored
    /// pending notifications, and computes the urgency so that it is current before the first
    /// tick or sync. Then sections 3–6: what came due while the bridge was down is dropped (it was
    /// missed, not delivered late), and every rule fills again in section order — the schedules'
    /// next occurrences, the daily messages' refill, the period's deadline reminder if still ahead,
    /// the ritual window rebuilt. Delivers nothing.
    package mutating func start<Ledger: DrinkLedger>(at instant: WallInstant, ledger: Ledger) -> [Delivery] {
        let now = beginEvaluation(at: instant)
        if !settings.notificationsEnabled { state.centre.cancelAll() }
        recordUrgency(pace(at: instant, wallClock: now, ledger: ledger).urgency)
        dropMissed(before: instant)
        pendingRefill = nil
        if settings.notificationsEnabled {
            fillRules(at: instant, wallClock: now, ledger: ledger, changes: .all)
        }
        return []
    }

    /// The tick at a whole local minute: the reminder-day reset, the urgency (always computed,
    /// before any check), the hydration reminder decision of 2.3, then the pending notifications
    /// due, in section order then by id.
    package mutating func tick<Ledger: DrinkLedger>(at instant: WallInstant, ledger: Ledger) -> [Delivery] {
        let now = beginEvaluation(at: instant)
        let pace = pace(at: instant, wallClock: now, ledger: ledger)
        recordUrgency(pace.urgency)
        var reminder: PendingNotification?
        if shouldRemind(pace, wallClock: now) {
            reminder = makeReminder(pace, at: instant)
        }
        let deliveries = fireDueAtTick(at: instant, with: reminder, ledger: ledger)
        runTimedRules(at: instant, wallClock: now, ledger: ledger)
        return deliveries
    }

    /// The end of a sync session (its last chunk's ACK, or an interruption) that committed
    /// `newRecords` new records: the after-sync steps of 2.4, in their order. Nothing happens for
    /// a sync that stored nothing new.
    package mutating func syncEnded<Ledger: DrinkLedger>(at instant: WallInstant, newRecords: Int, ledger: Ledger) -> [Delivery] {
        guard newRecords > 0 else { return [] }
        let now = beginEvaluation(at: instant)
        let deliveries = afterSync(at: instant, wallClock: now, ledger: ledger)
        removeMetDeadlines(at: instant, ledger: ledger)
        return deliveries
    }

    /// A Current State (notified or read) arrived: the low-battery alert of 2.5.
    package mutating func currentState(lowBattery: Bool, batteryPercent: Int, at instant: WallInstant) -> [Delivery] {
        let now = beginEvaluation(at: instant)
        return lowBatteryAlert(lowBattery: lowBattery, batteryPercent: batteryPercent, at: instant, day: now.day)
    }

    /// Delivers the pending notifications due at `instant` (for a caller woken by
    /// `nextFireTime` between ticks), except those of sections 3–6, which their minute's tick
    /// delivers.
    package mutating func fireDue(at instant: WallInstant) -> [Delivery] {
        guard settings.notificationsEnabled else {
            state.centre.cancelAll()
            return []
        }
        return state.centre.takeDue(at: instant) { !$0.kind.firesOnTick }.map { Delivery($0, at: instant) }
    }

    /// `notify test`: a test notification 5 seconds later. False, with a journal line saying why,
    /// when the master switch is off or the centre is full.
    package mutating func scheduleTestNotification(at instant: WallInstant) -> Bool {
        guard settings.notificationsEnabled else {
            journal.append("Test notification not scheduled: notifications.enabled is false")
            return false
        }
        if state.centre.schedule(TestNotification.pending(askedAt: instant)) == .refusedAtLimit {
            journal.append("Test notification not scheduled: \(NotificationCentre.limit) notifications are pending, the limit")
            return false
        }
        return true
    }

    /// New hydration settings from `config set` or a reloaded file. The master switch turned off
    /// cancels every pending notification; a new time zone drops what was cached for the old one.
    /// Without a ledger the rules of sections 3–6 cannot refill here (a deadline needs the totals,
    /// a ritual title the streak): what changed is refilled at the next tick. Prefer
    /// `updateSettings(_:at:ledger:)`, which refills at once.
    package mutating func updateSettings(_ newSettings: HydrationSettings, at instant: WallInstant) -> [Delivery] {
        var all = reminderSettings
        all.hydration = newSettings
        let changes = applySettings(all)
        _ = beginEvaluation(at: instant)
        if let changes, newSettings.notificationsEnabled {
            pendingRefill = (pendingRefill ?? RuleChanges()).merged(with: changes)
        }
        return []
    }

    /// New settings of every rule. Off switches cancel what their rule scheduled; then the rules
    /// of sections 3–6 fill again in section order, each rescheduling what changed: the
    /// schedules' slots, the daily messages (their texts follow a new locale or pool), the
    /// deadline reminder, and the ritual window, rebuilt when a ritual setting, the time zone,
    /// the master switch or the reachability of a person changed. Delivers nothing.
    package mutating func updateSettings<Ledger: DrinkLedger>(_ newSettings: ReminderSettings, at instant: WallInstant,
                                                             ledger: Ledger) -> [Delivery] {
        let changes = applySettings(newSettings)
        let now = beginEvaluation(at: instant)
        if let changes, settings.notificationsEnabled {
            let all = (pendingRefill ?? RuleChanges()).merged(with: changes)
            pendingRefill = nil
            fillRules(at: instant, wallClock: now, ledger: ledger, changes: all)
        }
        return []
    }

    /// What `status` shows at `instant`, computed afresh without changing the engine.
    package func status<Ledger: DrinkLedger>(at instant: WallInstant, ledger: Ledger) -> HydrationStatus {
        let now = clock.wallClockUncached(at: instant)
        let total = ledger.dayTotal(at: instant, timeZone: settings.timeZone)
        let sent = state.reminderDay == reminderDay(of: now) ? state.remindersSentToday : 0
        return HydrationStatus(pace: Pace(minuteOfDay: now.minuteOfDay, dayTotalML: total, settings: settings),
                               remindersSentToday: sent, dailyLimit: settings.dailyLimit,
                               pendingCount: state.centre.count)
    }

    // MARK: Shared steps

    /// Reads the wall clock and applies a reminder-day reset that is due (2.6), including one
    /// missed while the bridge was down: every evaluation compares the reminder day it is in
    /// with the one the counters belong to.
    mutating func beginEvaluation(at instant: WallInstant) -> WallClockTime {
        let now = clock.wallClock(at: instant)
        let day = reminderDay(of: now)
        if state.reminderDay != day {
            state.reminderDay = day
            state.remindersSentToday = 0
            state.lastNotifiedUrgency = nil
        }
        return now
    }

    /// The reminder day containing `now`, named by the local date on which it started: before
    /// `reset_hour` it is still the previous date's.
    func reminderDay(of now: WallClockTime) -> LocalDay {
        let resetMinute = min(max(settings.resetHour, 0), 24) * 60
        return now.minuteOfDay < resetMinute ? now.day - 1 : now.day
    }

    /// The pace at `instant`, asking the ledger only when its revision or the local day changed.
    mutating func pace<Ledger: DrinkLedger>(at instant: WallInstant, wallClock now: WallClockTime, ledger: Ledger) -> Pace {
        let revision = ledger.revision(at: instant)
        let total: Int
        if let cached = dayTotalCache, cached.day == now.day, cached.revision == revision {
            total = cached.total
        } else {
            total = ledger.dayTotal(at: instant, timeZone: settings.timeZone)
            dayTotalCache = (now.day, revision, total)
        }
        return Pace(minuteOfDay: now.minuteOfDay, dayTotalML: total, settings: settings)
    }

    /// Remembers the urgency just computed; on_track clears "reminded since on track".
    mutating func recordUrgency(_ urgency: Urgency) {
        state.lastUrgency = urgency
        if urgency == .onTrack { state.remindedSinceOnTrack = false }
    }

    /// Takes every pending notification due at `instant`, lets the rules of sections 3–6 decide
    /// at fire time (a schedule arms its next occurrence and may suppress this one; a deadline
    /// already met is dropped), and merges `immediate` (a notification made at this instant,
    /// e.g. the tick's hydration reminder) into delivery order. With the master switch off nothing
    /// is delivered and nothing stays pending.
    mutating func fireDueAtTick<Ledger: DrinkLedger>(at instant: WallInstant, with immediate: PendingNotification?,
                                                      ledger: Ledger) -> [Delivery] {
        guard settings.notificationsEnabled else {
            state.centre.cancelAll()
            return []
        }
        var due = state.centre.takeDue(at: instant)
        if !due.isEmpty { due = decideAtFireTime(due, at: instant, ledger: ledger) }
        if let immediate {
            let position = due.firstIndex { PendingNotification.deliversBefore(immediate, $0) } ?? due.count
            due.insert(immediate, at: position)
        }
        return due.map { Delivery($0, at: instant) }
    }

    /// Applies new settings: a new zone resets the clock, the calendar and the cached total; the
    /// master switch off cancels everything. Returns what the rules of sections 3–6 must redo, or
    /// nil when nothing changed.
    mutating func applySettings(_ newSettings: ReminderSettings) -> RuleChanges? {
        let old = reminderSettings
        guard newSettings != old else { return nil }
        reminderSettings = newSettings
        let zoneChanged = newSettings.hydration.timeZone != old.hydration.timeZone
        if zoneChanged {
            clock = LocalClock(timeZone: newSettings.hydration.timeZone)
            calendar = LocalCalendar(timeZone: newSettings.hydration.timeZone)
            dayTotalCache = nil
        }
        if !newSettings.hydration.notificationsEnabled { state.centre.cancelAll() }
        let everything = zoneChanged || (!old.hydration.notificationsEnabled && newSettings.hydration.notificationsEnabled)
            || old.personReachable != newSettings.personReachable
        return RuleChanges(messages: everything || old.messages != newSettings.messages,
                           rituals: everything || old.rituals != newSettings.rituals)
    }
}
