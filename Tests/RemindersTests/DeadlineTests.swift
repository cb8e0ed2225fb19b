// docs/reminders.md 5 (seed 003): the deadline reminder — 19:00 for a daily habit with 5 hours before,
// Sunday 19:00 for a weekly one, removed when met, checked again at fire time, re-created on start
// and every new day, and counted for `status` (the seed's badge).

import Foundation
import Testing
@testable import Reminders

struct DeadlineTests {
    let day = "2026-03-10"  // a Tuesday

    func rules(_ zone: TimeZone = utc, _ change: (inout ReminderSettings) -> Void = { _ in }) -> ReminderSettings {
        .rules(zone) {
            $0.hydration.enabled = false
            $0.deadline.enabled = true
            change(&$0)
        }
    }

    @Test func nineteenHundredsForADailyHabitWithFiveHoursBefore() {
        var sim = Simulation(rules: rules(), date: day, time: "06:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-10 19:00 deadline-day-2026-03-10"])
        #expect(sim.engine.rulesStatus().deadlinePending == 1)
        #expect(sim.engine.pendingCount(of: .deadline) == 1)
        sim.sync([600, 400], on: day, at: "12:00")
        sim.run(until: day, "18:59")
        #expect(sim.deliveries.isEmpty)
        let atSeven = sim.run(until: day, "19:00")
        #expect(atSeven == [Delivery(id: "deadline-day-2026-03-10", kind: .deadline, time: instant(day, "19:00", in: utc),
                                     title: "Still time today", body: "1.5L to go before midnight.", thread: "deadline")])
        #expect(sim.engine.rulesStatus().deadlinePending == 0)
        // The next day's is created at midnight.
        sim.run(until: "2026-03-11", "00:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-11 19:00 deadline-day-2026-03-11"])
        sim.run(until: "2026-03-11", "23:59")
        #expect(sim.deliveredLines() == ["2026-03-10 19:00 deadline-day-2026-03-10", "2026-03-11 19:00 deadline-day-2026-03-11"])
        #expect(sim.deliveries.last?.body == "2.5L to go before midnight.")
    }

    @Test func removedWhenTheGoalIsMet() {
        var sim = Simulation(rules: rules(), date: day, time: "06:00")
        sim.sync([1500], on: day, at: "12:00")
        #expect(sim.pending(.deadline).count == 1)
        sim.sync([1000], on: day, at: "15:00")
        #expect(sim.pending(.deadline).isEmpty)
        #expect(sim.engine.rulesStatus().deadlinePending == 0)
        #expect(sim.journal == ["Deadline reminder removed, the goal is met: deadline-day-2026-03-10"])
        sim.run(until: day, "23:59")
        #expect(sim.deliveries.isEmpty)
        // A restart the same evening does not bring it back.
        var restarted = sim
        try? restarted.restart(on: day, at: "16:00")
        #expect(restarted.pending(.deadline).isEmpty)
    }

    @Test func checkedAgainAtFireTime() {
        // Stored at 18:30 without the end of a sync reported: still known at 19:00.
        var sim = Simulation(rules: rules(), date: day, time: "06:00")
        sim.storeDrink(2500, drunkAt: "18:20", on: day, storedAt: "18:30")
        sim.run(until: day, "19:00")
        #expect(sim.deliveries.isEmpty)
        #expect(sim.journal == ["Deadline reminder not sent, the goal is met: deadline-day-2026-03-10"])
    }

    @Test func theRemainderIsTakenAtFireTimeAndNeverShownBelowFifty() {
        var sim = Simulation(rules: rules(), date: day, time: "06:00")
        sim.sync([2000], on: day, at: "12:00")
        // Stored after the pending one was made, before it fires.
        sim.storeDrink(490, drunkAt: "18:00", on: day, storedAt: "18:10")
        sim.run(until: day, "19:00")
        #expect(sim.deliveries.map(\.body) == ["50ml to go before midnight."])
        #expect(DeadlineText.body(remainingML: 1) == "50ml to go before midnight.")
        #expect(DeadlineText.body(remainingML: 74) == "50ml to go before midnight.")
        #expect(DeadlineText.body(remainingML: 75) == "100ml to go before midnight.")
        #expect(DeadlineText.body(remainingML: 1250) == "1.2L to go before midnight.")
    }

    @Test func weeklyHabitOnSunday() {
        var sim = Simulation(rules: rules { $0.deadline.period = .week }, date: "2026-03-09", time: "06:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-15 19:00 deadline-week-2026-03-15"])
        for date in 9...14 { sim.sync([2500], on: "2026-03-\(date < 10 ? "0" : "")\(date)", at: "12:00") }
        sim.run(until: "2026-03-15", "19:00")
        // Default weekly goal 7 × 2500 = 17,500; 15,000 drunk.
        #expect(sim.deliveries.filter { $0.kind == .deadline }.map { "\($0.title) | \($0.body)" }
                == ["Still time this week | 2.5L to go before midnight."])
        #expect(sim.deliveredLines(.deadline) == ["2026-03-15 19:00 deadline-week-2026-03-15"])
        sim.run(until: "2026-03-16", "00:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-22 19:00 deadline-week-2026-03-22"])
    }

    @Test func weeklyGoalSettingAndBothHabits() {
        var sim = Simulation(rules: rules { $0.deadline.period = .both; $0.deadline.weeklyGoalML = 5000 },
                             date: "2026-03-13", time: "06:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-13 19:00 deadline-day-2026-03-13", "2026-03-15 19:00 deadline-week-2026-03-15"])
        // Friday: the daily goal is met, the weekly one is not.
        sim.sync([3000], on: "2026-03-13", at: "09:30")
        #expect(sim.pendingLines(.deadline) == ["2026-03-15 19:00 deadline-week-2026-03-15"])
        sim.run(until: "2026-03-14", "00:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-14 19:00 deadline-day-2026-03-14", "2026-03-15 19:00 deadline-week-2026-03-15"])
        // Saturday: 5,000 this week meets the weekly goal; the daily one stays.
        sim.sync([2000], on: "2026-03-14", at: "09:30")
        #expect(sim.pendingLines(.deadline) == ["2026-03-14 19:00 deadline-day-2026-03-14"])
    }

    @Test func hoursBeforeMovesIt() {
        var sim = Simulation(rules: rules { $0.deadline.hoursBefore = 3 }, date: day, time: "06:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-10 21:00 deadline-day-2026-03-10"])
        sim.updateRules({ $0.deadline.hoursBefore = 8 }, on: day, at: "10:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-10 16:00 deadline-day-2026-03-10"])
        // Changed after its new time has passed: nothing today.
        sim.updateRules({ $0.deadline.hoursBefore = 12 }, on: day, at: "13:00")
        #expect(sim.pending(.deadline).isEmpty)
        sim.updateRules({ $0.deadline.enabled = false }, on: day, at: "13:01")
        sim.run(until: "2026-03-11", "23:59")
        #expect(sim.deliveries.isEmpty)
        #expect(sim.pending(.deadline).isEmpty)
    }

    @Test func recreatedOnStartWhileStillAhead() throws {
        var sim = Simulation(rules: rules(), date: day, time: "06:00")
        try sim.restart(on: day, at: "18:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-10 19:00 deadline-day-2026-03-10"])
        // Down from 18:30 to 19:30: missed, not delivered late, not re-created.
        sim.run(until: day, "18:30")
        try sim.restart(on: day, at: "19:30")
        #expect(sim.journal.last == "Missed while the bridge was not running: deadline-day-2026-03-10")
        #expect(sim.pending(.deadline).isEmpty)
        sim.run(until: day, "23:59")
        #expect(sim.deliveries.isEmpty)
        // A start the next morning creates that day's.
        try sim.restart(on: "2026-03-11", at: "07:00")
        #expect(sim.pendingLines(.deadline) == ["2026-03-11 19:00 deadline-day-2026-03-11"])
    }

    @Test func hoursBeforeIsElapsedTime() throws {
        // Santiago de Chile leaves DST at the end of Saturday 4 April 2026 (24:00 → 23:00): that
        // day lasts 25 hours, so 5 hours before its end is 20:00 on the wall clock.
        let santiago = try #require(TimeZone(identifier: "America/Santiago"))
        var sim = Simulation(rules: rules(santiago), date: "2026-04-04", time: "06:00")
        #expect(sim.pending(.deadline).map(\.fireTime) == [instant("2026-04-04", "20:00", in: santiago)])
        sim.run(until: instant("2026-04-05", "23:59", in: santiago))
        #expect(sim.deliveredLines() == ["2026-04-04 20:00 deadline-day-2026-04-04", "2026-04-05 19:00 deadline-day-2026-04-05"])
    }
}
