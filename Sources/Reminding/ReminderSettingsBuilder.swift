// From the bridge's configuration (file, `config set`, `--set`) to the engine's settings.

import Foundation
import Reminders
import Settings

extension Configuration {
    /// The hydration settings of docs/reminders.md 2.1 with the engine-wide switch and time zone.
    package func hydrationSettings(bottleGoal: Int? = nil) -> HydrationSettings {
        HydrationSettings(
            timeZone: timeZone,
            goalML: dailyGoalML(bottleGoal: bottleGoal),
            enabled: self[Setting.remindersEnabled],
            dailyLimit: self[Setting.dailyLimit],
            backOnTrack: self[Setting.backOnTrack],
            activeStartMinute: self[Setting.activeStart].minuteOfDay,
            activeEndMinute: self[Setting.activeEnd].minuteOfDay,
            minDeficitML: self[Setting.minDeficitML],
            resetHour: self[Setting.resetHour],
            notificationsEnabled: self[Setting.notificationsEnabled])
    }

    /// Every rule's settings (docs/reminders.md 2–6), and one line per problem that left something
    /// out (a refused schedule table, an unreadable pool file). Nothing here stops the bridge.
    ///
    /// - Parameters:
    ///   - personReachable: whether a sink reaches a person (docs/reminders.md 1): rules that
    ///     schedule ahead schedule nothing without one.
    ///   - storedSchedules: schedules added with `aquavate-bridge schedule add`, after the file's.
    package func reminderSettings(bottleGoal: Int? = nil, personReachable: Bool,
                                 storedSchedules: [[String: String]] = []) -> (ReminderSettings, [String]) {
        reminderSettings(bottleGoal: bottleGoal, personReachable: personReachable,
                         shared: SharedRuleInputs(configuration: self, storedSchedules: storedSchedules))
    }

    /// Every rule's settings with what the house's rules read from outside the configuration
    /// already read (`shared`: once for every bottle of a request).
    package func reminderSettings(bottleGoal: Int? = nil, personReachable: Bool, shared: SharedRuleInputs) -> (ReminderSettings, [String]) {
        var problems: [String] = []
        var settings = ReminderSettings(hydration: hydrationSettings(bottleGoal: bottleGoal))
        settings.personReachable = personReachable
        // Every value was checked by the rules themselves when it was loaded (SettingKey.normalize).
        settings.messages.enabled = self[Setting.messagesEnabled]
        settings.messages.locale = self[Setting.messagesLocale]
        settings.deadline.enabled = self[Setting.deadlineEnabled]
        settings.deadline.period = self[Setting.deadlinePeriod]
        settings.deadline.hoursBefore = self[Setting.deadlineHoursBefore]
        settings.deadline.weeklyGoalML = self[Setting.weeklyGoalML]
        settings.rituals.enabled = self[Setting.ritualsEnabled]
        settings.rituals.morning = self[Setting.ritualsMorning]
        settings.rituals.evening = self[Setting.ritualsEvening]
        settings.rituals.terrain = self[Setting.ritualsTerrain]
        if let nickname = self[Setting.ritualsNickname] { settings.rituals.nickname = nickname }
        switch shared.userPool {
        case .success(let messages)?: settings.messages.userPool = messages
        case .failure(let error)?: problems.append(error.description + "; the shipped messages are used")
        case nil: break
        }
        let tables = ScheduleTables(parsing: scheduleTables + shared.storedSchedules)
        settings.schedules = tables.schedules
        problems += tables.errors.map(\.description) + tables.warnings + shared.unreadSchedules
        return (settings, problems)
    }

    /// The lines of the user's message pool file, relative to the config file's folder.
    func readPool(_ path: String) throws(PoolFileError) -> [String] {
        let full = path.hasPrefix("/") ? path : ((baseDirectory ?? FileManager.default.currentDirectoryPath) + "/" + path)
        guard let data = FileManager.default.contents(atPath: full), let text = String(data: data, encoding: .utf8) else {
            throw PoolFileError(path: full, problem: "cannot be read as UTF-8 text")
        }
        let messages = MessagePool.messages(fromLines: text.components(separatedBy: .newlines))
        guard !messages.isEmpty else { throw PoolFileError(path: full, problem: "has no message (one per line)") }
        return messages
    }
}

struct PoolFileError: Error, CustomStringConvertible {
    var path: String
    var problem: String
    var description: String { "messages.pool \(path) \(problem)" }
}
