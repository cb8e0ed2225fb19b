// docs/reminders.md 4 (seed 002): the daily message at 10:00 as a rolling window of 7 non-repeating
// notifications, refilled below 2, its text determined by the date, shipped pools in English and
// Spanish or the user's pool, cancelled when disabled, and nothing scheduled without a sink that
// reaches a person.

import Foundation
import Testing
@testable import Reminders
import Timekeeping

struct DailyMessageTests {
    let day = "2026-03-10"  // 20,522 days after 1970-01-01.

    func rules(_ zone: TimeZone = utc, _ change: (inout ReminderSettings) -> Void = { _ in }) -> ReminderSettings {
        .rules(zone) {
            $0.hydration.enabled = false
            $0.messages.enabled = true
            change(&$0)
        }
    }

    @Test func aWindowOfSevenAtTen() {
        let sim = Simulation(rules: rules(), date: day, time: "09:00")
        #expect(sim.pendingLines(.dailyMessage) == (10...16).map { "2026-03-\($0) 10:00 daily-affirmation-2026-03-\($0)" })
        #expect(sim.pending(.dailyMessage).allSatisfy { $0.title == "Daily affirmation" && $0.actions.isEmpty })
        // After 10:00 today's is no longer ahead: six.
        let late = Simulation(rules: rules(), date: day, time: "10:00:01")
        #expect(late.pendingLines(.dailyMessage).first == "2026-03-11 10:00 daily-affirmation-2026-03-11")
        #expect(late.pending(.dailyMessage).count == 6)
    }

    @Test func deliveredEveryDayAtTenAndRefilledBelowTwo() {
        var sim = Simulation(rules: rules(), date: day, time: "09:00")
        sim.run(until: "2026-03-14", "10:00")
        #expect(sim.pending(.dailyMessage).count == 2)
        sim.run(until: "2026-03-15", "09:59")
        #expect(sim.pending(.dailyMessage).count == 2)
        // The 10:00 tick delivers the 15th, leaving 1: the next 7 days are scheduled, the 16th kept.
        sim.run(until: "2026-03-15", "10:00")
        #expect(sim.pendingLines(.dailyMessage) == (16...21).map { "2026-03-\($0) 10:00 daily-affirmation-2026-03-\($0)" })
        sim.run(until: "2026-03-31", "23:59")
        #expect(sim.deliveredLines() == (10...31).map { "2026-03-\($0) 10:00 daily-affirmation-2026-03-\($0)" })
    }

    @Test func theSameDateGivesTheSameText() throws {
        let pool = MessagePool.shipped(.en)
        #expect(pool.count == 30)
        #expect(DailyMessage.message(for: LocalDay(day)!, pool: pool) == pool[20_522 % 30])
        #expect(DailyMessage.message(for: LocalDay(day)!, pool: pool) == "I listen to what my body needs today.")
        // Before 1970 the index stays non-negative.
        #expect(DailyMessage.message(for: LocalDay(daysSince1970: -1), pool: pool) == pool[29])
        #expect(DailyMessage.message(for: LocalDay(day)!, pool: []) == nil)

        var sim = Simulation(rules: rules(), date: day, time: "09:00")
        sim.run(until: day, "10:00")
        // Another bridge started later (restart, or a second install) says the same for the date.
        var other = Simulation(rules: rules(), date: "2026-03-05", time: "12:00")
        other.run(until: day, "10:00")
        #expect(sim.deliveries.map(\.body) == ["I listen to what my body needs today."])
        #expect(other.deliveries.last?.body == sim.deliveries.first?.body)
        #expect(other.deliveries.map(\.body) == (20_518...20_522).map { pool[$0 % 30] })
    }

    @Test func spanishPoolAndTitle() {
        var sim = Simulation(rules: rules { $0.messages.locale = .es }, date: day, time: "09:00")
        sim.run(until: day, "10:00")
        #expect(sim.deliveries.map(\.title) == ["Afirmación del día"])
        #expect(sim.deliveries.map(\.body) == ["Escucho lo que mi cuerpo necesita hoy."])
        #expect(MessagePool.shipped(.es).count == MessagePool.shipped(.en).count)
        // Switching back to English changes the pending texts, not the days they cover.
        sim.updateRules({ $0.messages.locale = .en }, on: day, at: "11:00")
        #expect(sim.pending(.dailyMessage).map(\.title) == Array(repeating: "Daily affirmation", count: 6))
        #expect(sim.pending(.dailyMessage).first?.body == MessagePool.shipped(.en)[20_523 % 30])
    }

    @Test func aUserPoolGivenAsLines() {
        let lines = ["# my affirmations", "", "   Hello  ", "\t", "# skipped", "World", ""]
        #expect(MessagePool.messages(fromLines: lines) == ["Hello", "World"])
        var sim = Simulation(rules: rules { $0.messages.userPool = MessagePool.messages(fromLines: lines) },
                             date: day, time: "09:00")
        sim.run(until: "2026-03-12", "10:00")
        // 20,522 is even.
        #expect(sim.deliveries.map(\.body) == ["Hello", "World", "Hello"])
        // An empty pool file falls back to the shipped pool.
        #expect(MessageSettings(enabled: true, userPool: []).pool == MessagePool.shipped(.en))
    }

    @Test func disablingCancelsAndEnablingFills() {
        var sim = Simulation(rules: rules(), date: day, time: "09:00")
        sim.updateRules({ $0.messages.enabled = false }, on: day, at: "09:30")
        #expect(sim.pending(.dailyMessage).isEmpty)
        sim.run(until: "2026-03-12", "12:00")
        #expect(sim.deliveries.isEmpty)
        sim.updateRules({ $0.messages.enabled = true }, on: "2026-03-12", at: "12:00")
        #expect(sim.pendingLines(.dailyMessage).first == "2026-03-13 10:00 daily-affirmation-2026-03-13")
        #expect(sim.pending(.dailyMessage).count == 6)
    }

    @Test func offByDefault() {
        let sim = Simulation(rules: .rules(), date: day, time: "09:00")
        #expect(sim.engine.pendingCount == 0)
        #expect(!MessageSettings().enabled)
    }

    @Test func nothingWithoutASinkThatReachesAPerson() {
        var sim = Simulation(rules: rules { $0.personReachable = false }, date: day, time: "09:00")
        #expect(sim.engine.pendingCount == 0)
        #expect(sim.engine.rulesStatus().notes == [
            "Daily messages not scheduled: no sink reaches a person (only the log); enable the desktop, MQTT or HTTP push sink",
        ])
        sim.run(until: day, "10:00")
        #expect(sim.deliveries.isEmpty)
        // A desktop session appears.
        sim.updateRules({ $0.personReachable = true }, on: day, at: "10:30")
        #expect(sim.pending(.dailyMessage).count == 6)
        #expect(sim.engine.rulesStatus().notes.isEmpty)
        #expect(sim.engine.rulesStatus().dailyMessagesPending == 6)
        // And goes away again.
        sim.updateRules({ $0.personReachable = false }, on: day, at: "10:31")
        #expect(sim.pending(.dailyMessage).isEmpty)
    }

    @Test func tenOClockIsLocal() {
        var sim = Simulation(rules: rules(madrid), date: "2026-03-28", time: "09:00")
        sim.run(until: instant("2026-03-30", "12:00", in: madrid))
        #expect(sim.deliveredLines() == ["2026-03-28 10:00 daily-affirmation-2026-03-28",
                                         "2026-03-29 10:00 daily-affirmation-2026-03-29",
                                         "2026-03-30 10:00 daily-affirmation-2026-03-30"])
    }
}
