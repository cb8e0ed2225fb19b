// docs/reminders.md 2.6 and 0: the reminder-day reset at reset_hour (04:00), a reset missed while the
// bridge was down applied at start, and a restart restoring every counter through the persisted
// form.

import Foundation
import Testing
@testable import Reminders
import Timekeeping

struct ResetAndRestartTests {
    let day = "2026-03-10"
    let nextDay = "2026-03-11"

    /// A day without drinks: attention at 07:54, overdue at 10:00.
    func dryDay(until time: String = "23:00") -> Simulation {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.run(until: day, time)
        return sim
    }

    @Test func resetAtFourOClock() {
        var sim = dryDay()
        sim.run(until: nextDay, "03:59")
        #expect(sim.state.remindersSentToday == 2)
        #expect(sim.state.lastNotifiedUrgency == .overdue)
        #expect(sim.status().remindersTodayText == "Reminders Today: 2/12")
        sim.run(until: nextDay, "04:00")
        #expect(sim.state.remindersSentToday == 0)
        #expect(sim.state.lastNotifiedUrgency == nil)
        #expect(sim.state.reminderDay == LocalDay(nextDay))
        // Without the reset the last urgency (overdue) would hold back this attention reminder.
        sim.run(until: nextDay, "08:00")
        #expect(sim.lines().last == "07:54:00 Time to hydrate! You're 150ml behind pace.")
        #expect(sim.deliveries.last?.id == "hydration-3")
    }

    @Test func resetHourIsASetting() {
        var sim = Simulation(settings: .test { $0.resetHour = 6 }, date: day, time: "06:00")
        sim.run(until: nextDay, "05:59")
        #expect(sim.state.remindersSentToday == 2)
        sim.run(until: nextDay, "06:00")
        #expect(sim.state.remindersSentToday == 0)
    }

    @Test func statusShowsTheResetBeforeTheEngineAppliesIt() throws {
        var sim = dryDay()
        try sim.restart(on: nextDay, at: "03:59")
        #expect(sim.status().remindersTodayText == "Reminders Today: 2/12")
        let laterStatus = sim.engine.status(at: instant(nextDay, "04:00", in: utc), ledger: sim.ledger)
        #expect(laterStatus.remindersTodayText == "Reminders Today: 0/12")
    }

    @Test func missedResetIsAppliedAtStart() throws {
        var sim = dryDay()
        // Down from 23:00 to 08:30 the next day: the 04:00 boundary fell while it was down.
        try sim.restart(on: nextDay, at: "08:30")
        #expect(sim.state.remindersSentToday == 0)
        #expect(sim.state.lastNotifiedUrgency == nil)
        sim.run(until: nextDay, "08:30")
        #expect(sim.lines().last == "08:30:00 Time to hydrate! You're 250ml behind pace.")
        #expect(sim.deliveries.last?.id == "hydration-3")
    }

    @Test func missedResetIsAppliedAtTheFirstTickToo() {
        // No start in between: a tick after a long gap (e.g. a suspended machine) resets as well.
        let sim = dryDay()
        var engine = sim.engine
        let delivered = engine.tick(at: instant(nextDay, "08:30", in: utc), ledger: sim.ledger)
        #expect(delivered.map(\.body) == ["Time to hydrate! You're 250ml behind pace."])
        #expect(engine.state.remindersSentToday == 1)
    }

    @Test func restartOnTheSameReminderDayChangesNothing() throws {
        var sim = dryDay(until: "10:30")
        let before = sim.state
        try sim.restart(on: day, at: "10:45")
        #expect(sim.state == before)
        sim.run(until: day, "21:59")
        #expect(sim.lines().count == 2)
        #expect(sim.status().remindersTodayText == "Reminders Today: 2/12")
    }

    @Test func restartAfterMidnightBeforeTheResetKeepsTheCounters() throws {
        var sim = dryDay()
        try sim.restart(on: nextDay, at: "03:00")
        #expect(sim.state.remindersSentToday == 2)
        #expect(sim.state.lastNotifiedUrgency == .overdue)
        #expect(sim.state.reminderDay == LocalDay(day))
        // The urgency is computed afresh at start: a new calendar day owes nothing yet.
        #expect(sim.state.lastUrgency == .onTrack)
    }

    @Test func restartNeverResendsTheGoalAlert() throws {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.sync([2500], on: day, at: "15:00")
        try sim.restart(on: day, at: "16:00")
        sim.sync([300], on: day, at: "17:00")
        sim.run(until: day, "23:59")
        #expect(sim.lines(.goalReached) == ["15:00:00 Good job! You've hit your daily hydration goal."])
        #expect(sim.lines(.reminder) == ["07:54:00 Time to hydrate! You're 150ml behind pace.",
                                         "10:00:00 You're falling behind! Drink 500ml to catch up."])
    }

    @Test func stateRoundTripsWithEveryField() throws {
        var state = ReminderState()
        state.reminderDay = LocalDay("2026-03-10")
        state.remindersSentToday = 3
        state.lastNotifiedUrgency = .attention
        state.remindedSinceOnTrack = true
        state.lastUrgency = .overdue
        state.goalReachedDay = LocalDay("2026-03-09")
        state.lastLowBattery = true
        state.reminderSequence = 41
        state.backOnTrackSequence = 7
        _ = state.centre.schedule(PendingNotification(id: "notification-test", fireTime: WallInstant(secondsSince1970: 12.5), kind: .test, title: "a", body: "b"))
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(ReminderState.self, from: data) == state)
        let text = String(decoding: data, as: UTF8.self)
        for key in ["\"reminders_sent_today\":3", "\"last_notified_urgency\":\"attention\"", "\"reminder_day\":\"2026-03-10\"",
                    "\"goal_reached_day\":\"2026-03-09\"", "\"last_low_battery\":true", "\"last_urgency\":\"overdue\""] {
            #expect(text.contains(key), "\(key) in \(text)")
        }
    }

    @Test func anEmptyRecordIsAFreshDatabase() throws {
        #expect(try JSONDecoder().decode(ReminderState.self, from: Data("{}".utf8)) == ReminderState())
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ReminderState.self, from: Data(#"{"last_urgency":"panic"}"#.utf8))
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(HydrationSettings.self, from: Data(#"{"timezone":"Mars/Olympus"}"#.utf8))
        }
    }

    @Test func settingsRoundTrip() throws {
        let settings = HydrationSettings.test(madrid) {
            $0.goalML = 1800; $0.enabled = false; $0.dailyLimit = false; $0.backOnTrack = false
            $0.activeStartMinute = 480; $0.activeEndMinute = 1260; $0.minDeficitML = 200; $0.resetHour = 5
            $0.notificationsEnabled = false
        }
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(HydrationSettings.self, from: data) == settings)
        #expect(String(decoding: data, as: UTF8.self).contains("\"timezone\":\"Europe\\/Madrid\""))
    }
}
