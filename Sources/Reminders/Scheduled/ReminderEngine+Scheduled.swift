// Section 3 of docs/reminders.md as rules of the engine: each enabled schedule's slots are pending
// notifications with the seed's ids; when one fires, the next occurrence of its slot is armed
// under the same id, and the one firing is suppressed if an intake of its type was logged in its
// window. Manual intakes are recorded here too (`logIntake`), wherever they come from.

import Foundation
import Timekeeping

extension ReminderEngine {
    // MARK: Filling

    /// Every slot of every enabled schedule, in configuration order. A slot already pending keeps
    /// its fire time when that is still one of its occurrences (so a restart or an unrelated
    /// settings change moves nothing); otherwise its next occurrence after `instant` is armed and
    /// logged as the seed logs it (`Scheduled weekly reminder: reminder-ABC123-w2-9-0`).
    mutating func fillScheduledIntake(keeping previous: [PendingNotification], at instant: WallInstant) {
        var wanted: [PendingNotification] = []
        var newlyArmed: [String: String] = [:]
        for schedule in reminderSettings.schedules where schedule.enabled {
            let firstInstant = calendar.instant(of: schedule.first.day, at: schedule.first.time)
            for slot in schedule.slots {
                let id = slot.notificationID
                let kept = previous.first { $0.id == id && $0.thread == schedule.thread }
                var fireTime: WallInstant?
                if let kept, kept.fireTime >= instant, kept.fireTime >= firstInstant,
                   slot.occurrence(on: clock.wallClockUncached(at: kept.fireTime).day, calendar: calendar) == kept.fireTime {
                    fireTime = kept.fireTime
                } else {
                    fireTime = slot.nextOccurrence(after: instant, notBefore: firstInstant, calendar: calendar, clock: clock)
                    newlyArmed[id] = schedule.periodName
                }
                if let fireTime { wanted.append(notification(of: schedule, slot: slot, at: fireTime)) }
            }
        }
        let added = add(wanted, rule: "Scheduled intake")
        for notification in wanted.prefix(added) {
            if let period = newlyArmed[notification.id] {
                journal.append("Scheduled \(period) reminder: \(notification.id)")
            }
        }
    }

    /// The pending notification of `slot` at `fireTime`: kind `scheduled`, the schedule's name as
    /// title, its body, and Done on manual types.
    func notification(of schedule: IntakeSchedule, slot: ScheduleSlot, at fireTime: WallInstant) -> PendingNotification {
        PendingNotification(id: slot.notificationID, fireTime: fireTime, kind: .scheduled, title: schedule.name,
                            body: schedule.bodyText, actions: schedule.intake.isManual ? [.done] : [],
                            thread: schedule.thread)
    }

    // MARK: Firing

    /// The slot's next occurrence is armed under the same id (it counts once against the limit);
    /// then this one is delivered, or suppressed with the seed's log line. A notification whose
    /// schedule or slot no longer exists is dropped (a settings change removes those at once, so
    /// this only guards a hand-edited state).
    mutating func fireScheduled<Ledger: DrinkLedger>(_ fired: PendingNotification, at instant: WallInstant,
                                                     ledger: Ledger) -> PendingNotification? {
        guard let schedule = reminderSettings.schedules.first(where: { $0.thread == fired.thread && $0.enabled }),
              let slot = schedule.slots.first(where: { $0.notificationID == fired.id }) else { return nil }
        let firstInstant = calendar.instant(of: schedule.first.day, at: schedule.first.time)
        if let next = slot.nextOccurrence(after: max(instant, fired.fireTime), notBefore: firstInstant,
                                          calendar: calendar, clock: clock) {
            add([notification(of: schedule, slot: slot, at: next)], rule: "Scheduled intake")
        }
        if let reason = suppression(of: schedule, firedAt: fired.fireTime, firstInstant: firstInstant, at: instant, ledger: ledger) {
            journal.append("Should suppress: true (\(schedule.periodName) reminder, intake logged \(reason)) for \(fired.id)")
            return nil
        }
        return fired
    }

    /// Why the occurrence at `time` is suppressed, or nil: an intake of the schedule's type in the
    /// window `[max(start of time's local day, previous occurrence of the schedule), time]`. For
    /// water, drinks known now totalling at least `min_ml` in the window; for a manual type, a
    /// manual log in it.
    func suppression<Ledger: DrinkLedger>(of schedule: IntakeSchedule, firedAt time: WallInstant, firstInstant: WallInstant,
                                          at instant: WallInstant, ledger: Ledger) -> String? {
        let day = clock.wallClockUncached(at: time).day
        let dayStart = calendar.startOfDay(day)
        let logged: (WallInstant) -> Bool = { windowStart in
            switch schedule.intake {
            case .water(let minML):
                return ledger.totalML(drunkIn: windowStart..<time.nextUp, knownAt: instant) >= minML
            case .manual(let type):
                return self.state.intakeLog.contains { $0.type == type && $0.time >= windowStart && $0.time <= time }
            }
        }
        // Nothing since the day's start: nothing in the (possibly shorter) window either.
        guard logged(dayStart) else { return nil }
        switch schedule.frequency.period {
        case .weekly: return "this week"
        case .monthly: return "this month"
        case .daily:
            // The previous occurrence within the same local day, if any (an earlier one is before
            // the day's start anyway). Weekly and monthly slots never share a day.
            let previous = schedule.slots
                .compactMap { $0.occurrence(on: day, calendar: calendar) }
                .filter { $0 < time && $0 >= firstInstant }
                .max()
            guard let previous else { return "today" }
            return logged(previous) ? "since the previous reminder" : nil
        }
    }

    // MARK: Manual intake

    /// Records a manual intake of `type` (case-insensitive) at `instant`: `aquavate-bridge log
    /// TYPE`, a capture's `log` op, or a Done action. Returns the normalized type. `water` is
    /// refused: the bottle measures it.
    @discardableResult
    package mutating func logIntake(type: String, at instant: WallInstant) throws(IntakeLogError) -> String {
        let name: String
        do { name = try IntakeType.normalizedName(type) } catch { throw .invalidType(error) }
        guard name != IntakeType.waterName else { throw .waterIsMeasured }
        state.intakeLog.append(IntakeLogEntry(type: name, time: instant))
        pruneIntakeLog(at: instant)
        return name
    }

    /// Keeps the entries that a suppression window could still reach, at most `maxEntries`.
    mutating func pruneIntakeLog(at instant: WallInstant) {
        state.intakeLog.removeAll { $0.time < instant - IntakeLogEntry.retention }
        if state.intakeLog.count > IntakeLogEntry.maxEntries {
            state.intakeLog.removeFirst(state.intakeLog.count - IntakeLogEntry.maxEntries)
        }
    }
}
