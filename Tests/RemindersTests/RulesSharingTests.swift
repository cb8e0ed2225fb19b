// docs/reminders.md 0 and 1 for sections 3–6 together: one engine, one centre with one limit of 64
// filled in section order, one tick delivering in section order at the same minute, a restart
// mid-day through the persisted state, notifications missed while down, and the master switch.

import Foundation
import Testing
@testable import Reminders
import Timekeeping

struct RulesSharingTests {
    let day = "2026-03-10"

    /// Every rule on: a weekly and a daily schedule, messages, the daily deadline, rituals.
    func everything(_ change: (inout ReminderSettings) -> Void = { _ in }) -> ReminderSettings {
        .rules(utc) {
            $0.schedules = [IntakeSchedule.make("VITD", name: "Vitamin D", intake: "vitamin-d", .weekly, first: "2026-03-10T09:00"),
                            IntakeSchedule.make("NOON", intake: "water", .daily, first: "2026-03-10T12:00", minML: 300)]
            $0.messages.enabled = true
            $0.deadline.enabled = true
            $0.rituals.enabled = true
            $0.rituals.terrain = .neutralBalanced
            $0.rituals.nickname = "Steady"
            change(&$0)
        }
    }

    // MARK: The limit

    @Test func sixtyFourAcrossSectionsFilledInSectionOrder() {
        // Ten six-times-daily schedules: 60 slots. Then 4 of 7 messages fit; no deadline, no ritual.
        let schedules = (0..<10).map { IntakeSchedule.make("S\($0)", intake: "x\($0)", .sixTimesDaily, first: "2026-03-10T0\($0 % 6):0\($0 / 6)") }
        var sim = Simulation(rules: everything { $0.schedules = schedules; $0.hydration.enabled = false }, date: day, time: "07:00")
        #expect(sim.engine.pendingCount == 64)
        #expect(sim.engine.rulesStatus().scheduledPending == 60)
        #expect(sim.pendingLines(.dailyMessage).last == "2026-03-13 10:00 daily-affirmation-2026-03-13")
        #expect(sim.pending(.dailyMessage).count == 4)
        #expect(sim.pending(.deadline).isEmpty && sim.pending(.ritual).isEmpty)
        #expect(sim.journal.filter { !$0.hasPrefix("Scheduled daily reminder") } == [
            "Daily messages: 3 not scheduled, from daily-affirmation-2026-03-14: 64 notifications are pending, the limit",
            "Deadline reminders: 1 not scheduled, from deadline-day-2026-03-10: 64 notifications are pending, the limit",
            "Rituals: 14 not scheduled, from ritual-morning-2026-03-10: 64 notifications are pending, the limit",
        ])
        // The engine's test notification is refused too.
        let testScheduled = sim.notifyTest(on: day, at: "07:01")
        #expect(!testScheduled)
        // Fired occurrences keep their slots all day: a schedule never loses its slot to a later section.
        sim.run(until: day, "23:59")
        #expect(sim.engine.rulesStatus().scheduledPending == 60)
        // The 10th's message was delivered; 3 remain, not below 2, so no refill yet.
        #expect(sim.engine.pendingCount == 63)
        // Fewer schedules: the lower sections get the room at once.
        sim.updateRules({ $0.schedules = Array(schedules.prefix(2)) }, on: "2026-03-11", at: "01:00")
        #expect(sim.engine.rulesStatus().scheduledPending == 12)
        #expect(sim.pending(.deadline).count == 1)
        #expect(sim.pending(.ritual).count == 14)
        // The messages were not cut below 2 (3 left after the 10th's), so they wait for their refill.
        #expect(sim.pending(.dailyMessage).count == 3)
    }

    // MARK: Same minute

    @Test func sameMinuteOrderAcrossSections() {
        let rules = everything {
            $0.schedules = [IntakeSchedule.make("ZINC", intake: "zinc", .daily, first: "2026-03-10T10:00"),
                            IntakeSchedule.make("A", intake: "a", .daily, first: "2026-03-10T10:00")]
            $0.deadline.hoursBefore = 14
            $0.rituals.morning = TimeOfDay(hour: 10, minute: 0)!
        }
        var sim = Simulation(rules: rules, date: day, time: "06:00")
        let testScheduled = sim.notifyTest(on: day, at: "09:59:55")
        #expect(testScheduled)
        let atTen = sim.run(until: day, "10:00")
        #expect(atTen.map(\.id) == ["notification-test", "hydration-2", "reminder-A-10-0", "reminder-ZINC-10-0",
                                    "daily-affirmation-2026-03-10", "deadline-day-2026-03-10", "ritual-morning-2026-03-10"])
        #expect(atTen.map(\.kind.section) == [1, 2, 3, 3, 4, 5, 6])
        #expect(atTen.allSatisfy { $0.time == instant(day, "10:00", in: utc) })
    }

    @Test func fireDueBetweenTicksLeavesTheRulesToTheTick() {
        var sim = Simulation(rules: everything { $0.hydration.enabled = false }, date: day, time: "07:59:30")
        // The ritual at 08:00 is not what the caller should wake for between ticks.
        #expect(sim.engine.nextFireTime == nil)
        let testScheduled = sim.notifyTest(on: day, at: "07:59:56")
        #expect(testScheduled)
        #expect(sim.engine.nextFireTime == instant(day, "08:00:01", in: utc))
        var engine = sim.engine
        #expect(engine.fireDue(at: instant(day, "08:00:01", in: utc)).map(\.id) == ["notification-test"])
        #expect(engine.pendingCount(of: .ritual) == 14)
        let atEight = sim.run(until: day, "08:00")
        #expect(atEight.map(\.id) == ["ritual-morning-2026-03-10"])
    }

    // MARK: Restart

    /// `state` with its pending notifications in id order.
    func byID(_ state: ReminderState) -> ReminderState {
        var sorted = state
        sorted.centre = NotificationCentre()
        for notification in state.centre.pending.sorted(by: { $0.id < $1.id }) { _ = sorted.centre.schedule(notification) }
        return sorted
    }

    /// Three days with everything on, and the same three days with restarts (no time lost) in the
    /// middle of days: the deliveries must be the same, minute for minute.
    @Test func restartMidDayThroughThePersistedStateChangesNothing() throws {
        func drive(restartAt restarts: [(String, String)]) throws -> (deliveries: [Delivery], state: ReminderState) {
            var sim = Simulation(rules: everything(), date: day, time: "06:00",
                                 ledger: { var l = InMemoryDrinkLedger()
                                     l.record(timestamp: instant("2026-03-11", "11:00", in: utc), amountML: 400, storedAt: instant("2026-03-11", "11:10", in: utc))
                                     return l }())
            var events: [(String, String, (inout Simulation) throws -> Void)] = [
                ("2026-03-10", "08:45", { _ = try $0.log("Vitamin-D", on: "2026-03-10", at: "08:45") }),
                ("2026-03-10", "13:00", { $0.sync([2500], on: "2026-03-10", at: "13:00") }),
                ("2026-03-11", "08:05", { _ = try $0.invoke("did-this", on: "ritual-morning-2026-03-11", date: "2026-03-11", at: "08:05") }),
                ("2026-03-12", "18:00", { $0.sync([1800], on: "2026-03-12", at: "18:00") }),
            ]
            for (date, time) in restarts { events.append((date, time, { try $0.restart(on: date, at: time) })) }
            events.sort { ($0.0, $0.1) < ($1.0, $1.1) }
            for (date, time, event) in events {
                sim.run(until: date, time)
                try event(&sim)
            }
            sim.run(until: "2026-03-12", "23:59")
            return (sim.deliveries, sim.state)
        }
        let straight = try drive(restartAt: [])
        let restarted = try drive(restartAt: [("2026-03-10", "09:30:30"), ("2026-03-11", "12:00"), ("2026-03-12", "19:00")])
        #expect(restarted.deliveries == straight.deliveries)
        // The same state, up to the order in which the centre holds its pending notifications.
        #expect(byID(restarted.state) == byID(straight.state))
        #expect(Set(restarted.state.centre.pending.map(\.id)) == Set(straight.state.centre.pending.map(\.id)))
        // What the three days hold: the vitamin D suppressed at 09:00 on the 10th, water at noon on the
        // 10th (nothing known yet) but not the 11th (400 ml), goal met on the 10th, not on the 11th/12th.
        let lines = straight.deliveries.map { "\(localText($0.time, in: utc).prefix(16)) \($0.id)" }
        #expect(lines.filter { $0.contains("reminder-") } == ["2026-03-10 12:00 reminder-NOON-12-0", "2026-03-12 12:00 reminder-NOON-12-0"])
        #expect(lines.filter { $0.contains("deadline") } == ["2026-03-11 19:00 deadline-day-2026-03-11", "2026-03-12 19:00 deadline-day-2026-03-12"])
        #expect(straight.deliveries.filter { $0.kind == .deadline }.map(\.body) == ["2.1L to go before midnight.", "700ml to go before midnight."])
        #expect(lines.filter { $0.contains("affirmation") }.count == 3)
        #expect(lines.filter { $0.contains("ritual") }.count == 6)
        #expect(straight.state.ritualCompletions.map(\.day.description) == ["2026-03-11"])
    }

    @Test func whatFellDueWhileDownIsDroppedNotDeliveredLate() throws {
        var sim = Simulation(rules: everything { $0.hydration.enabled = false }, date: day, time: "06:00")
        sim.run(until: day, "07:00")
        let before = sim.journal.count
        try sim.restart(on: "2026-03-11", at: "09:30")
        #expect(sim.journal.dropFirst(before) == [
            "Missed while the bridge was not running: ritual-morning-2026-03-10",
            "Missed while the bridge was not running: reminder-VITD-w3-9-0",
            "Missed while the bridge was not running: daily-affirmation-2026-03-10",
            "Missed while the bridge was not running: reminder-NOON-12-0",
            "Missed while the bridge was not running: deadline-day-2026-03-10",
            "Missed while the bridge was not running: ritual-evening-2026-03-10",
            "Missed while the bridge was not running: ritual-morning-2026-03-11",
            "Scheduled weekly reminder: reminder-VITD-w3-9-0",
            "Scheduled daily reminder: reminder-NOON-12-0",
        ])
        sim.run(until: "2026-03-11", "23:59")
        #expect(sim.deliveredLines() == ["2026-03-11 10:00 daily-affirmation-2026-03-11", "2026-03-11 12:00 reminder-NOON-12-0",
                                         "2026-03-11 19:00 deadline-day-2026-03-11", "2026-03-11 20:00 ritual-evening-2026-03-11"])
        // The weekly schedule was armed again for next week.
        #expect(sim.pendingLines(.scheduled).contains("2026-03-17 09:00 reminder-VITD-w3-9-0"))
    }

    // MARK: Master switch

    @Test func theMasterSwitchCancelsEverythingAndBringsItBack() {
        var sim = Simulation(rules: everything(), date: day, time: "06:00")
        let full = sim.engine.pendingCount
        #expect(full == 2 + 7 + 1 + 14)
        sim.updateRules({ $0.hydration.notificationsEnabled = false }, on: day, at: "06:30")
        #expect(sim.engine.pendingCount == 0)
        #expect(sim.engine.rulesStatus().notes == ["Nothing is scheduled: notifications.enabled is false; set it to true to deliver reminders"])
        sim.run(until: day, "12:00")
        #expect(sim.deliveries.isEmpty)
        sim.updateRules({ $0.hydration.notificationsEnabled = true }, on: day, at: "12:00:30")
        // Vitamin D's 09:00 and the 10:00 message have passed; everything else is back.
        #expect(sim.engine.pendingCount == 2 + 6 + 1 + 13)
        #expect(sim.pendingLines(.scheduled) == ["2026-03-11 12:00 reminder-NOON-12-0", "2026-03-17 09:00 reminder-VITD-w3-9-0"])
    }

    @Test func theHydrationOnlyUpdateRefillsAtTheNextTick() {
        var sim = Simulation(rules: everything(), date: day, time: "06:00")
        sim.updateSettings({ $0.notificationsEnabled = false }, on: day, at: "06:30")
        #expect(sim.engine.pendingCount == 0)
        sim.updateSettings({ $0.notificationsEnabled = true }, on: day, at: "06:30:10")
        #expect(sim.engine.pendingCount == 0)
        sim.run(until: day, "06:31")
        #expect(sim.engine.pendingCount == 2 + 7 + 1 + 14)
    }

    // MARK: Persisted forms

    @Test func settingsRoundTripWithEveryRule() throws {
        let settings = everything {
            $0.hydration.goalML = 2000
            $0.messages.locale = .es
            $0.messages.userPool = ["Uno", "Dos"]
            $0.deadline.period = .both
            $0.deadline.hoursBefore = 3
            $0.deadline.weeklyGoalML = 12_000
            $0.rituals.morning = TimeOfDay(hour: 6, minute: 45)!
            $0.personReachable = false
        }
        let data = try JSONEncoder().encode(settings)
        #expect(try JSONDecoder().decode(ReminderSettings.self, from: data) == settings)
        let text = String(decoding: data, as: UTF8.self)
        for fragment in ["\"morning\":\"06:45\"", "\"terrain\":\"neutral_balanced\"", "\"hours_before\":3", "\"person_reachable\":false",
                         "\"first\":\"2026-03-10T09:00\"", "\"intake\":\"vitamin-d\"", "\"min_ml\":300"] {
            #expect(text.contains(fragment), "\(fragment) in \(text)")
        }
        // Only the hydration record is required: the rest takes the fresh-install values.
        let minimal = Data(#"{"hydration":{"timezone":"UTC"}}"#.utf8)
        #expect(try JSONDecoder().decode(ReminderSettings.self, from: minimal) == .rules(utc))
    }

    @Test func stateRoundTripWithTheRulesFields() throws {
        var sim = Simulation(rules: everything(), date: day, time: "06:00")
        try sim.log("vitamin-d", on: day, at: "06:10")
        _ = try sim.invoke("did-this", on: "ritual-morning-2026-03-10", date: day, at: "08:01")
        let data = try JSONEncoder().encode(sim.state)
        #expect(try JSONDecoder().decode(ReminderState.self, from: data) == sim.state)
        let text = String(decoding: data, as: UTF8.self)
        for fragment in ["\"rules_day\":\"2026-03-10\"", "\"intake_log\":[{", "\"ritual_completed_at\":[{", "\"day\":\"2026-03-10\"",
                         "\"ritual_streak\":0", "\"thread\":\"schedule:VITD\""] {
            #expect(text.contains(fragment), "\(fragment) in \(text)")
        }
    }
}
