// The simulated day `aquavate-bridge demo` tells: fixed local times on a fixed date, so every run
// prints the same story (docs/reminders.md 2 and 3 for what the bridge does at each step).

import Foundation
import Settings
import Timekeeping

enum DemoDay {
    /// The day the story happens on (a Friday without a DST change in any zone).
    static let date = LocalDay(year: 2026, month: 11, day: 20)!

    /// The settings the story assumes, whatever the configuration says (the time zone stays the
    /// person's): the default pace window and limits, a goal of 2500 ml, the other rules off.
    static let settings: [String] = [
        (Setting.dailyGoalML.entry, "2500"), (Setting.notificationsEnabled.entry, "true"), (Setting.remindersEnabled.entry, "true"),
        (Setting.dailyLimit.entry, "true"), (Setting.backOnTrack.entry, "true"), (Setting.activeStart.entry, "07:00"),
        (Setting.activeEnd.entry, "22:00"), (Setting.minDeficitML.entry, "150"), (Setting.resetHour.entry, "4"),
        (Setting.messagesEnabled.entry, "false"), (Setting.deadlineEnabled.entry, "false"), (Setting.ritualsEnabled.entry, "false"),
    ].map { "\($0.0.name)=\($0.1)" }

    /// A daily intake reminder at 12:30 (docs/reminders.md 3), the story's scheduled reminder.
    static var schedule: [String: String] {
        ["id": "VITD", "name": "Vitamin D", "intake": "vitamin-d", "frequency": "daily", "first": "\(date)T12:30"]
    }

    /// The bottle's stored drinks end the evening before, at 21:00: yesterday, never synced.
    static let backlogEnd = (hour: -3, minute: 0)

    /// One moment of the day.
    enum Step {
        /// The bridge syncs the bottle (a live connection to the simulator).
        case sync(String)
        /// The person drinks from the bottle; the bridge hears of it at the next sync.
        case drink(Int)
    }

    /// The story, in order, each at a local time of the day (hour, minute).
    static let steps: [(hour: Int, minute: Int, step: Step)] = [
        (7, 30, .sync("the bottle is in reach: the bridge syncs yesterday's drinks")),
        // No drink all morning: the person falls behind pace (reminders at 07:54 and 10:00).
        (11, 50, .drink(500)),
        (12, 0, .drink(400)),
        (12, 0, .sync("the bottle wakes up: the bridge syncs the drinks, back on pace")),
        // 12:30, the Vitamin D reminder; the afternoon's drinks wait in the bottle.
        (14, 0, .drink(450)),
        (15, 30, .drink(450)),
        (17, 0, .drink(400)),
        (18, 30, .drink(350)),
        (18, 30, .sync("the bottle is back in reach: the bridge syncs the afternoon's drinks")),
    ]

    /// The instant of `hour:minute` on the day in `timeZone` (a negative hour: the day before).
    static func instant(hour: Int, minute: Int, in timeZone: TimeZone) -> WallInstant {
        date.interval(in: timeZone).start + .seconds(hour * 3600 + minute * 60)
    }
}
