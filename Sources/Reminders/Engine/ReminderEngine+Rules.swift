// How the rules of sections 3–6 share the engine (docs/reminders.md 1): they fill the one notification
// centre in section order (3, 4, 5, 6) under its limit of 64, a rule that would exceed it
// scheduling nothing more and saying why in the journal; they are delivered by the same tick, in
// the same-minute order of section 0; and each finds its own pending notifications by their
// thread, so a notification some other party put in the centre is never taken for a rule's.
//
// When each rule runs:
// * start — what fell due while the bridge was down is dropped, then every rule fills;
// * a settings change — every rule fills, redoing what changed (`RuleChanges`);
// * a tick — the due notifications fire (a schedule's next occurrence is armed at once); on a new
//   local day the deadline and ritual rules run; the 10:00 tick refills the daily messages;
// * the end of a sync — a deadline whose goal is now met is removed.

import Timekeeping

/// What a settings change asks the rules to redo beyond their usual fill.
struct RuleChanges: Equatable, Sendable {
    /// The daily messages' settings (or what they depend on) changed: refill the window now.
    var messages = false
    /// A ritual setting (or what rituals depend on) changed: rebuild the window.
    var rituals = false

    static let all = RuleChanges(messages: true, rituals: true)

    func merged(with other: RuleChanges) -> RuleChanges {
        RuleChanges(messages: messages || other.messages, rituals: rituals || other.rituals)
    }
}

extension ReminderEngine {
    // MARK: Ownership

    /// The section (3–6) of the rule that made `notification`, or nil for anything else.
    static func owningSection(of notification: PendingNotification) -> Int? {
        guard let thread = notification.thread else { return nil }
        switch notification.kind {
        case .scheduled: return thread.hasPrefix(ScheduleSlot.threadPrefix) ? 3 : nil
        case .dailyMessage: return thread == DailyMessage.thread ? 4 : nil
        case .deadline: return thread == DeadlineText.thread ? 5 : nil
        case .ritual: return thread == RitualText.thread ? 6 : nil
        default: return nil
        }
    }

    // MARK: Start

    /// Drops the rules' notifications that fell due while the bridge was not running. Decision:
    /// a phone that is off does not show them later either; a schedule's missed occurrence was
    /// "the calendar's" (docs/reminders.md 3) and its next one is armed by the fill that follows.
    mutating func dropMissed(before instant: WallInstant) {
        let missed = state.centre.removeAll { ReminderEngine.owningSection(of: $0) != nil && $0.fireTime < instant }
        for notification in missed.sorted(by: PendingNotification.deliversBefore) {
            journal.append("Missed while the bridge was not running: \(notification.id)")
        }
    }

    // MARK: Filling in section order

    /// Every rule of sections 3–6 fills again, in section order: each takes back what it has
    /// pending and adds what it wants now, so that under the limit the earlier sections come first.
    mutating func fillRules<Ledger: DrinkLedger>(at instant: WallInstant, wallClock now: WallClockTime, ledger: Ledger,
                                                 changes: RuleChanges) {
        let previous = state.centre.removeAll { ReminderEngine.owningSection(of: $0) != nil }
        fillScheduledIntake(keeping: previous, at: instant)
        fillDailyMessages(keeping: previous, at: instant, today: now.day, refill: changes.messages)
        rebuildDeadlines(at: instant, wallClock: now, ledger: ledger)
        let keptRituals = previous.filter { ReminderEngine.owningSection(of: $0) == 6 && $0.fireTime > instant }
        if changes.rituals || state.rulesDay != now.day || keptRituals.count != ritualWindowCount(after: instant, today: now.day) {
            // Also when the window is incomplete: the limit cut it, and there may be room now.
            rebuildRituals(at: instant, wallClock: now, ledger: ledger)
        } else if ritualsActive {
            add(keptRituals, rule: "Rituals")
        }
        startNewDay(now.day, at: instant)
    }

    /// After a tick's deliveries: a refill left by a settings change, the rules of a new local
    /// day, and the daily messages' refill after the 10:00 tick.
    mutating func runTimedRules<Ledger: DrinkLedger>(at instant: WallInstant, wallClock now: WallClockTime, ledger: Ledger) {
        guard settings.notificationsEnabled else { return }
        if let changes = pendingRefill {
            pendingRefill = nil
            fillRules(at: instant, wallClock: now, ledger: ledger, changes: changes)
        } else if state.rulesDay != now.day {
            rebuildDeadlines(at: instant, wallClock: now, ledger: ledger)
            rebuildRituals(at: instant, wallClock: now, ledger: ledger)
            startNewDay(now.day, at: instant)
        }
        if now.minuteOfDay == DailyMessage.time.minuteOfDay {
            refillDailyMessages(at: instant, today: now.day)
        }
    }

    /// Marks `day`'s new-day rules as run and, once per day, forgets what no rule will look at
    /// again (only then, so that a restart mid-day leaves the state as it was).
    mutating func startNewDay(_ day: LocalDay, at instant: WallInstant) {
        guard state.rulesDay != day else { return }
        state.rulesDay = day
        pruneIntakeLog(at: instant)
        state.ritualCompletions.removeAll { $0.day < day - RitualCompletion.retentionDays }
    }

    // MARK: Fire time

    /// The rules' decisions on their notifications that are due, in delivery order: a schedule's
    /// next occurrence is armed first (it keeps its slot) and this one may be suppressed; a
    /// deadline reminder is dropped when the habit is met and otherwise says what remains.
    mutating func decideAtFireTime<Ledger: DrinkLedger>(_ due: [PendingNotification], at instant: WallInstant,
                                                        ledger: Ledger) -> [PendingNotification] {
        var delivered: [PendingNotification] = []
        for notification in due {
            switch ReminderEngine.owningSection(of: notification) {
            case 3:
                if let kept = fireScheduled(notification, at: instant, ledger: ledger) { delivered.append(kept) }
            case 5:
                if let kept = fireDeadline(notification, at: instant, ledger: ledger) { delivered.append(kept) }
            default:
                delivered.append(notification)
            }
        }
        return delivered
    }

    // MARK: The limit

    /// Adds `notifications` in order until the centre refuses one at the limit; then adds nothing
    /// more and writes one journal line naming the rule and what was left out. Replacing an id
    /// that is pending never needs a free slot. Returns how many were added or replaced.
    @discardableResult
    mutating func add(_ notifications: [PendingNotification], rule: String) -> Int {
        for (index, notification) in notifications.enumerated()
        where state.centre.schedule(notification) == .refusedAtLimit {
            let left = notifications.count - index
            journal.append("\(rule): \(left) not scheduled, from \(notification.id): \(NotificationCentre.limit) notifications are pending, the limit")
            return index
        }
        return notifications.count
    }
}
