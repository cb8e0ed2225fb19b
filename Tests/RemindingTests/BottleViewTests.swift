// One bottle as every surface shows it (`BottleView`, docs/design.md 6): its own
// `bottle.<ID>.<key>` over the global key (by its key, serial or address), the goal configured,
// else the bottle's, else the default; the daily-limit key a switch on that bottle must write;
// what left something out of the reminders (`problems`) without stopping them; and its state
// resolved from the history's saved engine.

import Foundation
import History
import Reminders
@testable import Reminding
@testable import Settings
import Testing
import Timekeeping

@Suite("Reminding: a bottle's view")
struct BottleViewTests {
    /// 2026-11-22 07:00 UTC.
    static let morning: WallInstant = WallInstant(secondsSince1970: 1_795_330_800)
    static let kitchen = BottleRecord(id: "AA:00:00:00:00:01", serial: "AQ1", address: "AA:00:00:00:00:01", goalML: 2100)
    static let office = BottleRecord(id: "AA:00:00:00:00:02", serial: "AQ2", address: "AA:00:00:00:00:02")

    func configuration(_ assignments: String...) throws -> Configuration {
        var configuration = Configuration()
        try configuration.applyOverride("timezone=UTC")
        for assignment in assignments { try configuration.applyOverride(assignment) }
        return configuration
    }

    @Test("a bottle's own keys, by serial or address, override the global ones for it alone")
    func ownKeysOverrideTheGlobalOnes() throws {
        let history = try DrinkHistory(path: nil)
        let configuration = try configuration("daily_goal_ml=2600", "reminders.daily_limit=true", "bottle.aq1.daily_goal_ml=1800",
                                              "bottle.AQ1.reminders.daily_limit=false", "bottle.aa:00:00:00:00:02.owner=Bea")
        let kitchen = BottleView.settings(of: Self.kitchen, configuration: configuration, history: history)
        #expect(kitchen.goalML == 1800 && !kitchen.dailyLimit)
        #expect(kitchen.dailyLimitKey == "bottle.AQ1.reminders.daily_limit", "a switch on this bottle writes its own key")
        #expect(kitchen.owner == nil && kitchen.id == Self.kitchen.id)
        let office = BottleView.settings(of: Self.office, configuration: configuration, history: history)
        #expect(office.goalML == 2600 && office.dailyLimit)
        #expect(office.dailyLimitKey == "reminders.daily_limit")
        #expect(office.owner == "Bea")
        let noBottle = BottleView.settings(of: nil, configuration: configuration, history: history)
        #expect(noBottle.goalML == 2600 && noBottle.dailyLimit && noBottle.dailyLimitKey == "reminders.daily_limit")
    }

