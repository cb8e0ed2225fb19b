// Section 6 of docs/reminders.md as a rule of the engine: the morning and evening rituals of the next 7
// days, rebuilt afresh (with the streak of that moment) at start, on every new local day and
// whenever a ritual setting changes.

import Timekeeping

extension ReminderEngine {
    /// Enabled, notifications on, and a sink that reaches a person (section 1).
    var ritualsActive: Bool {
        settings.notificationsEnabled && reminderSettings.rituals.enabled && reminderSettings.personReachable
    }

    /// The longest streak counted; bounds the look back through the history at a rebuild.
    static let maxStreakDays = 3660

    /// All pending rituals are removed and the window is scheduled afresh: today and the 6 days
    /// after it, each time only if still ahead, in time order, so that under the limit the
    /// nearest come first. The streak is taken now and kept in the state for the titles and
    /// `status`.
    mutating func rebuildRituals<Ledger: DrinkLedger>(at instant: WallInstant, wallClock now: WallClockTime, ledger: Ledger) {
        state.centre.removeAll { ReminderEngine.owningSection(of: $0) == 6 }
        guard ritualsActive else { return }
        let rituals = reminderSettings.rituals
        let streak = rituals.terrain == nil ? 0 : ritualStreak(at: instant, today: now.day, ledger: ledger)
        state.ritualStreak = streak
        var wanted: [PendingNotification] = []
        for offset in 0..<RitualText.windowDays {
            let day = now.day + offset
            for phase in RitualPhase.allCases {
                let fireTime = calendar.instant(of: day, at: rituals.time(of: phase))
                guard fireTime > instant else { continue }
                wanted.append(PendingNotification(
                    id: RitualText.id(phase, day), fireTime: fireTime, kind: .ritual,
                    title: RitualText.title(phase, terrain: rituals.terrain, nickname: rituals.nickname, streak: streak),
                    body: RitualText.body(phase, terrain: rituals.terrain, day: day),
                    actions: [.didThis, .startRitual], thread: RitualText.thread))
            }
        }
        wanted.sort { ($0.fireTime, $0.id) < ($1.fireTime, $1.id) }
        add(wanted, rule: "Rituals")
    }

    /// How many rituals a full window has after `instant` (0 when the rule is not active).
    func ritualWindowCount(after instant: WallInstant, today: LocalDay) -> Int {
        guard ritualsActive else { return 0 }
        let times = RitualPhase.allCases.map { reminderSettings.rituals.time(of: $0) }
        return (0..<RitualText.windowDays).reduce(0) { count, offset in
            count + times.filter { calendar.instant(of: today + offset, at: $0) > instant }.count
        }
    }

    /// Streak N: consecutive local days, ending yesterday, on which the daily goal was met, plus
    /// today if already met (drinks known at `instant`, the current goal). Rituals done do not
    /// count.
    func ritualStreak<Ledger: DrinkLedger>(at instant: WallInstant, today: LocalDay, ledger: Ledger) -> Int {
        let goal = Pace.saneGoal(settings.goalML)
        guard goal > 0 else { return 0 }
        var end = calendar.startOfDay(today + 1)
        var start = calendar.startOfDay(today)
        var streak = ledger.totalML(drunkIn: start..<end, knownAt: instant) >= goal ? 1 : 0
        var day = today - 1
        while streak < ReminderEngine.maxStreakDays {
            end = start
            start = calendar.startOfDay(day)
            guard ledger.totalML(drunkIn: start..<end, knownAt: instant) >= goal else { break }
            streak += 1
            day = day - 1
        }
        return streak
    }
}
