// From the bridge's configuration (file, `config set`, `--set`) to the engine's settings.

import Foundation
import Reminders

extension Configuration {
    /// The hydration settings of REMINDERS.md 2.1 with the engine-wide switch and time zone.
    public func hydrationSettings(bottleGoal: Int? = nil) -> HydrationSettings {
        let defaults = HydrationSettings(timeZone: timeZone)
        return HydrationSettings(
            timeZone: timeZone,
            goalML: goalML(bottleGoal: bottleGoal),
            enabled: bool("reminders.enabled"),
            dailyLimit: bool("reminders.daily_limit"),
            backOnTrack: bool("reminders.back_on_track"),
            activeStartMinute: value("reminders.active_start").flatMap(SettingKey.minutesOfDay) ?? defaults.activeStartMinute,
            activeEndMinute: value("reminders.active_end").flatMap(SettingKey.minutesOfDay) ?? defaults.activeEndMinute,
            minDeficitML: integer("reminders.min_deficit_ml") ?? defaults.minDeficitML,
            resetHour: integer("reminders.reset_hour") ?? defaults.resetHour,
            notificationsEnabled: bool("notifications.enabled"))
    }
}
