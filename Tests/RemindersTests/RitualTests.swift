// docs/reminders.md 6 (seed 004): morning and evening rituals over a 7-day window (at most 14 pending),
// the seed's 42 actions rotated by the ordinal day, titles with the nickname and the terrain's
// principle, the streak prefix above 3, placeholders before a terrain is set, a rebuild on every
// change, and the two actions.

import Foundation
import Testing
@testable import Reminders
import Timekeeping

struct RitualTests {
    let day = "2026-03-10"  // ordinal day 69 of 2026

    func rules(_ zone: TimeZone = utc, _ change: (inout ReminderSettings) -> Void = { _ in }) -> ReminderSettings {
        .rules(zone) {
            $0.hydration.enabled = false
            $0.rituals.enabled = true
            $0.rituals.terrain = .coldDeficient
            $0.rituals.nickname = "Low Flame"
            change(&$0)
        }
    }

    /// A history in which the goal (2500) was met on each of `dates`.
    func ledger(metOn dates: [String]) -> InMemoryDrinkLedger {
        var ledger = InMemoryDrinkLedger()
        for date in dates {
            ledger.record(timestamp: instant(date, "12:00", in: utc), amountML: 2500, storedAt: instant(date, "12:05", in: utc))
        }
        return ledger
    }

    @Test func sevenDaysOfMorningsAndEvenings() {
        let sim = Simulation(rules: rules(), date: day, time: "07:00")
        let pending = sim.pending(.ritual)
        #expect(pending.count == 14)
        #expect(sim.pendingLines(.ritual).prefix(4) == ["2026-03-10 08:00 ritual-morning-2026-03-10",
                                                        "2026-03-10 20:00 ritual-evening-2026-03-10",
                                                        "2026-03-11 08:00 ritual-morning-2026-03-11",
                                                        "2026-03-11 20:00 ritual-evening-2026-03-11"])
        #expect(sim.pendingLines(.ritual).last == "2026-03-16 20:00 ritual-evening-2026-03-16")
        #expect(pending.allSatisfy { $0.actions == [.didThis, .startRitual] && $0.thread == "ritual" })
        #expect(pending[0].title == "Your Low Flame body thrives with warmth")
        #expect(pending[1].title == "Time to settle your Low Flame pattern")
        // After 20:00 only the next 6 days remain.
        #expect(Simulation(rules: rules(), date: day, time: "20:00:01").pending(.ritual).count == 12)
    }

    @Test func rotationByOrdinalDayCoversAllSevenActions() {
        var sim = Simulation(rules: rules(), date: day, time: "07:00")
        sim.run(until: "2026-03-16", "23:59")
        let mornings = sim.deliveries.filter { $0.id.hasPrefix("ritual-morning") }.map(\.body)
        let evenings = sim.deliveries.filter { $0.id.hasPrefix("ritual-evening") }.map(\.body)
        // 69 mod 7 = 6: the seed's item 7 first, then item 1, 2, ...
        #expect(mornings.first == "Gently massage your earlobes for 10 seconds (10 sec)")
        #expect(mornings.dropFirst().first == "Drink a glass of warm water (10 sec)")
        #expect(evenings.first == "Cup your palms over your closed eyes and relax your jaw (15 sec)")
        #expect(Set(mornings) == Set(RitualActions.pool(.cold, .morning)))
        #expect(Set(evenings) == Set(RitualActions.pool(.cold, .evening)))
        #expect(mornings.count == 7 && evenings.count == 7)
        #expect(sim.deliveredLines().prefix(2) == ["2026-03-10 08:00 ritual-morning-2026-03-10", "2026-03-10 20:00 ritual-evening-2026-03-10"])
        // The window keeps being refilled at every midnight.
        #expect(sim.pending(.ritual).first?.id == "ritual-morning-2026-03-17")
    }

    @Test func rotationStartsAgainOnTheFirstOfJanuary() {
        #expect(LocalDay("2027-01-01")!.ordinalInYear == 1)
        #expect(LocalDay("2024-12-31")!.ordinalInYear == 366)
        #expect(RitualText.body(.morning, terrain: .neutralExcess, day: LocalDay("2027-01-01")!) == "Roll your shoulders back 5 times (15 sec)")
        #expect(RitualText.body(.evening, terrain: .warmBalanced, day: LocalDay("2026-01-07")!) == "Take 3 slow exhales through your mouth (15 sec)")
    }

    @Test func theFortyTwoActionsAreShipped() {
        let all = RitualTerrain.Group.allCases.flatMap { group in RitualPhase.allCases.flatMap { RitualActions.pool(group, $0) } }
        #expect(all.count == 42)
        #expect(Set(all).count == 42)
        #expect(all.allSatisfy { $0.hasSuffix(" sec)") })
        #expect(RitualActions.pool(.warm, .morning)[2] == "Take 3 breaths — inhale 4 counts, exhale 6 counts (20 sec)")
        #expect(RitualActions.pool(.neutral, .evening)[6] == "Rock gently from your heels to your toes 5 times (15 sec)")
        #expect(RitualActions.pool(.warm, .evening)[6] == "Soften your forehead and relax your tongue from the roof of your mouth (10 sec)")
    }

    @Test func principlesByTerrainGroup() {
        let titles = RitualTerrain.allCases.map { RitualText.title(.morning, terrain: $0, nickname: "N", streak: 0) }
        #expect(titles == ["Your N body thrives with warmth", "Your N body thrives with warmth",
                           "Your N body thrives with calm", "Your N body thrives with calm", "Your N body thrives with calm",
                           "Your N body thrives with balance", "Your N body thrives with balance", "Your N body thrives with balance"])
        #expect(RitualSettings().nickname == "Terrain")
    }

    @Test func streakTitlesAboveThree() {
        // Met on the 6th to the 9th: N = 4 at start.
        let four = Simulation(rules: rules(), date: day, time: "07:00",
                              ledger: ledger(metOn: ["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"]))
        #expect(four.state.ritualStreak == 4)
        #expect(four.pending(.ritual)[0].title == "Day 4 — your Low Flame rhythm")
        #expect(four.pending(.ritual)[1].title == "Day 4 — wind-down time")
        // Three days are not enough; a gap breaks the streak.
        let three = Simulation(rules: rules(), date: day, time: "07:00",
                               ledger: ledger(metOn: ["2026-03-05", "2026-03-07", "2026-03-08", "2026-03-09"]))
        #expect(three.state.ritualStreak == 3)
        #expect(three.pending(.ritual)[0].title == "Your Low Flame body thrives with warmth")
        // Today counts once met: a rebuild in the afternoon sees 3 + 1.
        var today = Simulation(rules: rules(), date: day, time: "07:00",
                               ledger: ledger(metOn: ["2026-03-07", "2026-03-08", "2026-03-09"]))
        today.sync([2500], on: day, at: "13:00")
        #expect(today.pending(.ritual)[0].title == "Time to settle your Low Flame pattern")
        today.updateRules({ $0.rituals.nickname = "Ember" }, on: day, at: "14:00")
        #expect(today.state.ritualStreak == 4)
        #expect(today.pending(.ritual)[0].title == "Day 4 — wind-down time")
    }

    @Test func titlesAreRebuiltAtMidnight() {
        var sim = Simulation(rules: rules(), date: day, time: "07:00",
                             ledger: ledger(metOn: ["2026-03-07", "2026-03-08", "2026-03-09"]))
        sim.sync([2500], on: day, at: "12:00")
        sim.run(until: "2026-03-11", "08:00")
        #expect(sim.deliveries.map(\.title) == ["Your Low Flame body thrives with warmth", "Time to settle your Low Flame pattern",
                                                "Day 4 — your Low Flame rhythm"])
    }

    @Test func didThisIsRecordedAndDoesNotCountForTheStreak() throws {
        var sim = Simulation(rules: rules(), date: day, time: "07:00")
        sim.run(until: day, "08:00")
        let outcome = try sim.invoke("did-this", on: "ritual-morning-2026-03-10", date: day, at: "08:03")
        #expect(outcome == .ritualCompleted(day: LocalDay(day)!, at: instant(day, "08:03", in: utc)))
        #expect(sim.state.ritualCompletions == [RitualCompletion(day: LocalDay(day)!, time: instant(day, "08:03", in: utc))])
        #expect(sim.journal.last == "Did This on ritual-morning-2026-03-10: ritual completed for 2026-03-10")
        // The local day of the tap, even on another day's notification; one per day, the latest.
        _ = try sim.invoke("did-this", on: "ritual-evening-2026-03-10", date: "2026-03-11", at: "00:10")
        _ = try sim.invoke("did-this", on: "ritual-morning-2026-03-11", date: "2026-03-11", at: "08:01")
        #expect(sim.state.ritualCompletions.map(\.day.description) == ["2026-03-10", "2026-03-11"])
        #expect(sim.state.ritualCompletions.last?.time == instant("2026-03-11", "08:01", in: utc))
        // No drinks: the streak stays 0 however many rituals were done.
        #expect(sim.state.ritualStreak == 0)
        #expect(sim.engine.rulesStatus().ritualStreak == 0)
    }

    @Test func startRitualIsReportedBack() throws {
        var sim = Simulation(rules: rules(), date: day, time: "07:00")
        #expect(try sim.invoke("start-ritual", on: "ritual-evening-2026-03-10", date: day, at: "20:01")
                == .startRitual(notificationID: "ritual-evening-2026-03-10"))
        #expect(throws: NotificationActionError.actionNotOffered(notificationID: "ritual-evening-2026-03-10", actionID: "done",
                                                                 offered: ["did-this", "start-ritual"])) {
            try sim.invoke("done", on: "ritual-evening-2026-03-10", date: day, at: "20:02")
        }
    }

    @Test func aTimeChangeReschedulesTheWindow() {
        var sim = Simulation(rules: rules(), date: day, time: "06:00")
        sim.updateRules({ $0.rituals.morning = TimeOfDay(hour: 7, minute: 30)! }, on: day, at: "07:00")
        #expect(sim.pending(.ritual).count == 14)
        #expect(sim.pending(.ritual).filter { $0.id.hasPrefix("ritual-morning") }
            .allSatisfy { localText($0.fireTime, in: utc).hasSuffix("07:30:00") })
        sim.updateRules({ $0.rituals.evening = TimeOfDay(hour: 21, minute: 15)! }, on: day, at: "07:10")
        sim.run(until: day, "23:00")
        #expect(sim.deliveredLines() == ["2026-03-10 07:30 ritual-morning-2026-03-10", "2026-03-10 21:15 ritual-evening-2026-03-10"])
        // A terrain change rebuilds too.
        sim.updateRules({ $0.rituals.terrain = .warmExcess }, on: day, at: "23:00")
        #expect(sim.pending(.ritual).first?.title == "Your Low Flame body thrives with calm")
    }

    @Test func neverMoreThanFourteenPending() {
        var sim = Simulation(rules: rules(), date: day, time: "00:00")
        var most = sim.pending(.ritual).count
        for minute in stride(from: 0, to: 3 * 1440, by: 7) {
            sim.run(until: instant(day, "00:00", in: utc) + .seconds(Double(minute * 60)))
            most = max(most, sim.pending(.ritual).count)
        }
        #expect(most == 14)
    }

    @Test func placeholdersBeforeATerrainIsSet() {
        let sim = Simulation(rules: rules { $0.rituals.terrain = nil }, date: day, time: "07:00",
                             ledger: ledger(metOn: ["2026-03-05", "2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"]))
        let pending = sim.pending(.ritual)
        #expect(pending.count == 14)
        #expect(pending[0].title == "Good morning" && pending[0].body == "Your daily routine is ready.")
        #expect(pending[1].title == "Wind down" && pending[1].body == "Time for your evening ritual.")
        // Never with a streak title, and the actions work already.
        #expect(pending.allSatisfy { !$0.title.hasPrefix("Day") && $0.actions == [.didThis, .startRitual] })
        #expect(sim.engine.rulesStatus().notes == [
            "Rituals use placeholders until rituals.terrain is set (one of cold_deficient, cold_balanced, warm_excess, warm_deficient, warm_balanced, neutral_balanced, neutral_deficient, neutral_excess)",
        ])
    }

    @Test func disablingRemovesThemAndNobodyToReachSchedulesNothing() {
        var sim = Simulation(rules: rules(), date: day, time: "07:00")
        sim.updateRules({ $0.rituals.enabled = false }, on: day, at: "07:30")
        #expect(sim.pending(.ritual).isEmpty)
        let unreachable = Simulation(rules: rules { $0.personReachable = false }, date: day, time: "07:00")
        #expect(unreachable.engine.pendingCount == 0)
        #expect(unreachable.engine.rulesStatus().notes
                == ["Rituals not scheduled: no sink reaches a person (only the log); enable the desktop, MQTT or HTTP push sink"])
    }
}
