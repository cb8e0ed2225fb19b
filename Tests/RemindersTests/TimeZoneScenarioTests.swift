// docs/reminders.md 0 in a zone with DST: local-day totals in Europe/Madrid, and the pace on the wall
// clock across both changes of 2026.

import Testing
@testable import Reminders
import Timekeeping

struct TimeZoneScenarioTests {
    @Test(arguments: ["2026-03-29", "2026-10-25", "2026-07-10"])
    func paceFollowsTheWallClockOnDSTDays(date: String) {
        var sim = Simulation(settings: .test(madrid), date: date, time: "00:00")
        sim.run(until: instant(date, "23:59", in: madrid))
        #expect(sim.lines() == [
            "07:54:00 Time to hydrate! You're 150ml behind pace.",
            "10:00:00 You're falling behind! Drink 500ml to catch up.",
        ])
        #expect(sim.deliveries.map { sim.local($0).prefix(10) } == [Substring(date), Substring(date)])
    }

    @Test func elapsedMinutesAreWallClockMinutes() {
        // With the window from 00:00, 03:00 on the spring day is 180 wall-clock minutes in,
        // although only 120 minutes have passed.
        var sim = Simulation(settings: .test(madrid) { $0.activeStartMinute = 0 }, date: "2026-03-29", time: "00:00")
        sim.run(until: "2026-03-29", "03:00")
        #expect(sim.status().pace.expectedML == 180 * 2500 / 1320)
        #expect(sim.status().pace.expectedML == 340)
    }

    @Test func goalFollowsTheLocalCalendarDay() {
        var sim = Simulation(settings: .test(madrid) { $0.goalML = 500 }, date: "2026-07-09", time: "20:00")
        let result1 = sim.sync([500], on: "2026-07-09", at: "23:50")
        // Reminded at 20:00 (overdue), so back on track first.
        #expect(result1.map(\.kind) == [.backOnTrack, .goalReached])
        // 00:40 in Madrid is 22:40 UTC, still 9 July in UTC, but a new local day here.
        let midnight = sim.sync([500], drunkAt: ["00:35"], on: "2026-07-10", at: "00:40")
        #expect(midnight.map(\.kind) == [.goalReached])
        #expect(sim.state.goalReachedDay == LocalDay("2026-07-10"))
        #expect(sim.status().pace.dayTotalML == 500)
    }

    @Test func resetHourIsLocal() {
        var sim = Simulation(settings: .test(madrid), date: "2026-10-24", time: "06:00")
        sim.run(until: instant("2026-10-25", "03:59", in: madrid))
        #expect(sim.state.remindersSentToday == 2)
        sim.run(until: instant("2026-10-25", "04:00", in: madrid))
        #expect(sim.state.remindersSentToday == 0)
        #expect(sim.state.reminderDay == LocalDay("2026-10-25"))
    }
}
