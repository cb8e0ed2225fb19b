// "Next reminder" at the top of a person's panel: when the pace reminder of docs/reminders.md 2.3
// would come if nothing more is drunk. The pace only falls further behind as the day goes on, so
// the next reminder is the first minute the urgency rises a level above now's, outside quiet
// hours, with the deficit over `min_deficit_ml`: the same `Pace` arithmetic the engine uses, run
// forward over today's remaining minutes. It is an estimate the page says as one ("around").

import Reminders

enum NextReminder: Sendable, Equatable {
    /// Due around this minute of today if nothing is drunk.
    case at(minuteOfDay: Int)
    case goalMet
    case remindersOff
    /// Overdue already: the reminder is due now (or was sent), and none rises above it.
    case dueNow
    /// Nothing more today: the day's limit reached, or the day ends first.
    case noneToday
    /// Not computed (no bottle).
    case notComputed

    init(minuteOfDay: Int, dayTotalML: Int, settings: HydrationSettings, remindersSent: Int) {
        guard settings.enabled, settings.notificationsEnabled else { self = .remindersOff; return }
        let now = Pace(minuteOfDay: minuteOfDay, dayTotalML: dayTotalML, settings: settings)
        guard dayTotalML < now.goalML else { self = .goalMet; return }
        guard !settings.dailyLimit || remindersSent < HydrationSettings.maxRemindersPerDay else { self = .noneToday; return }
        guard now.urgency < .overdue else { self = .dueNow; return }
        var minute = minuteOfDay + 1
        while minute < 1440 {
            let pace = Pace(minuteOfDay: minute, dayTotalML: dayTotalML, settings: settings)
            if pace.urgency > now.urgency, pace.displayedDeficitML >= settings.minDeficitML, !settings.isQuiet(minuteOfDay: minute) {
                self = .at(minuteOfDay: minute)
                return
            }
            minute += 1
        }
        self = .noneToday
    }
}
