// Section 2 of docs/reminders.md as rules of the engine: the reminder decision at a tick (2.3), the
// steps after a sync (2.4) and the low-battery alert (2.5). Each reads top-down in the order the
// document lists its checks, because the order is the specification.

import Timekeeping

extension ReminderEngine {
    /// The thread of section 2's pace notifications.
    static let hydrationThread = "hydration"
    /// The thread of device alerts.
    static let bottleThread = "bottle"

    // MARK: 2.3 The reminder decision

    /// All six checks of 2.3, in order. One more, implied by the texts (there is none for
    /// on_track): the urgency must be above on_track, which only matters with
    /// `min_deficit_ml = 0`, where a deficit of exactly 0 would pass check 5.
    func shouldRemind(_ pace: Pace, wallClock now: WallClockTime) -> Bool {
        guard settings.notificationsEnabled, settings.enabled else { return false }              // 1
        guard !settings.isQuiet(minuteOfDay: now.minuteOfDay) else { return false }             // 2
        guard !settings.dailyLimit
              || state.remindersSentToday < HydrationSettings.maxRemindersPerDay else { return false } // 3
        guard pace.dayTotalML < pace.goalML else { return false }                               // 4
        guard pace.displayedDeficitML >= settings.minDeficitML else { return false }            // 5
        guard pace.urgency > .onTrack else { return false }
        if let last = state.lastNotifiedUrgency, pace.urgency <= last { return false }          // 6
        return true
    }

    /// The reminder, counted as delivered: increments `reminders_sent_today`, sets
    /// `last_notified_urgency` and "reminded since on track".
    mutating func makeReminder(_ pace: Pace, at instant: WallInstant) -> PendingNotification {
        state.reminderSequence += 1
        state.remindersSentToday += 1
        state.lastNotifiedUrgency = pace.urgency
        state.remindedSinceOnTrack = true
        return PendingNotification(
            id: HydrationID.reminder(state.reminderSequence), fireTime: instant, kind: .reminder,
            title: HydrationText.reminderTitle,
            body: HydrationText.reminderBody(urgency: pace.urgency, displayedDeficitML: pace.displayedDeficitML),
            thread: ReminderEngine.hydrationThread)
    }

    // MARK: 2.4 After every completed sync

    /// Back-on-track and goal-reached answer a drink just taken: they need both switches, but
    /// neither quiet hours nor the daily limit hold them back.
    var drinkAlertsAllowed: Bool { settings.notificationsEnabled && settings.enabled }

    mutating func afterSync<Ledger: DrinkLedger>(at instant: WallInstant, wallClock now: WallClockTime, ledger: Ledger) -> [Delivery] {
        // 1. The urgency as last computed, before the new drinks count.
        let previous = state.lastUrgency
        // 2. Day total and urgency now.
        let pace = pace(at: instant, wallClock: now, ledger: ledger)
        state.lastUrgency = pace.urgency
        var deliveries: [Delivery] = []

        // 3. Back on track.
        if previous > .onTrack && pace.urgency == .onTrack {
            state.lastNotifiedUrgency = nil
            if settings.backOnTrack && state.remindedSinceOnTrack && drinkAlertsAllowed {
                state.backOnTrackSequence += 1
                deliveries.append(Delivery(
                    id: HydrationID.backOnTrack(state.backOnTrackSequence), kind: .backOnTrack, time: instant,
                    title: HydrationText.backOnTrackTitle, body: HydrationText.backOnTrackBody,
                    thread: ReminderEngine.hydrationThread))
                journal.append(HydrationText.backOnTrackLogLine)
            }
        } else if pace.urgency != .onTrack && pace.urgency < previous {
            state.lastNotifiedUrgency = nil
        }
        if pace.urgency == .onTrack { state.remindedSinceOnTrack = false }

        // 4. Goal, once per local calendar day (the day of the day total).
        if pace.dayTotalML >= pace.goalML {
            state.lastNotifiedUrgency = nil
            state.centre.removeAll(kind: .reminder)
            if state.goalReachedDay != now.day && drinkAlertsAllowed {
                state.goalReachedDay = now.day
                deliveries.append(Delivery(
                    id: HydrationID.goalReached, kind: .goalReached, time: instant,
                    title: HydrationText.goalReachedTitle, body: HydrationText.goalReachedBody,
                    thread: ReminderEngine.hydrationThread))
            }
        }
        return deliveries
    }

    // MARK: 2.5 Low battery

    /// Once per episode: only when LOW_BATTERY is set and the last Current State seen did not
    /// have it, and at most once per local calendar day (a battery at the threshold makes the
    /// flag flicker: 20 toggles must not give 10 alerts). A device alert: the master switch only,
    /// quiet hours or not. The flag seen is remembered even when nothing is delivered, so an
    /// episode that began with notifications off is not announced when they come back on.
    mutating func lowBatteryAlert(lowBattery: Bool, batteryPercent: Int, at instant: WallInstant, day: LocalDay) -> [Delivery] {
        let wasLow = state.lastLowBattery
        state.lastLowBattery = lowBattery
        guard lowBattery, !wasLow, settings.notificationsEnabled, state.lowBatteryAlertDay != day else { return [] }
        state.lowBatteryAlertDay = day
        return [Delivery(id: HydrationID.lowBattery, kind: .lowBattery, time: instant,
                         title: HydrationText.lowBatteryTitle,
                         body: HydrationText.lowBatteryBody(percent: batteryPercent),
                         thread: ReminderEngine.bottleThread)]
    }
}