    @Test("the goal: configured, else the one the bottle confirmed, else the default")
    func theGoalsOrder() throws {
        let history = try DrinkHistory(path: nil)
        let plain = try configuration()
        #expect(BottleView.settings(of: Self.kitchen, configuration: plain, history: history).goalML == 2100)
        #expect(BottleView.settings(of: Self.kitchen, configuration: plain, history: history, bottleGoal: 2300).goalML == 2300,
                "the caller's fresher goal wins over the row's")
        #expect(BottleView.settings(of: Self.office, configuration: plain, history: history).goalML == HydrationSettings.defaultGoalML)
        let configured = try configuration("daily_goal_ml=2700")
        #expect(BottleView.settings(of: Self.kitchen, configuration: configured, history: history).goalML == 2700)
    }

    @Test("the goal and switches alone (the published state's) resolve as the whole settings do")
    func hydrationAloneAgrees() throws {
        let history = try DrinkHistory(path: nil)
        for configuration in [try configuration(), try configuration("daily_goal_ml=2700"),
                              try configuration("bottle.aq1.daily_goal_ml=1800", "bottle.AQ2.reminders.enabled=false")] {
            for bottle in [Self.kitchen, Self.office, nil] {
                for goal in [nil, .some(nil), .some(2300)] as [Int??] {
                    let whole = BottleView.settings(of: bottle, configuration: configuration, history: history, bottleGoal: goal).hydration
                    let alone = BottleView.hydration(of: bottle, configuration: configuration, bottleGoal: goal)
                    #expect(alone.goalML == whole.goalML && alone.enabled == whole.enabled && alone.dailyLimit == whole.dailyLimit,
                            "\(bottle?.id ?? "none") \(String(describing: goal))")
                }
            }
        }
        // What the cases cover: the bottle's own switch and goal, the caller's goal over the row's.
        let own = try configuration("bottle.aq1.daily_goal_ml=1800", "bottle.AQ2.reminders.enabled=false")
        #expect(BottleView.hydration(of: Self.kitchen, configuration: own).goalML == 1800)
        #expect(!BottleView.hydration(of: Self.office, configuration: own).enabled)
        #expect(BottleView.hydration(of: Self.kitchen, configuration: try configuration(), bottleGoal: 2300).goalML == 2300)
    }

    @Test("reminders off for one bottle: its view says so, the others' do not; no person reached is passed on")
    func remindersPerBottleAndReachability() throws {
        let history = try DrinkHistory(path: nil)
        let configuration = try configuration("bottle.AQ2.reminders.enabled=false")
        #expect(BottleView.settings(of: Self.kitchen, configuration: configuration, history: history).remindersEnabled)
        #expect(!BottleView.settings(of: Self.office, configuration: configuration, history: history).remindersEnabled)
        let unreached = BottleView.settings(of: Self.kitchen, configuration: configuration, history: history, personReachable: false)
        #expect(!unreached.settings.personReachable)
        #expect(BottleView.settings(of: Self.kitchen, configuration: configuration, history: history).settings.personReachable)
    }

    @Test("an unreadable message pool and a refused schedule are problems; the reminders are still made")
    func problemsDoNotStopTheReminders() throws {
        let history = try DrinkHistory(path: nil)
        try history.schedules.save(StoredSchedule(id: "VIT-D", intake: "Vitamin-D", frequency: "weekly",
                                                  first: try LocalDateTime(parsing: "2026-11-22T09:00")))
        let pool = "/nonexistent-\(UUID().uuidString)/messages.txt"
        let view = BottleView.settings(of: Self.kitchen, configuration: try configuration("messages.pool=\(pool)"), history: history)
        #expect(view.problems.count == 2, "\(view.problems)")
        #expect(view.problems.contains { $0.contains(pool) && $0.contains("the shipped messages are used") })
        #expect(view.problems.contains { $0.contains("VIT-D") && $0.contains("refused") })
        #expect(view.settings.messages.userPool == nil)
        #expect(view.settings.schedules.isEmpty)
        #expect(view.goalML == 2100)
    }

    @Test("a stored schedule reaches the bottle's reminders, after the file's")
    func storedSchedulesAreRead() throws {
        let history = try DrinkHistory(path: nil)
        let table = ["id": "VITD", "name": "Vitamin D", "intake": "Vitamin-D", "frequency": "weekly", "first": "2026-11-22T09:00",
                     "enabled": "true", "min_ml": "150"]
        // The row of the table as `schedule add` reads it, and back: the same table.
        let checked = try #require(ScheduleTables(parsing: [table]).schedules.first)
        let schedule = StoredSchedules.schedule(table, checked: checked)
        #expect(schedule == StoredSchedule(id: "VITD", name: "Vitamin D", intake: "Vitamin-D", frequency: "weekly",
                                           first: try LocalDateTime(parsing: "2026-11-22T09:00"), minML: 150))
        try history.schedules.save(schedule)
        #expect(StoredSchedules.tables(in: history.schedules) == [table])
        #expect(BottleView.settings(of: nil, configuration: try configuration(), history: history).settings.schedules.map(\.id) == ["VITD"])
        try history.schedules.remove(id: "VITD")
        #expect(StoredSchedules.tables(in: history.schedules).isEmpty)
        #expect(BottleView.settings(of: nil, configuration: try configuration(), history: history).settings.schedules.isEmpty)
    }

    @Test("a schedule an earlier version kept that could not be moved into the table is a problem the view reports")
    func unreadScheduleIsAProblem() throws {
        let history = try DrinkHistory(path: nil)
        // What the schema step leaves of a document it could not read: the setting, as it was.
        try history.settings.set("schedule.ODD", "not json")
        let view = BottleView.settings(of: Self.kitchen, configuration: try configuration(), history: history)
        #expect(view.problems.count == 1, "\(view.problems)")
        #expect(view.problems.contains { $0.contains("schedule.ODD") && $0.contains("schedule remove ODD") })
        #expect(view.settings.schedules.isEmpty)
    }

    @Test("resolved from the history: the state is against the bottle's own goal, and every bottle has its view")
    func resolvedState() throws {
        let history = try DrinkHistory(path: nil)
        let configuration = try configuration("daily_goal_ml=2600", "bottle.AQ1.daily_goal_ml=1800")
        let view = try BottleView.resolve(Self.kitchen, configuration: configuration, history: history, at: Self.morning)
        let status = try #require(view.status)
        #expect(status.pace.goalML == 1800 && status.pace.dayTotalML == 0)
        #expect(view.rules != nil)
        let none = try BottleView.resolveEach(configuration: configuration, history: history, at: Self.morning)
        #expect(none.count == 1 && none[0].bottle == nil && none[0].goalML == 2600, "a history without bottles: one view of no bottle")
    }
}
