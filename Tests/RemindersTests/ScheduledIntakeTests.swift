// docs/reminders.md 3 (seed 001): scheduled intake reminders, minute by minute — the seed's own
// examples (weekly vitamin D suppressed by an 8:30 log, twice-weekly Monday/Thursday, monthly
// medication, the short-month and leap-day edge cases, DST, two schedules on one weekday), the
// identifiers and log lines, and suppression for manual types and for water.

import Timekeeping
import Foundation
import Testing
@testable import Reminders

struct ScheduledIntakeTests {
    /// Hydration reminders off so that only section 3 delivers.
    func rules(_ schedules: IntakeSchedule..., zone: TimeZone = utc) -> ReminderSettings {
        .rules(zone) {
            $0.hydration.enabled = false
            $0.schedules = schedules
        }
    }

    let vitaminD = IntakeSchedule.make("VITD", name: "Vitamin D", intake: "Vitamin-D", .weekly, first: "2026-11-22T09:00")

    // MARK: Example 1: weekly vitamin D

    @Test func weeklyVitaminDEverySundayAtNine() {
        var sim = Simulation(rules: rules(vitaminD), date: "2026-11-21", time: "12:00")
        #expect(sim.journal == ["Scheduled weekly reminder: reminder-VITD-w1-9-0"])
        #expect(sim.pendingLines(.scheduled) == ["2026-11-22 09:00 reminder-VITD-w1-9-0"])
        sim.run(until: "2026-11-22", "08:59")
        #expect(sim.deliveries.isEmpty)
        let atNine = sim.run(until: "2026-11-22", "09:00")
        #expect(atNine == [Delivery(id: "reminder-VITD-w1-9-0", kind: .scheduled, time: instant("2026-11-22", "09:00", in: utc),
                                    title: "Vitamin D", body: "Time for your Vitamin D.", actions: [.done],
                                    thread: "schedule:VITD")])
        // Armed again under the same id for the next Sunday: one pending, as a repeating trigger.
        #expect(sim.pendingLines(.scheduled) == ["2026-11-29 09:00 reminder-VITD-w1-9-0"])
        sim.run(until: "2026-12-06", "23:59")
        #expect(sim.deliveredLines() == ["2026-11-22 09:00 reminder-VITD-w1-9-0", "2026-11-29 09:00 reminder-VITD-w1-9-0",
                                         "2026-12-06 09:00 reminder-VITD-w1-9-0"])
        #expect(sim.engine.pendingCount == 1)
    }

    @Test func aLogAtEightThirtySuppressesTheNineOClockReminder() throws {
        var sim = Simulation(rules: rules(vitaminD), date: "2026-11-22", time: "08:00")
        try sim.log("vitamin-d", on: "2026-11-22", at: "08:30")
        sim.run(until: "2026-11-22", "09:00")
        #expect(sim.deliveries.isEmpty)
        #expect(sim.journal.last == "Should suppress: true (weekly reminder, intake logged this week) for reminder-VITD-w1-9-0")
        // Suppressed, not lost: the next Sunday fires.
        #expect(sim.pendingLines(.scheduled) == ["2026-11-29 09:00 reminder-VITD-w1-9-0"])
        sim.run(until: "2026-11-29", "09:00")
        #expect(sim.deliveredLines() == ["2026-11-29 09:00 reminder-VITD-w1-9-0"])
    }

    @Test func logsOnAnotherDayOrAfterTheTimeDoNotSuppress() throws {
        var sim = Simulation(rules: rules(vitaminD), date: "2026-11-20", time: "08:00")
        // Saturday 09:00, the day before: a different day.
        try sim.log("VITAMIN-D", on: "2026-11-21", at: "09:00")
        sim.run(until: "2026-11-22", "09:00")
        // Sunday 09:15: after the reminder; and the next Sunday is a different week.
        try sim.log("vitamin-d", on: "2026-11-22", at: "09:15")
        sim.run(until: "2026-11-29", "09:00")
        // Another type suppresses nothing.
        try sim.log("magnesium", on: "2026-12-06", at: "08:00")
        sim.run(until: "2026-12-06", "09:00")
        #expect(sim.deliveredLines() == ["2026-11-22 09:00 reminder-VITD-w1-9-0", "2026-11-29 09:00 reminder-VITD-w1-9-0",
                                         "2026-12-06 09:00 reminder-VITD-w1-9-0"])
    }

    @Test func aLogAtTheSameMinuteSuppresses() throws {
        // The window is closed at T: "at or before the scheduled time".
        var sim = Simulation(rules: rules(vitaminD), date: "2026-11-22", time: "08:00")
        try sim.log("vitamin-d", on: "2026-11-22", at: "08:59:59")
        sim.run(until: "2026-11-22", "09:00")
        #expect(sim.deliveries.isEmpty)
    }

    @Test func nothingFiresBeforeFirst() {
        // 2026-11-15 is the Sunday before `first`.
        var sim = Simulation(rules: rules(vitaminD), date: "2026-11-14", time: "12:00")
        sim.run(until: "2026-11-22", "08:59")
        #expect(sim.deliveries.isEmpty)
        sim.run(until: "2026-11-22", "09:00")
        #expect(sim.deliveredLines() == ["2026-11-22 09:00 reminder-VITD-w1-9-0"])
    }

    // MARK: Example 2: twice weekly, Monday and Thursday

    @Test func twiceWeeklyMondayAndThursdayIndependently() throws {
        let therapy = IntakeSchedule.make("PT", name: "PT Exercises", intake: "pt-exercises", .twiceWeekly, first: "2026-11-23T18:00")
        var sim = Simulation(rules: rules(therapy), date: "2026-11-23", time: "12:00")
        #expect(sim.journal == ["Scheduled weekly reminder: reminder-PT-w2-18-0", "Scheduled weekly reminder: reminder-PT-w5-18-0"])
        try sim.log("pt-exercises", on: "2026-11-23", at: "17:10")
        sim.run(until: "2026-12-03", "23:59")
        // Monday the 23rd suppressed; Thursday the 26th still fires; the next week both.
        #expect(sim.deliveredLines() == ["2026-11-26 18:00 reminder-PT-w5-18-0", "2026-11-30 18:00 reminder-PT-w2-18-0",
                                         "2026-12-03 18:00 reminder-PT-w5-18-0"])
        #expect(sim.deliveries.allSatisfy { $0.title == "PT Exercises" && $0.body == "Time for your PT Exercises." })
    }

    @Test func threeAndFourTimesWeeklyWeekdays() {
        let three = IntakeSchedule.make("MWF", intake: "stretch", .threeTimesWeekly, first: "2026-11-23T07:30")
        let four = IntakeSchedule.make("ALT", intake: "walk", .fourTimesWeekly, first: "2026-11-23T19:05")
        #expect(three.slots.map(\.notificationID) == ["reminder-MWF-w2-7-30", "reminder-MWF-w4-7-30", "reminder-MWF-w6-7-30"])
        // Monday + 6 days is Sunday, weekday 1.
        #expect(four.slots.map(\.notificationID) == ["reminder-ALT-w2-19-5", "reminder-ALT-w4-19-5",
                                                     "reminder-ALT-w6-19-5", "reminder-ALT-w1-19-5"])
        var sim = Simulation(rules: rules(three), date: "2026-11-23", time: "00:00")
        sim.run(until: "2026-11-29", "23:59")
        #expect(sim.deliveredLines() == ["2026-11-23 07:30 reminder-MWF-w2-7-30", "2026-11-25 07:30 reminder-MWF-w4-7-30",
                                         "2026-11-27 07:30 reminder-MWF-w6-7-30"])
    }

    // MARK: Example 3: monthly medication

    @Test func twiceMonthlyIsTheFirstDayAndFifteenDaysLater() throws {
        // docs/reminders.md decides against the seed's example 3 ("1st and 15th"): F's day + 15.
        let medication = IntakeSchedule.make("MED", name: "Monthly Med", intake: "monthly-med", .twiceMonthly, first: "2026-06-01T08:00")
        var sim = Simulation(rules: rules(medication), date: "2026-05-31", time: "12:00")
        #expect(sim.journal == ["Scheduled monthly reminder: reminder-MED-d1-8-0", "Scheduled monthly reminder: reminder-MED-d16-8-0"])
        try sim.log("monthly-med", on: "2026-06-01", at: "07:30")
        sim.run(until: "2026-07-31", "23:59")
        #expect(sim.deliveredLines() == ["2026-06-16 08:00 reminder-MED-d16-8-0", "2026-07-01 08:00 reminder-MED-d1-8-0",
                                         "2026-07-16 08:00 reminder-MED-d16-8-0"])
        #expect(sim.journal.contains("Should suppress: true (monthly reminder, intake logged this month) for reminder-MED-d1-8-0"))
    }

    @Test func firstAndFifteenthAsTwoMonthlySchedules() throws {
        let first = IntakeSchedule.make("MED1", intake: "med", .monthly, first: "2026-06-01T08:00")
        let fifteenth = IntakeSchedule.make("MED15", intake: "med", .monthly, first: "2026-06-15T08:00")
        var sim = Simulation(rules: rules(first, fifteenth), date: "2026-05-31", time: "12:00")
        try sim.log("med", on: "2026-06-01", at: "07:30")
        // A log on the 14th at 10:00 is another day: the 15th still fires.
        try sim.log("med", on: "2026-06-14", at: "10:00")
        sim.run(until: "2026-07-15", "23:59")
        #expect(sim.deliveredLines() == ["2026-06-15 08:00 reminder-MED15-d15-8-0", "2026-07-01 08:00 reminder-MED1-d1-8-0",
                                         "2026-07-15 08:00 reminder-MED15-d15-8-0"])
    }

    @Test func threeTimesMonthlyDays() {
        let schedule = IntakeSchedule.make("IRON", intake: "iron", .threeTimesMonthly, first: "2026-06-05T21:45")
        #expect(schedule.slots.map(\.notificationID) == ["reminder-IRON-d5-21-45", "reminder-IRON-d15-21-45", "reminder-IRON-d25-21-45"])
    }

    // MARK: Edge cases

    @Test func theThirtyFirstFiresOnTheLastDayOfShorterMonths() {
        let schedule = IntakeSchedule.make("B12", intake: "b12", .monthly, first: "2026-01-31T08:00")
        var sim = Simulation(rules: rules(schedule), date: "2026-01-30", time: "12:00")
        sim.run(until: "2026-05-01", "00:00")
        // Never skipped; the id keeps the configured day (d31) on 28 February and 30 April.
        #expect(sim.deliveredLines() == ["2026-01-31 08:00 reminder-B12-d31-8-0", "2026-02-28 08:00 reminder-B12-d31-8-0",
                                         "2026-03-31 08:00 reminder-B12-d31-8-0", "2026-04-30 08:00 reminder-B12-d31-8-0"])
    }

    @Test func twentyNinthOfFebruaryInACommonYear() {
        // First on 29 February 2024 (a leap year); in 2025 February has 28 days.
        let schedule = IntakeSchedule.make("LEAP", intake: "leap", .monthly, first: "2024-02-29T08:00")
        var sim = Simulation(rules: rules(schedule), date: "2025-02-20", time: "12:00")
        #expect(sim.pendingLines(.scheduled) == ["2025-02-28 08:00 reminder-LEAP-d29-8-0"])
        sim.run(until: "2025-03-31", "23:59")
        #expect(sim.deliveredLines() == ["2025-02-28 08:00 reminder-LEAP-d29-8-0", "2025-03-29 08:00 reminder-LEAP-d29-8-0"])
    }

    @Test func aShortMonthStillSuppressesOnItsLastDay() throws {
        let schedule = IntakeSchedule.make("B12", intake: "b12", .monthly, first: "2026-01-31T08:00")
        var sim = Simulation(rules: rules(schedule), date: "2026-02-27", time: "12:00")
        try sim.log("b12", on: "2026-02-28", at: "07:00")
        sim.run(until: "2026-02-28", "23:59")
        #expect(sim.deliveries.isEmpty)
        #expect(sim.journal.last == "Should suppress: true (monthly reminder, intake logged this month) for reminder-B12-d31-8-0")
    }

    @Test func daylightSavingTimeInMadrid() {
        // 02:30 does not exist on 29 March 2026 (02:00 → 03:00) and happens twice on 25 October.
        let night = IntakeSchedule.make("NIGHT", intake: "melatonin", .daily, first: "2026-03-27T02:30")
        let morning = IntakeSchedule.make("AM", intake: "vitamin-c", .daily, first: "2026-03-27T09:00")
        var sim = Simulation(rules: rules(night, morning, zone: madrid), date: "2026-03-27", time: "00:00")
        sim.run(until: instant("2026-03-30", "23:59", in: madrid))
        #expect(sim.deliveredLines() == [
            "2026-03-27 02:30 reminder-NIGHT-2-30", "2026-03-27 09:00 reminder-AM-9-0",
            "2026-03-28 02:30 reminder-NIGHT-2-30", "2026-03-28 09:00 reminder-AM-9-0",
            // The first instant after the gap.
            "2026-03-29 03:00 reminder-NIGHT-2-30", "2026-03-29 09:00 reminder-AM-9-0",
            "2026-03-30 02:30 reminder-NIGHT-2-30", "2026-03-30 09:00 reminder-AM-9-0",
        ])
        // 09:00 local is 08:00 UTC before the change and 07:00 after it: the wall clock holds.
        let am = sim.deliveries.filter { $0.id == "reminder-AM-9-0" }.map(\.time)
        #expect(am[1] - am[0] == .seconds(86_400))
        #expect(am[2] - am[1] == .seconds(82_800))

        var autumn = Simulation(rules: rules(night, zone: madrid), date: "2026-10-24", time: "12:00")
        autumn.run(until: instant("2026-10-25", "23:59", in: madrid))
        // Once, the first time: 02:30 CEST, which is 00:30 UTC.
        #expect(autumn.deliveries.map(\.time) == [instant("2026-10-25", "00:30", in: utc)])
    }

    @Test func twoSchedulesOnTheSameWeekday() throws {
        let first = IntakeSchedule.make("VITD", name: "Vitamin D", intake: "vitamin-d", .weekly, first: "2026-11-23T09:00")
        let second = IntakeSchedule.make("FISH", name: "Fish Oil", intake: "fish-oil", .weekly, first: "2026-11-23T09:00")
        var sim = Simulation(rules: rules(first, second), date: "2026-11-23", time: "08:00")
        let atNine = sim.run(until: "2026-11-23", "09:00")
        // Both fire independently, at one tick, by id.
        #expect(atNine.map(\.id) == ["reminder-FISH-w2-9-0", "reminder-VITD-w2-9-0"])
        #expect(sim.engine.pendingCount == 2)
        // The next Monday, fish oil already taken: only vitamin D.
        try sim.log("fish-oil", on: "2026-11-30", at: "08:45")
        let nextMonday = sim.run(until: "2026-11-30", "09:00")
        #expect(nextMonday.map(\.id) == ["reminder-VITD-w2-9-0"])
    }

    // MARK: Daily frequencies

    @Test func dailyOffsetsAreWallClockAndPassMidnightIntoTheNextDay() {
        let twice = IntakeSchedule.make("TWO", intake: "pill", .twiceDaily, first: "2026-03-10T20:00")
        let six = IntakeSchedule.make("SIX", intake: "drops", .sixTimesDaily, first: "2026-03-10T08:00")
        #expect(six.slots.map(\.notificationID) == ["reminder-SIX-8-0", "reminder-SIX-10-30", "reminder-SIX-13-0",
                                                    "reminder-SIX-15-30", "reminder-SIX-18-0", "reminder-SIX-20-30"])
        let four = IntakeSchedule.make("FOUR", intake: "x", .fourTimesDaily, first: "2026-03-10T07:15")
        #expect(four.slots.map(\.notificationID) == ["reminder-FOUR-7-15", "reminder-FOUR-11-15", "reminder-FOUR-15-15", "reminder-FOUR-19-15"])
        let three = IntakeSchedule.make("THREE", intake: "x", .threeTimesDaily, first: "2026-03-10T06:00")
        #expect(three.slots.map(\.notificationID) == ["reminder-THREE-6-0", "reminder-THREE-12-0", "reminder-THREE-18-0"])

        var sim = Simulation(rules: rules(twice), date: "2026-03-10", time: "00:00")
        sim.run(until: "2026-03-11", "23:59")
        // 20:00 + 12 h is 08:00 of the next day: nothing at 08:00 on the first day.
        #expect(sim.deliveredLines() == ["2026-03-10 20:00 reminder-TWO-20-0", "2026-03-11 08:00 reminder-TWO-8-0",
                                         "2026-03-11 20:00 reminder-TWO-20-0"])
    }

    @Test func dailySuppressionWindowStartsAtThePreviousOccurrence() throws {
        let twice = IntakeSchedule.make("TWO", intake: "pill", .twiceDaily, first: "2026-03-10T08:00")
        var sim = Simulation(rules: rules(twice), date: "2026-03-10", time: "00:00")
        // 07:00 covers the 08:00 reminder (window 00:00–08:00) but not the 20:00 one (08:00–20:00).
        try sim.log("pill", on: "2026-03-10", at: "07:00")
        sim.run(until: "2026-03-10", "23:59")
        #expect(sim.deliveredLines() == ["2026-03-10 20:00 reminder-TWO-20-0"])
        #expect(sim.journal.contains("Should suppress: true (daily reminder, intake logged today) for reminder-TWO-8-0"))
        // 09:00 the next day covers 20:00, not 08:00.
        try sim.log("pill", on: "2026-03-11", at: "09:00")
        sim.run(until: "2026-03-11", "23:59")
        #expect(sim.deliveredLines() == ["2026-03-10 20:00 reminder-TWO-20-0", "2026-03-11 08:00 reminder-TWO-8-0"])
        #expect(sim.journal.last == "Should suppress: true (daily reminder, intake logged since the previous reminder) for reminder-TWO-20-0")
    }

    // MARK: Water

    @Test func waterIsSuppressedByKnownDrinksOfAtLeastMinML() {
        let water = IntakeSchedule.make("NOON", name: "Lunch water", intake: "water", .daily, first: "2026-03-10T12:00", minML: 200)
        var sim = Simulation(rules: rules(water), date: "2026-03-10", time: "06:00")
        // Day 1: 150 ml is below min_ml.
        sim.storeDrink(150, drunkAt: "11:00", on: "2026-03-10", storedAt: "11:05")
        // Day 2: 100 + 150 ml in the window.
        sim.storeDrink(100, drunkAt: "09:00", on: "2026-03-11", storedAt: "09:05")
        sim.storeDrink(150, drunkAt: "11:30", on: "2026-03-11", storedAt: "11:40")
        // Day 3: enough drunk, but stored only after 12:00: not known at the reminder.
        sim.storeDrink(300, drunkAt: "11:50", on: "2026-03-12", storedAt: "12:05")
        sim.run(until: "2026-03-12", "23:59")
        #expect(sim.deliveredLines() == ["2026-03-10 12:00 reminder-NOON-12-0", "2026-03-12 12:00 reminder-NOON-12-0"])
        // Water carries no Done action.
        #expect(sim.deliveries.allSatisfy { $0.actions.isEmpty && $0.title == "Lunch water" })
    }

    @Test func logWaterIsRefused() {
        var sim = Simulation(rules: rules(), date: "2026-03-10", time: "06:00")
        #expect(throws: IntakeLogError.waterIsMeasured) { try sim.log(" Water ", on: "2026-03-10", at: "07:00") }
        #expect(throws: IntakeLogError.self) { try sim.log("  ", on: "2026-03-10", at: "07:00") }
        #expect(IntakeLogError.waterIsMeasured.description
                == "water is measured by the bottle and cannot be logged by hand; expected a manual type such as vitamin-d")
        #expect(sim.state.intakeLog.isEmpty)
    }

    // MARK: Done, custom body, changes

    @Test func doneLogsTheIntakeOfAManualSchedule() throws {
        let twice = IntakeSchedule.make("TWO", intake: "Pill", .twiceDaily, first: "2026-03-10T08:00")
        var sim = Simulation(rules: rules(twice), date: "2026-03-10", time: "07:00")
        sim.run(until: "2026-03-10", "08:00")
        let outcome = try sim.invoke("done", on: "reminder-TWO-8-0", date: "2026-03-10", at: "08:02")
        #expect(outcome == .intakeLogged(type: "pill", at: instant("2026-03-10", "08:02", in: utc)))
        #expect(sim.journal.last == "Done on reminder-TWO-8-0: pill logged")
        // Logged at 08:02, it covers the 20:00 reminder.
        sim.run(until: "2026-03-10", "20:00")
        #expect(sim.deliveredLines() == ["2026-03-10 08:00 reminder-TWO-8-0"])
    }

    @Test func doneIsRefusedWhereItIsNotOffered() {
        let water = IntakeSchedule.make("W", intake: "water", .daily, first: "2026-03-10T08:00")
        var sim = Simulation(rules: rules(water), date: "2026-03-10", time: "07:00")
        #expect(throws: NotificationActionError.actionNotOffered(notificationID: "reminder-W-8-0", actionID: "done", offered: [])) {
            try sim.invoke("done", on: "reminder-W-8-0", date: "2026-03-10", at: "08:01")
        }
        #expect(throws: NotificationActionError.unknownNotification("reminder-X-8-0")) {
            try sim.invoke("done", on: "reminder-X-8-0", date: "2026-03-10", at: "08:01")
        }
        #expect(NotificationActionError.actionNotOffered(notificationID: "reminder-W-8-0", actionID: "done", offered: []).description
                == "notification \"reminder-W-8-0\" has no action \"done\"; expected one of: none")
    }

    @Test func customBodyAndDisabling() {
        let schedule = IntakeSchedule.make("VITD", name: "Vitamin D", intake: "vitamin-d", .daily, first: "2026-03-10T09:00",
                                           body: "One capsule with breakfast.")
        var sim = Simulation(rules: rules(schedule), date: "2026-03-10", time: "08:00")
        sim.run(until: "2026-03-10", "09:00")
        #expect(sim.deliveries.map(\.body) == ["One capsule with breakfast."])
        sim.updateRules({ $0.schedules[0].enabled = false }, on: "2026-03-10", at: "12:00")
        #expect(sim.engine.pendingCount == 0)
        sim.run(until: "2026-03-12", "12:00")
        #expect(sim.deliveries.count == 1)
        sim.updateRules({ $0.schedules[0].enabled = true }, on: "2026-03-12", at: "12:00")
        #expect(sim.pendingLines(.scheduled) == ["2026-03-13 09:00 reminder-VITD-9-0"])
        #expect(sim.journal.last == "Scheduled daily reminder: reminder-VITD-9-0")
    }

    @Test func aChangedTimeReplacesTheSlot() {
        var sim = Simulation(rules: rules(vitaminD), date: "2026-11-21", time: "12:00")
        sim.updateRules({ $0.schedules = [IntakeSchedule.make("VITD", name: "Vitamin D", intake: "vitamin-d", .weekly,
                                                               first: "2026-11-22T10:30")] },
                        on: "2026-11-21", at: "13:00")
        #expect(sim.pendingLines(.scheduled) == ["2026-11-22 10:30 reminder-VITD-w1-10-30"])
        sim.run(until: "2026-11-22", "12:00")
        #expect(sim.deliveredLines() == ["2026-11-22 10:30 reminder-VITD-w1-10-30"])
    }

    @Test func theIntakeLogKeepsTwoDays() throws {
        var sim = Simulation(rules: rules(), date: "2026-03-10", time: "06:00")
        try sim.log("a", on: "2026-03-10", at: "07:00")
        try sim.log("b", on: "2026-03-12", at: "07:00")
        #expect(sim.state.intakeLog.map(\.type) == ["a", "b"])
        try sim.log("c", on: "2026-03-12", at: "07:01")
        #expect(sim.state.intakeLog.map(\.type) == ["b", "c"])
    }
}
