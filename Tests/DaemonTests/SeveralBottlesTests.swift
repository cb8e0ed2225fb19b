// Several bottles on one bridge (docs/design.md 6): which bottles the daemon syncs, each
// bottle's own settings and reminders, a single-bottle history taken over without loss, and the
// history told per bottle.

import AquavateProtocol
@testable import Daemon
import Foundation
import History
import Locking
import Logging
import Reminders
@testable import Reminding
@testable import Reports
@testable import Settings
import TestFixtures
import Testing
import Timekeeping

@Suite("Several bottles on one bridge")
struct SeveralBottlesTests {
    static let first = "AA:00:00:00:00:01", second = "AA:00:00:00:00:02", stranger = "AA:00:00:00:00:03"
    /// 2026-11-22 07:00 UTC.
    static let morning: WallInstant = WallInstant(secondsSince1970: 1_795_330_800)
    let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }

    // MARK: Which bottles are synced

    @Test("every adopted bottle is synced; one just synced rests for the cool-down while the others may be")
    func adoptedBottlesAndRest() {
        let clock = ManualClock()
        var choice = BottleChoice(pinned: nil, adoptNext: false, remembered: [Self.first.lowercased(), Self.second], clock: clock)
        #expect(choice.several)
        #expect(choice.accepts(address: Self.first) && choice.accepts(address: Self.second))
        #expect(!choice.accepts(address: Self.stranger), "a bottle not adopted is ignored")
        choice.rest(Self.first, until: clock.instant + .seconds(60))
        #expect(!choice.accepts(address: Self.first) && choice.isResting(Self.first))
        #expect(choice.accepts(address: Self.second))
        clock.advance(by: .seconds(59))
        #expect(choice.isResting(Self.first), "still within the cool-down")
        clock.advance(by: .seconds(2))
        #expect(choice.accepts(address: Self.first), "the rest ends")
    }

    @Test("--adopt adds the next new bottle and keeps the adopted ones; a fresh bridge adopts the first it sees")
    func adoptAddsOne() {
        var choice = BottleChoice(pinned: nil, adoptNext: true, remembered: [Self.first])
        #expect(choice.accepts(address: Self.stranger) && choice.accepts(address: Self.first))
        choice.adopt(Self.first)
        #expect(choice.adoptNext, "syncing an adopted bottle does not end the search for a new one")
        choice.adopt(Self.stranger)
        #expect(!choice.adoptNext)
        #expect(choice.adopted == [Self.first, Self.stranger])
        #expect(!choice.accepts(address: Self.second))

        var fresh = BottleChoice(pinned: nil, adoptNext: false, remembered: [])
        #expect(fresh.accepts(address: Self.second) && !fresh.several)
        fresh.adopt(Self.second)
        #expect(!fresh.accepts(address: Self.first))

        let pinned = BottleChoice(pinned: Self.second, adoptNext: false, remembered: [Self.first])
        #expect(pinned.accepts(address: Self.second) && !pinned.accepts(address: Self.first) && !pinned.several)
    }

    // MARK: Reminders per bottle

    /// Reminders on, a person reached, UTC days.
    func settings() throws -> ReminderSettings {
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        return configuration.reminderSettings(personReachable: true).0
    }

    @Test("a single-bottle history's reminder state is taken over by its bottle without loss, and moves to its serial")
    func legacyStateMigrates() throws {
        let folder = NSTemporaryDirectory() + "bottles-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let history = try DrinkHistory(path: folder + "/h.sqlite")
        // The state as the single-engine code saves it: five dry hours send reminders.
        let legacy = ReminderRunner(history: history, settings: try settings(), logger: quiet) { _ in }
        for minute in Self.morning.everyMinute(through: Self.morning + .seconds(5 * 3600)) { legacy.advance(to: minute) }
        let noon = Self.morning + .seconds(5 * 3600)
        let sent = legacy.status(at: noon).remindersSentToday
        #expect(sent > 0)
        #expect(try history.reminders.saved(bottle: SavedReminders.everyBottle) != nil)

        let heir = ReminderRunner(history: history, settings: try settings(), logger: quiet, bottle: Self.first, inheritsLegacy: true) { _ in }
        #expect(heir.status(at: noon).remindersSentToday == sent, "the counters carry over")
        let other = ReminderRunner(history: history, settings: try settings(), logger: quiet, bottle: Self.second) { _ in }
        #expect(other.status(at: noon).remindersSentToday == 0, "another bottle starts afresh")
        #expect(heir.scheduleTestNotification(at: noon))
        #expect(try history.reminders.saved(bottle: SavedReminders.everyBottle) == nil, "saved once, under the bottle's name only")
        #expect(try history.reminders.saved(bottle: Self.first) != nil)

        #expect(try history.bottles.move(from: Self.first, toSerial: "SERIAL1") == false, "no bottle row or drinks: nothing else to move")
        _ = try history.bottles.update(id: Self.first) { $0.address = Self.first }
        #expect(try history.bottles.move(from: Self.first, toSerial: "SERIAL1"))
        #expect(try history.reminders.saved(bottle: Self.first) == nil)
        let moved = ReminderRunner(history: history, settings: try settings(), logger: quiet, bottle: "SERIAL1") { _ in }
        #expect(moved.status(at: noon).remindersSentToday == sent)
    }

    @Test("the desk keeps a person's reminders per bottle: its own drinks, owner and notification ids")
    func deskPerBottle() async throws {
        let folder = NSTemporaryDirectory() + "bottles-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let history = try DrinkHistory(path: folder + "/h.sqlite")
        try history.bottles.recordConnection(address: Self.first, name: "Aquavate-0001", at: Self.morning - .seconds(7200))
        try history.bottles.recordConnection(address: Self.second, name: "Aquavate-0002", at: Self.morning - .seconds(3600))
        // The first bottle's person drank 2 l early (synced before the desk starts); the second's nothing.
        _ = try history.drinks.store([DrinkRecord(recordID: 1, timestamp: UInt32(Self.morning.secondsSince1970) - 600, amountML: 2000, bottleLevelML: 0,
                                           typeRaw: 0, flagsRaw: 0)], bottle: Self.first, at: Self.morning - .seconds(500))
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        try configuration.applyOverride("bottle.\(Self.second).owner=Bea")
        let delivered = Locked<[Delivery]>([])
        let desk = ReminderDesk(history: history, configuration: configuration, logger: quiet) { delivery in
            delivered.withLock { $0.append(delivery) }
        }
        #expect(await desk.bottles == [Self.second, Self.first], "most recently seen first")
        for minute in Self.morning.everyMinute(through: Self.morning + .seconds(5 * 3600)) { await desk.advance(to: minute) }
        let noon = Self.morning + .seconds(5 * 3600)
        #expect(await desk.status(at: noon, bottle: Self.first).pace.dayTotalML == 2000)
        #expect(await desk.status(at: noon, bottle: Self.second).pace.dayTotalML == 0)
        let reminders = delivered.withLock { $0 }.filter { $0.kind == .reminder }
        #expect(!reminders.isEmpty)
        #expect(reminders.allSatisfy { $0.id.hasSuffix("@\(Self.second)") && $0.title.hasPrefix("Bea: ") },
                "only the second bottle's person is behind: \(reminders.map { "\($0.id) \($0.title)" })")
        #expect(try history.reminders.saved(bottle: Self.second) != nil)
    }

    // MARK: The history per bottle

    @Test("history tells each day per bottle, against each bottle's goal; --bottle keeps one")
    func historyPerBottle() throws {
        let history = try DrinkHistory(path: nil)
        let at = UInt32(Self.morning.secondsSince1970)
        _ = try history.drinks.store([DrinkRecord(recordID: 1, timestamp: at, amountML: 300, bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)],
                              bottle: "SERIAL1", at: Self.morning)
        _ = try history.drinks.store([DrinkRecord(recordID: 1, timestamp: at + 60, amountML: 200, bottleLevelML: 500, typeRaw: 0, flagsRaw: 0),
                               DrinkRecord(recordID: 2, timestamp: at + 120, amountML: 100, bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)],
                              bottle: "SERIAL2", at: Self.morning)
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        try configuration.applyOverride("bottle.SERIAL2.daily_goal_ml=1800")
        let report = try HistoryReport.make(history: history, configuration: configuration, days: nil, now: Self.morning)
        #expect(report.days == [
            BridgeEvent.DayEvent(date: "2026-11-22", totalML: 300, drinks: 1, goalML: 2500, bottle: "SERIAL1"),
            BridgeEvent.DayEvent(date: "2026-11-22", totalML: 300, drinks: 2, goalML: 1800, bottle: "SERIAL2"),
        ])
        #expect(report.lines(format: .json).last?.contains(#""bottle":"SERIAL2""#) == true)
        let one = try HistoryReport.make(history: history, configuration: configuration, days: nil, now: Self.morning,
                                         bottle: BottleRecord(id: "SERIAL2"))
        #expect(one.drinks.map(\.bottle) == ["SERIAL2", "SERIAL2"])
        #expect(one.days.map(\.bottle) == ["SERIAL2"])
    }

    // MARK: A household's reminders

    @Test("two bridges remind one person once: only the last syncer delivers, the other counts the same; a hand-over neither repeats nor loses a reminder")
    func remindedOnce() async throws {
        let kitchenSends = Locked(true), officeSends = Locked(false), aloneSends = Locked(true)
        let kitchenGot = Locked<[Delivery]>([]), officeGot = Locked<[Delivery]>([]), aloneGot = Locked<[Delivery]>([])
        var desks: [ReminderDesk] = []
        // Three bridges, each on its own copy of the (replicated) history: the kitchen and the
        // office take turns; the third, alone, is what one bridge would send.
        for (sends, got) in [(kitchenSends, kitchenGot), (officeSends, officeGot), (aloneSends, aloneGot)] {
            let history = try DrinkHistory(path: nil)
            try history.bottles.recordConnection(address: Self.first, name: "Aquavate-0001", at: Self.morning - .seconds(3600))
            var configuration = Configuration()
            try configuration.applyOverride("timezone=UTC")
            let desk = ReminderDesk(history: history, configuration: configuration, logger: quiet) { delivery in
                got.withLock { $0.append(delivery) }
            }
            await desk.deliverOnlyWhere { _, _, _ in sends.withLock { $0 } }
            desks.append(desk)
        }
        let handOver = Self.morning + .seconds(2 * 3600), evening = Self.morning + .seconds(13 * 3600)
        for minute in Self.morning.everyMinute(through: evening) {
            if minute == handOver {
                // The office synced the bottle: it reminds from now on.
                kitchenSends.withLock { $0 = false }
                officeSends.withLock { $0 = true }
            }
            for desk in desks { await desk.advance(to: minute) }
        }
        let kitchen = kitchenGot.withLock { $0 }, office = officeGot.withLock { $0 }, alone = aloneGot.withLock { $0 }
        #expect(!kitchen.isEmpty && !office.isEmpty, "each delivered in its turn")
        #expect(kitchen.allSatisfy { $0.time < handOver } && office.allSatisfy { $0.time >= handOver })
        #expect((kitchen + office).map(\.id) == alone.map(\.id), "together, what one bridge alone sends: none twice, none lost")
        #expect(await desks[1].status(at: evening).remindersSentToday == alone.filter { $0.kind == .reminder }.count,
                "the office counted the kitchen's reminders too")
    }

    @Test("forgetting the only bottle while the daemon runs: the next bottle seen is adopted, but never the forgotten one unless --adopt or --bottle asks")
    func forgettingTheOnlyBottle() {
        var choice = BottleChoice(pinned: nil, adoptNext: false, remembered: [Self.first])
        #expect(choice.forgetAllBut([]) == [Self.first])
        #expect(!choice.accepts(address: Self.first) && !choice.accepts(address: Self.first.lowercased()),
                "still in range, it is not adopted again by the first-seen rule")
        #expect(choice.isForgotten(Self.first.lowercased()))
        #expect(choice.accepts(address: Self.stranger), "none adopted: another bottle seen is")
        choice.adopt(Self.stranger)
        #expect(!choice.accepts(address: Self.first) && choice.forgetAllBut([Self.stranger]).isEmpty)
        #expect(!choice.accepts(address: Self.first), "still forgotten")

        // In the history again (another process's connection): no longer forgotten here.
        #expect(choice.forgetAllBut([Self.stranger, Self.first]).isEmpty && !choice.isForgotten(Self.first))

        var adopting = BottleChoice(pinned: nil, adoptNext: true, remembered: [Self.first])
        _ = adopting.forgetAllBut([])
        #expect(adopting.accepts(address: Self.first), "--adopt takes the next bottle seen, a forgotten one too")
        adopting.adopt(Self.first)
        #expect(!adopting.isForgotten(Self.first) && adopting.accepts(address: Self.first))

        var pinned = BottleChoice(pinned: Self.first, adoptNext: false, remembered: [Self.first])
        _ = pinned.forgetAllBut([])
        #expect(pinned.accepts(address: Self.first), "--bottle names it")
    }

    @Test("bottle forget while the daemon runs: the bottle is no longer adopted (nor resting), and its person's reminders stop; the other bottle's go on")
    func forgettingWhileRunning() async throws {
        var choice = BottleChoice(pinned: nil, adoptNext: false, remembered: [Self.first, Self.second])
        choice.rest(Self.second, until: SystemClock().instant + .seconds(600))
        #expect(choice.forgetAllBut([Self.first.lowercased()]) == [Self.second])
        #expect(choice.accepts(address: Self.first) && !choice.accepts(address: Self.second) && !choice.isResting(Self.second))
        #expect(choice.forgetAllBut([Self.first]).isEmpty, "nothing more to forget")
        choice.adopt(Self.stranger)
        #expect(choice.forgetAllBut([Self.first]).isEmpty && choice.accepts(address: Self.stranger),
                "adopted in this run, never recorded: kept")

        let history = try DrinkHistory(path: nil)
        try history.bottles.recordConnection(address: Self.first, name: "Aquavate-0001", at: Self.morning - .seconds(3600))
        try history.bottles.recordConnection(address: Self.second, name: "Aquavate-0002", at: Self.morning - .seconds(1800))
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        let got = Locked<[Delivery]>([])
        let desk = ReminderDesk(history: history, configuration: configuration, logger: quiet) { delivery in
            got.withLock { $0.append(delivery) }
        }
        let forgotten = Self.morning + .seconds(5400)  // after each person's first reminder, before the second
        for minute in Self.morning.everyMinute(upTo: forgotten) { await desk.advance(to: minute) }
        #expect(got.withLock { $0 }.contains { $0.id.hasSuffix("@" + Self.second) }, "both persons reminded before")
        #expect(try history.bottles.forget(id: Self.second, at: forgotten))
        await desk.bottlesForgotten()
        got.withLock { $0 = [] }
        for minute in forgotten.everyMinute(through: Self.morning + .seconds(13 * 3600)) { await desk.advance(to: minute) }
        let after = got.withLock { $0 }
        #expect(!after.isEmpty, "the first bottle's person is still reminded")
        #expect(!after.contains { $0.id.contains(Self.second) }, "the forgotten bottle's person is not: \(after.map(\.id))")
    }

    @Test("a bridge that has adopted no bottle leaves the reminders of the drinks replicated to it to the household's gate; with nothing known of any bottle it reminds as before")
    func aBridgeWithoutABottleIsGated() async throws {
        func deliveries(replicated: Bool, gated: Bool) async throws -> [Delivery] {
            let history = try DrinkHistory(path: nil)
            if replicated {
                let drink = DrinkRecord(recordID: 1, timestamp: UInt32((Self.morning - .seconds(600)).secondsSince1970), amountML: 100, bottleLevelML: 400, typeRaw: 0, flagsRaw: 0)
                _ = try history.drinks.storeReplicated([drink], bottle: "SERIAL9", origin: "kitchen", at: Self.morning - .seconds(600))
            }
            var configuration = Configuration()
            try configuration.applyOverride("timezone=UTC")
            let got = Locked<[Delivery]>([])
            let desk = ReminderDesk(history: history, configuration: configuration, logger: quiet) { delivery in
                got.withLock { $0.append(delivery) }
            }
            let asked = Locked<[String]>([])
            if gated { await desk.deliverOnlyWhere { bottle, _, _ in asked.withLock { $0.append(bottle) }; return false } }
            for minute in Self.morning.everyMinute(through: Self.morning + .seconds(13 * 3600)) { await desk.advance(to: minute) }
            if gated && replicated { #expect(!asked.withLock { $0 }.isEmpty && asked.withLock { $0 }.allSatisfy { $0 == "SERIAL9" }) }
            return got.withLock { $0 }
        }
        #expect(try await !deliveries(replicated: true, gated: false).isEmpty, "alone, its engine reminds on those drinks")
        #expect(try await deliveries(replicated: true, gated: true).isEmpty, "in a household, the bridge that reminds for SERIAL9 does")
        #expect(try await !deliveries(replicated: false, gated: true).isEmpty, "no bottle known: nobody else reminds")
    }

    @Test("a manual intake from a sink (MQTT log TYPE) goes to the bottle it names, by address or serial; an unknown one is refused with one logged line, harming nothing")
    func sinkLogNamesTheBottle() async throws {
        let history = try DrinkHistory(path: nil)
        try history.bottles.recordConnection(address: Self.first, name: "Aquavate-0001", at: Self.morning - .seconds(3600))
        try history.bottles.recordConnection(address: Self.second, name: "Aquavate-0002", at: Self.morning - .seconds(1800))
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        let lines = LogLines()
        let desk = ReminderDesk(history: history, configuration: configuration, logger: Logger(label: "test") { _ in LineHandler(lines: lines) })
        await desk.advance(to: Self.morning)
        func intakes(_ bottle: String) throws -> String { try history.reminders.saved(bottle: bottle)?.intakes.map(\.type).joined(separator: " ") ?? "" }
        #expect(try !intakes(Self.first).contains("zinc") && !intakes(Self.second).contains("zinc"))
        // Named by its address in lower case: the first bottle's person, not the most recently seen (the second).
        await desk.handle(.log(type: "zinc", bottle: Self.first.lowercased()), at: Self.morning + .seconds(60))
        #expect(try intakes(Self.first).contains("zinc") && !intakes(Self.second).contains("zinc"))
        // Unnamed: the most recently adopted bottle's, as before.
        await desk.handle(.log(type: "magnesium"), at: Self.morning + .seconds(120))
        #expect(try intakes(Self.second).contains("magnesium") && !intakes(Self.first).contains("magnesium"))
        let events = try history.reminders.personEvents().count
        let before = lines.all.count
        await desk.handle(.log(type: "iron", bottle: Self.stranger), at: Self.morning + .seconds(180))
        let said = lines.all.dropFirst(before).filter { $0.contains("iron") }
        #expect(said.count == 1 && said[0].contains("refused") && said[0].contains(Self.stranger), "one line: \(said)")
        #expect(try history.reminders.personEvents().count == events, "nothing logged")
        #expect(try !intakes(Self.first).contains("iron") && !intakes(Self.second).contains("iron"))
    }

    @Test("replay into a history of several bottles gives one day per bottle and day, each against its bottle's goal")
    func replayDaysPerBottle() throws {
        let history = try DrinkHistory(path: nil)
        // Another bottle drank 100 ml on 2026-11-20 at 10:00 UTC.
        _ = try history.drinks.store([DrinkRecord(recordID: 1, timestamp: 1_795_168_800, amountML: 100, bottleLevelML: 300, typeRaw: 0, flagsRaw: 0)],
                              bottle: "OTHER", at: WallInstant(secondsSince1970: 0))
        let outcome = try runReplay([shippedCapture("backlog-600.aqcap")], history: history,
                                    settings: ["timezone=UTC", "bottle.OTHER.daily_goal_ml=1800"])
        #expect(outcome.days.allSatisfy { $0.bottle != nil })
        #expect(outcome.days.count == Set(outcome.days.map(\.date)).count * 2, "each day twice: once per bottle")
        let other = outcome.days.first { $0.bottle == "OTHER" && $0.date == "2026-11-20" }
        #expect(other?.totalML == 100 && other?.drinks == 1 && other?.goalML == 1800)
    }
}
