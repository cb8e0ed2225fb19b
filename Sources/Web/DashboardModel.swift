// What the dashboard shows, gathered once per request from the history: one panel per bottle
// (docs/design.md 6), each from that bottle's own view (`BottleView`): its day against its goal and
// the pace line, its reminders today and its daily limit, its level and battery, its last sync,
// today's drinks, its days, its commands waiting for the next connection. Nothing of one panel
// comes from another bottle: a control shown in a panel acts on that panel's bottle alone.

import AquavateProtocol
import Foundation
import History
import Reminders
import Reminding
import Settings
import Timekeeping

struct BottlePanel: Sendable {
    /// The history's key of the bottle; nil for the panel of a history without bottles.
    var id: String?
    var title: String
    /// Its settings and state as every surface resolves them (`BottleView`).
    var view: BottleView
    var goalML: Int { view.goalML }
    /// Its person's pace window and goal (the day curve's pace line).
    var hydration: HydrationSettings { view.hydration }
    var pace: Pace
    var levelML: Int?
    var battery: Int?
    var lastSync: WallInstant?
    /// Records the bottle said were unsynced at its last connection.
    var unsynced: Int? = nil
    /// Today's drinks, deleted ones included (shown struck through, without a delete button).
    var drinks: [StoredDrink]
    /// The last 365 local days, oldest first, every day present (0 where nothing was drunk).
    var days: [DayTotal]
    var pending: [StoredCommand]
    /// Days in a row up to yesterday (and today once met) with the goal reached.
    var goalStreak: Int
    /// Records of the bottle waiting in the quarantine (docs/design.md 3.4).
    var quarantined: Int = 0
    /// The refusal that ended its last syncs; stuck from 3 connections in a row.
    var refusal: SyncRefusal? = nil
    /// Display only: the person the bottle belongs to (`bottle.<ID>.owner`), who names the panel.
    var owner: String? = nil
    /// Display only: what the bottle calls itself (its advertised name, else its serial).
    var bottleName: String? = nil
    /// Display only: the minute of today the next pace reminder is due if nothing is drunk, and
    /// why there is none otherwise.
    var nextReminder: NextReminder = .notComputed

    /// Reminders delivered to this person today, counted by their own engine.
    var remindersToday: Int { view.status?.remindersSentToday ?? 0 }
    /// Whether this person's reminders stop at 12 a day: their own setting, else the global.
    var dailyLimit: Bool { view.dailyLimit }
    var ritualStreak: Int { view.rules?.ritualStreak ?? 0 }
    /// Display only: the person's colour, an index into `DashboardStyle.personColours`, fixed by
    /// the bottle's key so that it does not move when a person's need or name does.
    var colour: Int = 0

    /// Who the panel is about: the person (`owner`), else the bottle's own name.
    var person: String { owner ?? title }
    /// No drink from this bottle yet: a person to tell to sync it, not one behind.
    var isNew: Bool { drinks.isEmpty && days.allSatisfy { $0.totalML == 0 } }
}

struct DashboardModel: Sendable {
    static let chartDays = 365

    var now: WallInstant
    var today: LocalDay
    var minuteOfDay: Int
    var timeZone: TimeZone
    var language: WebLanguage
    var hydration: HydrationSettings
    var panels: [BottlePanel]
    /// Display only: what the page's live updates compare (PageVersion).
    var version: String = ""
    /// A person's delete can be undone: not when the bridge is in a household, whose members keep
    /// a delete they received for good (so an undo here would never reach them).
    var undoable: Bool = true

