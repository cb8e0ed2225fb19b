// Section 5 of docs/reminders.md as a rule of the engine: for each habit (the daily goal, the weekly
// goal), one reminder at the period's end minus `hours_before`, scheduled while it is ahead and the
// habit is not met, removed when a sync meets it, checked again when it fires, and re-created on
// start and on every new local day.

import Timekeeping

extension ReminderEngine {
    /// Takes back this rule's pending reminders and schedules the current periods' again, each if
    /// its time is still ahead and its habit not yet met. Stateless: what it schedules depends on
    /// the settings, the time and the totals only, so a restart re-creates the same.
    mutating func rebuildDeadlines<Ledger: DrinkLedger>(at instant: WallInstant, wallClock now: WallClockTime, ledger: Ledger) {
        state.centre.removeAll { ReminderEngine.owningSection(of: $0) == 5 }
        guard settings.notificationsEnabled else { return }
        var wanted: [PendingNotification] = []
        for habit in reminderSettings.deadline.habits {
            let lastDay = habit == .day ? now.day : now.day.mondayOfWeek + 6
            let fireTime = deadlineFireTime(lastDay: lastDay)
            guard fireTime > instant else { continue }
            let remaining = remainingML(habit, lastDay: lastDay, at: instant, ledger: ledger)
            guard remaining > 0 else { continue }
            wanted.append(PendingNotification(id: DeadlineText.id(habit, lastDay: lastDay), fireTime: fireTime, kind: .deadline,
                                              title: DeadlineText.title(habit), body: DeadlineText.body(remainingML: remaining),
                                              thread: DeadlineText.thread))
        }
        add(wanted, rule: "Deadline reminders")
    }

    /// After a sync: a pending reminder whose habit is now met is removed.
    mutating func removeMetDeadlines<Ledger: DrinkLedger>(at instant: WallInstant, ledger: Ledger) {
        let pending = state.centre.pending.filter { ReminderEngine.owningSection(of: $0) == 5 }
        for notification in pending {
            guard let (habit, lastDay) = deadlineHabit(of: notification.id),
                  remainingML(habit, lastDay: lastDay, at: instant, ledger: ledger) <= 0 else { continue }
            state.centre.remove(id: notification.id)
            journal.append("Deadline reminder removed, the goal is met: \(notification.id)")
        }
    }

    /// At fire time: dropped if the habit is met by now; otherwise delivered with the remainder
    /// at this moment.
    mutating func fireDeadline<Ledger: DrinkLedger>(_ fired: PendingNotification, at instant: WallInstant,
                                                    ledger: Ledger) -> PendingNotification? {
        guard let (habit, lastDay) = deadlineHabit(of: fired.id) else { return nil }
        let remaining = remainingML(habit, lastDay: lastDay, at: instant, ledger: ledger)
        guard remaining > 0 else {
            journal.append("Deadline reminder not sent, the goal is met: \(fired.id)")
            return nil
        }
        var delivered = fired
        delivered.body = DeadlineText.body(remainingML: remaining)
        return delivered
    }

    /// Period end − `hours_before` as elapsed time: the first instant of the day after `lastDay`
    /// minus that many hours (daily default 19:00; weekly, Sunday 19:00).
    func deadlineFireTime(lastDay: LocalDay) -> WallInstant {
        calendar.startOfDay(lastDay + 1) - .seconds(reminderSettings.deadline.effectiveHoursBefore * 3600)
    }

    /// Target − total of the habit's period, with the drinks known at `instant`.
    func remainingML<Ledger: DrinkLedger>(_ habit: DeadlineHabit, lastDay: LocalDay, at instant: WallInstant, ledger: Ledger) -> Int {
        let goal = Pace.saneGoal(settings.goalML)
        switch habit {
        case .day:
            let range = calendar.startOfDay(lastDay)..<calendar.startOfDay(lastDay + 1)
            return goal - ledger.totalML(drunkIn: range, knownAt: instant)
        case .week:
            let range = calendar.startOfDay(lastDay - 6)..<calendar.startOfDay(lastDay + 1)
            return reminderSettings.deadline.weeklyTargetML(dailyGoalML: goal) - ledger.totalML(drunkIn: range, knownAt: instant)
        }
    }

    /// The habit and period's last day of an id this rule makes.
    func deadlineHabit(of id: String) -> (DeadlineHabit, LocalDay)? {
        for habit in [DeadlineHabit.day, .week] {
            let prefix = "deadline-\(habit.rawValue)-"
            if id.hasPrefix(prefix), let day = LocalDay(String(id.dropFirst(prefix.count))) { return (habit, day) }
        }
        return nil
    }
}
