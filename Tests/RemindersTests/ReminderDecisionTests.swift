// docs/reminders.md 2.3, minute by minute: escalation only, re-notification after catching up, quiet
// hours, the minimum deficit and the switches. Default settings (goal 2500, 07:00–22:00, 150 ml)
// in UTC, on Tuesday 2026-03-10: expected = floor((minutes since 07:00) × 2500 / 900).

import Testing
@testable import Reminders

struct ReminderDecisionTests {
    let day = "2026-03-10"
    let nextDay = "2026-03-11"

    @Test func escalationOnlyAttentionThenOverdueThenNothing() {
        var sim = Simulation(settings: .test(), date: day, time: "00:00")
        sim.run(until: nextDay, "03:59")
        // 07:54 is the first minute with 150 ml expected; 10:00 the first with 500 (20 % of 2500).
        #expect(sim.lines() == [
            "07:54:00 Time to hydrate! You're 150ml behind pace.",
            "10:00:00 You're falling behind! Drink 500ml to catch up.",
        ])
        #expect(sim.deliveries.map(\.id) == ["hydration-1", "hydration-2"])
        #expect(sim.deliveries.allSatisfy { $0.title == "Hydration Reminder" && $0.kind == .reminder })
        #expect(sim.state.remindersSentToday == 2)
        #expect(sim.state.lastNotifiedUrgency == .overdue)
    }

    @Test func notifiesAgainAfterCatchingUpAndFallingBehind() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.sync([200], on: day, at: "08:00:30")      // 166 expected: on track again
        sim.run(until: day, "12:00")
        #expect(sim.lines() == [
            "07:54:00 Time to hydrate! You're 150ml behind pace.",
            "08:00:30 Nice work catching up on your hydration.",
            "09:06:00 Time to hydrate! You're 150ml behind pace.",     // 350 expected, 200 drunk
            "11:12:00 You're falling behind! Drink 500ml to catch up.", // 700 expected
        ])
    }

    @Test func overdueImprovedToAttentionNotifiesAgain() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.run(until: day, "10:30")
        // 583 expected at 10:30; 300 drunk leaves 283: overdue → attention clears the last urgency.
        let atSync = sim.sync([300], on: day, at: "10:30:30")
        #expect(atSync.isEmpty)
        #expect(sim.state.lastNotifiedUrgency == nil)
        sim.run(until: day, "12:00")
        #expect(sim.lines() == [
            "07:54:00 Time to hydrate! You're 150ml behind pace.",
            "10:00:00 You're falling behind! Drink 500ml to catch up.",
            "10:31:00 Time to hydrate! You're 300ml behind pace.",      // 286 rounds to 300
            "11:48:00 You're falling behind! Drink 500ml to catch up.", // 800 expected
        ])
    }

    @Test func quietHoursHoldRemindersButNotTheDrinkAlerts() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.run(until: day, "22:00")
        // 2100 of 2500 at 22:10: overdue → attention clears the last urgency, but it is quiet.
        sim.sync([2100], on: day, at: "22:10")
        sim.run(until: day, "22:59")
        #expect(sim.lines(.reminder).count == 2)
        // The goal at 23:00 answers the drink: back on track, then goal reached, quiet or not.
        let atGoal = sim.sync([400], on: day, at: "23:00")
        #expect(atGoal.map(\.kind) == [.backOnTrack, .goalReached])
        sim.run(until: nextDay, "07:53")
        #expect(sim.deliveries.count == 4)
        sim.run(until: nextDay, "07:54")
        #expect(sim.lines().last == "07:54:00 Time to hydrate! You're 150ml behind pace.")
    }

    @Test func quietHoursFollowTheConfiguredWindow() {
        let settings = HydrationSettings.test { $0.activeStartMinute = 9 * 60; $0.activeEndMinute = 17 * 60 }
        var sim = Simulation(settings: settings, date: day, time: "00:00")
        sim.run(until: day, "23:59")
        // 2500 over 480 minutes: 150 expected after 29 minutes (09:29: 151), 500 after 96.
        #expect(sim.lines() == [
            "09:29:00 Time to hydrate! You're 150ml behind pace.",
            "10:36:00 You're falling behind! Drink 500ml to catch up.",
        ])
        // From 16:00: overdue at once (2187 expected). A drink at 16:59:30 brings it to attention
        // (2494 − 2000 = 494), which clears the last urgency; from 17:00 the deficit is 500 again
        // (overdue, never notified since the clear), but it is quiet.
        var late = Simulation(settings: settings, date: day, time: "16:00")
        late.sync([2000], on: day, at: "16:59:30")
        #expect(late.state.lastNotifiedUrgency == nil)
        late.run(until: day, "23:59")
        #expect(late.lines(.reminder) == ["16:00:00 You're falling behind! Drink 2.2L to catch up."])
    }

    @Test func minimumDeficitDelaysTheFirstReminder() {
        var sim = Simulation(settings: .test { $0.minDeficitML = 300 }, date: day, time: "06:00")
        sim.run(until: day, "10:00")
        // 300 expected at 08:48 (108 × 2500 / 900 = 300).
        #expect(sim.lines() == [
            "08:48:00 Time to hydrate! You're 300ml behind pace.",
            "10:00:00 You're falling behind! Drink 500ml to catch up.",
        ])
    }

    @Test func zeroMinimumDeficitStillNeedsToBeBehind() {
        // Decision: check 5 alone would let a deficit of exactly 0 (on track) through.
        var sim = Simulation(settings: .test { $0.minDeficitML = 0 }, date: day, time: "06:00")
        sim.run(until: day, "07:00")
        #expect(sim.deliveries.isEmpty)
        sim.run(until: day, "07:01")
        #expect(sim.lines() == ["07:01:00 Time to hydrate! You're 0ml behind pace."])
    }

    @Test func hydrationSwitchOffMeansNoPaceNotifications() {
        var sim = Simulation(settings: .test { $0.enabled = false }, date: day, time: "06:00")
        sim.run(until: day, "12:00")
        sim.sync([2500], on: day, at: "12:00:30")
        sim.run(until: day, "23:00")
        #expect(sim.deliveries.isEmpty)
        // The urgency is still computed at every tick (status stays right).
        #expect(sim.state.lastUrgency == .onTrack)
        #expect(sim.status().urgencyText == "On Track")
        // And the device alert does not depend on it.
        let alert = sim.currentState(lowBattery: true, percent: 9, on: day, at: "23:10")
        #expect(alert.map(\.kind) == [.lowBattery])
    }

    @Test func theGoalMetStopsReminders() {
        var sim = Simulation(settings: .test { $0.goalML = 1000; $0.minDeficitML = 50 }, date: day, time: "06:00")
        sim.sync([1000], on: day, at: "06:30")
        sim.run(until: day, "23:59")
        #expect(sim.lines(.reminder).isEmpty)
        #expect(sim.lines(.goalReached) == ["06:30:00 Good job! You've hit your daily hydration goal."])
    }

    @Test func statusShowsUrgencyDeficitAndCount() {
        var sim = Simulation(settings: .test(), date: day, time: "06:00")
        sim.run(until: day, "09:00")
        let status = sim.status()
        #expect(status.urgencyText == "Time to Hydrate")
        #expect(status.displayedDeficitML == 333)
        #expect(status.remindersTodayText == "Reminders Today: 1/12")
        #expect(status.pendingCount == 0)
        sim.run(until: day, "10:00")
        #expect(sim.status().urgencyText == "Overdue")
        #expect(sim.status().remindersTodayText == "Reminders Today: 2/12")
    }
}