    static func make(_ context: WebContext) throws -> DashboardModel {
        let configuration = try context.configuration()
        let now = context.clock.now
        let timeZone = configuration.timeZone
        let wall = LocalClock(timeZone: timeZone).wallClockUncached(at: now)
        let history = context.history
        // The bottles, their waiting commands and what their settings share: read once for the page.
        let all = try BottleViews(configuration: configuration, history: history)
        let known = all.bottles
        let views = try all.resolveEach(at: now)
        // The view of no bottle, for a history without bottle rows (every drink counts).
        let unbottled = views[0]
        let bottles = known.sorted { ($0.name ?? $0.id, $0.id) < ($1.name ?? $1.id, $1.id) }
        let first = wall.day - (chartDays - 1)
        let dayStart = wall.day.interval(in: timeZone).start
        let keys: [BottleRecord?] = bottles.isEmpty ? [nil] : bottles
        let byBottle = bottles.isEmpty ? [:] : try history.drinks.dayTotalsByBottle(timeZone: timeZone, days: first...wall.day)
        // Today's drinks of every bottle in one read through the timestamp index (filtering by
        // bottle in SQL lets SQLite walk the bottle's whole key index instead).
        let dayEnd = wall.day.interval(in: timeZone).end
        let todays = Dictionary(grouping: try history.drinks.storedDrinks(from: dayStart, to: dayEnd).filter { $0.amountML > 0 }, by: \.bottle)
        let quarantined = try history.drinks.quarantinedCounts()
        // Colours by the bottles' keys in order: a person keeps theirs whatever the page's order.
        let colours = Dictionary(uniqueKeysWithValues: known.map(\.id).sorted().enumerated().map { ($0.element, $0.offset % DashboardStyle.personColours.count) })
        let panels = try keys.map { bottle -> BottlePanel in
            let view = views.first { $0.id == bottle?.id } ?? unbottled
            let hydration = view.hydration
            let totals = try bottle.map { byBottle[$0.id] ?? [] } ?? history.drinks.dayTotals(timeZone: timeZone, days: first...wall.day)
            let days = dense(totals, from: first, to: wall.day)
            let todayML = days.last?.totalML ?? 0
            let owner = bottle == nil ? nil : view.owner
            let bottleName = bottle.map { $0.name ?? $0.serial ?? $0.id }
            // Each bottle's own count, from its own engine.
            let next = NextReminder(minuteOfDay: wall.minuteOfDay, dayTotalML: todayML, settings: hydration,
                                    remindersSent: view.status?.remindersSentToday ?? 0)
            return BottlePanel(
                id: bottle?.id, title: bottle.map { $0.name ?? $0.serial ?? $0.id } ?? "Aquavate",
                view: view,
                // The pace as `status` and the reminders compute it (the same day, goal and window).
                pace: view.status?.pace ?? Pace(minuteOfDay: wall.minuteOfDay, dayTotalML: todayML, settings: hydration),
                levelML: bottle?.state?.bottleLevelML, battery: bottle?.state?.batteryPercent ?? bottle?.battery,
                lastSync: bottle?.lastSync, unsynced: bottle?.state?.unsyncedCount,
                drinks: bottle.map { todays[$0.id] ?? [] } ?? todays.values.flatMap { $0 }.sorted { $0.timestamp < $1.timestamp },
                days: days,
                pending: view.pendingCommands,
                goalStreak: streak(days, goal: hydration.goalML),
                quarantined: bottle.map { quarantined[$0.id] ?? 0 } ?? 0,
                refusal: bottle?.refusal,
                owner: owner, bottleName: bottleName, nextReminder: next, colour: bottle.flatMap { colours[$0.id] } ?? 0)
        }
        return DashboardModel(now: now, today: wall.day, minuteOfDay: wall.minuteOfDay, timeZone: timeZone,
                              language: context.language(configuration),
                              hydration: configuration.hydrationSettings(), panels: panels,
                              version: try PageVersion.make(context, configuration: configuration, at: now, views: all),
                              undoable: configuration[Setting.householdKey] == nil)
    }

    /// Every day of `from...to`, with zero where the history has none.
    static func dense(_ totals: [DayTotal], from: LocalDay, to: LocalDay) -> [DayTotal] {
        var byDay: [LocalDay: DayTotal] = [:]
        for total in totals { byDay[total.date] = total }
        return (0...(to.daysSince1970 - from.daysSince1970)).map { offset in
            let day = from + offset
            return byDay[day] ?? DayTotal(date: day, totalML: 0, drinks: 0)
        }
    }

    /// Consecutive days meeting the goal, ending today if today is met, else yesterday.
    static func streak(_ days: [DayTotal], goal: Int) -> Int {
        var streak = 0
        var index = days.count - 1
        if index >= 0, days[index].totalML < goal { index -= 1 }
        while index >= 0, days[index].totalML >= goal {
            streak += 1
            index -= 1
        }
        return streak
    }
}
